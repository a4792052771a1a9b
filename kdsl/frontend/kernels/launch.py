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

_LIMIT_DEFAULTS = {"max_work_group_count": (65535,) * 3, "max_work_group_size": (1024, 1024, 64),
                   "max_work_group_invocations": 128}


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
        kp = _kp()
        if is_kd_array(value):
            self.tensors.append(value._buffer())
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


def _check_bindable(name: str, value, written: bool) -> None:
    if not written:
        return
    if isinstance(value, np.ndarray) and not value.flags.writeable:
        raise ValueError(f"{name} is a read-only NumPy array but the kernel writes it; pass a writable copy "
                         "(x.copy())")
    if is_kd_array(value) and _is_detached_view(value):
        raise ValueError(f"{name} is a view (a slice, transpose or broadcast) of another kd array and the kernel "
                         "writes it: the writes would land in a copy, not in the original array. Pass a whole "
                         "array, or a copy and assign it back: t = x.copy(); k(t); a[1:3] = t")


def _is_detached_view(value) -> bool:
    """A kd view whose buffer is not its source's (a slice or transpose of computed data)."""
    node = getattr(value, "_node", None)
    if node is None or getattr(node, "op", None) != "view":
        return False
    src, view = node.srcs[0], node.arg
    if src.op == "const":  # kd.zeros, kd.full...: a broadcast constant with no other buffer to write
        return False
    return not (view.offset == 0 and view.size == src.size and view.is_contiguous)


def _check_overlaps(items) -> None:
    arrays = [(n, v, w) for n, v, w in items if isinstance(v, np.ndarray)]
    for k, (n1, a, w1) in enumerate(arrays):
        for n2, b, w2 in arrays[k + 1:]:
            if a is not b and (w1 or w2) and np.shares_memory(a, b):
                raise ValueError(f"{n1} and {n2} are overlapping NumPy arrays and the kernel writes one of them; "
                                 "pass the same array twice, or copies (x.copy())")


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
