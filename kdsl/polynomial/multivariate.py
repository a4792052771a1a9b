"""Series of two and three variables for every basis: NumPy's ``*val2d/3d``, ``*grid2d/3d`` and
``*vander2d/3d`` (``polyval2d``, ``chebgrid3d``, ``legvander2d``...), built from the basis' one-variable ``val``
and ``vander``.

``c[i, j]`` is the coefficient of ``B_i(x) B_j(y)``. ``val2d(x, y, c)`` evaluates at the points ``(x[k], y[k])``
(``x`` and ``y`` of one shape): the first variable's ``val`` folds axis 0 of ``c`` over every point, then each
next variable folds the next axis point by point (``tensor=False``). ``grid2d`` evaluates on the Cartesian
product (shape ``x.shape + y.shape``). ``vander2d(x, y, [dx, dy])`` is the matrix whose columns, in C order of
``(i, j)``, are ``B_i(x) B_j(y)``, so that ``vander2d(x, y, deg) @ c.ravel() == val2d(x, y, c)``: the design
matrix of a least-squares surface fit.

Example:
    >>> import kdsl as kd
    >>> P = kd.polynomial.polynomial
    >>> c = kd.asarray([[1.0, 2.0], [3.0, 4.0]])  # 1 + 2y + 3x + 4xy
    >>> P.polyval2d(kd.asarray([1.0, 2.0]), kd.asarray([0.0, 1.0]), c).tolist()
    [4.0, 17.0]
    >>> P.polyvander2d(kd.asarray([2.0]), kd.asarray([3.0]), [1, 1]).tolist()
    [[1.0, 3.0, 2.0, 6.0]]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.polynomial.polyutils import as_int

Val = Callable[..., kd.Array]  # val(x, c, tensor=True)
Vander = Callable[[Any, int], kd.Array]  # vander(x, deg)

_INCOMPATIBLE = {2: "x, y are incompatible", 3: "x, y, z are incompatible"}


def _points(points: tuple[Any, ...]) -> list[Any]:
    """The coordinates, kdsl arrays kept and host data as NumPy arrays; all of one shape (NumPy's rule)."""
    arrays = [p if isinstance(p, kd.Array) else np.asarray(p) for p in points]
    if any(a.shape != arrays[0].shape for a in arrays[1:]):
        raise ValueError(_INCOMPATIBLE.get(len(arrays), "ordinates are incompatible"))
    return arrays


def valnd(val: Val, c: Any, *points: Any) -> kd.Array:
    """``sum c[i, j, ...] B_i(x) B_j(y) ...`` at each point ``(x[k], y[k], ...)``."""
    first, *rest = _points(points)
    result = val(first, c)
    for x in rest:
        result = val(x, result, tensor=False)
    return result


def gridnd(val: Val, c: Any, *points: Any) -> kd.Array:
    """The series on the Cartesian product of the coordinates: shape ``x.shape + y.shape + ...``."""
    result = c
    for x in points:
        result = val(x, result)
    return result


def vandernd(vander: Vander, points: tuple[Any, ...], deg: Any) -> kd.Array:
    """The pseudo-Vandermonde matrix: ``points[0].shape + (prod(deg + 1),)``, columns in C order of the degrees."""
    degrees = [as_int(d, "deg") for d in deg]
    if len(degrees) != len(points):
        raise ValueError(f"Expected {len(points)} dimensions of sample points, got {len(degrees)}")
    coords = _points(points)
    n = len(coords)
    result: kd.Array | None = None
    for i, (x, d) in enumerate(zip(coords, degrees, strict=True)):
        v = vander(x, d)  # x.shape + (d + 1,), on its own axis among the n
        v = v.reshape(v.shape[:-1] + (1,) * i + (d + 1,) + (1,) * (n - 1 - i))
        result = v if result is None else result * v
    assert result is not None
    columns = int(np.prod([d + 1 for d in degrees]))  # not -1: a reshape of no points could not infer it
    return result.reshape(result.shape[: result.ndim - n] + (columns,))


def functions(val: Val, vander: Vander, prefix: str) -> tuple[Callable[..., kd.Array], ...]:
    """``(val2d, val3d, grid2d, grid3d, vander2d, vander3d)`` of one basis, named ``prefix + 'val2d'`` ...
    as NumPy names them."""

    def val2d(x: Any, y: Any, c: Any) -> kd.Array:
        return valnd(val, c, x, y)

    def val3d(x: Any, y: Any, z: Any, c: Any) -> kd.Array:
        return valnd(val, c, x, y, z)

    def grid2d(x: Any, y: Any, c: Any) -> kd.Array:
        return gridnd(val, c, x, y)

    def grid3d(x: Any, y: Any, z: Any, c: Any) -> kd.Array:
        return gridnd(val, c, x, y, z)

    def vander2d(x: Any, y: Any, deg: Any) -> kd.Array:
        return vandernd(vander, (x, y), deg)

    def vander3d(x: Any, y: Any, z: Any, deg: Any) -> kd.Array:
        return vandernd(vander, (x, y, z), deg)

    made = (val2d, val3d, grid2d, grid3d, vander2d, vander3d)
    for f, what in zip(made, ("values at points", "values at points", "values on a grid", "values on a grid",
                              "pseudo-Vandermonde matrix", "pseudo-Vandermonde matrix"), strict=True):
        f.__name__ = f.__qualname__ = prefix + f.__name__
        f.__doc__ = (f"NumPy's ``{f.__name__}``: the series' {what} (see :mod:`kdsl.polynomial.multivariate`).")
    return made


__all__ = ["functions", "gridnd", "valnd", "vandernd"]
