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

from kdsl.polynomial.basis_module import basis_names
from kdsl.polynomial.gauss_quadrature import hermgauss, hermweight
from kdsl.polynomial.orthogonal import Basis
from kdsl.polynomial.series_class import SeriesBase

_BASIS = Basis(lambda k: (2.0, 2.0 * k, 0.0),
               numpy_module=(np.polynomial.hermite, "herm"))

_DOMAIN = [-1.0, 1.0]
_NAMES = basis_names(_BASIS, "herm", _DOMAIN)  # hermval, hermfit, hermdomain...: NumPy's names
globals().update(_NAMES)


class Hermite(SeriesBase, basis=_BASIS):
    """A Hermite series ``c[0] H_0 + c[1] H_1 + ...`` of ``x`` mapped from ``domain`` onto ``window``.

    >>> import kdsl as kd
    >>> str(kd.polynomial.Hermite([1.0, 2.0, 3.0]))
    '1.0 + 2.0·H₁(x) + 3.0·H₂(x)'
    """

    basis_name = "H"
    domain_default = np.array(_DOMAIN)
    window_default = np.array(_DOMAIN)


__all__ = ["Hermite", *_NAMES, "hermgauss", "hermweight"]
