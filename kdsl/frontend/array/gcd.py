"""``gcd`` and ``lcm`` of integer arrays: the binary GCD, unrolled into a fixed number of lazy steps.

GPUs have no integer GCD instruction, and Euclid's loop has a data-dependent length. The binary GCD needs only
shifts, subtractions and comparisons: with ``u`` odd, each step either halves an even ``v`` or replaces
``(u, v)`` by ``(min(u, v), |u - v| / 2)``; either way the product ``u * v`` at least halves while ``v`` is
non-zero, so ``2 * bits`` steps always finish (16 for int8, 128 for int64). The steps are unrolled into one
fused elementwise kernel: no loop at all, so lavapipe's per-invocation loop budget is never touched.

Signed inputs work on the absolute values as unsigned integers of the same size (``|INT_MIN|`` fits), and
the result is cast back, wrapping as NumPy's does (``gcd(-128, 0)`` of int8 is -128).

Example:
    >>> import kdsl as kd
    >>> kd.gcd(kd.asarray([12, -18, 0, 7]), 30).tolist(), kd.lcm(kd.asarray([4, -6, 0]), 10).tolist()
    ([6, 6, 30, 1], [20, 30, 0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.bitcast import UNSIGNED
from kdsl.frontend.array.elementwise_extra import float_operand_array, float_operands
from kdsl.frontend.array.ops import apply, where


def _int_operands(ufunc: np.ufunc, x1: Any, x2: Any) -> tuple[dt.DType, Array, Array]:
    """NumPy's result dtype of ``ufunc`` (TypeError for floats, as NumPy) and the absolute values of both
    operands as Arrays of the unsigned integer of its size."""
    d, (a, b) = float_operands(ufunc, x1, x2)
    dev = ops.device_of((a, b))
    u = dev.check(UNSIGNED[d.itemsize])
    return d, _magnitude(float_operand_array(a, d, dev), u), _magnitude(float_operand_array(b, d, dev), u)


def _magnitude(x: Array, u: dt.DType) -> Array:
    if x.dtype.kind == "i":
        x = where(x < 0, -x, x)  # -INT_MIN wraps to INT_MIN, whose unsigned reading is |INT_MIN|
    return x.astype(u)


def _gcd_unsigned(a: Array, b: Array) -> Array:
    """gcd of unsigned ``a`` and ``b`` (broadcast), gcd(0, 0) = 0."""
    shape = ops.broadcast_shapes(a.shape, b.shape)
    common = (a | b) & (0 - (a | b))  # the lowest set bit of either: the power of two both share
    a, b = apply("floordiv", a, common), apply("floordiv", b, common)  # x // 0 is 0: gcd(0, 0) stays 0
    odd_a = (a & 1) == 1
    u, v = where(odd_a, a, b), where(odd_a, b, a)  # u odd (or both zero)
    for _ in range(2 * 8 * a.dtype.itemsize):
        even = (v & 1) == 0
        gap = where(u > v, u - v, v - u)
        u = where(even, u, apply("minimum", u, v))
        v = where(even, v, gap) >> 1
    out = u * common
    return out if out.shape == shape else Array(ops.movement.broadcast_node(out._n, shape))


def gcd(x1: Any, x2: Any) -> Array:
    """The greatest common divisor of ``|x1|`` and ``|x2|`` (``gcd(0, 0)`` is 0), NumPy's result dtype;
    floats raise TypeError as in NumPy. One fused kernel of ``2 * bits`` unrolled binary-GCD steps.

    >>> import kdsl as kd
    >>> kd.gcd(kd.asarray([[4], [9]]), kd.asarray([6, 12])).tolist()
    [[2, 4], [3, 3]]
    """
    d, a, b = _int_operands(np.gcd, x1, x2)
    return _gcd_unsigned(a, b).astype(d)


def lcm(x1: Any, x2: Any) -> Array:
    """The least common multiple of ``|x1|`` and ``|x2|`` (0 if either is 0), wrapping on overflow as
    NumPy's does; floats raise TypeError.

    >>> import kdsl as kd
    >>> kd.lcm(kd.asarray([4, 21]), kd.asarray([6, 6])).tolist()
    [12, 42]
    """
    d, a, b = _int_operands(np.lcm, x1, x2)
    g = _gcd_unsigned(a, b)
    return (apply("floordiv", a, g) * b).astype(d)
