"""Per-device engine state, in one object, and the engine's locks and cache limits.

Everything the engine keeps for a device lives in its :class:`DeviceState`: the pool of recycled tensors, the
1-element dummy tensor bound for empty inputs, the sequence used for uploads and downloads, the recorded
batches, the compiled programs (an LRU cache) and the lock that serialises work on the device. The model
(docs/concurrency.md): one re-entrant lock per device is held while a graph is planned, its kernels are
submitted and its nodes turn into buffers; the global plan cache has its own lock. After ``os.fork()`` the
child starts with no state at all (:func:`reset`) and builds its own Vulkan objects on first use.

Cache sizes (programs per device, plans in all) default to ``KDSL_PROGRAM_CACHE`` / ``KDSL_PLAN_CACHE`` from
the environment and can be changed with :func:`set_cache_limits`.

Example:
    >>> import kdsl as kd
    >>> s = state(kd.device())
    >>> s is state(kd.device()), s.device is kd.device()
    (True, True)
    >>> old = cache_limits(); set_cache_limits(programs=100); cache_limits()["programs"]
    100
    >>> set_cache_limits(**old)
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import Any

from kdsl.runtime.collection import collection_paused

_DEFAULT_PROGRAMS = 512  # compiled kernels kept per device (each holds a pipeline: ~0.2-0.5 MB)
_DEFAULT_PLANS = 2048  # graph plans kept (host memory only)


def _env_limit(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{name}={raw!r} is not a whole number; set it to a cache size such as {default}") from None
    if value < 1:
        raise ValueError(f"{name}={raw!r}: the cache size must be at least 1")
    return value


_limits = {"programs": _env_limit("KDSL_PROGRAM_CACHE", _DEFAULT_PROGRAMS),
           "plans": _env_limit("KDSL_PLAN_CACHE", _DEFAULT_PLANS)}


def cache_limits() -> dict[str, int]:
    """The current cache sizes: ``{"programs": per device, "plans": in all}``."""
    return dict(_limits)


def cache_limit(name: str) -> int:
    """The current size of one cache, ``"programs"`` or ``"plans"`` (no copy: the plan cache reads it per call)."""
    return _limits[name]


def set_cache_limits(programs: int | None = None, plans: int | None = None) -> None:
    """Set how many compiled programs (per device) and graph plans the engine keeps; the least recently used
    are dropped past the limit (an evicted program frees its pipelines and descriptor sets).

    Example: ``kd.set_cache_limits(programs=64)`` for a process that makes many one-off kernels."""
    for name, value in (("programs", programs), ("plans", plans)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"set_cache_limits: {name} must be an int >= 1, got {value!r}")
        _limits[name] = value
    for st in list(_states.values()):
        with st.lock:
            st.trim_programs()


class DeviceState:
    """All of the engine's mutable state for one device (see the module docstring). Use :func:`state`."""

    def __init__(self, device: Any):
        self.device = device
        self.lock = threading.RLock()
        # (dtype name, size) -> heap of (id, free tensor), the sizes used least recently first
        self.pool: OrderedDict[tuple[str, int], list[Any]] = OrderedDict()
        self.pool_bytes = 0
        self.pool_limit: float | None = None  # bytes the pool may hold (kdsl.engine.buffers sets it on first use)
        self.pool_count = 0  # tensors in the pool
        self.pool_count_limit = 0  # tensors the pool may hold (set with pool_limit)
        self.programs: OrderedDict[Any, Any] = OrderedDict()  # kernel -> Program, least recently used first
        self.batches: Any = None  # kdsl.engine.programs.Batches, made on first use
        self.algorithms: OrderedDict[Any, Any] = OrderedDict()  # custom kernels' Algorithms (kdsl.engine.launch)
        self.staging: OrderedDict[tuple[int, str], Any] = OrderedDict()  # host tensors (kdsl.engine.staging)
        self.staging_views: dict[tuple[int, str], tuple[Any, Any]] = {}  # key -> (host tensor, its NumPy view)
        # (id(source), id(host tensor)) -> (recorded Sequence, source, host tensor) (kdsl.engine.readback)
        self.readbacks: OrderedDict[tuple[int, int], tuple[Any, Any, Any]] = OrderedDict()
        self._dummy: Any = None
        self._sequence: Any = None
        self._launch: Any = None

    def dummy(self) -> Any:
        """A 1-element tensor bound where an input is empty (Vulkan has no zero-sized buffers)."""
        if self._dummy is None:
            import numpy as np
            self._dummy = self.device.manager.tensor_empty(1, np.uint32)
        return self._dummy

    def sequence(self) -> Any:
        """The sequence uploads and downloads run in (used under :attr:`lock`)."""
        if self._sequence is None:
            self._sequence = self.device.manager.sequence()
        return self._sequence

    def launch_sequence(self) -> Any:
        """The sequence custom-kernel launches are recorded into, cleared and reused each launch."""
        if self._launch is None:
            self._launch = self.device.manager.sequence()
        return self._launch

    def trim_programs(self) -> None:
        """Drop the least recently used programs past the limit, with every recorded batch (which may
        dispatch them)."""
        limit = _limits["programs"]
        if len(self.programs) <= limit:
            return
        if self.batches is not None:
            self.batches.clear()
        while len(self.programs) > limit:
            _, prog = self.programs.popitem(last=False)
            prog.release()


_states: dict[int, DeviceState] = {}
_states_lock = threading.Lock()


def state(device: Any) -> DeviceState:
    """The one :class:`DeviceState` of ``device`` (made on first use)."""
    st = _states.get(device.index)
    if st is None or st.device is not device:
        with _states_lock, collection_paused():  # a finalizer computing with kdsl would wait for _states_lock
            st = _states.get(device.index)
            if st is None or st.device is not device:
                st = _states[device.index] = DeviceState(device)
    return st


def states() -> list[DeviceState]:
    """Every device's state made so far."""
    return list(_states.values())


_orphans: list[object] = []  # a parent's states, kept alive (never destroyed) in a forked child


def keep_after_fork(obj: object) -> None:
    """Keep ``obj`` (a parent's Vulkan-owning state) alive and unused for the rest of a forked child, so no
    destructor runs on objects that belong to the parent process."""
    _orphans.append(obj)


def reset() -> None:
    """Forget every device's state without touching its Vulkan objects (they belong to the parent process
    after a fork): they are kept, unused, so no destructor runs on them here. Called in a forked child; see
    docs/concurrency.md."""
    global _states_lock
    for st in _states.values():
        # A Buffer the child inherited returns its tensor to its parent's state (buffers.Buffer.pool): a fresh
        # lock, as a parent thread may have held this one at fork time (it would stay locked forever here).
        st.lock = threading.RLock()
    _orphans.extend(_states.values())
    _states.clear()
    _states_lock = threading.Lock()


os.register_at_fork(after_in_child=reset)
