"""NumPy's ``chebinterpolate``: the Chebyshev series of degree ``deg`` that interpolates a function at the
``deg + 1`` Chebyshev points of the first kind.

At those points the Chebyshev polynomials are discretely orthogonal, so the interpolant's coefficients are
plain sums: ``c_j = (2 / N) sum_k f(x_k) T_j(x_k)`` (``c_0`` halved), one matrix-vector product with the
Vandermonde matrix on the device. ``func`` is called once with the kdsl array of points (array math on it runs
on the device; write it with ``kd`` functions).

Example:
    >>> import kdsl as kd
    >>> c = kd.polynomial.chebyshev.chebinterpolate(lambda x: x * x, 2)
    >>> [round(v, 6) + 0.0 for v in c.tolist()]
    [0.5, 0.0, 0.5]
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import kdsl as kd
from kdsl.polynomial.gauss_quadrature import chebpts1


def _degree(deg: Any) -> int:
    try:
        n = operator.index(deg)
    except TypeError:
        raise TypeError("deg must be an int") from None
    if n < 0:
        raise ValueError("expected deg >= 0")
    return n


def chebinterpolate(func: Callable[..., Any], deg: Any, args: tuple[Any, ...] = ()) -> kd.Array:
    """The Chebyshev coefficients (lowest degree first) of ``func(x, *args)`` interpolated at the ``deg + 1``
    Chebyshev points of the first kind."""
    # (the module that exports this function imports this one; it makes chebvander with basis_names)
    from kdsl.polynomial.chebyshev import chebvander  # type: ignore[attr-defined]

    n = _degree(deg)
    x = chebpts1(n + 1)
    y = kd.asarray(func(x, *args))
    sums = kd.matmul(chebvander(x, n).T, y.astype(kd.result_type(y.dtype, x.dtype)))
    scale = kd.full(n + 1, 2.0 / (n + 1), dtype=sums.dtype, device=sums.device)
    scale[0] = 1.0 / (n + 1)
    return (sums.T * scale).T


__all__ = ["chebinterpolate"]
