"""``kd.polynomial``: NumPy's ``np.polynomial`` on kdsl arrays: the series classes (``Polynomial``,
``Chebyshev``, ``Legendre``) and the modules of functions on coefficient arrays, LOWEST degree first
(``kd.polynomial.polynomial.polyval``, ``.chebyshev.chebval``, ``.legendre.legval``...). Built on the public
API (Horner/Clenshaw as fused arithmetic, ``kd.linalg.lstsq`` for fits, ``kd.linalg.eigvals`` for roots).

Example:
    >>> import kdsl as kd
    >>> x = kd.linspace(0.0, 1.0, 5, dtype=kd.float64)
    >>> p = kd.polynomial.Polynomial.fit(x, 3.0 * x * x + 1.0, 2)
    >>> [round(v, 6) + 0.0 for v in p.convert().coef.tolist()]
    [1.0, 0.0, 3.0]
"""

from typing import Any

import numpy as np

from kdsl.polynomial import chebyshev, hermite, hermite_e, laguerre, legendre, polynomial, polyutils
from kdsl.polynomial.chebyshev import Chebyshev
from kdsl.polynomial.hermite import Hermite
from kdsl.polynomial.hermite_e import HermiteE
from kdsl.polynomial.laguerre import Laguerre
from kdsl.polynomial.legendre import Legendre
from kdsl.polynomial.power_series import Polynomial

polynomial.Polynomial = Polynomial  # type: ignore[attr-defined]  # NumPy's np.polynomial.polynomial.Polynomial


def set_default_printstyle(style: Any) -> None:
    """NumPy's ``set_default_printstyle`` ('unicode' or 'ascii'): kdsl's series print through NumPy's."""
    np.polynomial.set_default_printstyle(style)


__all__ = ["Chebyshev", "Hermite", "HermiteE", "Laguerre", "Legendre", "Polynomial", "chebyshev", "hermite",
           "hermite_e", "laguerre", "legendre", "polynomial", "polyutils", "set_default_printstyle"]
