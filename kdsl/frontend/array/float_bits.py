"""Functions of a float's exponent, exact by bits: ``frexp ldexp spacing``.

Each reads the float's bits through a bit-cast view and works on them with integer ops (lazy, fused), so the
results are exact on every device, subnormals included: a GPU that flushes subnormals in float arithmetic still
moves integer bits unchanged. A subnormal's leading bit is found by converting its mantissa field to a float
(exact: it has fewer bits than the float's mantissa) and reading that float's exponent.

Example:
    >>> import kdsl as kd
    >>> m, e = kd.frexp(kd.asarray([8.0, -0.75]))
    >>> m.tolist(), e.tolist(), kd.ldexp(m, e).tolist()
    ([0.5, -0.75], [4, 0], [8.0, -0.75])
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from kdsl import dtype as dt
from kdsl.dtype import promotion
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.bitcast import SIGNED
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.derivative import with_derivative
from kdsl.frontend.array.ops import apply, where


class _Layout(NamedTuple):
    """The bit fields of a float dtype."""

    m: int  # mantissa bits
    bias: int
    top: int  # the exponent field of inf and NaN (all ones)
    sign: int  # the sign bit alone, as a signed integer

    @staticmethod
    def of(d: dt.DType) -> _Layout:
        nbits, m = 8 * d.itemsize, int(np.finfo(d.np).nmant)
        ebits = nbits - 1 - m
        return _Layout(m, (1 << (ebits - 1)) - 1, (1 << ebits) - 1, -(1 << (nbits - 1)))


class _Parts(NamedTuple):
    """A float array taken apart: ``|x| = 2**e * (1 + f / 2**m)`` for non-zero finite ``x``."""

    sign: Array  # the sign bit (as the integer of the float's size)
    field: Array  # the exponent field as stored (0: zero or subnormal, top: inf or NaN)
    mag: Array  # the bits without the sign
    e: Array  # the unbiased exponent, subnormals normalised
    f: Array  # the mantissa bits after the leading 1, subnormals normalised


def _parts(x: Array, lay: _Layout) -> _Parts:
    b = x.view(SIGNED[x.dtype.itemsize])
    mask = (1 << lay.m) - 1
    mag = b & ~lay.sign
    field, frac = mag >> lay.m, mag & mask
    # a subnormal is frac * 2**(1 - bias - m): frac as a float (exact) is normal and carries frac's leading bit
    sub = frac.astype(x.dtype).view(b.dtype)
    e = where(field == 0, (sub >> lay.m) - 2 * lay.bias + 1 - lay.m, field - lay.bias)
    return _Parts(b & lay.sign, field, mag, e, where(field == 0, sub & mask, frac))


def _float_input(ufunc: np.ufunc, x: Any) -> tuple[dt.DType, Array]:
    a = x if isinstance(x, Array) else asarray(x)
    d = promotion.result_dtype(ufunc, a.dtype)  # NumPy's TypeError for complex
    a.device.check(d)
    return d, a.astype(d)


def frexp(x: Any) -> tuple[Array, Array]:
    """``(mantissa, exponent)`` with ``x == mantissa * 2**exponent`` and ``0.5 <= |mantissa| < 1`` (an int32
    exponent); zeros, infinities and NaN give ``(x, 0)``. Exact, subnormals included.

    >>> import kdsl as kd, numpy as np
    >>> m, e = kd.frexp(kd.asarray(np.array([1e-45, 3.0], np.float32)))
    >>> m.tolist(), e.tolist()
    ([0.5, 0.75], [-148, 2])
    """
    d, a = _float_input(np.frexp, x)
    lay = _Layout.of(d)
    p = _parts(a, lay)
    plain = (p.mag == 0) | (p.field == lay.top)
    mant = where(plain, a, (p.sign | ((lay.bias - 1) << lay.m) | p.f).view(d))
    e = where(plain, 0, p.e + 1).astype(dt.int32)
    # (bits carry no gradient: the mantissa is x * 2**-e, so its derivative is 2**-e; 1 where it is x)
    return with_derivative(mant, (a,), lambda g: (where(plain, g, ldexp(g, -e)),)), e


def ldexp(x1: Any, x2: Any) -> Array:
    """``x1 * 2**x2`` for an integer ``x2``, exact by bits and correctly rounded (half to even) where the
    result is subnormal; overflow gives +-inf, underflow +-0.0. A float ``x2`` raises TypeError, as NumPy.
    A Python float ``x1`` with an integer array ``x2`` gives float32 (kdsl's rule for weak floats meeting
    integer arrays; NumPy: float64).

    >>> import kdsl as kd, numpy as np
    >>> kd.ldexp(kd.asarray(np.array([1.0, 3.0, 1.0], np.float32)), kd.asarray([-149, -150, 128])).tolist()
    [1.401298464324817e-45, 2.802596928649634e-45, inf]
    """
    dev = ops.device_of((x1, x2))
    a = x1 if _array_or_weak(x1) else asarray(x1, device=dev)
    n = x2 if _array_or_weak(x2) else asarray(x2, device=dev)
    d = promotion.result_dtype(np.ldexp, *(v.dtype if isinstance(v, Array) else v for v in (a, n)))
    dev.check(d)
    if isinstance(x2, int) and not isinstance(x2, bool) and not -(1 << 63) <= x2 < 1 << 63:
        raise OverflowError(f"Python int {x2} too large to convert to C long (NumPy's ldexp takes an int64 "
                            "exponent)")
    a = a.astype(d) if isinstance(a, Array) else Array(ops.const_node(a, d, dev))
    lay = _Layout.of(d)
    bits = SIGNED[d.itemsize]  # the integer of the float's size: exponent arithmetic on the bits
    limit = lay.top + lay.m + 2  # past it every finite non-zero x overflows or rounds to zero
    if isinstance(n, Array):
        if n.dtype.kind == "u" and n.dtype.itemsize >= 4:  # cut in its own dtype: uint32 4294967295 is no -1
            n = apply("minimum", n, limit).astype(bits)
        else:
            wide = dt.int64 if n.dtype.itemsize == 8 else dt.int32
            n = apply("minimum", apply("maximum", n.astype(wide), -limit), limit).astype(bits)
        shape = ops.broadcast_shapes(a.shape, n.shape)
        a = a if a.shape == shape else Array(ops.movement.broadcast_node(a._n, shape))
    else:
        n = max(-limit, min(limit, int(n)))
    # (bits carry no gradient: d/dx1 is 2**x2, x1's own scaling; x2 is an integer)
    return with_derivative(_scaled(a, n, lay), (a,), lambda g: (_scaled(g.astype(d), n, lay),))


def _array_or_weak(v: Any) -> bool:
    """A kdsl array or a Python scalar (weak); NumPy's scalars are strong (``np.float64`` subclasses ``float``,
    but ``ldexp(np.float64(0.3), 1)`` is float64, as NumPy's)."""
    return isinstance(v, Array) or (isinstance(v, (bool, int, float)) and not isinstance(v, np.generic))


def _scaled(a: Array, n: Any, lay: _Layout) -> Array:
    """The bits of ``a * 2**n`` (``n`` clamped, of ``a``'s bit dtype or a Python int)."""
    d = a.dtype
    p = _parts(a, lay)
    biased = p.e + n + lay.bias
    normal = p.sign | (biased << lay.m) | p.f
    # subnormal result: the significand 1.f shifted right, rounded half to even (a carry into the exponent
    # field gives the smallest normal, which is right)
    shift = apply("minimum", 1 - biased, lay.m + 2)
    full = p.f | (1 << lay.m)
    q = apply("shr", full, shift)
    rest = full & (apply("shl", 1, shift) - 1)
    half = apply("shl", 1, shift - 1)
    up = (rest > half) | ((rest == half) & ((q & 1) == 1))
    tiny = p.sign | (q + up.astype(q.dtype))
    out = where(biased >= lay.top, p.sign | (lay.top << lay.m), where(biased >= 1, normal, tiny))
    plain = (p.mag == 0) | (p.field == lay.top)
    return where(plain, a, out.view(d))


def spacing(x: Any) -> Array:
    """The distance from ``x`` to the next float away from zero, with ``x``'s sign (positive at ``-0.0``, as
    NumPy): the unit in the last place, exact by bits. +-inf at the largest finite value (the next float is
    inf), NaN for infinities and NaN. float16 follows NumPy's half loop, which for negative ``x`` returns the
    positive distance to the next float towards zero (``spacing(-1.0)`` is ``2**-11``, 32.0 at -65504).

    >>> import kdsl as kd, numpy as np
    >>> kd.spacing(kd.asarray(np.array([1.0, -4.0, 0.0], np.float32))).tolist()
    [1.1920928955078125e-07, -4.76837158203125e-07, 1.401298464324817e-45]
    """
    d, a = _float_input(np.spacing, x)
    lay = _Layout.of(d)
    b = a.view(SIGNED[d.itemsize])
    mag = b & ~lay.sign
    field = mag >> lay.m
    inf = lay.top << lay.m
    half = d is dt.float16  # NumPy's half loop: negative x measure towards zero, without a sign
    below = half & (b < 0) & (mag != 0) & (field != lay.top)
    step = where(below, (mag - 1) >> lay.m, field)  # the binade of the gap measured
    ulp = where(step > lay.m, (step - lay.m) << lay.m, apply("shl", 1, apply("maximum", step - 1, 0)))
    ulp = where((b if half else mag) == inf - 1, inf, ulp)
    ulp = where(field == lay.top, inf | (1 << (lay.m - 1)), ulp)  # NaN
    return (ulp if half else ulp | where(mag == 0, 0, b & lay.sign)).view(d)
