"""Running a compiled kernel: arguments -> runtime tensors and push constants -> one dispatch.

Shared by ``@kd.kernel`` and ``kd.raw_kernel``; the dispatch itself goes through the engine
(:func:`kdsl.engine.launch.dispatch`: the device's lock, Algorithm cache and reusable launch sequence).
kd Arrays are found by the array protocol ``x.__kdsl_buffer__(writable=False)`` (a method returning the
runtime Tensor that holds the array as C-contiguous data; with ``writable=True`` pending lazy expressions that
read the array are computed first, so they see the old values, as NumPy's eager semantics would) and bound in
place (the kernel mutates them); NumPy arrays are uploaded, and copied back after the dispatch when the
kernel writes them.

Example:
    >>> groups_for((100, 1, 1), (64, 1, 1))
    (2, 1, 1)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import kdsl.runtime as kp
from kdsl.device import device as current_device
from kdsl.engine.launch import dispatch

_LIMIT_DEFAULTS = {"max_work_group_count": (65535,) * 3, "max_work_group_size": (1024, 1024, 64),
                   "max_work_group_invocations": 128}


def is_kd_array(x) -> bool:
    """True for arrays that implement the kdsl array protocol (a ``__kdsl_buffer__`` method)."""
    return callable(getattr(type(x), "__kdsl_buffer__", None)) and not isinstance(x, np.ndarray)


def normalize_grid(grid, what: str = "grid") -> tuple[int, int, int]:
    """``n`` or ``(nx, ny)`` or ``(nx, ny, nz)`` -> a 3-tuple of non-negative ints."""
    dims = tuple(grid) if isinstance(grid, (tuple, list)) else (grid,)
    if not 1 <= len(dims) <= 3:
        raise ValueError(f"{what} has 1 to 3 dimensions, got {grid!r}")
    out = []
    for d in dims:
        if isinstance(d, (bool, np.bool_)) or not isinstance(d, (int, np.integer)) or d < 0:
            raise TypeError(f"{what} must be non-negative integers, got {grid!r}")
        out.append(int(d))
    out += [1] * (3 - len(out))
    return out[0], out[1], out[2]


def groups_for(grid: tuple[int, int, int], block: tuple[int, int, int]) -> tuple[int, int, int]:
    return math.ceil(grid[0] / block[0]), math.ceil(grid[1] / block[1]), math.ceil(grid[2] / block[2])


def check_launch(name: str, groups, local, manager) -> None:
    """ValueError unless the workgroup size ``local`` and the workgroup count ``groups`` fit the device."""
    props = manager.get_device_properties()
    size = tuple(props.get("max_work_group_size", _LIMIT_DEFAULTS["max_work_group_size"]))
    invocations = props.get("max_work_group_invocations", _LIMIT_DEFAULTS["max_work_group_invocations"])
    count = tuple(props.get("max_work_group_count", _LIMIT_DEFAULTS["max_work_group_count"]))
    if any(b > m for b, m in zip(local, size, strict=False)) or math.prod(local) > invocations:
        raise ValueError(f"{name}: block (workgroup size) {tuple(local)} is over this device's limits: at most "
                         f"{size} per axis and {invocations} invocations in all; use a smaller block")
    if any(g > m for g, m in zip(groups, count, strict=False)):
        raise ValueError(f"{name}: the launch needs {tuple(groups)} workgroups of {tuple(local)}, over this "
                         f"device's limit {count}; use a bigger block, a 2-D grid or a loop in the kernel")


def launch_device(values=()):
    """The device a launch runs on: that of its kd array arguments (they must share one), else the current one.

    >>> import kdsl as kd
    >>> launch_device([1.0]) is kd.device()
    True
    """
    devices = {id(v.device): v.device for v in values if is_kd_array(v)}
    if len(devices) > 1:
        names = " and ".join(map(repr, devices.values()))
        raise ValueError(f"a kernel's array arguments live on different devices, {names}; move them to one "
                         "device first, e.g. x = x.to_device(y.device)")
    return next(iter(devices.values())) if devices else current_device()


def default_manager():
    """The runtime Manager of kdsl's current device."""
    return current_device().manager


def device_features(manager) -> set[str]:
    return set(manager.get_device_properties().get("features", ()))


class Binder:
    """Collects the tensors of one launch: kd Arrays in place, NumPy arrays uploaded (and read back)."""

    def __init__(self, device):
        self.device = device
        self.manager = device.manager
        self.tensors = []
        self.uploads = []
        self.readbacks: list[tuple[np.ndarray, Any]] = []

    def bind_all(self, items) -> None:
        """Bind ``(name, value, written)`` triples in binding order, after checking them all (so a bad one
        uploads nothing). The same NumPy array passed twice is uploaded once and bound twice, as a kd array
        would be."""
        items = list(items)
        for name, value, written in items:
            _check_bindable(name, value, written)
        _check_overlaps(items)
        shared: dict[int, object] = {}
        for _, value, written in items:
            if isinstance(value, np.ndarray) and id(value) in shared:
                self.tensors.append(shared[id(value)])
                continue
            written = written or any(v is value and w for _, v, w in items)
            self.bind(value, written)
            if isinstance(value, np.ndarray):
                shared[id(value)] = self.tensors[-1]

    def bind(self, value, written: bool) -> None:
        if is_kd_array(value):
            self.tensors.append(value.__kdsl_buffer__(writable=written))
            return
        host = np.ascontiguousarray(value)
        if not host.dtype.isnative:  # the device reads native byte order
            host = host.astype(host.dtype.newbyteorder("="))
        if host.size == 0:  # Vulkan has no empty buffers; the kernel never touches a 0-size array's data
            host = np.zeros(1, host.dtype)
        tensor = self.manager.tensor_t(host.reshape(-1), memory_type=kp.MemoryTypes.device)
        self.tensors.append(tensor)
        self.uploads.append(tensor)
        if written and value.size:
            self.readbacks.append((value, tensor))

    def run(self, launch: Launch, push: np.ndarray) -> None:
        """Dispatch ``launch`` (from :meth:`AlgorithmCache.get`) with the bound tensors, through the engine."""
        try:
            dispatch(self.device, launch.spirv, self.tensors, launch.groups, push, key=launch.key,
                     spec=launch.spec, uploads=self.uploads, readbacks=[t for _, t in self.readbacks])
            for host, tensor in self.readbacks:
                host[...] = tensor.data().reshape(host.shape)
        finally:
            for tensor in self.uploads:
                tensor.destroy()


def _check_bindable(name: str, value, written: bool) -> None:
    if not written:
        return
    if isinstance(value, np.ndarray) and not value.flags.writeable:
        raise ValueError(f"{name} is a read-only NumPy array but the kernel writes it; pass a writable copy "
                         "(x.copy())")
    if is_kd_array(value):
        try:  # the array protocol refuses views whose writes would land in a copy
            value.__kdsl_buffer__(writable=True)
        except ValueError as exc:
            raise ValueError(f"{name} {exc}") from None


def _check_overlaps(items) -> None:
    arrays = [(n, v, w) for n, v, w in items if isinstance(v, np.ndarray)]
    for k, (n1, a, w1) in enumerate(arrays):
        for n2, b, w2 in arrays[k + 1:]:
            if a is not b and (w1 or w2) and np.shares_memory(a, b):
                raise ValueError(f"{n1} and {n2} are overlapping NumPy arrays and the kernel writes one of them; "
                                 "pass the same array twice, or copies (x.copy())")


class Launch:
    """What :meth:`Binder.run` dispatches: the engine's cache key, the SPIR-V, workgroups and spec words."""

    __slots__ = ("key", "spirv", "groups", "spec")

    def __init__(self, key, spirv: bytes, groups, spec: np.ndarray | None = None):
        self.key, self.spirv, self.groups, self.spec = key, spirv, tuple(groups), spec


class AlgorithmCache:
    """Names one kernel's compiled variants for the engine's per-device Algorithm cache
    (:mod:`kdsl.engine.launch`): later launches of a variant only rebind buffers."""

    def __init__(self):
        self._token = object()  # unique per kernel (kept alive by the engine's keys: never reused)

    def get(self, key, spirv: bytes, groups, spec: np.ndarray | None = None) -> Launch:
        return Launch((self._token, key), spirv, groups, spec)
