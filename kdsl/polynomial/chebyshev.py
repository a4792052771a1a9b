"""NumPy's ``np.polynomial.chebyshev``: Chebyshev series of the first kind (``T_0 = 1``, ``T_1 = x``,
``T_{k+1} = 2x T_k - T_{k-1}``), coefficients lowest degree first, and the ``Chebyshev`` class. Values and
Vandermonde matrices are fused recurrences on the device; see :mod:`kdsl.polynomial.orthogonal` for the rest.

Example:
    >>> import kdsl as kd
    >>> x = kd.linspace(-1.0, 1.0, 9, dtype=kd.float64)
    >>> c = kd.polynomial.chebyshev.chebfit(x, 2.0 * x * x, 2)
    >>> [round(v, 9) + 0.0 for v in c.tolist()]
    [1.0, 0.0, 1.0]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.polynomial.basis_module import basis_names
from kdsl.polynomial.chebyshev_interpolation import chebinterpolate
from kdsl.polynomial.gauss_quadrature import chebgauss, chebpts1, chebpts2, chebweight
from kdsl.polynomial.orthogonal import Basis
from kdsl.polynomial.polyutils import as_series, mapdomain, trimseq
from kdsl.polynomial.series_class import SeriesBase


class _ChebyshevBasis(Basis):
    """The three-term basis, with NumPy's own product of Chebyshev series (through the power basis, whose
    coefficients grow as 2**degree, `chebmul` of two 20-coefficient series was off by 4e-4 relative, of 30 by
    5e3)."""

    def mul(self, c1: Any, c2: Any) -> kd.Array:
        """NumPy's ``chebmul``: the series as z-series (``T_k = (z**k + z**-k) / 2``), their product a
        convolution (``kd.polymul``), read back as a Chebyshev series.

        >>> import kdsl as kd
        >>> kd.polynomial.chebyshev.chebmul([1.0, 2.0, 3.0], [3.0, 2.0, 1.0]).tolist()   # NumPy's
        [6.5, 12.0, 12.0, 4.0, 1.5]
        """
        a, b = as_series([c1, c2])
        return trimseq(_c_series(kd.polymul(_z_series(a), _z_series(b))))

    def pow(self, c: Any, power: int, maxpower: int | None = 16) -> kd.Array:  # noqa: A003
        """NumPy's ``chebpow``: the z-series multiplied by itself ``power - 1`` times (``kd.polymul``).

        >>> import kdsl as kd
        >>> kd.polynomial.chebyshev.chebpow([1.0, 2.0], 3).tolist()   # NumPy's
        [7.0, 12.0, 6.0, 2.0]
        """
        [a] = as_series([c])
        exponent = int(power)
        if exponent != power or exponent < 0:
            raise ValueError("Power must be a non-negative integer.")
        if maxpower is not None and exponent > maxpower:
            raise ValueError("Power is too large")
        if exponent == 0:
            return kd.ones(1, dtype=a.dtype, device=a.device)
        if exponent == 1:
            return a
        z = product = _z_series(a)
        for _ in range(exponent - 1):
            product = kd.polymul(product, z)
        return _c_series(product)


def _c_series(z: kd.Array) -> kd.Array:
    """NumPy's ``_zseries_to_cseries``: the upper half of a symmetric z-series, its terms past the first doubled."""
    half = z[(z.shape[0] + 1) // 2 - 1:]
    return kd.concat([half[:1], half[1:] * 2])


def _z_series(c: kd.Array) -> kd.Array:
    """NumPy's ``_cseries_to_zseries``: ``c[::-1] / 2``, ``c[0]``, ``c[1:] / 2`` (symmetric, ``2n - 1`` long)."""
    tail = c[1:] / 2
    return kd.concat([kd.flip(tail), c[:1], tail])


_BASIS = _ChebyshevBasis(lambda k: (1.0, 0.0, 0.0) if k == 0 else (2.0, 1.0, 0.0),
                         numpy_module=(np.polynomial.chebyshev, "cheb"))

_DOMAIN = [-1.0, 1.0]
_NAMES = basis_names(_BASIS, "cheb", _DOMAIN, x=[0.0, 1.0])  # chebval, chebfit, chebdomain...: NumPy's names
globals().update(_NAMES)


class Chebyshev(SeriesBase, basis=_BASIS):
    """A Chebyshev series ``c[0] T_0 + c[1] T_1 + ...`` of ``x`` mapped from ``domain`` onto ``window``.

    >>> import kdsl as kd
    >>> str(kd.polynomial.Chebyshev([1.0, 2.0, 3.0]))
    '1.0 + 2.0·T₁(x) + 3.0·T₂(x)'
    """

    basis_name = "T"
    domain_default = np.array(_DOMAIN)
    window_default = np.array(_DOMAIN)

    @classmethod
    def interpolate(cls, func: Callable[..., Any], deg: Any, domain: Any = None,
                    args: tuple[Any, ...] = ()) -> Chebyshev:
        """NumPy's ``Chebyshev.interpolate``: the series of degree ``deg`` interpolating ``func(x, *args)`` at the
        Chebyshev points of the first kind, mapped from the window onto ``domain`` (default ``[-1, 1]``).

        >>> import kdsl as kd
        >>> t = kd.polynomial.Chebyshev.interpolate(lambda x: x * x, 2, domain=[0, 2])
        >>> [round(v, 6) + 0.0 for v in t.coef.tolist()], t.domain.tolist()
        ([1.5, 2.0, 0.5], [0.0, 2.0])
        """
        domain = cls.domain_default if domain is None else domain

        def on_domain(x: Any) -> Any:  # chebinterpolate samples the window; func sees points of the domain
            return func(mapdomain(x, cls.window_default, domain), *args)

        return cls(chebinterpolate(on_domain, deg), domain=domain)


__all__ = ["Chebyshev", *_NAMES, "chebgauss", "chebweight", "chebpts1", "chebpts2", "chebinterpolate"]
