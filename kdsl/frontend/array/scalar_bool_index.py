"""Scalar booleans inside a key: ``a[False, True, ...]``, ``a[0, True]``, ``a[..., False]``.

NumPy reads a scalar ``True``/``False`` in a key as a 0-d boolean mask, not as the int 1/0: all of them together
add one axis, of length 1 when every one is True and 0 otherwise, and they consume no axis of ``a``. As advanced
indices (with the ints of the key, which count as advanced once one is there) the new axis stands where the
group does when the group is contiguous, else first. The rest of the key is basic indexing; the result is a
copy, as NumPy's advanced indexing gives.

    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.arange(24).reshape(2, 3, 4))
    >>> a[False, True, ...].shape, a[0, True].shape, a[:, True, 0].shape, a[0, :, True].shape
    ((0, 2, 3, 4), (1, 3, 4), (2, 1, 4), (1, 3, 4))
"""

from __future__ import annotations

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
