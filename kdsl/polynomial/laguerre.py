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

from kdsl.polynomial import companion, multivariate
from kdsl.polynomial.gauss_quadrature import laggauss, lagweight
from kdsl.polynomial.orthogonal import Basis
from kdsl.polynomial.polyutils import trimcoef
from kdsl.polynomial.series_class import SeriesBase

_BASIS = Basis(lambda k: (-1.0 / (k + 1), k / (k + 1), (2 * k + 1) / (k + 1)))

lagdomain = np.array([0.0, 1.0])
lagzero = np.array([0.0])
lagone = np.array([1.0])
lagx = _BASIS.from_power(2)[:, 1].copy()  # x in this basis
lagtrim = trimcoef
lagval = _BASIS.val
lagvander = _BASIS.vander
lagcompanion = companion.named(_BASIS.recurrence, "lag")
(lagval2d, lagval3d, laggrid2d, laggrid3d, lagvander2d,
 lagvander3d) = multivariate.functions(_BASIS.val, _BASIS.vander, "lag")
lagfit = _BASIS.fit
lagadd = _BASIS.add
lagsub = _BASIS.sub
lagmul = _BASIS.mul
lagmulx = _BASIS.mulx
lagdiv = _BASIS.div
lagpow = _BASIS.pow
lagder = _BASIS.der
lagint = _BASIS.int
lagroots = _BASIS.roots
lagfromroots = _BASIS.fromroots
lagline = _BASIS.line
lag2poly = _BASIS.to_poly
poly2lag = _BASIS.from_poly


class Laguerre(SeriesBase, basis=_BASIS):
    """A Laguerre series ``c[0] L_0 + c[1] L_1 + ...`` of ``x`` mapped from ``domain`` onto ``window``.

    >>> import kdsl as kd
    >>> str(kd.polynomial.Laguerre([1.0, 2.0, 3.0]))
    '1.0 + 2.0·L₁(x) + 3.0·L₂(x)'
    """

    basis_name = "L"
    domain_default = np.array(lagdomain)
    window_default = np.array(lagdomain)


__all__ = ["Laguerre", "lag2poly", "lagadd", "lagder", "lagdiv", "lagdomain", "lagfit", "lagfromroots",
           "lagint", "lagline", "lagmul", "lagmulx", "lagone", "lagpow", "lagroots", "lagsub", "lagtrim",
           "lagval", "lagvander", "lagx", "lagzero", "poly2lag", "laggauss", "lagweight",
           "lagval2d", "lagval3d", "laggrid2d", "laggrid3d", "lagvander2d", "lagvander3d", "lagcompanion"]
