"""NumPy's ``np.cross`` (``kd.cross``): vectors along ``axisa``/``axisb`` (``axis`` sets all three), 3- or
2-element (the missing third component taken as zero; deprecated in NumPy 2.0, which warns, as this does),
the result's vector axis at ``axisc``. Pairs of 3-vectors go through :func:`kdsl.linalg.cross`.

Example:
    >>> import kdsl as kd
    >>> kd.cross(kd.asarray([[1, 0, 0]]), kd.asarray([[0, 1, 0]]), axisc=0).tolist()
    [[0], [0], [1]]
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.linalg.common import as_pair
from kdsl.linalg.products import cross as cross3


def _axis(axis: int, ndim: int, name: str) -> int:
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim, msg_prefix=name)
    return axis % ndim


def cross(a: Any, b: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: int | None = None) -> kd.Array:
    """The cross products of the vectors of ``a`` (along ``axisa``) and ``b`` (along ``axisb``), broadcast
    over the other axes, with the vector axis of the result at ``axisc``; two 2-vectors give the scalar z
    component. ``axis`` overrides the other three. The dtype is ``a``'s and ``b``'s promoted.

    >>> import kdsl as kd
    >>> kd.cross(kd.asarray([1.0, 2.0, 3.0]), kd.asarray([4.0, 5.0, 6.0])).tolist()
    [-3.0, 6.0, -3.0]
    """
    if axis is not None:
        axisa = axisb = axisc = axis
    x, y = as_pair(a, b)  # host floats beside float64 at float64 (cross(a64, [0.1, 0, 0]) keeps 0.1)
    if x.ndim < 1 or y.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    x = kd.moveaxis(x, _axis(axisa, x.ndim, "axisa"), -1)
    y = kd.moveaxis(y, _axis(axisb, y.ndim, "axisb"), -1)
    if x.shape[-1] not in (2, 3) or y.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    kd.broadcast_shapes(x.shape[:-1], y.shape[:-1])  # (NumPy checks the shapes before the dtypes)
    d = kd.result_type(x.dtype, y.dtype)
    if d == kd.bool_:
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the "
                        "`^` operator, or the logical_xor function instead.")
    x, y = x.astype(d), y.astype(d)
    if x.shape[-1] == 3 and y.shape[-1] == 3:
        out = cross3(x, y, axis=-1)
    else:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of 3-dimensional vectors "
                      "instead. (deprecated in NumPy 2.0)", DeprecationWarning, stacklevel=2)
        z = x[..., 0] * y[..., 1] - x[..., 1] * y[..., 0]
        if x.shape[-1] == 2 and y.shape[-1] == 2:
            return z  # the scalar z component: no vector axis
        out = kd.stack(_with_plane(x, y, z), axis=-1)
    return kd.moveaxis(out, -1, _axis(axisc, out.ndim, "axisc"))


def _with_plane(x: kd.Array, y: kd.Array, z: kd.Array) -> list[kd.Array]:
    """The x and y components when one operand lies in the plane (its third component zero), as NumPy forms
    them: products only, no subtraction of a zero (which would change a -0.0 or turn 0 * inf into NaN)."""
    if x.shape[-1] == 2:
        first, second = x[..., 1] * y[..., 2], -(x[..., 0] * y[..., 2])
    else:
        first, second = -(x[..., 2] * y[..., 1]), x[..., 2] * y[..., 0]
    shape = z.shape
    return [kd.broadcast_to(first, shape), kd.broadcast_to(second, shape), z]


__all__ = ["cross"]
