"""Scalar booleans inside a key: ``a[False, True, ...]``, ``a[0, True]``, ``a[..., False]``.

NumPy reads a scalar ``True``/``False`` in a key as a 0-d boolean mask, not as the int 1/0: all of them together
add one axis, of length 1 when every one is True and 0 otherwise, and they consume no axis of ``a``. As advanced
indices (with the ints of the key, which count as advanced once one is there) the new axis stands where the
group does when the group is contiguous, else first. The rest of the key is basic indexing; the result is a
copy, as NumPy's advanced indexing gives. Beside index arrays or masks (``a[True, [0, 1]]``) each boolean is
an index array ``[0]`` (True) or ``[]`` (False) into a new axis of length 1 (:func:`with_arrays`), so it
broadcasts with them as NumPy's does.

    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.arange(24).reshape(2, 3, 4))
    >>> a[False, True, ...].shape, a[0, True].shape, a[:, True, 0].shape, a[0, :, True].shape
    ((0, 2, 3, 4), (1, 3, 4), (2, 1, 4), (1, 3, 4))
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np

from kdsl.errors import shape_text
from kdsl.frontend.array.array import Array


class Plan(NamedTuple):
    basic: tuple      # the key without its booleans
    position: int     # where the booleans' axis goes in the result
    keep: bool        # every boolean True: the axis has length 1 (else 0)


def _is_bool(k: Any) -> bool:
    return isinstance(k, (bool, np.bool_))


def _is_int(k: Any) -> bool:
    return isinstance(k, (int, np.integer)) and not _is_bool(k)


def split(key: Any, ndim: int) -> Plan | None:
    """The plan for a tuple key holding scalar booleans among basic items (ints, slices, None, ...); None for
    any other key (the other index paths)."""
    if key.__class__ is not tuple or not any(_is_bool(k) for k in key):
        return None
    if not all(_is_bool(k) or _is_int(k) or k is None or k is Ellipsis or isinstance(k, slice) for k in key):
        return None
    group = [i for i, k in enumerate(key) if _is_bool(k) or _is_int(k)]
    contiguous = group == list(range(group[0], group[-1] + 1))
    position = _output_dims(key[:group[0]], key, ndim) if contiguous else 0
    basic = tuple(k for k in key if not _is_bool(k))
    return Plan(basic, position, all(bool(k) for k in key if _is_bool(k)))


def _is_0d_bool(k: Any) -> bool:
    """A scalar boolean or a 0-d boolean array (kdsl's or NumPy's): NumPy's 0-d mask."""
    return _is_bool(k) or (isinstance(k, (Array, np.ndarray)) and k.ndim == 0 and np.dtype(k.dtype) == np.bool_)


def _axes_taken(k: Any) -> int:
    """How many axes of ``a`` the key item ``k`` (not a boolean, ``None`` or ``...``) consumes: a mask its ndim."""
    from kdsl.frontend.array import masks  # cycle: masks builds Arrays through indexing

    return int(np.ndim(k)) if masks.is_mask(k) else 1


def with_arrays(key: Any) -> tuple[tuple, tuple] | None:
    """For a tuple key mixing 0-d masks (``True``, ``np.False_``, a 0-d boolean array) with index arrays or
    masks (``a[True, [0, 1]]``, ``a[idx, np.True_, 1:]``): ``(first, then)``, two keys with
    ``a[key] == a[first][then]``. ``first`` (slices, ``None``, ``...`` only: a view) inserts a length-1 axis
    for each boolean; ``then`` indexes each such axis with ``[0]`` (True) or ``[]`` (False), an integer array
    that broadcasts with the other advanced indices and stands where NumPy's boolean does. None for any other key.

    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.arange(12).reshape(3, 4))
    >>> a[True, [0, 2]].shape, a[:, False, [1]].shape, a[[0, 1], True].tolist()
    ((2, 4), (3, 0), [[0, 1, 2, 3], [4, 5, 6, 7]])
    """
    if key.__class__ is not tuple or not any(_is_0d_bool(k) for k in key):
        return None
    first: list = []
    then: list = []
    for k in key:
        if _is_0d_bool(k):  # a kdsl 0-d mask is read back: its value decides the result's shape
            first.append(None)
            then.append(np.zeros(1 if bool(k) else 0, np.intp))
        elif k is None:
            first.append(None)
            then.append(slice(None))
        elif k is Ellipsis:
            first.append(k)
            then.append(k)
        else:
            first.extend([slice(None)] * _axes_taken(k))
            then.append(k)
    return tuple(first), tuple(then)


def read(a: Array, key: Any) -> Array | None:
    """``a[key]`` for a key holding NumPy's 0-d masks (``a[False, True]``, ``a[0, True]``: :func:`split`;
    ``a[True, idx]``: :func:`with_arrays`, the view with the booleans' axes indexed); None for any other key."""
    booleans = split(key, a.ndim)
    if booleans is not None:
        return get(a, booleans)
    two_steps = with_arrays(key)
    if two_steps is None:
        return None
    first, then = two_steps
    with own_axes(first, a.ndim):
        return a[first][then]


def write(a: Array, key: Any, value: Any) -> bool:
    """``a[key] = value`` for a key :func:`read` takes (the view with the booleans' axes writes through into
    ``a``); whether ``key`` was one."""
    booleans = split(key, a.ndim)
    if booleans is not None:
        check_whole_mask(a, key, value)
        set(a, booleans, value)
        return True
    two_steps = with_arrays(key)
    if two_steps is None:
        return False
    first, then = two_steps
    with own_axes(first, a.ndim):
        a[first][then] = value
    return True


@contextlib.contextmanager
def own_axes(first: tuple, ndim: int) -> Iterator[None]:
    """An out-of-bounds IndexError raised inside, re-raised with "for axis K" counted among ``a``'s ``ndim`` axes,
    as NumPy's names it (``first`` inserted axes of length 1 before K: the view's axis numbers are not ``a``'s)."""
    try:
        yield
    except IndexError as error:
        raise _on_own_axes(error, first, ndim) from None


def _on_own_axes(error: IndexError, first: tuple, ndim: int) -> IndexError:
    match = re.match(r"index (-?\d+) is out of bounds for axis (\d+) with size (\d+)$", str(error))
    if match is None:
        return error
    explicit = sum(1 for j in first if j is not None and j is not Ellipsis)  # axes of ``a`` the key names
    origin: list[int | None] = []  # the axis of ``a`` each axis of ``a[first]`` is (None: a boolean's)
    axis = 0
    for k in first:
        if k is None:
            origin.append(None)
            continue
        for _ in range(max(ndim - explicit, 0) if k is Ellipsis else 1):
            origin.append(axis)
            axis += 1
    origin += list(range(axis, ndim))
    own = origin[int(match.group(2))] if int(match.group(2)) < len(origin) else None
    if own is None:
        return error
    return IndexError(f"index {match.group(1)} is out of bounds for axis {own} with size {match.group(3)}")


def _output_dims(before: tuple, key: tuple, ndim: int) -> int:
    """How many result axes the items ``before`` give (``...`` spans the axes the whole key leaves over)."""
    consumed = sum(1 for k in key if _is_int(k) or isinstance(k, slice))
    return sum(max(ndim - consumed, 0) if k is Ellipsis else 0 if _is_int(k) else 1 for k in before)


def get(a: Array, plan: Plan) -> Array:
    """``a[key]`` by the plan: the basic part, the booleans' axis inserted (emptied by a False), copied."""
    part = a[plan.basic] if plan.basic else a
    lead = (slice(None),) * plan.position
    out = part[lead + (None,)]
    return (out if plan.keep else out[lead + (slice(0, 0),)]).copy()


def check_whole_mask(a: Array, key: Any, value: Any) -> None:
    """``z[True] = v`` on a 0-d ``z``: the boolean is the whole mask, and NumPy's mask assignment refuses a value
    of two or more dimensions with a TypeError (with more items in the key, a shape ValueError as elsewhere).

    >>> import kdsl as kd
    >>> check_whole_mask(kd.asarray(1.0), (True,), [[2.0]])
    Traceback (most recent call last):
    ...
    TypeError: NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input has 2 dimensions
    """
    ndim = value.ndim if isinstance(value, Array) else np.ndim(value)
    if a.ndim == 0 and len(key) == 1 and _is_bool(key[0]) and ndim > 1:
        raise TypeError("NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input has "
                        f"{ndim} dimensions")


def set(a: Array, plan: Plan, value: Any) -> None:  # noqa: A001 - the setter beside get
    """``a[key] = value`` by the plan: ``value`` (checked and cast as any stored value: NaN into integers is
    NumPy's ValueError) must broadcast to the result's shape, even when a False makes it empty and nothing is
    written."""
    from kdsl.frontend.array.shape_ops import broadcast_values_to  # cycle: shape_ops builds on the indexing modules
    from kdsl.frontend.array.stored_values import checked_value

    part = a[plan.basic] if plan.basic else a
    shape = part.shape[:plan.position] + ((1,) if plan.keep else (0,)) + part.shape[plan.position:]
    v = checked_value(value, a)
    while v.ndim > len(shape) and v.shape[0] == 1:  # leading length-1 axes beyond the result drop, as in NumPy
        v = v.reshape(v.shape[1:])
    if _broadcast(v.shape, shape) != shape:
        raise ValueError(f"shape mismatch: value array of shape {shape_text(v.shape)} could not be broadcast to "
                         f"indexing result of shape {shape_text(shape)}")
    if not plan.keep:
        return
    v = broadcast_values_to(v, shape)
    a[plan.basic if plan.basic else (Ellipsis,)] = v[(slice(None),) * plan.position + (0,)]


def _broadcast(*shapes: tuple[int, ...]) -> tuple[int, ...] | None:
    """NumPy's broadcast shape of ``shapes``, None where they do not broadcast."""
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        return None
