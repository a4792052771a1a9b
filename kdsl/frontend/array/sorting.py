"""Sorting and selection with NumPy's semantics, on the device: ``sort``, ``argsort``, ``partition``,
``argpartition``, ``searchsorted``, ``take``, ``take_along_axis`` and ``topk`` (PyTorch's, as NumPy has
none); ``median``, ``percentile`` and ``quantile`` sort in quantiles.py.

Sorts are stable and put NaNs last as NumPy's do (-0.0 and 0.0 are equal, so they keep their order). They are
lazy like every other array op: building the graph runs nothing. ``take``/``take_along_axis`` with device
indices in ``mode="raise"`` synchronise once (they read back the indices' minimum and maximum to raise
``IndexError`` before anything reads the result); host indices are checked on the host. The kernels clamp
every index anyway, so no index reads outside the data. See ``docs/sorting.md``.

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.array([3.0, np.nan, -1.0, 2.0], np.float32))
    >>> kd.sort(a).tolist()[:3], kd.argsort(a).tolist()
    ([-1.0, 2.0, 3.0], [2, 3, 0, 1])
    >>> values, indices = kd.topk(a, 2)
    >>> values.tolist(), indices.tolist()
    ([nan, 3.0], [1, 0])
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.device import device as current_device
from kdsl.dtype import promotion
from kdsl.errors import shape_text
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array, realize
from kdsl.frontend.array.clip_modes import index_dtype
from kdsl.frontend.array.creation import as_array, asarray
from kdsl.frontend.array.reduction_where import into
from kdsl.frontend.array.reductions import max as amax
from kdsl.frontend.array.reductions import min as amin
from kdsl.frontend.array.shape_ops import broadcast_values_to
from kdsl.ir.graph import Node


def _flat_or(a: Array, axis: int | None) -> tuple[Array, int]:
    """(array, non-negative axis); ``axis=None`` means the flattened array."""
    if axis is None:
        return a.reshape(-1), 0
    return a, mv.normalize_axis(axis, a.ndim)


def _kind_text(kind: Any, what: str) -> str:
    """``kind`` as text: NumPy takes str or bytes and raises TypeError for anything else."""
    if isinstance(kind, bytes):
        return kind.decode("latin-1")
    if not isinstance(kind, str):
        raise TypeError(f"{what} kind must be str, not {type(kind).__name__}")
    return kind


def _check_kind(kind: Any, order: Any, stable: Any = None) -> None:
    """NumPy's checks of a sort's ``kind``: None or a name whose first letter (any case) is q, m, h or s;
    not together with ``stable=``. Every kdsl sort is stable, so all the kinds sort alike."""
    if order is not None:
        raise ValueError("order= sorts structured arrays by field; kdsl arrays have no fields: pass order=None")
    if kind is None:
        return
    if stable is not None:
        raise ValueError("`kind` and keyword parameters can't be provided at the same time. Use only one of them.")
    text = _kind_text(kind, "sort")
    if text[:1].lower() not in ("q", "m", "h", "s"):  # NumPy reads only the first letter
        raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' (got {text!r})")


def _check_select_kind(kind: Any) -> None:
    """NumPy's check of partition's ``kind``: exactly 'introselect' (its only selection algorithm)."""
    text = _kind_text(kind, "select")
    if text != "introselect":
        raise ValueError(f"select kind must be 'introselect' (got {text!r})")


def sort_node(a: Array, axis: int, descending: bool, want: str) -> Array:
    """The lazy stable sort of ``a`` along ``axis`` (NaNs last): ``want`` is ``"values"`` or ``"indices"``."""
    if a.ndim == 0:
        raise np.exceptions.AxisError(axis, 0)
    if a.dtype.kind == "c":  # (ascending complex sorts go through lexsort): refuse now, not when the sort runs
        raise promotion.complex_error(promotion.DESCENDING, a.dtype)
    out_dtype = index_dtype(a.device) if want == "indices" else a.dtype
    return Array(Node("sort", (a._node,), out_dtype, a.shape, (axis, descending, want)))


def sort(a: Any, axis: int | None = -1, kind: str | None = None, order: Any = None, *,
         stable: bool | None = None, descending: bool = False) -> Array:
    """A sorted copy of ``a`` along ``axis`` (``None``: flattened), NaNs last; every ``kind`` is stable.
    ``descending=True`` (the array API's keyword) reverses the order: NaNs first, equal values still in their
    original order.

    Example:
        >>> import kdsl as kd
        >>> kd.sort(kd.asarray([[3, 1, 2], [0, -5, 9]])).tolist()
        [[1, 2, 3], [-5, 0, 9]]
    """
    _check_kind(kind, order, stable)
    x, ax = _flat_or(as_array(a), axis)
    return _sorted(x, ax, bool(descending), "values")


def argsort(a: Any, axis: int | None = -1, kind: str | None = None, order: Any = None, *,
            stable: bool | None = None, descending: bool = False) -> Array:
    """Indices that sort ``a`` along ``axis`` (stable: equal values keep their order; NaNs last).
    ``descending=True``: largest first (NaNs first), equal values still in their original order.

    Example:
        >>> import kdsl as kd
        >>> kd.argsort(kd.asarray([2.0, 1.0, 2.0, 0.0])).tolist()
        [3, 1, 0, 2]
    """
    _check_kind(kind, order, stable)
    x, ax = _flat_or(_at_least_1d(as_array(a)), axis)
    return _sorted(x, ax, bool(descending), "indices")


def _at_least_1d(x: Array) -> Array:
    """``x``, a 0-d one as 1-d: NumPy's argsort and argpartition index a 0-d array as one element
    (``np.argsort(np.array(3))`` is ``[0]``, where ``np.sort`` of it raises AxisError)."""
    return x.reshape(1) if x.ndim == 0 else x


def _check_kth(kth: Any, n: int, empty: bool = False) -> None:
    """NumPy's checks of partition's ``kth``: integers (TypeError), within the axis (ValueError) unless the array
    is empty, where NumPy has nothing to partition and takes any ``kth``."""
    if np.ndim(kth) > 1:  # NumPy converts kth to a 1-d array of indices
        raise ValueError(f"kth must be an integer or a 1-d sequence of integers, got {np.ndim(kth)} dimensions")
    values = [kth] if isinstance(kth, (int, np.integer)) else list(np.asarray(kth).reshape(-1))
    for k in values:
        if not isinstance(k, (int, np.integer)) or isinstance(k, (bool, np.bool_)):
            raise TypeError(f"kth must be an integer or a sequence of integers, not {k!r}")
        if not empty and not -n <= int(k) < n:
            raise ValueError(f"kth(={int(k)}) out of bounds ({n})")


def partition(a: Any, kth: Any, axis: int | None = -1, kind: str = "introselect", order: Any = None) -> Array:
    """``a`` with the element at each ``kth`` position where a sort puts it, smaller ones before, larger ones
    after (NumPy leaves their order unspecified; kdsl sorts the whole axis, which satisfies it).

    Example:
        >>> import kdsl as kd
        >>> kd.partition(kd.asarray([5, 1, 4, 2]), 1).tolist()[1]
        2
    """
    _check_select_kind(kind)
    return _partition(a, kth, axis, order, "values")


def argpartition(a: Any, kth: Any, axis: int | None = -1, kind: str = "introselect",
                 order: Any = None) -> Array:
    """Indices that partition ``a`` around ``kth`` (see :func:`partition`; kdsl returns a full stable argsort).

    Example:
        >>> import kdsl as kd
        >>> kd.argpartition(kd.asarray([5, 1, 4, 2]), 0).tolist()[0]
        1
    """
    _check_select_kind(kind)
    return _partition(a, kth, axis, order, "indices")


def _partition(a: Any, kth: Any, axis: int | None, order: Any, what: str) -> Array:
    """A full stable sort of the axis (which satisfies any ``kth``), after NumPy's argument checks."""
    _check_kind(None, order)
    x = as_array(a)
    x, ax = _flat_or(_at_least_1d(x) if what == "indices" else x, axis)
    _check_kth(kth, x.shape[ax] if x.ndim else 0, x.size == 0)
    return _sorted(x, ax, False, what)


def _sorted(x: Array, ax: int, descending: bool, what: str) -> Array:
    """:func:`sort_node`, and complex arrays in NumPy's lexicographic order (real part, then imaginary part,
    NaNs last: ``np.sort(np.linalg.eigvals(A))``) through :mod:`lexicographic`'s stable sorts."""
    if x.dtype.kind == "c" and x.ndim and not descending:
        from kdsl.frontend.array.lexicographic import complex_order  # cycle: that module sorts with this one

        order = complex_order(x, ax)
        return order if what == "indices" else gather_node(x, order, ax, along=True, mode="clip")
    return sort_node(x, ax, descending, what)


def topk(a: Any, k: int, axis: int = -1, largest: bool = True) -> tuple[Array, Array]:
    """The ``k`` largest (``largest=False``: smallest) elements along ``axis`` and their indices, as
    ``torch.topk``: sorted descending (ascending), NaN counting as the largest value, equal values in
    index order.

    Example:
        >>> import kdsl as kd
        >>> v, i = kd.topk(kd.asarray([1.0, 5.0, 3.0, 5.0]), 3)
        >>> v.tolist(), i.tolist()
        ([5.0, 5.0, 3.0], [1, 3, 2])
    """
    x = as_array(a)
    if x.ndim == 0:
        raise ValueError("topk needs an array of at least one dimension")
    ax = mv.normalize_axis(axis, x.ndim)
    n = x.shape[ax]
    k = operator.index(k)
    if not 0 <= k <= n:
        raise ValueError(f"topk: k={k} is out of range for an axis of size {n} (need 0 <= k <= {n})")
    order = sort_node(x, ax, largest, "indices")
    idx = Array(mv.slice_node(order._node, ax, 0, 1, k))
    return gather_node(x, idx, ax, along=True, mode="clip"), idx


def searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> Array:
    """Where ``v``'s elements would go in the sorted 1-D ``a`` (``a[sorter]`` when given) to keep it sorted:
    before equal elements (``side="left"``) or after them ("right"), in NumPy's sort order (NaNs last).

    Example:
        >>> import kdsl as kd
        >>> kd.searchsorted(kd.asarray([1, 2, 2, 3]), kd.asarray([2, 5]), side="right").tolist()
        [3, 4]
    """
    if side not in ("left", "right"):
        # NumPy's words, so code matching its message (and users searching it) finds the same error
        raise ValueError(f"search side must be 'left' or 'right' (got {side!r})")
    dev = a.device if isinstance(a, Array) else v.device if isinstance(v, Array) else current_device()
    x = a if isinstance(a, Array) else _host_operand(a, dev)
    if x.ndim != 1:
        raise ValueError(f"searchsorted needs a 1-D array a, not one of shape {x.shape}")
    is_array = isinstance(v, Array)
    weak = x.dtype if np.ndim(v) == 0 and _fits(v, x.dtype) else None
    if weak is None and isinstance(v, (list, tuple)) and x.dtype.name in ("float64", "complex128"):
        kind = np.asarray(v).dtype.kind  # a list of Python floats beside float64: at float64 (0.1, not its float32)
        weak = dt.float64 if kind in "biuf" else dt.complex128 if kind == "c" else None
    vals = v if is_array else _host_operand(v, dev, weak)
    common = dt.as_dtype(np.result_type(x.dtype.np, vals.dtype.np))
    if common.kind == "f" and not dev.supports(common):  # NumPy's float64 compare: float32 where there is none
        common = dt.float32
    common = dev.check(common)
    srcs = [ops.cast_node(x._node, common), ops.cast_node(vals._node, common)]
    if sorter is not None:
        srcs.append(_sorter(sorter, x.shape[0])._node)
    node = Node("search", tuple(srcs), index_dtype(x.device), vals.shape, side)
    return Array(node)


def _host_operand(host: Any, device: Any, dtype: dt.DType | None = None) -> Array:
    """Host data for searchsorted on ``device``: float64 NumPy data (arrays, ``np.float64``) as float32 where the
    device has no float64 (MoltenVK), the nearest precision it holds (the upload raised TypeError there)."""
    wide = isinstance(host, (np.ndarray, np.generic)) and host.dtype == np.float64
    if dtype is None and wide and not device.supports(dt.float64):
        dtype = dt.float32
    return asarray(host, dtype=dtype, device=device)


def _fits(value: Any, d: dt.DType) -> bool:
    """Whether a Python scalar compares as ``d`` in NumPy 2 (a weak scalar that fits). Not None: result_type
    takes it for float64, and converted to a float64 it is NaN (NumPy's searchsorted of None: TypeError)."""
    if not isinstance(value, (bool, int, float, complex, np.generic)):
        return False
    if isinstance(value, int) and not isinstance(value, bool) and d.kind in "iu":
        # a Python int past d's range (2**40 against int32, -1 against uint8): NumPy's searchsorted compares it
        # as an int64 (result_type takes it as d, and the conversion to d would raise OverflowError)
        info = np.iinfo(d.np)
        return bool(info.min <= value <= info.max)
    return np.result_type(d.np, value) == d.np


def _sorter(sorter: Any, n: int) -> Array:
    s = sorter if isinstance(sorter, Array) else None
    if s is None:
        host = np.asarray(sorter)
        if host.dtype.kind not in "iu":
            raise TypeError(f"sorter must hold integers, not {host.dtype}")
        if host.size and (host.min() < 0 or host.max() >= n):
            raise ValueError("Sorter index out of range.")
        s = asarray(host)
    if s.shape != (n,):
        raise ValueError(f"sorter.size must equal a.size: sorter has shape {s.shape}, a has {n} elements")
    if not s.dtype.is_int:
        raise TypeError(f"sorter must hold integers, not {s.dtype.name}")
    return s


# ----- take and take_along_axis

def _oob(index: int, n: int, axis: int) -> IndexError:
    return IndexError(f"index {index} is out of bounds for axis {axis} with size {n}")


def _indices(indices: Any, n: int, axis: int, mode: str, device) -> Array:
    """``indices`` as a device array of integers, checked against an axis of ``n`` in ``mode="raise"``
    (host data on the host; device data by reading back its minimum and maximum: one synchronisation)."""
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"mode must be 'raise', 'wrap' or 'clip', not {mode!r}")
    if isinstance(indices, Array):
        idx = indices
        if not (idx.dtype.is_int or idx.dtype is dt.bool_):
            raise _cast_error(idx.dtype.np, idx.ndim)
        if idx.size and n == 0:
            raise IndexError("cannot do a non-empty take from an empty axes.")
        if mode == "raise" and idx.size:
            lo, hi = amin(idx), amax(idx)
            realize(idx, lo, hi)
            _check_range(int(lo), int(hi), n, axis)
        return idx
    host = np.asarray(indices)
    if host.dtype.kind == "O" and all(isinstance(v, int) for v in host.reshape(-1).tolist()):
        raise OverflowError("Python int too large to convert to C long")  # NumPy's, for ints past (u)int64
    if host.size == 0:  # NumPy accepts [] (float64) as no indices
        host = host.astype(np.int64)
    if host.dtype.kind not in "biu":
        host = _float_positions(indices, host)
    if host.size and n == 0:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    if mode == "raise" and host.size:
        _check_range(int(host.min()), int(host.max()), n, axis)
    return asarray(host, dtype=index_dtype(device) if host.dtype.kind != "b" else dt.int32, device=device)


def _cast_error(dtype: np.dtype, ndim: int) -> TypeError:
    """NumPy's TypeError for take's indices in an array of floats (its same_kind cast to intp refuses them)."""
    what = "scalar" if ndim == 0 else "array data"
    return TypeError(f"Cannot cast {what} from dtype('{dtype}') to dtype('int64') according to the rule 'same_kind'")


def _float_positions(indices: Any, host: np.ndarray) -> np.ndarray:
    """take's positions given as Python floats (``a.take([1.7])``, ``take(a, 2.5)``): NumPy converts Python data
    as ``int()`` does (toward zero; NaN and inf raise its errors); a NumPy array of floats it refuses."""
    if isinstance(indices, np.ndarray) or host.dtype.kind != "f":
        raise _cast_error(host.dtype, host.ndim)
    if np.isnan(host).any():
        raise ValueError("cannot convert float NaN to integer")
    if np.isinf(host).any():
        raise OverflowError("cannot convert float infinity to integer")
    return np.trunc(host).astype(np.int64)


def _check_range(lo: int, hi: int, n: int, axis: int) -> None:
    if hi >= n:
        raise _oob(hi, n, axis)
    if lo < -n:
        raise _oob(lo, n, axis)


def gather_node(data: Array, idx: Array, axis: int, along: bool, mode: str) -> Array:
    """The lazy gather of ``data`` at in-range indices ``idx`` on ``axis``: ``along`` as ``take_along_axis``
    (``idx`` has ``data``'s rank), else as ``take`` (``idx``'s shape replaces the axis); ``mode`` as ``take``'s."""
    if along:
        shape = idx.shape
    else:
        shape = data.shape[:axis] + idx.shape + data.shape[axis + 1:]
    return Array(Node("gather", (data._node, idx._node), data.dtype, shape, (axis, along, mode)))


def take(a: Any, indices: Any, axis: int | None = None, out: Any = None, mode: str = "raise") -> Array:
    """Elements of ``a`` at ``indices`` along ``axis`` (``None``: of the flattened array). Negative indices
    count from the end; ``mode="raise"`` raises IndexError for an index outside the axis (device indices:
    checked with one synchronisation), "wrap" wraps every index, "clip" clamps it.

    Example:
        >>> import kdsl as kd
        >>> kd.take(kd.asarray([[1, 2], [3, 4]]), [1, -1, 0], axis=1).tolist()
        [[2, 2, 1], [4, 4, 3]]
    """
    if out is not None:  # NumPy's out=: the result written into a kdsl array
        return into(take(a, indices, axis, None, mode), out)
    x, ax = _flat_or(as_array(a), axis)
    idx = _indices(indices, x.shape[ax], ax, mode, x.device)
    return gather_node(x, idx, ax, along=False, mode=mode)


def take_along_axis(arr: Any, indices: Any, axis: int | None = -1) -> Array:
    """``arr`` read at ``indices`` along ``axis`` (matching the other axes, with broadcasting), as NumPy's;
    the indices of :func:`argsort` give the sorted array. Out-of-bounds indices raise IndexError.

    Example:
        >>> import kdsl as kd
        >>> a = kd.asarray([[10, 30, 20], [6, 4, 5]])
        >>> kd.take_along_axis(a, kd.argsort(a, axis=1), axis=1).tolist()
        [[10, 20, 30], [4, 5, 6]]
    """
    x = as_array(arr)
    if axis is None:
        x, ax = x.reshape(-1), 0
        if np.ndim(indices) != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
    else:
        ax = mv.normalize_axis(axis, x.ndim)
    if np.ndim(indices) != x.ndim and not (isinstance(indices, Array) and indices.ndim == x.ndim):
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    kind = np.dtype(indices.dtype.np if isinstance(indices, Array) else np.asarray(indices).dtype)
    if kind.kind not in "iu":  # NumPy refuses bool here (take() reads it as 0/1 positions; a mask would be meant)
        hint = "; for a boolean mask use arr[mask] or kd.where(mask, arr, 0)" if kind.kind == "b" else ""
        raise IndexError(f"`indices` must be an integer array, not {kind}{hint}")
    idx = _indices(indices, x.shape[ax], ax, "raise", x.device)
    others = [tuple(1 if k == ax else m for k, m in enumerate(s)) for s in (x.shape, idx.shape)]
    try:
        shape = ops.broadcast_shapes(*others)
    except ValueError:  # NumPy indexes with the broadcast index arrays: an IndexError
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes "
                         + " ".join(shape_text(s) for s in others)) from None
    out_shape = tuple(idx.shape[ax] if k == ax else m for k, m in enumerate(shape))
    data_shape = tuple(x.shape[ax] if k == ax else m for k, m in enumerate(shape))
    return gather_node(broadcast_values_to(x, data_shape), broadcast_values_to(idx, out_shape), ax, along=True,
                       mode="raise")


__all__: Sequence[str] = [
    "argpartition", "argsort", "partition", "searchsorted", "sort", "take", "take_along_axis", "topk",
]
