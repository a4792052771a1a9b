"""``a[key]`` and ``a[key] = value`` for basic indexing: ints, slices (any step, negative too), ``...`` and ``None``.
Reading is a zero-copy view. Reading with an integer array along axis 0 (``a[idx]``, ``a[idx, 1:]``) is a lazy
gather (a copy, as in NumPy; see :func:`kdsl.frontend.array.index_gather.gather`), also with several index arrays
on the leading axes (``P[kd.arange(m), y]``); other advanced indexing is not supported yet.

Writing follows *value* semantics: ``a[key] = v`` makes ``a`` a new lazy array equal to the old one with the
region replaced (other arrays that were views of the old ``a`` keep the old values, unlike NumPy). It costs one
copy of ``a`` (fused with whatever computed it) plus one kernel over the region. Writing into a view made by
indexing (``a[0][1] = v``, ``row = a[0]; row[1] = v``) also writes into the array it came from, as in NumPy.

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.zeros((3, 4))
    >>> a[1, ::2] = 7
    >>> a[::-1][0].tolist(), a.numpy()[1].tolist()
    ([0.0, 0.0, 0.0, 0.0], [7.0, 0.0, 7.0, 0.0])
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.errors import shape_text
from kdsl.frontend.array import (
    element_values,
    ellipsis_mask,
    index_assignment,
    inner_index,
    inner_mask,
    key_limits,
    masks,
    mixed_mask_index,
    scalar_bool_index,
    scalar_index,
)
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.index_gather import gather
from kdsl.frontend.array.stored_values import checked_value
from kdsl.ir.graph import Node
from kdsl.ir.view import View


def _normalize_key(key, ndim: int) -> list:
    plain = _plain(key)  # ints, slices, None, ...: nothing to check one by one
    key = list(key) if isinstance(key, tuple) else [key]
    for k in () if plain else key:
        _check_integral(k)
        if isinstance(k, (Array, np.ndarray, list)) or (hasattr(k, "dtype") and not isinstance(k, np.integer)):
            raise IndexError("kdsl supports ints, slices, ..., None, and integer arrays or one boolean mask on the "
                             "leading axes only (a[idx], a[rows, cols], a[idx, 1:], a[mask], a[mask, 1:]); move the "
                             "axis first, or use kd.where(mask, a, b)")
        if not (k is None or k is Ellipsis or isinstance(k, (slice, int, np.integer))):
            raise IndexError(_ONLY_INTEGERS)
    ellipses = key.count(Ellipsis)
    if ellipses > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = len(key) - ellipses - key.count(None)
    if used > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, but {used} were indexed")
    if ellipses:
        i = key.index(Ellipsis)
        key = key[:i] + [slice(None)] * (ndim - used) + key[i + 1:]
    else:
        key = key + [slice(None)] * (ndim - used)
    return key


_ONLY_INTEGERS = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean "
                  "arrays are valid indices")


def _check_integral(k) -> None:
    """NumPy's IndexError for a key part that is neither an integer nor an integer or boolean array: its words
    for float arrays, and for float scalars and sequences."""
    if isinstance(k, (Array, np.ndarray)):
        if k.dtype.kind not in "biu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
    elif isinstance(k, (float, np.floating, complex, np.complexfloating)) or (
            isinstance(k, list) and np.asarray(k).dtype.kind not in "biu" and np.asarray(k).size):
        raise IndexError(_ONLY_INTEGERS)


def _no_float_arrays(key) -> None:
    """NumPy's IndexError for a float or complex index array, an empty one too (``a[np.array([])]``: an empty
    array of floats is not an empty mask, which kdsl's mask rules took it for)."""
    for k in key if isinstance(key, tuple) else (key,):
        if isinstance(k, (Array, np.ndarray)):
            _check_integral(k)


def apply_key(view: View, key) -> tuple[View, tuple[int, ...]]:
    """(the view selected by ``key``, the result shape including the ``None`` axes)."""
    axis = 0  # the view's axis: an integer index removes it
    source_axis = -1  # the array's axis, which NumPy's error names (a[1, 9]: axis 1)
    out_shape: list[int] = []
    for k in _normalize_key(key, len(view.shape)):
        if k is None:
            out_shape.append(1)
            continue
        source_axis += 1
        n = view.shape[axis]
        if isinstance(k, slice):
            start, stop, step = k.indices(n)
            length = len(range(start, stop, step))
            view = view.slice(axis, start, step, length)
            out_shape.append(length)
            axis += 1
        else:
            i = int(k)
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for axis {source_axis} with size {n}")
            view = view.index(axis, i % n)
    return view, tuple(out_shape)


def _plain(key) -> bool:
    """Whether ``key`` is basic indexing by Python ints, slices of ints, ``None`` and ``...`` only: the usual
    key of a loop (``y[1]``, ``u[1:-1]``, ``a[i, :]``), which skips the checks for masks and index arrays."""
    for k in key if key.__class__ is tuple else (key,):
        c = k.__class__
        if c is slice:
            if not all(b is None or b.__class__ is int for b in (k.start, k.stop, k.step)):
                return False
        elif c is not int and k is not None and k is not Ellipsis:
            return False
    return True


def _tuples_as_lists(key):
    """Tuples inside a tuple key as the lists NumPy takes them for: only the outer tuple separates the axes, an
    inner one is an index sequence (``x[:, (0, 2)]`` is ``x[:, [0, 2]]``, ``x[((0, 1),)]`` is ``x[[0, 1]]``).
    Other keys as they are."""
    if key.__class__ is not tuple or not any(isinstance(k, tuple) for k in key):
        return key
    return tuple(list(k) if isinstance(k, tuple) else k for k in key)


def _ranges_as_arrays(key):
    """``range`` objects in a key as the integer arrays NumPy makes of them (``p[range(n), y]``, the
    cross-entropy idiom); other keys as they are."""
    if isinstance(key, range):
        return np.arange(key.start, key.stop, key.step)
    if isinstance(key, tuple) and any(isinstance(k, range) for k in key):
        return tuple(np.arange(k.start, k.stop, k.step) if isinstance(k, range) else k for k in key)
    return key


def _scalars_as_ints(key):
    """0-d integer kdsl arrays in a key (and in its slices' bounds) as the Python ints they hold (one host read
    each). They stand for the NumPy scalars that element reads and reductions give (``u = users[j]``,
    ``s = np.argmax(q)``), and NumPy indexes by scalars as by ints: ``P[u]`` is a view (``P[u][1] = 7`` and
    ``row = P[u]; row += 1`` write into ``P``), not the copy a gather would be. Other keys as they are."""
    items = key if key.__class__ is tuple else (key,)
    if not any(_is_scalar_index(k) or (k.__class__ is slice and any(_is_scalar_index(b) for b in
                                                                      (k.start, k.stop, k.step))) for k in items):
        return key
    out = tuple(slice(*(operator.index(b) if _is_scalar_index(b) else b for b in (k.start, k.stop, k.step)))
                if k.__class__ is slice else operator.index(k) if _is_scalar_index(k) else k for k in items)
    return out if key.__class__ is tuple else out[0]


def _is_scalar_index(k) -> bool:
    return isinstance(k, Array) and k.ndim == 0 and k.dtype.is_int and k.dtype is not dt.bool_


def getitem(a: Array, key) -> Array:
    key = _tuples_as_lists(key)
    key_limits.check(key, a.ndim)
    if _plain(key):
        return _basic(a, key)
    _no_float_arrays(key)
    key_limits.check_indexed(key, a.shape)  # too many indices, a zero step: before any index array is read
    got = scalar_bool_index.read(a, key)  # a[False, True], a[0, True], a[True, idx]: NumPy's 0-d masks
    if got is not None:
        return got
    key = _scalars_as_ints(_ranges_as_arrays(key))
    if _plain(key):
        return _basic(a, key)
    if isinstance(key, (bool, np.bool_)):  # a[True]: NumPy's 0-d mask, as a[(True,)]: a copy of a[None] (not
        return getitem(a, (key,))  # a view: writes into it leave a alone), a[False] its empty selection
    if _is_0d_mask(key):  # a[m] with a 0-d bool array m: NumPy's a[None][m[None]], (1, ...) or (0, ...)
        return masks.getmask(a[None], _as_1_mask(key), ())
    if mixed_mask_index.separated(key):  # x[:, mask, 1:, 0]: the selection's axis first, as index arrays do
        return getitem(a, mixed_mask_index.expand(key, a.shape))
    spelled = ellipsis_mask.expand(a, key)
    if spelled is not None:  # a[..., mask], a[None, mask]: the same key without ... and None
        return getitem(*spelled)
    mask, rest = _mask_key(key)
    if mask is not None:  # a[mask], a[mask, 1:]: a compaction (a copy; a kdsl mask synchronises once)
        return masks.getmask(a, mask, rest)
    lead, mask, rest = _inner_mask_key(key)
    if mask is not None:  # a[:, mask], a[1:, mask, 0]: the mask's axes moved first, compacted, moved back
        return inner_mask.get(a, lead, mask, rest)
    ints, mask, rest = _int_mask_key(key)
    if mask is not None:  # a[0, mask]: adjacent advanced indices, so it is a[0][mask] (NumPy's result axes)
        return getitem(a[ints], (mask,) + rest)
    expanded = mixed_mask_index.expand(key, a.shape)
    if expanded is not None:  # a mask with index arrays (X[rows[:, None], mask]): its nonzero indices
        return getitem(a, expanded)
    scalar = scalar_index.split(key, a.ndim)
    if scalar is not None:  # 0-d integer kdsl arrays anywhere in a basic key: treated as ints (NumPy's rule)
        return scalar_index.get(a, scalar)
    indices, rest = _array_key(key)
    if indices is not None:  # integer arrays on the leading axes (a copy, as in NumPy), then basic indexing
        rows = gather(a, *indices)
        return rows[(slice(None),) * (rows.ndim - a.ndim + len(indices)) + rest] if rest else rows
    inner = inner_index.plan(key, a.ndim)
    if inner is not None:  # integer arrays after slices or ints (a[:, idx], a[idx, :, idx2]): axes moved first
        return inner_index.get(a, inner)
    return _basic(a, key)


def _basic(a: Array, key) -> Array:
    """``a[key]`` for basic indexing (ints, slices, ``None``, ``...``): a view."""
    node = a._node
    base, v = (node.srcs[0], node.arg) if node.op == "view" else (node, View.contiguous(node.shape))
    view, shape = apply_key(v, key)
    if view.shape == base.shape and view.canonical() == View.contiguous(base.shape):
        out = base
    else:
        out = Node("view", (base,), base.dtype, view.shape, view.canonical())
    if not shape and _selects_element(key):  # NumPy's a[i] / a[i, j] of every axis is a scalar: a copy of
        return Array(mv.reshape_node(out, shape))  # the element, which later writes into ``a`` leave alone
    return Array(mv.reshape_node(out, shape))._view_of(a, lambda base, view: base.__setitem__(key, view),
                                                       lambda base: getitem(base, key))


def _selects_element(key) -> bool:
    """Whether a key whose result is 0-d picks one element by ints alone (``a[1]``, ``a[0, 2]``, ``b[()]``):
    NumPy returns a scalar (a copy) then, but a 0-d view for ``a[..., 1]``."""
    return not any(k is Ellipsis for k in (key if key.__class__ is tuple else (key,)))


def _is_0d_mask(key) -> bool:
    """Whether ``key`` is a 0-d boolean array (kdsl or NumPy), which selects all of ``a`` or nothing."""
    return isinstance(key, (Array, np.ndarray)) and key.ndim == 0 and key.dtype == dt.bool_


def _as_1_mask(key) -> Any:
    """A 0-d boolean array as a mask of one element (a kdsl view, or a NumPy array)."""
    return key.reshape(1) if isinstance(key, Array) else np.asarray(key).reshape(1)


def _mask_key(key) -> tuple:
    """(the boolean mask, the basic key of the axes after it) when the key starts with a boolean array."""
    items = key if isinstance(key, tuple) else (key,)
    if not items or not masks.is_mask(items[0]) or any(map(_is_index_array, items[1:])):
        return None, ()
    return items[0], tuple(items[1:])


def _inner_mask_key(key) -> tuple:
    """(the slices before it, the boolean mask, the basic key after it) when a mask follows only slices:
    ``a[:, mask]``, ``a[1:, ::2, mask, 0]``; (None, None, ()) for other keys."""
    return _mask_after(key, lambda k: isinstance(k, slice))


def _int_mask_key(key) -> tuple:
    """(the leading ints, the boolean mask, the basic key after it) for ``a[0, mask]``, ``a[1, 2, mask, 1:]``;
    (None, None, ()) for other keys."""
    return _mask_after(key, _is_int)


def _mask_after(key, leading: Callable[[Any], bool]) -> tuple:
    """(the items before it, the boolean mask, the basic key after it) when a mask follows one or more
    ``leading`` items and no index array follows it; (None, None, ()) for other keys."""
    items = key if isinstance(key, tuple) else (key,)
    lead = 0
    while lead < len(items) and leading(items[lead]):
        lead += 1
    if lead == 0 or lead == len(items) or not masks.is_mask(items[lead]) or \
            any(map(_is_index_array, items[lead + 1:])):
        return None, None, ()
    return tuple(items[:lead]), items[lead], tuple(items[lead + 1:])


def _is_index_array(k) -> bool:
    return isinstance(k, (Array, np.ndarray, list)) or (hasattr(k, "dtype") and not isinstance(k, np.integer))


def _is_int(k) -> bool:
    return isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_))


def _array_key(key) -> tuple[tuple | None, tuple]:
    """(the index arrays and ints of the leading axes, the basic key of the others) when the key starts with
    integer arrays (``a[idx]``, ``a[rows, cols]``, ``a[0, idx, 1:]``); (None, ()) for other keys."""
    items = key if isinstance(key, tuple) else (key,)
    lead = 0
    while lead < len(items) and (_is_index_array(items[lead]) or _is_int(items[lead])):
        lead += 1
    if not any(map(_is_index_array, items[:lead])) or any(map(_is_index_array, items[lead:])):
        return None, ()  # basic, or arrays after a slice: _normalize_key names what is supported
    return tuple(items[:lead]), tuple(items[lead:])


def setitem(a: Array, key, value) -> Array:
    """The array equal to ``a`` with ``a[key]`` replaced by ``value`` (cast to a's dtype, broadcast).

    Values follow NumPy's assignment rules: Python ints and floats must fit the dtype (OverflowError, and
    ValueError for NaN into ints), arrays are cast as ``astype`` does, and the value must broadcast to the region.

    >>> import kdsl as kd
    >>> a = kd.zeros(3, dtype=kd.int32)
    >>> a[0] = 2**40
    Traceback (most recent call last):
    ...
    OverflowError: Python integer 1099511627776 out of bounds for int32
    """
    key = _tuples_as_lists(key)
    if isinstance(key, (bool, np.bool_)):  # a[True] = v writes all of a, a[False] = v nothing (0-d masks)
        key = (key,)
    elif key.__class__ is tuple and len(key) == 1 and _is_index_array(key[0]) and masks.is_mask(key[0]):
        key = key[0]  # a[(mask,)] = v is a[mask] = v, NumPy's boolean assignment (a 2-d value: its TypeError)
    key_limits.check(key, a.ndim)
    if element_values.is_sequence(value) and element_values.is_element_key(key, a.ndim):
        key = element_values.as_ints(key)  # a[i, j] = [v]: NumPy stores one scalar, after its index check
        apply_key(View.contiguous(a.shape), key)
        value = element_values.element_value(value, a)
    if not _plain(key):  # (a plain key, a loop's u[1:-1] = v, skips the checks for masks and index arrays)
        _no_float_arrays(key)
        key_limits.check_indexed(key, a.shape)  # too many indices, a zero step: NumPy's errors before any other
        if scalar_bool_index.write(a, key, value):  # a[0, True] = v, a[True, idx] = v: NumPy's 0-d masks
            return a
        key = _scalars_as_ints(_ranges_as_arrays(key))
        if mixed_mask_index.separated(key):  # x[:, mask, 1:, 0] = v: as its index arrays (NumPy's axis order)
            key = mixed_mask_index.expand(key, a.shape)
        spelled = ellipsis_mask.expand(a, key)
        if spelled is not None and spelled[0] is a:  # a[..., mask] = v: as a[:, mask] = v
            key = spelled[1]
        special = _special_setitem(a, key, value)
        if special is not None:
            return special
    region, shape = apply_key(View.contiguous(a.shape), key)
    dev = a.device
    element_values.check_depth(value, len(shape))  # a[0:1] = [[3]]: NumPy's list nests at most as deep as the view
    vnode = checked_value(value, a, basic=True)._node
    vnode = _fit_value(vnode, shape)  # checks the value's shape even for an empty region, as NumPy does
    if region.size == 0:
        return a
    vnode = mv.reshape_node(vnode, region.shape)
    whole = View.contiguous(a.shape)
    if _already_written(a._node, vnode, (whole, region)):
        return a
    return Array(Node("assemble", (a._node, vnode), a.dtype, a.shape, (whole, region), device=dev))


def _special_setitem(a: Array, key, value) -> Array | None:
    """``a[key] = value`` for masks and index arrays (the new array), or None for basic indexing."""
    if isinstance(key, (Array, np.ndarray, list)) and masks.is_mask(key):  # a[mask] = v (NumPy's rule)
        return masks.setmask(a, key, value)
    if _is_0d_mask(key):  # a[m] = v with a 0-d bool array m: all of a or nothing, as a[None][m[None]] = v
        return masks.setmask(a[None], _as_1_mask(key), value).reshape(a.shape)
    lead, mask, rest = _inner_mask_key(key)
    if mask is not None:  # a[:, mask] = v: the region's mask axes moved first, a[mask] = v there, written back
        return inner_mask.set(a, lead, mask, rest, value)
    mask, rest = _mask_key(key)
    if mask is not None:  # a[mask, 0] = v: the region a[:, 0] gets region[mask] = v, written back
        return inner_mask.set(a, (), mask, rest, value)
    ints, mask, rest = _int_mask_key(key)
    if mask is not None:  # a[0, mask] = v: a[0] with a[0][mask, ...] = v, written back (the ``...`` keeps it
        return setitem(a, ints, setitem(a[ints], (mask,) + (rest or (Ellipsis,)), value))  # off a[mask]'s rules)
    expanded = mixed_mask_index.expand(key, a.shape)
    if expanded is not None:  # a[idx, mask] = v: the mask's nonzero indices with the other index arrays
        return setitem(a, expanded, value)
    scalar = scalar_index.split(key, a.ndim)
    if scalar is not None:  # 0-d integer kdsl arrays anywhere in a basic key: treated as ints
        return scalar_index.set(a, scalar, value)
    rows = index_assignment.int_array_key(key) if _array_key(key)[0] is not None else None
    if rows is not None:  # integer arrays on the leading axes: a gather-based scatter
        return index_assignment.assign_rows(a, rows, value)
    inner = inner_index.plan(key, a.ndim)
    if inner is not None:  # integer arrays anywhere else (a[:, idx] = v, a[idx, 1:] = v): axes moved first
        return inner_index.set(a, inner, value)
    return None


def _already_written(node: Node, vnode: Node, regions: tuple) -> bool:
    """Whether ``node`` is the very assignment of ``vnode`` to ``regions``: ``a[i] += v`` writes the view
    ``a[i]`` back into ``a`` in ``__iadd__`` (as ``r = a[i]; r += v`` must), then Python assigns ``a[i]`` again;
    that second copy of ``a`` is skipped."""
    if node.op != "assemble" or len(node.srcs) != 2 or node.arg != regions:
        return False
    old = node.srcs[1]
    return old is vnode or (old.op == vnode.op == "view" and old.srcs[0] is vnode.srcs[0] and old.arg == vnode.arg)


def _fit_value(vnode: Node, shape: tuple[int, ...]) -> Node:
    """Broadcast an assigned value to the region's shape; leading size-1 axes beyond it drop, as in NumPy."""
    extra = len(vnode.shape) - len(shape)
    if extra > 0 and all(n == 1 for n in vnode.shape[:extra]):
        vnode = mv.reshape_node(vnode, vnode.shape[extra:])
    try:
        return mv.broadcast_node(vnode, shape)
    except ValueError:
        raise ValueError(f"could not broadcast input array from shape {shape_text(vnode.shape)} into shape "
                         f"{shape_text(shape)}") from None
