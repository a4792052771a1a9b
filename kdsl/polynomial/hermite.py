"""NumPy's ``np.polynomial.hermite``: Hermite series, the physicists' (``H_0 = 1``, ``H_1 = 2x``,
``H_{k+1} = 2x H_k - 2k H_{k-1}``), coefficients lowest degree first, and the ``Hermite`` class. Values and
Vandermonde matrices are fused recurrences on the device; see :mod:`kdsl.polynomial.orthogonal` for the rest.

Example:
    >>> import kdsl as kd
    >>> x = kd.linspace(-1.0, 1.0, 9, dtype=kd.float64)
    >>> c = kd.polynomial.hermite.hermfit(x, 2.0 * x * x, 2)
    >>> [round(v, 9) + 0.0 for v in c.tolist()]
    [1.0, 0.0, 0.5]
"""

from __future__ import annotations

import numpy as np

from kdsl.polynomial import companion, multivariate
from kdsl.polynomial.gauss_quadrature import hermgauss, hermweight
from kdsl.polynomial.orthogonal import Basis
from kdsl.polynomial.polyutils import trimcoef
from kdsl.polynomial.series_class import SeriesBase

_BASIS = Basis(lambda k: (2.0, 2.0 * k, 0.0))

hermdomain = np.array([-1.0, 1.0])
hermzero = np.array([0.0])
hermone = np.array([1.0])
hermx = _BASIS.from_power(2)[:, 1].copy()  # x in this basis
hermtrim = trimcoef
hermval = _BASIS.val
hermvander = _BASIS.vander
hermcompanion = companion.named(_BASIS.recurrence, "herm")
(hermval2d, hermval3d, hermgrid2d, hermgrid3d, hermvander2d,
 hermvander3d) = multivariate.functions(_BASIS.val, _BASIS.vander, "herm")
hermfit = _BASIS.fit
hermadd = _BASIS.add
hermsub = _BASIS.sub
hermmul = _BASIS.mul
hermmulx = _BASIS.mulx
hermdiv = _BASIS.div
hermpow = _BASIS.pow
hermder = _BASIS.der
hermint = _BASIS.int
hermroots = _BASIS.roots
hermfromroots = _BASIS.fromroots
hermline = _BASIS.line
herm2poly = _BASIS.to_poly
poly2herm = _BASIS.from_poly


class Hermite(SeriesBase, basis=_BASIS):
    """A Hermite series ``c[0] H_0 + c[1] H_1 + ...`` of ``x`` mapped from ``domain`` onto ``window``.

    >>> import kdsl as kd
    >>> str(kd.polynomial.Hermite([1.0, 2.0, 3.0]))
    '1.0 + 2.0·H₁(x) + 3.0·H₂(x)'
    """

    basis_name = "H"
    domain_default = np.array(hermdomain)
    window_default = np.array(hermdomain)


__all__ = ["Hermite", "herm2poly", "hermadd", "hermder", "hermdiv", "hermdomain", "hermfit", "hermfromroots",
           "hermint", "hermline", "hermmul", "hermmulx", "hermone", "hermpow", "hermroots", "hermsub", "hermtrim",
           "hermval", "hermvander", "hermx", "hermzero", "poly2herm", "hermgauss", "hermweight",
           "hermval2d", "hermval3d", "hermgrid2d", "hermgrid3d", "hermvander2d", "hermvander3d", "hermcompanion"]
