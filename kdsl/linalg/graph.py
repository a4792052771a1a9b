"""Recorded factorisations: a blocked factorisation is hundreds to thousands of kernel launches whose kernels,
push constants and workgroup counts depend only on the shape, so for each shape they are recorded once into
one command buffer over work arrays the recording owns (a :class:`Plan`), and every later call of that shape
copies its input in, submits that command buffer once (no host wait, no Python work between launches), and
copies the results out. Without this each launch is one ``kd.raw_kernel`` call: arguments checked, push
constants packed, one submit and one wait on the host.

Plans are cached per shape, dtype, device and :func:`config` (the module constants tests change), a few at a
time; each has a lock, so threads take turns on one plan. Under ``kd.profile()`` a plan runs its launches one
by one through ``kd.raw_kernel`` instead, so the profile still counts and times every launch.

Example:
    >>> import kdsl as kd
    >>> from kdsl.linalg import kernels as K
    >>> x = kd.zeros((4,), dtype=kd.float32)
    >>> fill = K.compiled("doc_fill", "layout(set = 0, binding = 0) buffer X_ { T x[]; };\\n"
    ...     "layout(push_constant) uniform P { REAL v; };\\n"
    ...     "void main() { x[gl_LocalInvocationID.x] = v; }\\n", "float32", 4)
    >>> plan = Plan.record({"x": x}, lambda arrays: fill(arrays["x"], 2.0, groups=(1, 1, 1)))
    >>> with plan.lock:
    ...     plan.run()
    ...     plan.arrays["x"].tolist()
    [2.0, 2.0, 2.0, 2.0]
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import kdsl as kd
import kdsl.kp as kp

MAX_PLANS = 8  # recorded shapes kept (each holds its work arrays: a 4096 QR's are about 150 MB)

_local = threading.local()
_cache: OrderedDict[Hashable, Plan] = OrderedDict()
_cache_lock = threading.RLock()  # re-entrant: a collection inside may run a finaliser that solves


def _new_lock_after_fork() -> None:
    """A parent thread may have held the lock at fork time: the child would wait for it forever. (The parent's
    plans stay cached but are never hit in the child: their key names the parent's Device object.)"""
    global _cache_lock
    _cache_lock = threading.RLock()


os.register_at_fork(after_in_child=_new_lock_after_fork)


class Launch:
    """One recorded kernel launch: the kernel, its arrays (binding order), push-constant words, workgroups, and
    whether a barrier precedes it (False: see :func:`alongside`)."""

    __slots__ = ("kernel", "arrays", "values", "groups", "barrier")

    def __init__(self, kernel: kd.RawKernel, arrays: Sequence[kd.Array], values: Sequence, groups,
                 barrier: bool = True):
        self.kernel, self.arrays, self.values, self.groups = kernel, tuple(arrays), tuple(values), tuple(groups)
        self.barrier = barrier


def launch(kernel: kd.RawKernel, args: Sequence, groups) -> None:
    """Run ``kernel(*args, groups=groups)`` now, or append it to the recording in progress on this thread."""
    launches = getattr(_local, "launches", None)
    if launches is None:
        kernel(*args, groups=groups)
        return
    nb = len(kernel.info.bindings)
    barrier = not getattr(_local, "alongside", False) or not launches
    _local.alongside = False
    launches.append(Launch(kernel, args[:nb], args[nb:], groups, barrier))


@contextmanager
def alongside() -> Iterator[None]:
    """In a recording, the first launch made inside the block follows the one before it with no barrier, so the
    GPU may run both at once (later launches in the block wait as usual). The caller guarantees the two touch
    disjoint memory: e.g. a one-workgroup factorisation of the next diagonal block next to the large update of
    the rest of the trailing matrix, which would otherwise leave the GPU idle but for one core. Outside a
    recording, launches run one by one anyway."""
    _local.alongside = True
    try:
        yield
    finally:
        _local.alongside = False


class Plan:
    """Work arrays and the launches recorded over them, replayed as one submit per :meth:`run`. Hold
    :attr:`lock` from filling the inputs to reading the outputs (they are overwritten by the next run)."""

    def __init__(self, arrays: dict[str, kd.Array], launches: list[Launch]):
        self.arrays, self.launches = arrays, launches
        self.lock = threading.Lock()
        self._seq: Any = None
        self._algorithms: list[Any] = []
        self._keys: dict[tuple, Any] = {}

    @classmethod
    def record(cls, arrays: dict[str, kd.Array], body: Callable[[dict[str, kd.Array]], None]) -> Plan:
        """The plan of ``body(arrays)``'s launches (each must be made through :func:`launch`)."""
        kd.realize(*arrays.values())
        outer = getattr(_local, "launches", None)
        _local.launches = []
        try:
            body(arrays)
            launches = _local.launches
        finally:
            _local.launches = outer
        return cls(arrays, launches)

    def run(self) -> None:
        """Run the recorded launches once (the caller holds :attr:`lock`)."""
        if kd.profiling():  # launch by launch, so that the profile sees each
            for ln in self.launches:
                ln.kernel(*ln.arrays, *ln.values, groups=ln.groups)
            return
        if not self.launches:
            return
        times = getattr(_local, "times", None)
        if times is not None and self._timed(times):
            return
        if self._seq is None:
            self._seq, self._algorithms = self._build()
        self._seq.eval()

    def _timed(self, times: list) -> bool:
        """Replay with a GPU timestamp after each launch and append ``(kernel, groups, ms)`` per launch to
        ``times``; False where the queue has no timestamps (the caller then runs the plan plainly)."""
        try:
            seq, algorithms = self._build(timestamps=len(self.launches))
        except RuntimeError:
            return False
        self._algorithms = algorithms
        try:
            seq.eval()
            stamps = seq.get_timestamps()
        finally:
            seq.destroy()
        period = float(next(iter(self.arrays.values())).device.manager.get_device_properties()
                       .get("timestamp_period", 1.0))
        for k, ln in enumerate(self.launches):
            times.append((ln.kernel.name, ln.groups, (stamps[k + 1] - stamps[k]) * period / 1e6))
        return True

    def _build(self, timestamps: int = 0) -> tuple[Any, list[Any]]:
        """One Algorithm per (kernel, bound buffers) (those made before reused) and one command buffer with every
        launch in order (each dispatch is preceded by a memory barrier, so it sees the previous ones' writes;
        but those recorded :func:`alongside`)."""
        manager = next(iter(self.arrays.values())).device.manager
        seq = manager.sequence(total_timestamps=timestamps)
        algorithms: dict[tuple, Any] = dict(self._keys)
        try:
            for ln in self.launches:
                kernel = ln.kernel
                tensors = [a.__kdsl_buffer__(writable=not b.readonly)
                           for a, b in zip(ln.arrays, kernel.info.bindings, strict=True)]
                push = kernel._push(ln.values)
                key = (id(kernel), tuple(id(t) for t in tensors))
                algo = algorithms.get(key)
                if algo is None:
                    algo = manager.algorithm(tensors, kernel.spirv, workgroup=ln.groups,
                                             push_consts=push if len(push) else None)
                    algorithms[key] = algo
                algo.set_workgroup(ln.groups)
                seq.record(kp.OpAlgoDispatch(algo, push if len(push) else None, barrier=ln.barrier))
        except BaseException:
            seq.destroy()
            for key, algo in algorithms.items():
                if key not in self._keys:
                    algo.destroy()
            raise
        self._keys = algorithms
        return seq, list(algorithms.values())

    def destroy(self) -> None:
        """Free the command buffer and the Algorithms (the work arrays go with the plan)."""
        if self._seq is not None:
            self._seq.destroy()
        for algo in self._algorithms:
            algo.destroy()
        self._seq, self._algorithms, self._keys = None, [], {}


@contextmanager
def timing() -> Iterator[list[tuple[str, tuple, float]]]:
    """Inside the block, every plan this thread runs replays with a GPU timestamp after each launch; yields the
    list it fills with ``(kernel name, workgroups, ms)`` per launch (the launches run back to back, as
    without it; where the queue has no timestamps the list stays empty)."""
    outer = getattr(_local, "times", None)
    times: list[tuple[str, tuple, float]] = []
    _local.times = times
    try:
        yield times
    finally:
        _local.times = outer


def cached(key: Hashable, make: Callable[[], Plan]) -> Plan:
    """The plan for ``key`` (with the device and :func:`config` added), made by ``make()`` on first use."""
    full = (key, kd.device(), config())  # the device itself: an id could be reused by a later one
    with _cache_lock:
        plan = _cache.get(full)
        if plan is not None:
            _cache.move_to_end(full)
            return plan
    plan = make()
    evicted = []
    with _cache_lock:
        _cache[full] = plan
        while len(_cache) > MAX_PLANS:
            evicted.append(_cache.popitem(last=False)[1])
    for old in evicted:
        if old.lock.acquire(blocking=False):  # one in use elsewhere is left to the garbage collector
            try:
                old.destroy()
            finally:
                old.lock.release()
    return plan


def config() -> tuple:
    """The tunables a recording depends on besides the shape (tests patch them to reach other paths)."""
    import importlib

    from kdsl.linalg import blocked, gemm
    from kdsl.linalg import kernels as K
    qr = importlib.import_module("kdsl.linalg.qr")  # the package's ``qr`` is the function
    cholesky = importlib.import_module("kdsl.linalg.cholesky")
    return (blocked.BLOCK, blocked.INNER, K.loop_budget(), K.shared_limit(), gemm.SPLIT_MIN_K, gemm.TARGET_GROUPS,
            gemm.MAX_SPLIT, qr.TALL, K.subgroups(), cholesky.LOOKAHEAD)


def clear() -> None:
    """Forget every cached plan (their arrays and Vulkan objects are freed)."""
    with _cache_lock:
        plans = list(_cache.values())
        _cache.clear()
    for plan in plans:
        with plan.lock:
            plan.destroy()


__all__ = ["MAX_PLANS", "Plan", "alongside", "cached", "clear", "config", "launch", "timing"]
