"""NumPy's ``np.polynomial.hermite_e``: Hermite series, the probabilists' (``He_0 = 1``, ``He_1 = x``,
``He_{k+1} = x He_k - k He_{k-1}``), coefficients lowest degree first, and the ``HermiteE`` class. Values and
Vandermonde matrices are fused recurrences on the device; see :mod:`kdsl.polynomial.orthogonal` for the rest.

Example:
    >>> import kdsl as kd
    >>> x = kd.linspace(-1.0, 1.0, 9, dtype=kd.float64)
    >>> c = kd.polynomial.hermite_e.hermefit(x, 2.0 * x * x, 2)
    >>> [round(v, 9) + 0.0 for v in c.tolist()]
    [2.0, 0.0, 2.0]
"""

from __future__ import annotations

import numpy as np

from kdsl.polynomial import companion, multivariate
from kdsl.polynomial.gauss_quadrature import hermegauss, hermeweight
from kdsl.polynomial.orthogonal import Basis
from kdsl.polynomial.polyutils import trimcoef
from kdsl.polynomial.series_class import SeriesBase

_BASIS = Basis(lambda k: (1.0, float(k), 0.0))

hermedomain = np.array([-1.0, 1.0])
hermezero = np.array([0.0])
hermeone = np.array([1.0])
hermex = _BASIS.from_power(2)[:, 1].copy()  # x in this basis
hermetrim = trimcoef
hermeval = _BASIS.val
hermevander = _BASIS.vander
hermecompanion = companion.named(_BASIS.recurrence, "herme")
(hermeval2d, hermeval3d, hermegrid2d, hermegrid3d, hermevander2d,
 hermevander3d) = multivariate.functions(_BASIS.val, _BASIS.vander, "herme")
hermefit = _BASIS.fit
hermeadd = _BASIS.add
hermesub = _BASIS.sub
hermemul = _BASIS.mul
hermemulx = _BASIS.mulx
hermediv = _BASIS.div
hermepow = _BASIS.pow
hermeder = _BASIS.der
hermeint = _BASIS.int
hermeroots = _BASIS.roots
hermefromroots = _BASIS.fromroots
hermeline = _BASIS.line
herme2poly = _BASIS.to_poly
poly2herme = _BASIS.from_poly


class HermiteE(SeriesBase, basis=_BASIS):
    """A HermiteE series ``c[0] He_0 + c[1] He_1 + ...`` of ``x`` mapped from ``domain`` onto ``window``.

    >>> import kdsl as kd
    >>> str(kd.polynomial.HermiteE([1.0, 2.0, 3.0]))
    '1.0 + 2.0·He₁(x) + 3.0·He₂(x)'
    """

    basis_name = "He"
    domain_default = np.array(hermedomain)
    window_default = np.array(hermedomain)


__all__ = ["HermiteE", "herme2poly", "hermeadd", "hermeder", "hermediv", "hermedomain", "hermefit",
           "hermefromroots", "hermeint", "hermeline", "hermemul", "hermemulx", "hermeone", "hermepow", "hermeroots",
           "hermesub", "hermetrim", "hermeval", "hermevander", "hermex", "hermezero", "poly2herme",
           "hermegauss", "hermeweight",
           "hermeval2d", "hermeval3d", "hermegrid2d", "hermegrid3d", "hermevander2d", "hermevander3d", "hermecompanion"]
