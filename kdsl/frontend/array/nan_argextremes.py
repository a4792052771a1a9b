"""``nanargmax`` and ``nanargmin``: the index of the largest (smallest) non-NaN element, NumPy 2's semantics.

NaNs are replaced by -inf (+inf) in a ``where`` that fuses into the arg-reduction, as NumPy does, so ties keep
the first index. A slice holding only NaNs raises ``ValueError("All-NaN slice encountered")`` as in NumPy:
deciding that needs one synchronisation (a single bool, "is any slice all NaN?", read back before the result
is returned). Integer and bool inputs have no NaNs and go straight to ``argmax``/``argmin``.

Example:
    >>> import kdsl as kd
    >>> x = kd.asarray([[float("nan"), 4.0], [2.0, 5.0]])
    >>> kd.nanargmax(x, axis=0).tolist(), kd.nanargmin(x, axis=1).tolist()
    ([1, 1], [1, 0])
"""

from __future__ import annotations

from typing import Any

from kdsl.frontend.array import reduction_where as rw
from kdsl.frontend.array import reductions as red
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_array
from kdsl.frontend.array.math import isnan, where


def _nan_arg(a: Any, axis: Any, out: Any, keepdims: bool, largest: bool) -> Array:
    if out is not None:  # NumPy's out=: the result written into a kdsl array
        return rw.into(_nan_arg(a, axis, None, keepdims, largest), rw.index_out(out))
    x = as_array(a)
    pick = red.argmax if largest else red.argmin
    if x.dtype.kind not in "fc" or x.size == 0:  # no NaNs; the empty case raises in pick as NumPy's does
        return pick(x, axis, keepdims=keepdims)
    nan = isnan(x)
    if bool(red.any(red.all(nan, axis))):  # the one synchronisation: a bool read back
        raise ValueError("All-NaN slice encountered")
    filled = where(nan, float("-inf") if largest else float("inf"), x)
    return pick(filled, axis, keepdims=keepdims)


def nanargmax(a: Any, axis: int | None = None, out: Any = None, *, keepdims: bool = False) -> Array:
    """Index of the largest non-NaN element over ``axis`` (``None``: of the flattened array; first one on
    ties). An all-NaN slice raises ``ValueError``. Synchronises once (the all-NaN check).

    Example:
        >>> import kdsl as kd
        >>> int(kd.nanargmax(kd.asarray([1.0, float("nan"), 3.0])))
        2
    """
    return _nan_arg(a, axis, out, keepdims, largest=True)


def nanargmin(a: Any, axis: int | None = None, out: Any = None, *, keepdims: bool = False) -> Array:
    """Index of the smallest non-NaN element over ``axis`` (``None``: of the flattened array; first one on
    ties). An all-NaN slice raises ``ValueError``. Synchronises once (the all-NaN check).

    Example:
        >>> import kdsl as kd
        >>> int(kd.nanargmin(kd.asarray([float("nan"), 2.0, 1.0])))
        2
    """
    return _nan_arg(a, axis, out, keepdims, largest=False)


__all__ = ["nanargmax", "nanargmin"]
