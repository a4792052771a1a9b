"""``kd.polynomial.Polynomial``: NumPy's ``np.polynomial.Polynomial``, a power series (coefficients lowest degree
first, a kdsl array) with a domain and window (see :mod:`kdsl.polynomial.series_class`).

Example:
    >>> import kdsl as kd
    >>> p = kd.polynomial.Polynomial([2.0, -3.0, 1.0])       # 2 - 3x + x**2
    >>> [round(v, 6) for v in p.roots().tolist()], str(p)
    ([1.0, 2.0], '2.0 - 3.0·x + 1.0·x²')
"""

from __future__ import annotations

import numpy as np

from kdsl.polynomial import polynomial as pp
from kdsl.polynomial.series_class import SeriesBase


class Polynomial(SeriesBase):
    """A power series ``c[0] + c[1]*x + ...`` of ``x`` mapped from ``domain`` onto ``window``."""

    domain_default = np.array(pp.polydomain)
    window_default = np.array(pp.polydomain)
    _val = staticmethod(pp.polyval)
    _add = staticmethod(pp.polyadd)
    _sub = staticmethod(pp.polysub)
    _mul = staticmethod(pp.polymul)
    _div = staticmethod(pp.polydiv)
    _pow = staticmethod(pp.polypow)
    _der = staticmethod(pp.polyder)
    _int = staticmethod(pp.polyint)
    _fit = staticmethod(pp.polyfit)
    _roots = staticmethod(pp.polyroots)
    _fromroots = staticmethod(pp.polyfromroots)
    _line = staticmethod(pp.polyline)


__all__ = ["Polynomial"]
