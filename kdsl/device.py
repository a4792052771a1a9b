"""Devices: which GPU the arrays live on. One :class:`Device` (and one runtime Manager) per physical device,
created lazily on first use.

The default device is the first real GPU that :func:`kdsl.runtime.list_devices` reports (discrete before
integrated before virtual), else the CPU driver (lavapipe). ``KDSL_DEVICE=<index>`` overrides the choice.
:func:`devices` lists them all; ``with kd.device(i):`` makes device ``i`` current in this thread.

``KDSL_VIRTUAL_DEVICES=<n>`` lists each physical device ``n`` times: every copy is its own logical device (its
own VkDevice, memory, queues, caches), so multi-device code can be tested on a machine with one GPU (as JAX's
``xla_force_host_platform_device_count``). ``kd.device(0)`` is always the same object; ``kd.device(1)`` is
another logical device, on the second physical device or (with the variable set) a copy of the first.

Example:
    >>> import kdsl as kd
    >>> d = kd.device()           # the current device
    >>> with kd.Device(d.index):  # arrays made inside live on that device
    ...     x = kd.zeros(3)
    >>> x.device is d
    True
"""

from __future__ import annotations

import os
import threading
from typing import Any

from kdsl import dtype as dt
from kdsl.runtime.collection import collection_paused

_PREFERENCE = {"discrete_gpu": 0, "integrated_gpu": 1, "virtual_gpu": 2, "cpu": 3, "other": 4}
_devices: dict[int, Device] = {}
_lock = threading.RLock()
_local = threading.local()  # each thread's stack of ``with Device(...)`` blocks


def _stack() -> list[Device]:
    stack: list[Device] | None = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack

_infos: list[dict[str, Any]] | None = None  # list_devices(), enumerated once per process
_default: Device | None = None
_forked: list[object] = []  # a parent's devices, kept (never destroyed) in a forked child


def runtime_module() -> Any:
    """The ``kdsl.runtime`` package (the Vulkan binding), imported on first use."""
    import kdsl.runtime as rt  # imported late: building graphs must not need Vulkan

    return rt


def _device_infos() -> list[dict[str, Any]]:
    """Every logical device's properties (``physical_index``: its Vulkan device); the physical devices are
    enumerated once (enumerating builds a Vulkan instance), ``KDSL_VIRTUAL_DEVICES`` is read on every call."""
    global _infos
    if _infos is None:
        with _lock:
            if _infos is None:
                _infos = [dict(info, physical_index=k) for k, info in enumerate(runtime_module().list_devices())]
    return _infos * _copies()


def _copies() -> int:
    raw = os.environ.get("KDSL_VIRTUAL_DEVICES", "").strip()
    if not raw:
        return 1
    try:
        n = int(raw)
    except ValueError:
        n = 0
    if n < 1:
        raise ValueError(f"KDSL_VIRTUAL_DEVICES={raw!r}: set it to how many logical devices each physical device "
                         "should appear as (a whole number >= 1), or unset it")
    return n


def _positive_env(name: str) -> int:
    """A whole number > 0 from environment variable ``name``, or 0 when it is unset."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return 0
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"{name}={raw!r}: set it to a whole number >= 1, or unset it")
    return int(raw)


def queue_family(info: dict) -> int:
    """The queue family kdsl's arrays submit to: the first with compute, as Kompute's ``kp.Manager()`` picks;
    ``KDSL_QUEUE_FAMILY=<index>`` overrides. (On an H200 a compute-only family's pre-recorded no-op submission
    returned sooner, 12.7-14.1 us against 16.7-17.0, but with PyTorch in the same process its tiny round trips
    took twice as long: ``benchmarks/RESULTS.md``, session of 2026-12-03 from 07:20.)

    >>> queue_family({"queue_families": [{"compute": False}, {"compute": True}, {"compute": True}]})
    1
    """
    compute = [i for i, f in enumerate(info["queue_families"]) if f["compute"]]
    raw = os.environ.get("KDSL_QUEUE_FAMILY", "").strip()
    if raw:
        if not raw.isdigit() or int(raw) not in compute:
            raise ValueError(f"KDSL_QUEUE_FAMILY={raw!r}: set it to a queue family with compute, one of "
                             f"{compute}, or unset it")
        return int(raw)
    if not compute:
        raise RuntimeError("this Vulkan device has no compute queue family")
    return compute[0]


def devices() -> list[Device]:
    """Every device kdsl can use, in index order: ``kd.devices()[i] is kd.device(i)``.

    Example:
        >>> import kdsl as kd
        >>> kd.device() in kd.devices()
        True
    """
    return [Device(i) for i in range(len(_device_infos()))]


def default_index() -> int:
    """Index of the device kdsl uses when none is chosen."""
    infos = _device_infos()
    env = os.environ.get("KDSL_DEVICE", "").strip()
    if env:
        names = [f"{k}: {i['device_name']}" for k, i in enumerate(infos)]
        try:
            return int(env)
        except ValueError:
            raise ValueError(f"KDSL_DEVICE={env!r} is not a device index; set it to one of {names} "
                             "(or unset it for the default)") from None
    if not infos:
        raise RuntimeError("no Vulkan device found; install a Vulkan driver (e.g. apt install mesa-vulkan-drivers)")
    return min(range(len(infos)), key=lambda i: (_PREFERENCE.get(infos[i]["device_type"], 5), i))


def _after_fork_in_child() -> None:
    """A forked child must not use its parent's Vulkan objects: forget every device (keeping the objects
    alive, so nothing destroys them here) and enumerate afresh on first use. See docs/concurrency.md."""
    global _infos, _default, _lock
    _forked.extend(_devices.values())
    _devices.clear()
    _stack().clear()
    _infos, _default, _lock = None, None, threading.RLock()


os.register_at_fork(after_in_child=_after_fork_in_child)


class Device:
    """A Vulkan device for arrays. ``Device(index)`` returns the one shared object for that index.

    Use it as a context manager to make arrays there, or pass ``device=`` to creation functions.
    """

    def __new__(cls, index: int | str | Device | None = None) -> Device:
        if isinstance(index, Device):
            return index
        infos = _device_infos()
        if index is None:
            index = default_index()
        elif isinstance(index, str):
            names = [i["device_name"] for i in infos]
            match = [k for k, n in enumerate(names) if index.lower() in n.lower()]
            if not match:
                raise ValueError(f"no device named like {index!r}; devices are {names}")
            index = match[0]
        if not 0 <= index < len(infos):
            raise ValueError(f"device index {index} out of range: {len(infos)} device(s) found")
        with _lock:
            dev = _devices.get(index)
            if dev is None:
                dev = super().__new__(cls)
                dev._setup(index, infos[index])
                _devices[index] = dev
        return dev

    def _setup(self, index: int, info: dict) -> None:
        self.index = index
        self.physical_index: int = info.get("physical_index", index)  # the Vulkan device it runs on
        self.info = info
        self.name: str = info["device_name"]
        self.features: set[str] = set(info.get("features", ()))
        self._manager = None
        # Launch shape is a per-device choice: a CPU driver wants few workgroups that loop (measured 2x faster
        # on lavapipe), a GPU wants one invocation per element.
        cpu = info.get("device_type") == "cpu"
        self.max_groups = 512 if cpu else 65535
        # Matmul: shared-memory tiles on GPUs; 4x4 blocks from memory on CPU drivers (2x faster on lavapipe).
        self.matmul_tiles = not cpu
        # Elementwise kernels over contiguous 32-bit data move vec4s per invocation (kdsl.codegen.vector):
        # measured 1.2x faster on lavapipe too. Set to 1 to turn it off.
        self.vector_width = 4
        # Reductions with at least this many outputs give each output one invocation (see schedule.py).
        self.thread_outputs = 1024 if cpu else 65536
        # Long reductions: strided partial results, about one per invocation in flight, on a CPU driver (which
        # pays for every barrier); 0 = workgroup trees over contiguous chunks (GPUs).
        self.partials = 512 * 256 if cpu else 0
        # Workgroups the first pass of a long reduction with few outputs aims for (column sums of a tall matrix,
        # full sums): about one wave of full workgroups on a large GPU (an H200: 132 SMs x 8 resident
        # workgroups of 256); a CPU driver runs a workgroup per core at a time. KDSL_REDUCE_GROUPS overrides.
        self.reduce_groups = _positive_env("KDSL_REDUCE_GROUPS") or (64 if cpu else 1024)
        self.max_push_words = min(32, info.get("max_push_constants_size", 128) // 4)
        # Storage buffers one generated kernel may bind (its output included); the scheduler cuts fusion to
        # stay within it. Vulkan guarantees 4; lavapipe allows 32; NVIDIA reports millions, and a kernel reading
        # more than 64 arrays gains nothing from one launch, so 64 at most.
        self.max_buffers = max(4, min(int(info.get("max_per_stage_storage_buffers", 4)),
                                      int(info.get("max_descriptor_set_storage_buffers", 4)), 64))
        # Cooperative-matrix (tensor-core) matmul: the fragment shapes the device reports, if it has the feature
        # (kdsl.codegen.coopmat picks one per kernel); KDSL_COOPMAT=0 turns it off. Empty on lavapipe.
        off = os.environ.get("KDSL_COOPMAT", "1").strip() == "0"
        self.coopmat_shapes: tuple[dict, ...] = () if off or "cooperative_matrix" not in self.features else \
            tuple(info.get("cooperative_matrix_shapes", ()))
        self.subgroup_size = int(info.get("subgroup_size", 0))
        # CPU drivers: the subgroup-broadcast matmul (kdsl.codegen.matmul_cpu) with subgroups of this many lanes
        # (0: the 4x4 block kernel); it needs subgroupShuffle (the shuffle feature). KDSL_CPU_MATMUL=0: off.
        self.matmul_lanes = self.subgroup_size if cpu and "subgroup_shuffle" in self.features and \
            os.environ.get("KDSL_CPU_MATMUL", "1").strip() != "0" else 0
        # Reductions combine across a workgroup with subgroup operations (kdsl.codegen.reduce_workgroup) when the
        # device has them in compute shaders: the subgroup size it reports (kernels read gl_SubgroupSize
        # themselves; this only bounds loop trips), 0 = a shared-memory tree. GPUs only by default (lavapipe
        # emulates them: softmax rows measured 2-4x slower than with the tree); KDSL_SUBGROUPS=1 / 0 forces.
        wanted = os.environ.get("KDSL_SUBGROUPS", "").strip()
        usable = {"subgroup_arithmetic", "subgroup_shuffle"} <= self.features
        self.reduce_subgroup = self.subgroup_size if usable and wanted != "0" and (wanted == "1" or not cpu) else 0
        self.max_shared_memory = int(info.get("max_shared_memory_size", 16384))
        # Workgroup scans (cumsum, masks) combine across invocations with subgroup arithmetic where the device
        # has it for compute shaders (per dtype: kdsl.codegen.scan_workgroup.subgroup_ok), else through shared
        # memory only. KDSL_SCAN_SUBGROUPS=0 (or setting this to False) forces the shared-memory path.
        self.scan_subgroups = "subgroup_arithmetic" in self.features and \
            os.environ.get("KDSL_SCAN_SUBGROUPS", "1").strip() != "0"
        # Loop iterations one invocation may run, all loops together: lavapipe stops an invocation after ~65 535
        # (llvmpipe's loop limiter) and GPU drivers may have watchdogs, so every device gets the safe value.
        self.loop_budget = 60000
        # SPIR-V float controls the device honours, as float widths: generated kernels ask it to keep signed
        # zeros, inf and NaN, and subnormals, as NumPy does (kdsl.runtime.float_controls). KDSL_FLOAT_CONTROLS=0
        # turns them off (to see what the driver does by default).
        fc = {} if os.environ.get("KDSL_FLOAT_CONTROLS", "1").strip() == "0" else info.get("float_controls", {})
        denorm = tuple(fc.get("denorm_preserve", ()))
        self.float_controls: tuple[tuple[int, ...], tuple[int, ...], str] = (
            tuple(fc.get("signed_zero_inf_nan", ())), denorm, fc.get("denorm_independence", "none"))

    @property
    def manager(self) -> Any:
        """The runtime Manager of this device (created on first use)."""
        if self._manager is None:
            with _lock, collection_paused():
                if self._manager is None:
                    self._manager = runtime_module().Manager(self.physical_index, [queue_family(self.info)])
        return self._manager

    _policy: tuple[int | bool, ...] | None = None  # policy(), once worked out

    def __setattr__(self, name: str, value: Any) -> None:
        # Any change (tests and the cooperative-matrix fallback change the choices) drops the cached policy().
        object.__setattr__(self, name, value)
        if name != "_policy":
            object.__setattr__(self, "_policy", None)

    def policy(self) -> tuple[int | bool, ...]:
        """The per-device choices a kernel plan depends on (part of every plan-cache key). Worked out once per
        change of the device's attributes: it is read on every realisation, and the same tuple object makes the
        plan cache's key comparison an identity check."""
        cached = self._policy
        if cached is None:
            cached = self._policy = self._choices()
        return cached

    def _choices(self) -> tuple[int | bool, ...]:
        return (self.index, self.max_groups, self.thread_outputs, self.partials, self.vector_width,
                self.matmul_tiles, self.max_push_words, self.max_buffers, self.loop_budget, bool(self.coopmat_shapes),
                self.matmul_lanes, self.reduce_subgroup, self.scan_subgroups, self.max_shared_memory,
                self.reduce_groups)

    def supports(self, dtype: Any) -> bool:
        d = dt.as_dtype(dtype)
        return d.feature is None or d.feature in self.features

    def check(self, dtype: dt.DType) -> dt.DType:
        dt.require(dtype, self.features, self.name)
        return dtype

    def __enter__(self) -> Device:
        _stack().append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        stack = _stack()
        if stack:  # (empty after a fork inside the ``with``)
            stack.pop()

    def __repr__(self) -> str:
        return f"Device({self.index}, {self.name!r})"

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        """Pickled by index: it unpickles as the receiving process's device of that index."""
        return Device, (self.index,)


def device(index: int | str | Device | None = None) -> Device:
    """The current device (this thread's innermost ``with Device(...)``, else the default); with an argument,
    that device (a context manager: ``with kd.device(1): x = kd.ones(3)`` makes ``x`` there).

    Example:
        >>> import kdsl as kd
        >>> with kd.device(0) as d:
        ...     kd.device() is d, kd.zeros(2).device is d
        (True, True)
    """
    if index is not None:
        return Device(index)
    stack = _stack()
    if stack:
        return stack[-1]
    global _default, _default_env
    env = _ENV_DATA.get(_DEVICE_KEY) if _ENV_DATA is not None else os.environ.get("KDSL_DEVICE")
    if _default is None or env != _default_env:  # KDSL_DEVICE is read on every call: a change takes effect
        _default, _default_env = Device(None), env
    return _default


# The hot path of ``device()`` reads KDSL_DEVICE from os.environ's underlying dict of encoded names (updated on
# every change), where os.environ.get encodes the name on each call (~1 us), as kdsl.engine.programs does.
_ENV_DATA: dict | None = getattr(os.environ, "_data", None)
try:
    _DEVICE_KEY: Any = os.environ.encodekey("KDSL_DEVICE")
except AttributeError:  # not CPython's os.environ: read it the ordinary way
    _ENV_DATA = None
_default_env: Any = None  # the raw KDSL_DEVICE that ``_default`` was chosen under
