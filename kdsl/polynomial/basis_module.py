"""The module-level names NumPy gives each orthogonal basis (``np.polynomial.hermite``'s ``hermval``,
``hermfit``, ``hermdomain``...), made once from the basis' :class:`~kdsl.polynomial.orthogonal.Basis` and its
prefix: the modules ``chebyshev``, ``legendre``, ``hermite``, ``hermite_e`` and ``laguerre`` install them with
``globals().update`` instead of writing the same two dozen assignments each.

Example:
    >>> from kdsl.polynomial.orthogonal import Basis
    >>> names = basis_names(Basis(lambda k: (2.0, 2.0 * k, 0.0)), "herm", [-1.0, 1.0])
    >>> names["hermdomain"].tolist(), names["hermx"].tolist(), names["hermcompanion"].__name__
    ([-1.0, 1.0], [0.0, 0.5], 'hermcompanion')
    >>> sorted(names)[:4]
    ['herm2poly', 'hermadd', 'hermcompanion', 'hermder']
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl.polynomial import companion, multivariate
from kdsl.polynomial.orthogonal import Basis
from kdsl.polynomial.polyutils import trimcoef

# NumPy's suffix of each function -> the Basis method it is (hermval is Basis.val, hermint is Basis.int...)
_METHODS = ("val", "vander", "fit", "add", "sub", "mul", "mulx", "div", "pow", "der", "int", "roots", "fromroots",
            "line")


def basis_names(basis: Basis, prefix: str, domain: list[float], x: list[float] | None = None) -> dict[str, Any]:
    """NumPy's names of the module of ``basis`` (``prefix`` + ``val``, ``fit``... and ``domain``, ``zero``,
    ``one``, ``x``, ``trim``, ``companion``, the 2-d/3-d functions, ``prefix2poly``/``poly2prefix``). ``x`` is
    the series of x in this basis (default: read off the basis' power-series conversion)."""
    names: dict[str, Any] = {prefix + method: getattr(basis, method) for method in _METHODS}
    names.update({
        prefix + "domain": np.array(domain),
        prefix + "zero": np.array([0.0]),
        prefix + "one": np.array([1.0]),
        prefix + "x": np.array(x) if x is not None else basis.from_power(2)[:, 1].copy(),
        prefix + "trim": trimcoef,
        prefix + "companion": companion.named(basis.recurrence, prefix),
        prefix + "2poly": basis.to_poly,
        "poly2" + prefix: basis.from_poly,
    })
    # val2d, val3d, grid2d, grid3d, vander2d, vander3d: named prefix + ... by multivariate.functions
    names.update({f.__name__: f for f in multivariate.functions(basis.val, basis.vander, prefix)})
    return names


__all__ = ["basis_names"]
