"""NumPy's ``np.polynomial.laguerre``: Laguerre series (``L_0 = 1``, ``L_1 = 1 - x``,
``(k+1) L_{k+1} = (2k+1-x) L_k - k L_{k-1}``), coefficients lowest degree first, and the ``Laguerre`` class. Values and
Vandermonde matrices are fused recurrences on the device; see :mod:`kdsl.polynomial.orthogonal` for the rest.

Example:
    >>> import kdsl as kd
    >>> x = kd.linspace(-1.0, 1.0, 9, dtype=kd.float64)
    >>> c = kd.polynomial.laguerre.lagfit(x, 2.0 * x * x, 2)
    >>> [round(v, 9) + 0.0 for v in c.tolist()]
    [4.0, -8.0, 4.0]
"""

from __future__ import annotations

import numpy as np

from kdsl.polynomial.basis_module import basis_names
from kdsl.polynomial.gauss_quadrature import laggauss, lagweight
from kdsl.polynomial.orthogonal import Basis
from kdsl.polynomial.series_class import SeriesBase

_BASIS = Basis(lambda k: (-1.0 / (k + 1), k / (k + 1), (2 * k + 1) / (k + 1)),
               numpy_module=(np.polynomial.laguerre, "lag"))

_DOMAIN = [0.0, 1.0]
_NAMES = basis_names(_BASIS, "lag", _DOMAIN)  # lagval, lagfit, lagdomain...: NumPy's names
globals().update(_NAMES)


class Laguerre(SeriesBase, basis=_BASIS):
    """A Laguerre series ``c[0] L_0 + c[1] L_1 + ...`` of ``x`` mapped from ``domain`` onto ``window``.

    >>> import kdsl as kd
    >>> str(kd.polynomial.Laguerre([1.0, 2.0, 3.0]))
    '1.0 + 2.0·L₁(x) + 3.0·L₂(x)'
    """

    basis_name = "L"
    domain_default = np.array(_DOMAIN)
    window_default = np.array(_DOMAIN)


__all__ = ["Laguerre", *_NAMES, "laggauss", "lagweight"]
