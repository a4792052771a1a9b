"""Sorting and selection with NumPy's semantics, on the device: ``sort``, ``argsort``, ``partition``,
``argpartition``, ``searchsorted`` and ``topk`` (PyTorch's, as NumPy has none); ``median``, ``percentile`` and
``quantile`` sort in quantiles.py, ``take``/``take_along_axis`` gather in take.py.

Sorts are stable and put NaNs last as NumPy's do (-0.0 and 0.0 are equal, so they keep their order). They are
lazy like every other array op: building the graph runs nothing. See ``docs/sorting.md``.

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
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.clip_modes import index_dtype
from kdsl.frontend.array.creation import as_array, asarray
from kdsl.frontend.array.take import flat_or, gather_node
from kdsl.ir.graph import Node


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
    """A sorted copy of ``a`` along ``axis`` (``None``: flattened), NaNs last; every ``kind`` is stable
    (-0.0 and 0.0 are equal and keep their order, as NumPy's ``kind="stable"``; its quicksort leaves it open).
    ``descending=True`` (the array API's keyword) reverses the order: NaNs first, equal values still in their
    original order.

    Example:
        >>> import kdsl as kd
        >>> kd.sort(kd.asarray([[3, 1, 2], [0, -5, 9]])).tolist()
        [[1, 2, 3], [-5, 0, 9]]
    """
    _check_kind(kind, order, stable)
    x, ax = flat_or(as_array(a), axis)
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
    x, ax = flat_or(_at_least_1d(as_array(a)), axis)
    return _sorted(x, ax, bool(descending), "indices")


def _at_least_1d(x: Array) -> Array:
    """``x``, a 0-d one as 1-d: NumPy's argsort and argpartition index a 0-d array as one element
    (``np.argsort(np.array(3))`` is ``[0]``, where ``np.sort`` of it raises AxisError)."""
    return x.reshape(1) if x.ndim == 0 else x


def _check_kth(kth: Any, n: int, empty: bool = False) -> None:
    """NumPy's checks of partition's ``kth``: integers (TypeError; booleans: ValueError), within the axis
    (ValueError) unless the array is empty, where NumPy has nothing to partition and takes any ``kth``."""
    if np.ndim(kth) > 1:  # NumPy converts kth to a 1-d array of indices
        raise ValueError(f"kth must be an integer or a 1-d sequence of integers, got {np.ndim(kth)} dimensions")
    values = np.asarray(kth)  # as NumPy reads kth: [0, True] is [0, 1], all-bool kths are refused
    if values.dtype == np.bool_:
        raise ValueError("Booleans unacceptable as partition index")
    if values.dtype.kind not in "iu":
        raise TypeError(f"Partition index must be integer (kth={kth!r})")
    for k in values.reshape(-1).tolist():
        if not empty and not -n <= int(k) < n:  # NumPy names a negative kth after adding n
            raise ValueError(f"kth(={int(k) + n if k < 0 else int(k)}) out of bounds ({n})")


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
    x, ax = flat_or(_at_least_1d(x) if what == "indices" else x, axis)
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


__all__: Sequence[str] = ["argpartition", "argsort", "partition", "searchsorted", "sort", "topk"]
