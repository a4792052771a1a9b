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


def set(a: Array, plan: Plan, value: Any) -> None:  # noqa: A001 - the setter beside get
    """``a[key] = value`` by the plan: ``value`` must broadcast to the result's shape; a False writes nothing."""
    from kdsl.frontend.array.shape_ops import broadcast_values_to  # cycle: shape_ops builds on the indexing modules

    part = a[plan.basic] if plan.basic else a
    shape = part.shape[:plan.position] + ((1,) if plan.keep else (0,)) + part.shape[plan.position:]
    v = value if isinstance(value, Array) else np.asarray(value)
    np.broadcast_shapes(v.shape, shape)  # NumPy's ValueError for a value of the wrong shape
    if not plan.keep:
        return
    v = broadcast_values_to(v, shape)
    a[plan.basic if plan.basic else (Ellipsis,)] = v[(slice(None),) * plan.position + (0,)]
