"""``var``/``std`` with an integer or bool ``dtype=``: NumPy's steps, each result cast back to that dtype.

NumPy computes the variance in the requested dtype step by step: the mean is the sum of the values cast to
``dtype``, divided by the count and cast back (truncated); the deviations ``x - mean`` take the usual promotion;
their squares are summed in ``dtype`` again and divided by ``max(count - ddof, 0)``, cast back. ``std``'s square
root is cast back too for a 0-d result, while an n-d one is NumPy's ``UFuncTypeError`` (``sqrt(ret, out=ret)``
cannot store a float in an integer array). kdsl follows those steps on the device.

    >>> import kdsl as kd
    >>> kd.var(kd.asarray([0.0, 1.0, 2.0, 3.0, 4.0]), dtype=kd.int32).item()
    2
    >>> try:
    ...     kd.std(kd.asarray([[0.0, 1.0, 5.0]]), axis=1, dtype=kd.int32)
    ... except TypeError as e:  # NumPy's UFuncTypeError
    ...     print(e)
    Cannot cast ufunc 'sqrt' output from dtype('float64') to dtype('int32') with casting rule 'same_kind'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import ops
from kdsl.frontend.array import reduction_where as rw
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.ufunc_errors import output_casting_error


def is_integer_moment(d: dt.DType) -> bool:
    """Whether ``var``/``std`` with ``dtype=d`` takes NumPy's integer steps (integer and bool dtypes)."""
    return d.np.kind in "biu"


def integer_variance(x: Array, axes: tuple[int, ...], d: dt.DType, ddof: Any, keepdims: bool, where: Any,
                     root: bool, mean: Array | None = None) -> Array:
    """NumPy's ``var`` (``std`` when ``root``) of ``x`` over ``axes`` with the integer or bool dtype ``d``
    (``mean``: the mean already computed, with ``keepdims=True``'s shape, used as it is)."""
    from kdsl.frontend.array.reductions import sum as total  # cycle: reductions calls this module

    count = rw.count(x, where, axes, dt.int64, True)
    n = int(np.prod([x.shape[a] for a in axes])) if count is None else count
    if mean is None:
        mean = _cast_back(total(x, axis=axes, dtype=d, keepdims=True, where=where) / n, d)
    centred = x - mean
    if centred.dtype.kind == "c":  # NumPy: multiply(x, conj(x)).real
        squares = ops.apply("real", centred * ops.apply("conj", centred))
    else:
        squares = centred * centred
    sums = total(squares, axis=axes, dtype=d, keepdims=keepdims, where=where)
    left = n - ddof if count is None else ops.apply("maximum", count - ddof, 0)
    if count is not None and not keepdims:
        left = left.reshape(sums.shape)
    variance = _cast_back(sums / (max(left, 0) if count is None else left), d)
    if not root:
        return variance
    roots = ops.apply("sqrt", variance)
    if variance.ndim:  # NumPy's sqrt(ret, out=ret) into the integer result array
        raise output_casting_error("sqrt", roots.dtype, d, "same_kind")
    return _cast_back(roots, d)


def _cast_back(values: Array, d: dt.DType) -> Array:
    """NumPy's ``true_divide(..., out=ret, casting='unsafe')``: the float quotient cast (truncated) to ``d``."""
    return values if values.dtype is d else values.astype(d)
