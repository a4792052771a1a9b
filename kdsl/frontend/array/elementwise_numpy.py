"""NumPy's remaining elementwise functions, composed of kdsl's lazy ops (they fuse like the rest):
``fabs fmod fmax fmin deg2rad rad2deg degrees radians cbrt heaviside isposinf isneginf float_power logaddexp2
divmod modf fix sinc real_if_close``. Result dtypes are NumPy's (``fabs`` of int8 is float16, ...).

Example:
    >>> import kdsl as kd
    >>> x = kd.asarray([-7.5, 0.0, 8.0])
    >>> kd.fmod(x, 2.0).tolist(), kd.cbrt(x).tolist()[2], kd.heaviside(x, 0.5).tolist()
    ([-1.5, 0.0, 0.0], 2.0, [0.0, 0.5, 1.0])
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_array
from kdsl.frontend.array.derivative import with_derivative
from kdsl.frontend.array.elementwise_extra import copysign, float_bits, float_operand_array, float_operands, signbit
from kdsl.frontend.array.error_free import two_product
from kdsl.frontend.array.ops import apply, where


def _float_pair(ufunc: np.ufunc, x1: Any, x2: Any, wide16: bool = False) -> tuple[dt.DType, Array, Array]:
    """NumPy's result dtype of ``ufunc(x1, x2)`` and both operands as Arrays of it (weak scalars included)."""
    d, (a, b) = float_operands(ufunc, x1, x2, wide16=wide16)
    dev = ops.device_of((a, b))
    c = dt.float32 if wide16 and d is dt.float16 else d
    return d, float_operand_array(a, c, dev), float_operand_array(b, c, dev)


def _float_one(ufunc: np.ufunc, x: Any, wide16: bool = False) -> tuple[dt.DType, Array]:
    d, (a,) = float_operands(ufunc, x, wide16=wide16)
    return d, a


def fabs(x: Any) -> Array:
    """``|x|`` as a float (NumPy's ``fabs``: int8 gives float16, complex raises): the sign bit cleared, so
    exact for every value, NaN included.

    >>> import kdsl as kd
    >>> kd.fabs(kd.asarray([-1.5, -0.0, 2.0])).tolist()
    [1.5, 0.0, 2.0]
    """
    d, a = _float_one(np.fabs, x)
    low = -(1 << (8 * d.itemsize - 1))  # the sign bit alone
    # (bits carry no gradient: abs's, sign(x), 0 at 0 as PyTorch's)
    return with_derivative((float_bits(a) & ~low).view(d), (a,), lambda g: (g * apply("sign", a),))


def fmod(x1: Any, x2: Any) -> Array:
    """C's remainder: ``x1 - trunc(x1 / x2) * x2``, the sign of ``x1`` (``kd.remainder`` takes ``x2``'s).

    Floats: ``remainder(|x1|, |x2|)`` with ``x1``'s sign (so as accurate as ``kd.remainder``); ``fmod(x, 0)``
    is NaN. Integers: truncated division's remainder, 0 for a zero divisor (NumPy's loop, which also warns).

    >>> import kdsl as kd
    >>> kd.fmod(kd.asarray([-7, 7]), kd.asarray([2, -2])).tolist(), kd.fmod(kd.asarray([-7.0]), 2.0).tolist()
    ([-1, 1], [-1.0])
    """
    d, a, b = _float_pair(np.fmod, x1, x2)
    if d.is_float:
        return copysign(apply("mod", apply("abs", a), apply("abs", b)), a)
    r = apply("mod", a, b)  # floored: the divisor's sign
    if d.kind == "u":
        return r
    return where((r != 0) & ((r < 0) != (a < 0)), r - b, r)


def _nan_ignoring(x1: Any, x2: Any, ufunc: np.ufunc, keep_first: str) -> Array:
    d, a, b = _float_pair(ufunc, x1, x2)
    if not d.is_float and d.kind != "c":  # integers have no NaN
        return apply("maximum" if ufunc is np.fmax else "minimum", a, b)
    first = (a >= b) if keep_first == "ge" else (a <= b)
    return where(first | apply("isnan", b), a, b)


def fmax(x1: Any, x2: Any) -> Array:
    """Elementwise maximum ignoring NaNs (NaN only where both are); integers: ``kd.maximum``. Ties such as
    ``(-0.0, 0.0)`` give ``x1`` (NumPy's scalar loop does too; its SIMD loop, used for longer arrays, may not:
    the sign of a zero tie is unspecified, as in C).

    >>> import kdsl as kd
    >>> kd.fmax(kd.asarray([1.0, float("nan"), float("nan")]), kd.asarray([float("nan"), 2.0, float("nan")])).tolist()
    [1.0, 2.0, nan]
    """
    return _nan_ignoring(x1, x2, np.fmax, "ge")


def fmin(x1: Any, x2: Any) -> Array:
    """Elementwise minimum ignoring NaNs (see :func:`fmax`).

    >>> import kdsl as kd
    >>> kd.fmin(kd.asarray([1.0, float("nan")]), kd.asarray([float("nan"), 2.0])).tolist()
    [1.0, 2.0]
    """
    return _nan_ignoring(x1, x2, np.fmin, "le")


def deg2rad(x: Any) -> Array:
    """Degrees to radians, ``x * (pi / 180)`` (float16 computes in float32 and rounds once, as NumPy's loop).

    >>> import kdsl as kd
    >>> round(kd.deg2rad(kd.asarray([180.0, -90.0])).tolist()[1], 6)
    -1.570796
    """
    d, a = _float_one(np.deg2rad, x, wide16=True)
    return (a * (math.pi / 180.0)).astype(d)


def rad2deg(x: Any) -> Array:
    """Radians to degrees, ``x * (180 / pi)``.

    >>> import kdsl as kd
    >>> kd.rad2deg(kd.asarray([kd.pi / 2])).tolist()
    [90.0]
    """
    d, a = _float_one(np.rad2deg, x, wide16=True)
    return (a * (180.0 / math.pi)).astype(d)


def radians(x: Any) -> Array:
    """NumPy's other name of :func:`deg2rad`.

    >>> import kdsl as kd
    >>> kd.radians(kd.asarray([0.0])).tolist()
    [0.0]
    """
    return deg2rad(x)


def degrees(x: Any) -> Array:
    """NumPy's other name of :func:`rad2deg`.

    >>> import kdsl as kd
    >>> kd.degrees(kd.asarray([0.0])).tolist()
    [0.0]
    """
    return rad2deg(x)


def cbrt(x: Any) -> Array:
    """The real cube root (negative for negative ``x``; ``-0.0``, infinities and NaN pass through).

    ``exp2(log2|x| / 3)`` refined by one Newton step written as ``y - (y - |x| / y**2) / 3`` (no ``y**3``, so
    nothing overflows near the dtype's largest value); subnormals are scaled from their bits first. float32
    computes in float64 where the device has it, so its results are correctly rounded.

    >>> import kdsl as kd
    >>> kd.cbrt(kd.asarray([-27.0, 8.0, -0.0])).tolist()
    [-3.0, 2.0, -0.0]
    """
    d, a = _float_one(np.cbrt, x, wide16=True)
    info = np.finfo(a.dtype.np)
    # |x| and its tests from the bits: a device that flushes subnormals (the H200's float32) would compare a
    # subnormal equal to zero. A subnormal t is its mantissa bits m times 2**low: cbrt(m * 2**r) *
    # 2**(low // 3) with r = low % 3, all from normal floats (lavapipe's log2 and division flush subnormal
    # operands too).
    mag = float_bits(a) & ((1 << (8 * a.dtype.itemsize - 1)) - 1)
    t = mag.view(a.dtype)
    low = int(np.log2(info.smallest_subnormal))
    mant = mag.astype(a.dtype) * float(2 ** (low % 3))
    sub = mag < (1 << info.nmant)
    # float32 works in float64 where the device has it and rounds once: correctly rounded but for ties closer
    # than float64's error (NumPy's float32 cbrt, libm's or SVML's, is an ulp off in a few percent of cases)
    wide = dt.float64 if a.dtype is dt.float32 and a.device.supports(dt.float64) else a.dtype
    y = _cbrt_normal(where(sub, mant, t).astype(wide))
    y = where(sub, y * 2.0 ** (low // 3), y).astype(a.dtype)
    plain = (mag == 0) | apply("isinf", t) | apply("isnan", t)
    out = where(plain, a, copysign(y, a))
    # (|x| comes from the bits, which carry no gradient: d/dx = 1 / (3 cbrt(x)**2), inf at 0 as PyTorch's)
    return with_derivative(out, (a,), lambda g: (g / (3.0 * out * out),)).astype(d)


def _cbrt_normal(t: Array) -> Array:
    """cbrt of positive normal ``t``: one Newton step from ``exp2(log2(t) / 3)``; in float64, where ``y**3`` and its
    error are normal, the step's residual ``t - y**3`` is taken exactly (Dekker's products), so the result rounds
    about once (``y - (y - t / y**2) / 3`` rounded ``y**2`` and the quotient: 8% not correctly rounded)."""
    y = apply("exp2", apply("log2", t) * (1.0 / 3.0))
    plain = y - (y - t / (y * y)) * (1.0 / 3.0)
    if t.dtype is not dt.float64:
        return plain
    p, pe = two_product(y, y)
    c, ce = two_product(y, p)
    fine = y + ((t - c) - (ce + y * pe)) / (3.0 * p)
    return where((t > 2.0**-960) & (t < 2.0**1000), fine, plain)


def heaviside(x1: Any, x2: Any) -> Array:
    """The step function: 0 where ``x1 < 0``, ``x2`` where ``x1 == 0`` (``-0.0`` too), 1 where ``x1 > 0``,
    NaN where ``x1`` is NaN; a float result, as NumPy's.

    >>> import kdsl as kd
    >>> kd.heaviside(kd.asarray([-2.0, -0.0, 3.0]), 0.5).tolist()
    [0.0, 0.5, 1.0]
    """
    _, a, b = _float_pair(np.heaviside, x1, x2)
    out = where(a < 0, 0.0, where(a > 0, 1.0, b))
    return where(apply("isnan", a), a, out)


def _with_out(result: Array, out: Any) -> Array:
    if out is None:
        return result
    if not isinstance(out, Array):
        raise TypeError("out= must be a kdsl Array (a NumPy out would need a copy to the host)")
    out[...] = result
    return out


def _isinf_signed(x: Any, negative: bool, out: Any, name: str) -> Array:
    a = as_array(x)
    if a.dtype.kind == "c":
        raise TypeError(f"This operation is not supported for {a.dtype.name} values because it would be "
                        f"ambiguous ({name}: compare kd.real(z) or kd.imag(z) instead)")
    if not a.dtype.is_float:  # integers and bools are never infinite
        return _with_out(a != a, out)
    sign = signbit(a)
    return _with_out(apply("isinf", a) & (sign if negative else ~sign), out)


def isposinf(x: Any, out: Any = None) -> Array:
    """Whether each element is +inf (a bool array; complex raises TypeError, as NumPy).

    >>> import kdsl as kd
    >>> kd.isposinf(kd.asarray([kd.inf, -kd.inf, 1.0])).tolist()
    [True, False, False]
    """
    return _isinf_signed(x, False, out, "isposinf")


def isneginf(x: Any, out: Any = None) -> Array:
    """Whether each element is -inf (a bool array; complex raises TypeError, as NumPy).

    >>> import kdsl as kd
    >>> kd.isneginf(kd.asarray([kd.inf, -kd.inf, 1.0])).tolist()
    [False, True, False]
    """
    return _isinf_signed(x, True, out, "isneginf")


def float_power(x1: Any, x2: Any) -> Array:
    """``x1 ** x2`` in at least float64 (NumPy's ``float_power``; float32 where the device has no float64 is
    refused, as every float64 op is).

    >>> import kdsl as kd
    >>> r = kd.float_power(kd.asarray([2, 3]), 2)
    >>> r.dtype.name, r.tolist()
    ('float64', [4.0, 9.0])
    """
    _, a, b = _float_pair(np.float_power, x1, x2)
    return apply("pow", a, b)


def logaddexp2(x1: Any, x2: Any) -> Array:
    """``log2(2**x1 + 2**x2)`` without overflow: ``max + log2(1 + 2**-|x1 - x2|)``.

    >>> import kdsl as kd
    >>> kd.logaddexp2(kd.asarray([1.0, 1000.0]), kd.asarray([1.0, 0.0])).tolist()
    [2.0, 1000.0]
    """
    d, a, b = _float_pair(np.logaddexp2, x1, x2, wide16=True)
    big = apply("maximum", a, b)
    t = apply("exp2", -apply("abs", a - b))
    # kdsl's log1p is relatively accurate for tiny t (a four-term series below 1e-2 was 2e-9 off in float64)
    out = big + apply("log1p", t) * (1.0 / math.log(2.0))
    return where(a == b, a + 1.0, out).astype(d)  # equal infinities: inf - inf would be NaN


def divmod(x1: Any, x2: Any) -> tuple[Array, Array]:  # noqa: A001 - NumPy's name
    """``(floor_divide(x1, x2), remainder(x1, x2))``, one pass each (they fuse when both are used).

    >>> import kdsl as kd
    >>> q, r = kd.divmod(kd.asarray([7, -7]), 2)
    >>> q.tolist(), r.tolist()
    ([3, -4], [1, 1])
    """
    return apply("floordiv", x1, x2), apply("mod", x1, x2)


def modf(x: Any) -> tuple[Array, Array]:
    """``(fractional part, integral part)``, both with ``x``'s sign (``modf(-2.0)`` is ``(-0.0, -2.0)``;
    infinities give ``(+-0.0, +-inf)``); a float result, as NumPy's.

    >>> import kdsl as kd
    >>> f, i = kd.modf(kd.asarray([3.5, -2.25]))
    >>> f.tolist(), i.tolist()
    ([0.5, -0.25], [3.0, -2.0])
    """
    _, a = _float_one(np.modf, x)
    whole = copysign(apply("trunc", a), a)
    frac = where(apply("isinf", a), 0.0, a - whole)
    return copysign(frac, a), where(apply("isnan", a), a, whole)


def fix(x: Any, out: Any = None) -> Array:
    """Round towards zero (NumPy's ``fix``: integers keep their dtype, ``fix(-0.5)`` is ``-0.0``).

    >>> import kdsl as kd
    >>> kd.fix(kd.asarray([2.7, -2.7])).tolist()
    [2.0, -2.0]
    """
    return _with_out(apply("trunc", as_array(x)), out)


def sinc(x: Any) -> Array:
    """``sin(pi x) / (pi x)``, 1 at 0, computed as NumPy does: ``y = pi * x`` (zeros replaced by the dtype's
    eps) in the float dtype of ``x`` (integers and bools: float64, as NumPy's ``pi * x``); complex ``x`` too.

    >>> import kdsl as kd
    >>> [round(v, 6) for v in kd.sinc(kd.asarray([0.0, 0.5, 1.0])).tolist()]
    [1.0, 0.63662, -0.0]
    """
    a = as_array(x)
    if a.dtype.kind == "c":  # NumPy divides at 1e-20 there: exactly 1 (a complex64 |y|**2 would underflow)
        y = a * math.pi
        return where(y != 0, apply("sin", y) / y, Array(ops.const_node(1.0, a.dtype, a.device)))
    if not a.dtype.is_float:
        a = a.astype(dt.float64 if a.device.supports(dt.float64) else dt.float32)
    y = a * math.pi
    y = where(y != 0, y, float(np.finfo(a.dtype.np).eps))
    return apply("sin", y) / y


def real_if_close(a: Any, tol: float = 100) -> Array:
    """The real part of complex ``a`` when every imaginary part is below ``tol`` machine epsilons (``tol``
    above 1; an absolute bound otherwise), else ``a`` unchanged; non-complex ``a`` is returned as it is.

    The result's dtype depends on the data, so this reads one bool to the host (a synchronisation).

    >>> import kdsl as kd
    >>> kd.real_if_close(kd.asarray([2.0 + 1e-9j])).dtype.name, kd.real_if_close(kd.asarray([2 + 1j])).dtype.name
    ('float32', 'complex64')
    """
    x = as_array(a)
    if x.dtype.kind != "c":
        return x
    if tol > 1:
        tol = tol * float(np.finfo(x.dtype.np).eps)
    small = (apply("abs", apply("imag", x)) < tol).all()
    return apply("real", x) if bool(small) else x
