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

from kdsl.polynomial.basis_module import basis_names
from kdsl.polynomial.gauss_quadrature import hermegauss, hermeweight
from kdsl.polynomial.orthogonal import Basis
from kdsl.polynomial.series_class import SeriesBase

_BASIS = Basis(lambda k: (1.0, float(k), 0.0),
               numpy_module=(np.polynomial.hermite_e, "herme"))

_DOMAIN = [-1.0, 1.0]
_NAMES = basis_names(_BASIS, "herme", _DOMAIN)  # hermeval, hermefit, hermedomain...: NumPy's names
globals().update(_NAMES)


class HermiteE(SeriesBase, basis=_BASIS):
    """A HermiteE series ``c[0] He_0 + c[1] He_1 + ...`` of ``x`` mapped from ``domain`` onto ``window``.

    >>> import kdsl as kd
    >>> str(kd.polynomial.HermiteE([1.0, 2.0, 3.0]))
    '1.0 + 2.0·He₁(x) + 3.0·He₂(x)'
    """

    basis_name = "He"
    domain_default = np.array(_DOMAIN)
    window_default = np.array(_DOMAIN)


__all__ = ["HermiteE", *_NAMES, "hermegauss", "hermeweight"]
