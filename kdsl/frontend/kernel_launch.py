"""Running a compiled kernel: arguments -> runtime tensors and push constants -> one dispatch.

Shared by ``@kd.kernel`` and ``kd.raw_kernel``. kd Arrays are realised and bound in place (the kernel
mutates them); NumPy arrays are uploaded, and copied back after the dispatch when the kernel writes them.

Example:
    >>> groups_for((100, 1, 1), (64, 1, 1))
    (2, 1, 1)
"""

from __future__ import annotations

import math

import numpy as np


def is_kd_array(x) -> bool:
    """True for kdsl lazy arrays (anything with the DSL's ``_buffer`` hook)."""
    return hasattr(x, "_buffer") and hasattr(x, "shape") and hasattr(x, "dtype") and not isinstance(x, np.ndarray)


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
    return tuple(out + [1] * (3 - len(out)))


def groups_for(grid: tuple[int, int, int], block: tuple[int, int, int]) -> tuple[int, int, int]:
    return tuple(math.ceil(g / b) for g, b in zip(grid, block, strict=False))


def default_manager():
    """The runtime Manager of kdsl's current device."""
    from kdsl.device import device
    return device().manager


def device_features(manager) -> set[str]:
    return set(manager.get_device_properties().get("features", ()))


class Binder:
    """Collects the tensors of one launch: kd Arrays in place, NumPy arrays uploaded (and read back)."""

    def __init__(self, manager):
        self.manager = manager
        self.tensors = []
        self.uploads = []
        self.readbacks: list[tuple[np.ndarray, object]] = []

    def bind(self, value, written: bool) -> None:
        kp = _kp()
        if is_kd_array(value):
            self.tensors.append(value._buffer())
            return
        host = np.ascontiguousarray(value)
        if host.size == 0:  # Vulkan has no empty buffers; the kernel never touches a 0-size array's data
            host = np.zeros(1, host.dtype)
        tensor = self.manager.tensor_t(host.reshape(-1), memory_type=kp.MemoryTypes.device)
        self.tensors.append(tensor)
        self.uploads.append(tensor)
        if written and value.size:
            self.readbacks.append((value, tensor))

    def run(self, algorithm, push: np.ndarray) -> None:
        kp = _kp()
        seq = self.manager.sequence()
        if self.uploads:
            seq.record(kp.OpSyncDevice(self.uploads))
        seq.record(kp.OpAlgoDispatch(algorithm, push))
        if self.readbacks:
            seq.record(kp.OpSyncLocal([t for _, t in self.readbacks]))
        seq.eval()
        for host, tensor in self.readbacks:
            host[...] = tensor.data().reshape(host.shape)
        seq.destroy()
        for tensor in self.uploads:
            tensor.destroy()


def _kp():
    import kdsl.runtime as kp
    return kp


class AlgorithmCache:
    """One runtime Algorithm per (compiled variant, manager): later launches only rebind buffers."""

    def __init__(self):
        self._algos: dict = {}

    def get(self, key, manager, tensors, spirv: bytes, groups, push: np.ndarray):
        entry = self._algos.get((key, id(manager)))
        if entry is not None and entry[0]() is manager and entry[1].is_init():
            algo = entry[1]
            algo.update_bindings(tensors)
            algo.set_workgroup(groups)
            return algo
        import weakref
        algo = manager.algorithm(tensors, spirv, workgroup=groups, push_consts=push)
        self._algos[(key, id(manager))] = (weakref.ref(manager), algo)
        return algo
