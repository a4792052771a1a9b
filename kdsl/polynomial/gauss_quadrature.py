"""Gauss quadrature of the classical orthogonal families, NumPy's ``leggauss chebgauss hermgauss hermegauss
laggauss``, their weight functions ``legweight chebweight hermweight hermeweight lagweight`` and the Chebyshev
points ``chebpts1 chebpts2``.

The nodes are the eigenvalues of the symmetric tridiagonal Jacobi matrix of the family's three-term recurrence
(Golub-Welsch: ``kd.linalg.eigvalsh`` on the device, in float64 where the device has it); each weight is the
reciprocal of the sum of the squared orthonormal polynomials at its node (evaluated by the recurrence, fused on
the device), scaled so that the weights sum to the integral of the weight function, as NumPy rescales its own.
Symmetric families are symmetrised as NumPy's are, so ``x[i] == -x[-1 - i]`` exactly. Chebyshev's are closed form.

Example:
    >>> import kdsl as kd
    >>> x, w = kd.polynomial.legendre.leggauss(3)
    >>> round(float((w * x**4).sum()), 12)   # exact for degree <= 5: the integral of x**4 over [-1, 1]
    0.4
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

import kdsl as kd


def _degree(deg: Any, name: str = "deg") -> int:
    try:
        n = operator.index(deg)
    except TypeError:
        raise TypeError(f"{name} must be an integer") from None
    if n <= 0:
        raise ValueError(f"{name} must be a positive integer")
    return n


def _float() -> Any:
    return kd.float64 if kd.device().supports(kd.float64) else kd.float32


def _golub_welsch(deg: Any, diagonal: Callable[[int], float], off: Callable[[int], float], mu0: float,
                  symmetric: bool) -> tuple[kd.Array, kd.Array]:
    """(nodes, weights) for the orthonormal recurrence ``b[k+1] p[k+1] = (x - a[k]) p[k] - b[k] p[k-1]`` with
    ``a[k] = diagonal(k)``, ``b[k] = off(k)`` (the Jacobi matrix's entries, host constants of ``deg``) and a
    weight function integrating to ``mu0``. The weights are the Christoffel numbers ``1 / sum p[k](x)**2``,
    accurate relative to their size even where they are tiny (eigenvector components squared are not)."""
    n = _degree(deg)
    f = _float()
    a = [float(diagonal(k)) for k in range(n)]
    b = [0.0] + [float(off(k)) for k in range(1, n)]
    J = np.diag(a) + np.diag(b[1:], 1) + np.diag(b[1:], -1)  # a constant of deg, not data
    x = kd.linalg.eigvalsh(kd.asarray(J, dtype=f))
    if symmetric:  # exact symmetry, as NumPy's (the eigensolver leaves rounding-level asymmetry)
        x = (x - x[::-1]) / 2
    p_prev, p = 0.0 * x, 0.0 * x + 1.0 / math.sqrt(mu0)
    total = p * p
    for k in range(n - 1):
        p_prev, p = p, ((x - a[k]) * p - b[k] * p_prev) / b[k + 1]
        total = total + p * p
    w = 1.0 / total  # an overflowing sum gives 0: the weight is below the float range there too
    if symmetric:
        w = (w + w[::-1]) / 2
    return x, w * (mu0 / w.sum())


def leggauss(deg: Any) -> tuple[kd.Array, kd.Array]:
    """Gauss-Legendre nodes and weights: ``sum(w * f(x))`` integrates polynomials of degree ``2 deg - 1``
    over [-1, 1] exactly."""
    return _golub_welsch(deg, lambda k: 0.0, lambda k: k / math.sqrt(4 * k * k - 1), 2.0, True)


def hermgauss(deg: Any) -> tuple[kd.Array, kd.Array]:
    """Gauss-Hermite nodes and weights for the weight ``exp(-x**2)`` on the real line."""
    return _golub_welsch(deg, lambda k: 0.0, lambda k: math.sqrt(k / 2), math.sqrt(math.pi), True)


def hermegauss(deg: Any) -> tuple[kd.Array, kd.Array]:
    """Gauss-HermiteE nodes and weights for the weight ``exp(-x**2 / 2)`` on the real line."""
    return _golub_welsch(deg, lambda k: 0.0, math.sqrt, math.sqrt(2 * math.pi), True)


def laggauss(deg: Any) -> tuple[kd.Array, kd.Array]:
    """Gauss-Laguerre nodes and weights for the weight ``exp(-x)`` on [0, inf)."""
    return _golub_welsch(deg, lambda k: 2 * k + 1, float, 1.0, False)


def chebgauss(deg: Any) -> tuple[kd.Array, kd.Array]:
    """Gauss-Chebyshev nodes ``cos(pi (2i + 1) / (2 deg))`` (decreasing, as NumPy's) and weights ``pi / deg``
    for the weight ``1 / sqrt(1 - x**2)``."""
    n = _degree(deg)
    f = _float()
    x = kd.cos(math.pi * kd.arange(1, 2 * n, 2, dtype=f) / (2.0 * n))
    return x, kd.full(n, math.pi / n, dtype=f)


def _point_count(npts: Any) -> int:
    """``npts`` as NumPy's chebpts* take it: any number equal to an integer (2.0 too), else ValueError."""
    n = int(npts)
    if n != npts:
        raise ValueError("npts must be integer")
    return n


def chebpts1(npts: Any) -> kd.Array:
    """Chebyshev points of the first kind (the ``npts`` Gauss-Chebyshev nodes, increasing)."""
    n = _point_count(npts)
    if n < 1:
        raise ValueError("npts must be >= 1")
    return kd.sin((0.5 * math.pi / n) * kd.arange(-n + 1, n + 1, 2, dtype=_float()))


def chebpts2(npts: Any) -> kd.Array:
    """Chebyshev points of the second kind (the extrema ``cos(linspace(-pi, 0, npts))``, increasing)."""
    n = _point_count(npts)
    if n < 2:
        raise ValueError("npts must be >= 2")
    return kd.cos(kd.linspace(-math.pi, 0.0, n, dtype=_float()))


def _as_float(x: Any) -> kd.Array:
    a = kd.asarray(x)
    return a if a.dtype.kind in "fc" else a.astype(_float())


def legweight(x: Any) -> kd.Array:
    """The Legendre weight function, 1."""
    a = _as_float(x)
    return a * 0.0 + 1.0


def chebweight(x: Any) -> kd.Array:
    """The Chebyshev weight function ``1 / (sqrt(1 + x) sqrt(1 - x))``."""
    a = _as_float(x)
    return 1.0 / (kd.sqrt(1.0 + a) * kd.sqrt(1.0 - a))


def hermweight(x: Any) -> kd.Array:
    """The Hermite weight function ``exp(-x**2)``."""
    a = _as_float(x)
    return kd.exp(-(a**2))


def hermeweight(x: Any) -> kd.Array:
    """The HermiteE weight function ``exp(-x**2 / 2)``."""
    a = _as_float(x)
    return kd.exp(-0.5 * a**2)


def lagweight(x: Any) -> kd.Array:
    """The Laguerre weight function ``exp(-x)``."""
    return kd.exp(-_as_float(x))
