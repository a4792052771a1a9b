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

from kdsl.polynomial.basis_module import basis_names
from kdsl.polynomial.chebyshev_interpolation import chebinterpolate
from kdsl.polynomial.gauss_quadrature import chebgauss, chebpts1, chebpts2, chebweight
from kdsl.polynomial.orthogonal import Basis
from kdsl.polynomial.polyutils import mapdomain
from kdsl.polynomial.series_class import SeriesBase

_BASIS = Basis(lambda k: (1.0, 0.0, 0.0) if k == 0 else (2.0, 1.0, 0.0),
               calculus=(np.polynomial.chebyshev.chebder, np.polynomial.chebyshev.chebint))

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
