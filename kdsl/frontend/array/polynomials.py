"""NumPy's legacy polynomial functions on coefficient arrays, highest power first: ``polyval polyadd polysub
polymul polyder polyint``, as fused arithmetic on the device (``polyfit`` needs least squares: it lives in
:mod:`kdsl.linalg.polyfit`; ``roots``, ``poly`` and ``poly1d`` need eigenvalues: :mod:`kdsl.linalg`).

Example:
    >>> import kdsl as kd
    >>> p = kd.asarray([1, 2, 3])          # x**2 + 2x + 3
    >>> kd.polyval(p, kd.asarray([0, 1, 2])).tolist(), kd.polyder(p).tolist(), kd.polymul(p, p).tolist()
    ([3, 6, 11], [2, 2], [1, 4, 10, 12, 9])
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array, realize
from kdsl.frontend.array.creation import arange, as_array, as_arrays, asarray, zeros
from kdsl.frontend.array.horner_blocks import evaluate, horner
from kdsl.frontend.array.joining import atleast_1d
from kdsl.frontend.array.padding import pad
from kdsl.frontend.array.reductions import any as kany
from kdsl.frontend.array.reductions import argmax
from kdsl.frontend.array.reductions import sum as ksum
from kdsl.frontend.array.shape_ops import broadcast_values_to, concatenate
from kdsl.frontend.array.sliding_window import sliding_window_view


def rewrap(inputs: tuple[Any, ...], result: Any) -> Any:
    """``result`` as NumPy's polynomial functions return it: a ``poly1d`` (each array of a tuple one) when an
    input is one. kdsl's ``poly1d`` lives above this layer, so it is recognised by the protocol it implements,
    ``__kdsl_array__`` (its coefficients), and rebuilt by calling its type."""
    wrapper = next((type(x) for x in inputs if hasattr(type(x), "__kdsl_array__")), None)
    if wrapper is None:
        return result
    return tuple(wrapper(r) for r in result) if isinstance(result, tuple) else wrapper(result)


def _pair(a1: Any, a2: Any) -> tuple[Array, Array]:
    dev = ops.device_of((a1, a2))
    a, b = as_arrays(a1, a2, device=dev)
    return atleast_1d(a), atleast_1d(b)


def _int64(device: Any) -> dt.DType:
    """NumPy's default integer (of ``arange``), or int32 on a device without 64-bit integers."""
    return dt.int64 if device.supports(dt.int64) else dt.int32


def polyval(p: Any, x: Any) -> Array:
    """The polynomial with coefficients ``p`` (highest power first) at ``x``, by Horner's rule (the dtype is
    that of ``x`` and ``p`` together, as NumPy's); a long ``p`` by blocks of coefficients, a few lazy steps
    (:mod:`kdsl.frontend.array.horner_blocks`: NumPy's results to rounding). As NumPy's, each step adds the row
    ``p[i]`` to ``y * x``: coefficients of shape ``(deg + 1, K)`` evaluate ``K`` polynomials at once where ``x``
    broadcasts with ``(K,)`` (a scalar, or ``x[:, None]``).

    >>> import kdsl as kd
    >>> kd.polyval([3.0, 0.0, 1.0], kd.asarray([1.0, 2.0])).tolist()
    [4.0, 13.0]
    >>> kd.polyval(kd.asarray([[1.0, 0.0], [0.0, 2.0]]), kd.asarray([[3.0], [4.0]])).tolist()  # x + 0, 0x + 2
    [[3.0, 2.0], [4.0, 2.0]]
    """
    dev = ops.device_of((p, x))
    coefficients, xs = as_arrays(p, x, device=dev)
    if isinstance(x, (float, complex)) and coefficients.dtype.name in ("float64", "complex128"):
        # a Python number x at the coefficients' precision (kdsl's float32 default would round 0.3 first)
        xs = asarray(x, dtype=dt.complex128 if isinstance(x, complex) else dt.float64, device=dev)
    return evaluate(coefficients, xs) if coefficients.ndim else horner(coefficients, xs)


def _aligned(a1: Any, a2: Any) -> tuple[Array, Array]:
    """Both coefficient arrays, the shorter padded with leading zeros (the same powers meet)."""
    a, b = _pair(a1, a2)
    n = max(a.shape[0], b.shape[0])
    a = pad(a, [(n - a.shape[0], 0)] + [(0, 0)] * (a.ndim - 1)) if a.shape[0] < n else a
    b = pad(b, [(n - b.shape[0], 0)] + [(0, 0)] * (b.ndim - 1)) if b.shape[0] < n else b
    return a, b


def polyadd(a1: Any, a2: Any) -> Any:
    """The sum of two polynomials (coefficients, highest power first).

    >>> import kdsl as kd
    >>> kd.polyadd(kd.asarray([1, 2]), kd.asarray([9, 5, 4])).tolist()
    [9, 6, 6]
    """
    a, b = _aligned(a1, a2)
    return rewrap((a1, a2), a + b)


def polysub(a1: Any, a2: Any) -> Any:
    """The difference of two polynomials (coefficients, highest power first).

    >>> import kdsl as kd
    >>> kd.polysub(kd.asarray([2, 10, -2]), kd.asarray([3, 10, -4])).tolist()
    [-1, 0, 2]
    """
    a, b = _aligned(a1, a2)
    return rewrap((a1, a2), a - b)


def _trimmed(c: Array) -> Array:
    """``c`` without its leading zeros (``[0]`` if nothing is left), as NumPy's ``poly1d`` keeps a polynomial:
    reads back where the first nonzero coefficient is (one sync)."""
    if c.ndim != 1:
        raise ValueError("Polynomial must be 1d only.")
    if c.size == 0:
        return zeros(1, dtype=c.dtype, device=c.device)
    nonzero = c != 0
    found, first = kany(nonzero), argmax(nonzero)
    realize(found, first)
    return c[int(first):] if bool(found) else zeros(1, dtype=c.dtype, device=c.device)


def polymul(a1: Any, a2: Any) -> Any:
    """The product of two polynomials: the full convolution of their coefficients, each coefficient the sum of
    its products (:func:`_products`, read by the reduction without being stored). Leading zeros are dropped
    first, as NumPy's ``poly1d`` drops them: that reads back the position of each operand's first nonzero
    coefficient (the result's length).

    >>> import kdsl as kd
    >>> kd.polymul(kd.asarray([1, 2, 3]), kd.asarray([9, 5, 1])).tolist()
    [9, 23, 38, 17, 3]
    """
    a, b = (_trimmed(c) for c in _pair(a1, a2))
    terms = _products(a, b)
    if terms.dtype is dt.bool_:
        return rewrap((a1, a2), kany(terms, axis=0))
    return rewrap((a1, a2), ksum(terms, axis=0, dtype=terms.dtype))


def _products(a: Array, b: Array) -> Array:
    """The products ``a[j] * b[k - j]`` of a polynomial product as rows (one per coefficient of the shorter
    operand) of ``n + m - 1`` columns, zero where ``k - j`` is outside ``b``: a column of the shorter operand,
    reversed, times the sliding windows of the longer one padded with zeros. It stays lazy, read by the
    reduction over its rows, so memory is O(n + m) (an outer product skewed into place stored n * (n + m - 1)
    elements: 200 MB of int64 for 5000 coefficients times 6, more than lavapipe's buffers hold).

    >>> import kdsl as kd
    >>> _products(kd.asarray([1, 2]), kd.asarray([3, 4, 5])).tolist()
    [[0, 6, 8, 10], [3, 4, 5, 0]]
    """
    if a.shape[0] > b.shape[0]:
        a, b = b, a  # the product commutes: the shorter operand gives the rows
    n, m = a.shape[0], b.shape[0]
    windows = sliding_window_view(pad(b, [(n - 1, n - 1)]), n + m - 1)  # row r: b shifted n - 1 - r right
    terms = a[::-1, None] * windows
    if not (terms.dtype.is_float or terms.dtype.is_complex):
        return terms
    # inf or NaN times the padding would be NaN where NumPy's sum has no product at all
    shift = arange(n - 1, -1, -1, device=a.device)[:, None]
    k = arange(n + m - 1, device=a.device)
    return ops.where((k >= shift) & (k < shift + m), terms, 0)


def polyder(p: Any, m: int = 1) -> Any:
    """The ``m``-th derivative of a polynomial (coefficients, highest power first).

    >>> import kdsl as kd
    >>> kd.polyder(kd.asarray([1, 1, 1, 1]), m=2).tolist()
    [6, 2]
    """
    m = operator.index(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    c = as_array(p)
    for _ in range(m):
        n = c.shape[0] - 1 if c.ndim else 0
        c = c[:-1] * arange(n, 0, -1, dtype=_int64(c.device), device=c.device)
    return rewrap((p,), c)


def _constants(k: Any, m: int, device: Any) -> Array:
    """The integration constants (NumPy's rules: None zeros, one value repeated, else at least ``m``)."""
    kk = as_array(k, device) if isinstance(k, Array) else \
        asarray(np.atleast_1d(np.zeros(m) if k is None else np.asarray(k)), device=device)
    kk = atleast_1d(kk)
    if kk.ndim != 1:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    if kk.shape[0] == 1 and m > 1:
        # NumPy repeats it as k[0] * ones(m) (float64)
        wide = dt.as_dtype(np.result_type(kk.dtype.np, np.float64))
        kk = broadcast_values_to(kk, (m,)).astype(wide if device.supports(wide) else dt.float32)
    if kk.shape[0] < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    return kk


def polyint(p: Any, m: int = 1, k: Any = None) -> Any:
    """The ``m``-th antiderivative of a polynomial (coefficients, highest power first), with the constants
    ``k`` (one per integration, the first one's lowest; a scalar is used for every one; default zeros).

    >>> import kdsl as kd
    >>> kd.polyint(kd.asarray([3.0, 2.0, 1.0]), k=5.0).tolist()
    [1.0, 1.0, 1.0, 5.0]
    """
    m = operator.index(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    c = as_array(p)
    kk = _constants(k, m, c.device)
    for i in range(m):
        n = c.shape[0] if c.ndim else 1
        divided = c / arange(n, 0, -1, dtype=_int64(c.device), device=c.device)
        c = concatenate([divided, kk[i:i + 1]])
    return rewrap((p,), c)


__all__ = ["polyadd", "polyder", "polyint", "polymul", "polysub", "polyval"]
