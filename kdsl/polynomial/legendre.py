"""NumPy's ``np.polynomial.legendre``: Legendre series (``P_0 = 1``, ``P_1 = x``, ``(k+1) P_{k+1} = (2k+1) x
P_k - k P_{k-1}``), coefficients lowest degree first, and the ``Legendre`` class. Values and Vandermonde
matrices are fused recurrences on the device; see :mod:`kdsl.polynomial.orthogonal` for the rest.

Example:
    >>> import kdsl as kd
    >>> x = kd.linspace(-1.0, 1.0, 9, dtype=kd.float64)
    >>> c = kd.polynomial.legendre.legfit(x, 2.0 * x * x, 2)
    >>> [round(v, 9) + 0.0 for v in c.tolist()]
    [0.666666667, 0.0, 1.333333333]
"""

from __future__ import annotations

import numpy as np

from kdsl.polynomial import companion, multivariate
from kdsl.polynomial.gauss_quadrature import leggauss, legweight
from kdsl.polynomial.orthogonal import Basis
from kdsl.polynomial.polyutils import trimcoef
from kdsl.polynomial.series_class import SeriesBase

_BASIS = Basis(lambda k: ((2 * k + 1) / (k + 1), k / (k + 1), 0.0))

legdomain = np.array([-1.0, 1.0])
legzero = np.array([0.0])
legone = np.array([1.0])
legx = np.array([0.0, 1.0])
legtrim = trimcoef
legval = _BASIS.val
legvander = _BASIS.vander
legcompanion = companion.named(_BASIS.recurrence, "leg")
(legval2d, legval3d, leggrid2d, leggrid3d, legvander2d,
 legvander3d) = multivariate.functions(_BASIS.val, _BASIS.vander, "leg")
legfit = _BASIS.fit
legadd = _BASIS.add
legsub = _BASIS.sub
legmul = _BASIS.mul
legmulx = _BASIS.mulx
legdiv = _BASIS.div
legpow = _BASIS.pow
legder = _BASIS.der
legint = _BASIS.int
legroots = _BASIS.roots
legfromroots = _BASIS.fromroots
legline = _BASIS.line
leg2poly = _BASIS.to_poly
poly2leg = _BASIS.from_poly


class Legendre(SeriesBase, basis=_BASIS):
    """A Legendre series ``c[0] P_0 + c[1] P_1 + ...`` of ``x`` mapped from ``domain`` onto ``window``.

    >>> import kdsl as kd
    >>> str(kd.polynomial.Legendre([1.0, 2.0, 3.0]))
    '1.0 + 2.0·P₁(x) + 3.0·P₂(x)'
    """

    basis_name = "P"
    domain_default = np.array(legdomain)
    window_default = np.array(legdomain)


__all__ = ["Legendre", "leg2poly", "legadd", "legder", "legdiv", "legdomain", "legfit", "legfromroots",
           "legint", "legline", "legmul", "legmulx", "legone", "legpow", "legroots", "legsub", "legtrim",
           "legval", "legvander", "legx", "legzero", "poly2leg", "leggauss", "legweight",
           "legval2d", "legval3d", "leggrid2d", "leggrid3d", "legvander2d", "legvander3d", "legcompanion"]
