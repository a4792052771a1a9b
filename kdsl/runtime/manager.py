"""Manager: owns a Vulkan device and queues, and makes tensors, images, algorithms and sequences on it.

Example:
    >>> import numpy as np, kdsl.kp as kp
    >>> mgr = kp.Manager()                       # device 0, first compute queue family
    >>> a = mgr.tensor([1, 2, 3])                # float32
    >>> b = mgr.tensor_t(np.arange(3, dtype=np.int32))
    >>> seq = mgr.sequence()
    >>> mgr.destroy()                            # frees everything it made (also on garbage collection)
    >>> a.is_init(), seq.is_init()
    (False, False)
"""

from __future__ import annotations

import atexit
import threading
import weakref

import numpy as np

from . import interrupts, lifetime
from .algorithm import Algorithm
from .context import Context
from .image import Image
from .instance import list_devices
from .lifetime import Destroyable, after_fork_in_child
from .memory import Memory, Tensor
from .sequence import Sequence
from .types import MemoryTypes, check_dtype


def _memory_type(memory_type, tensor_type) -> MemoryTypes:
    value = tensor_type if tensor_type is not None else memory_type
    try:
        return MemoryTypes(value)
    except ValueError as exc:
        raise RuntimeError(f"unknown memory type {value!r}; use kp.MemoryTypes.device/host/storage/"
                           "deviceAndHost") from exc


class Manager(Destroyable):
    """The entry point of the runtime (Kompute's ``kp.Manager``).

    ``Manager()``, ``Manager(device_index)`` or ``Manager(device, family_queue_indices, desired_extensions)``:
    with no family list, one queue of the first family with compute; otherwise one queue per listed family
    index (a family listed twice gives its queues 0 and 1). Sequences pick a queue by position.

    ``pipeline_cache_size`` (a kdsl addition) bounds this Manager's LRU of idle pipelines (default:
    :func:`kdsl.runtime.set_pipeline_cache_size`, else ``KDSL_PIPELINE_CACHE``, else 64).

    A Manager and the tensors, images and algorithms it makes may be shared between threads; a Sequence is
    used by one thread at a time (see docs/runtime.md, "Threads and fork").
    """

    def __init__(self, device: int = 0, family_queue_indices: list[int] | None = None,
                 desired_extensions: list[str] | None = None, *, pipeline_cache_size: int | None = None):
        if isinstance(device, bool) or not isinstance(device, (int, np.integer)):
            raise TypeError(f"device must be a device index (int), not {type(device).__name__}")
        for name, value in (("family_queue_indices", family_queue_indices),
                            ("desired_extensions", desired_extensions)):
            if value is not None and not isinstance(value, (list, tuple)):
                raise TypeError(f"{name} must be a list, not {type(value).__name__}")
        # Ctrl-C deferred: between the device's creation and this Manager holding it, it would leak the device
        with interrupts.deferred():
            ctx = Context.create(int(device), list(family_queue_indices or []), list(desired_extensions or []),
                                 pipeline_cache_size)
            self._init(ctx)

    @classmethod
    def from_handles(cls, instance, physical_device, device, queues: list, queue_family_indices: list[int],
                     features: set[str] | frozenset = frozenset()) -> Manager:
        """Bring your own Vulkan: a Manager on handles the caller created and owns (it never destroys them).

        ``queues[i]`` is a VkQueue of family ``queue_family_indices[i]``; ``features`` names the kdsl features
        (see ``list_devices()[i]["features"]``) the caller enabled on ``device``.
        """
        if len(queues) != len(queue_family_indices) or not queues:
            raise RuntimeError("from_handles needs one queue family index per queue, and at least one queue")
        ctx = Context(None, physical_device, device, list(queues), list(queue_family_indices), set(features),
                      owned=False, extensions=[])
        mgr = cls.__new__(cls)
        mgr._init(ctx)
        return mgr

    def _init(self, ctx: Context) -> None:
        self._lock = threading.RLock()  # guards _objects and _destroyed: any thread may make or destroy objects
        self._ctx = ctx
        self._objects: dict[str, weakref.WeakSet] = {k: weakref.WeakSet() for k in ("seq", "algo", "mem")}
        self._destroyed = False
        with _managers_lock:
            _managers.add(self)

    # ----- memory -----
    def _check(self) -> None:
        self._ctx.check_usable()
        if self._destroyed:
            raise lifetime.destroyed_error("this Manager was destroyed; create a new kp.Manager()")

    def tensor(self, data, memory_type=MemoryTypes.device, tensor_type=None) -> Tensor:
        """A float32 tensor from anything array-like (flattened)."""
        if data is None:  # np.asarray(None, float32) is [nan]: never what was meant
            raise TypeError("tensor data must be numbers, got None; give a list or a NumPy array "
                            "(mgr.tensor_empty(n) makes an uninitialised tensor)")
        try:
            arr = np.asarray(data, dtype=np.float32).reshape(-1)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"tensor data must be numbers, got {type(data).__name__}") from exc
        return self._tensor(arr, _memory_type(memory_type, tensor_type))

    def tensor_t(self, data: np.ndarray, memory_type=MemoryTypes.device, tensor_type=None) -> Tensor:
        """A tensor keeping the NumPy array's dtype (float32/64, int8/16/32/64, uint8/16/32/64, float16, bool)."""
        if not isinstance(data, np.ndarray):
            raise TypeError(f"tensor_t takes a NumPy array, not {type(data).__name__}; use np.array(...) "
                            "or mgr.tensor(...) for float32")
        check_dtype(data.dtype, self._ctx.features)
        return self._tensor(data.reshape(-1), _memory_type(memory_type, tensor_type))

    @interrupts.deferring  # (Ctrl-C between the creation of a Vulkan object and its keeping leaks it)
    def tensor_empty(self, count: int, dtype=np.float32, memory_type=MemoryTypes.storage) -> Tensor:
        """An uninitialised tensor of ``count`` elements (a kdsl addition: no upload, for outputs)."""
        self._check()
        dt = check_dtype(dtype, self._ctx.features)
        if not isinstance(count, (int, np.integer)) or count <= 0:
            raise RuntimeError(f"zero-sized memory object: tensor_empty needs count >= 1, got {count!r}")
        return self._register("mem", Tensor(self._ctx, None, int(count), dt, _memory_type(memory_type, None)))

    @interrupts.deferring
    def _tensor(self, arr: np.ndarray, memory_type: MemoryTypes) -> Tensor:
        self._check()
        if arr.size == 0:
            raise RuntimeError("zero-sized memory object: tensor data is empty; give at least one element")
        return self._register("mem", Tensor(self._ctx, arr, arr.size, arr.dtype, memory_type))

    def image(self, data, width: int, height: int, num_channels: int, memory_type=MemoryTypes.device) -> Image:
        """A float32 2-D storage image of ``num_channels`` (1, 2 or 4) channels from array-like ``data``."""
        arr = np.asarray(data, dtype=np.float32).reshape(-1)
        return self._image(arr, width, height, num_channels, memory_type)

    def image_t(self, data: np.ndarray, width: int, height: int, num_channels: int,
                memory_type=MemoryTypes.device) -> Image:
        """A 2-D storage image keeping the array's dtype (float32, int32, uint32, int16, uint16, int8, uint8)."""
        if not isinstance(data, np.ndarray):
            raise TypeError(f"image_t takes a NumPy array, not {type(data).__name__}")
        return self._image(data.reshape(-1), width, height, num_channels, memory_type)

    @interrupts.deferring
    def _image(self, arr, width, height, channels, memory_type) -> Image:
        self._check()
        if arr.size == 0:
            raise RuntimeError("zero-sized memory object: image data is empty")
        if arr.size != width * height * channels:
            raise RuntimeError(f"image data has {arr.size} elements but {width}x{height}x{channels} needs "
                               f"{width * height * channels}")
        img = Image(self._ctx, arr, int(width), int(height), int(channels), arr.dtype,
                    _memory_type(memory_type, None))
        return self._register("mem", img)

    # ----- algorithms and sequences -----
    @interrupts.deferring
    def algorithm(self, mem_objects=None, spirv=b"", workgroup=None, spec_consts=None, push_consts=None
                  ) -> Algorithm:
        """A compute pipeline: binding i is ``mem_objects[i]``; ``workgroup[0] == 0`` means its size."""
        self._check()
        algo = Algorithm(self._ctx, list(mem_objects or []) if isinstance(mem_objects, (list, tuple))
                         else mem_objects, spirv, workgroup, spec_consts, push_consts)
        return self._register("algo", algo)

    @interrupts.deferring
    def sequence(self, queue_index: int = 0, total_timestamps: int = 0) -> Sequence:
        """A new Sequence on queue ``queue_index`` (with a timestamp pool when ``total_timestamps > 0``)."""
        self._check()
        return self._register("seq", Sequence(self._ctx, queue_index, total_timestamps))

    def _register(self, kind: str, obj):
        with self._lock:
            if self._destroyed:  # another thread destroyed the Manager while this object was being made
                obj.destroy()
                raise lifetime.destroyed_error("this Manager was destroyed by another thread; create a new "
                                               "kp.Manager()")
            self._objects[kind].add(obj)
        return obj

    # ----- information -----
    def list_devices(self) -> list[dict]:
        """Every Vulkan device on the machine (see :func:`kdsl.runtime.list_devices`)."""
        return list_devices()

    def get_device_properties(self) -> dict:
        """Name, type, limits and enabled features of this Manager's device."""
        self._check()
        return dict(self._ctx.info)

    @property
    def features(self) -> set[str]:
        """kdsl feature names enabled on this device (``float64``, ``int64``, ``storage_buffer_8bit``, ...)."""
        return set(self._ctx.features)

    def clear_pipeline_cache(self) -> None:
        """Destroy idle pipelines kept for reuse (a kdsl addition; destroy() does it too)."""
        self._check()
        self._ctx.pipelines.clear()

    def set_pipeline_cache_size(self, n: int | None) -> None:
        """Bound this Manager's LRU of idle pipelines (None: follow the process-wide size); a kdsl addition."""
        self._check()
        self._ctx.pipelines.set_size(n)

    # ----- lifetime -----
    def destroy(self) -> None:
        """Free sequences, then algorithms, then memory, then the device (idempotent).

        In a process forked after this Manager was made, it only forgets them: the objects belong to the parent.
        """
        lock = getattr(self, "_lock", None)
        if lock is None:  # __init__ failed before _init
            return
        with lock:
            if self._destroyed:
                return
            self._destroyed = True
            objects = {kind: list(self._objects[kind]) for kind in ("seq", "algo", "mem")}
        for kind in ("seq", "algo", "mem"):
            for obj in objects[kind]:
                obj.destroy()
        self._ctx.close()

    def renew_locks(self) -> None:
        """New locks for this Manager and its sequences and algorithms (in a forked child: see
        :func:`_forget_lock_in_child`)."""
        self._lock = threading.RLock()
        for kind in ("seq", "algo"):
            for obj in list(self._objects[kind]):
                obj.renew_locks()

    def __enter__(self) -> Manager:
        return self

    def __exit__(self, *exc) -> None:
        self.destroy()

    def __repr__(self) -> str:
        if self._destroyed:
            return "<kp.Manager destroyed>"
        return f"<kp.Manager device={self._ctx.info['device_name']!r} queues={len(self._ctx.queues)}>"


_managers: weakref.WeakSet[Manager] = weakref.WeakSet()
_managers_lock = threading.Lock()


@atexit.register
def _destroy_all() -> None:
    """At exit, free devices in order while the interpreter still works (not in random __del__ order).

    In a forked child the inherited Managers are foreign: their destroy() only forgets them (no fence waits).
    A daemon thread still computing then stops quietly at its next use of them (lifetime.mark_exiting).
    """
    lifetime.mark_exiting()
    with _managers_lock:
        managers = list(_managers)
    for mgr in managers:
        mgr.destroy()


def _forget_lock_in_child() -> None:
    """Every lock a parent thread may have held at fork time is replaced (lifetime._in_child): the module's, and
    those of each inherited Manager and of its sequences and algorithms, which the child's exit hook
    (:func:`_destroy_all`) and garbage collection take to forget them."""
    global _managers_lock
    _managers_lock = threading.Lock()
    for mgr in list(_managers):
        mgr.renew_locks()


after_fork_in_child(_forget_lock_in_child)


__all__ = ["Manager", "Memory"]
