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

from kdsl.polynomial.basis_module import basis_names
from kdsl.polynomial.gauss_quadrature import leggauss, legweight
from kdsl.polynomial.orthogonal import Basis
from kdsl.polynomial.series_class import SeriesBase

_BASIS = Basis(lambda k: ((2 * k + 1) / (k + 1), k / (k + 1), 0.0),
               numpy_module=(np.polynomial.legendre, "leg"))

_DOMAIN = [-1.0, 1.0]
_NAMES = basis_names(_BASIS, "leg", _DOMAIN, x=[0.0, 1.0])  # legval, legfit, legdomain...: NumPy's names
globals().update(_NAMES)


class Legendre(SeriesBase, basis=_BASIS):
    """A Legendre series ``c[0] P_0 + c[1] P_1 + ...`` of ``x`` mapped from ``domain`` onto ``window``.

    >>> import kdsl as kd
    >>> str(kd.polynomial.Legendre([1.0, 2.0, 3.0]))
    '1.0 + 2.0·P₁(x) + 3.0·P₂(x)'
    """

    basis_name = "P"
    domain_default = np.array(_DOMAIN)
    window_default = np.array(_DOMAIN)


__all__ = ["Legendre", *_NAMES, "leggauss", "legweight"]
