"""More elementwise functions, composed of kdsl's lazy ops (so they fuse like the rest):
``signbit copysign hypot logaddexp nextafter nan_to_num isclose allclose array_equal count_nonzero``.

Example:
    >>> import kdsl as kd
    >>> x = kd.asarray([-0.0, 3.0, -4.0])
    >>> kd.signbit(x).tolist(), kd.hypot(x, 4.0).tolist(), kd.copysign(2.0, x).tolist()
    ([True, False, True], [4.0, 5.0, 5.656854152679443], [-2.0, 2.0, -2.0])
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.dtype import promotion
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.bitcast import SIGNED
from kdsl.frontend.array.creation import as_array, as_arrays, at_array_precision
from kdsl.frontend.array.derivative import with_derivative
from kdsl.frontend.array.errstate import geterr
from kdsl.frontend.array.hypot_rounding import corrected
from kdsl.frontend.array.ops import apply, const_node, where
from kdsl.frontend.array.reductions import sum as ksum
from kdsl.frontend.array.set_routines import contained
from kdsl.frontend.array.shape_ops import concatenate
from kdsl.frontend.array.sorting import sort
from kdsl.frontend.array.ufunc_errors import string_operand_error


def float_operands(ufunc: np.ufunc, *xs: Any, wide16: bool = False) -> tuple[dt.DType, list[Any]]:
    """(NumPy's result dtype of ``ufunc`` on ``xs``, the operands cast to it; Python scalars stay weak).

    ``wide16``: float16 operands are cast to float32 instead (kdsl rounds float16 after every op, so a
    composite of several ops would lose bits that NumPy's float16 loops, which compute in float32, keep)."""
    dev = ops.device_of(xs)
    xs2 = at_array_precision(xs, [_float_operand(x, dev) for x in xs], dev)
    if not any(isinstance(x, Array) for x in xs2):
        xs2[0] = as_array(xs2[0], dev)
    d = promotion.result_dtype(ufunc, *(x.dtype if isinstance(x, Array) else x for x in xs2))
    dev.check(d)
    c = dt.float32 if wide16 and d is dt.float16 else d
    try:  # a weak Python number: a constant of c itself (hypot(a64, 0.1) computes with 0.1, not its float32)
        return d, [x.astype(c) if isinstance(x, Array) else Array(const_node(x, c, dev)) for x in xs2]
    except OverflowError:  # fmax(bool_array, 2**40) is int64, as NumPy's: the operators' own rule
        wide = ops.bool_with_long(xs2, dev, Array)
        if wide is None:
            raise
        return float_operands(ufunc, *wide, wide16=wide16)


def _float_operand(x: Any, dev: Any) -> Any:
    """``x`` as :func:`float_operands` takes it: a Python number stays weak; a NumPy scalar is strong (NEP 50),
    a 0-d array of its dtype, though ``np.float64`` is a Python float (``hypot(f32, np.float64(1.5))`` is
    float64, as NumPy's); anything else an Array."""
    if isinstance(x, np.generic):
        return ops.as_operand(x, dev)  # a weak number only on a device without float64 (as operators do)
    return x if isinstance(x, (bool, int, float)) else as_array(x, dev)


def signbit(x: Any) -> Array:
    """Whether the sign bit is set: true for negative numbers, -0.0 and NaNs with the sign bit (as NumPy).

    Floats read the bit itself (a bit-cast view, fused with the comparison), so no arithmetic on the way can
    lose it: ``signbit(-nan)`` is True on every device.

    >>> import kdsl as kd, numpy as np
    >>> kd.signbit(kd.asarray([-1.0, -0.0, 0.0, float("-inf")])).tolist()
    [True, True, False, True]
    >>> kd.signbit(kd.asarray(-np.array([np.nan], np.float32))).tolist()
    [True]
    """
    x = as_array(x)
    if x.dtype.kind == "c":
        raise TypeError(f"signbit is not defined for {x.dtype.name} arrays (NumPy raises too)")
    if x.dtype.kind == "b":  # NumPy casts bools to float16: never negative
        return x & False
    if not x.dtype.is_float:
        return x < 0
    return float_bits(x) < 0


def float_bits(x: Array) -> Array:
    """The bits of float array ``x`` as the signed integer of its size (the sign bit is the integer's)."""
    return x.view(SIGNED[x.dtype.itemsize])


def float_operand_array(v: Any, d: dt.DType, dev: Any) -> Array:
    """An operand of :func:`float_operands` as an Array of ``d`` (a weak scalar becomes a constant of ``d``)."""
    return v if isinstance(v, Array) else Array(ops.const_node(v, d, dev))


def copysign(x1: Any, x2: Any) -> Array:
    """``|x1|`` with the sign bit of ``x2`` (a float result): bits copied, so exact for every value, NaN too
    (``copysign(nan, -1.0)`` is a NaN with the sign bit, as in NumPy).

    >>> import kdsl as kd
    >>> kd.copysign(kd.asarray([1.0, 2.0]), kd.asarray([-0.0, 5.0])).tolist()
    [-1.0, 2.0]
    """
    d, (a, b) = float_operands(np.copysign, x1, x2)
    dev = ops.device_of((a, b))
    a, b = float_operand_array(a, d, dev), float_operand_array(b, d, dev)
    low = -(1 << (8 * d.itemsize - 1))  # the sign bit alone, as a signed integer
    out = ((float_bits(a) & ~low) | (float_bits(b) & low)).view(d)
    # (bits carry no gradient: d/dx1 is +-1 as the signs agree, 0 at x1 = 0 as PyTorch's; x2's is 0)
    return with_derivative(out, (a, b), lambda g: (where(a == 0, 0, g * (out / a)), None))


def hypot(x1: Any, x2: Any) -> Array:
    """``sqrt(x1**2 + x2**2)`` without overflow or underflow on the way (inf if either is inf, even with NaN).

    >>> import kdsl as kd
    >>> kd.hypot(kd.asarray([3e30, 0.0, 3.0]), kd.asarray([4e30, 0.0, 4.0])).tolist()[1:]  # 3e30: no overflow
    [0.0, 5.0]
    """
    d, (a, b) = float_operands(np.hypot, x1, x2, wide16=True)
    a, b = apply("abs", a), apply("abs", b)
    big, small = apply("maximum", a, b), apply("minimum", a, b)
    out = corrected(big, small, big.dtype)  # rounded about once (kdsl.frontend.array.hypot_rounding)
    return where(apply("isinf", a) | apply("isinf", b), float("inf"), out).astype(d)


def logaddexp(x1: Any, x2: Any) -> Array:
    """``log(exp(x1) + exp(x2))`` without overflow: ``max + log1p(exp(-|x1 - x2|))``.

    >>> import kdsl as kd
    >>> [round(v, 4) for v in kd.logaddexp(kd.asarray([0.0, 1000.0]), 0.0).tolist()]
    [0.6931, 1000.0]
    """
    d, (a, b) = float_operands(np.logaddexp, x1, x2, wide16=True)
    if not isinstance(a, Array):
        a, b = b, a  # one Array is enough: the formula is symmetric
    big = apply("maximum", a, b)
    gap = apply("abs", a - b)
    t = apply("exp", -gap)
    # kdsl's log1p is relatively accurate for tiny t in float32 and float64 (a four-term series below 1e-2,
    # used here before, was 2e-9 off in float64)
    out = big + apply("log1p", t)
    return where(a == b, a + math.log(2.0), out).astype(d)  # equal infinities: inf - inf would be NaN


def nextafter(x1: Any, x2: Any) -> Array:
    """The next representable float after ``x1`` towards ``x2`` (``x2`` where they are equal, as C and NumPy >= 2.5
    do for every float type; NumPy's float16 loop returned ``x1`` before 2.5, numpy/numpy#31475).

    Steps the integer representation, as C's ``nextafter`` does: every test and step is integer arithmetic on
    the bits (a bit-cast view), so the result is exact on every device, subnormals included (GPUs that flush
    subnormals in float arithmetic still move their bits unchanged). Ordering uses the sign-magnitude bits as
    an integer key (``-0.0`` and ``0.0`` both key 0). A NaN operand gives that NaN, quieted (``x2``'s when both
    are: NumPy's ``x1 + x2`` on x86-64; float16: NumPy's one NaN, 0x7e00).

    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.array([1.0, 1.0, 0.0], np.float32))
    >>> (kd.nextafter(a, kd.asarray(np.array([2.0, 0.0, 1.0], np.float32))).numpy() - a.numpy()).tolist()
    [1.1920928955078125e-07, -5.960464477539063e-08, 1.401298464324817e-45]
    """
    d, (a, b) = float_operands(np.nextafter, x1, x2)
    dev = ops.device_of((a, b))
    a, b = float_operand_array(a, d, dev), float_operand_array(b, d, dev)
    # (bits carry no gradient: x1 moves by one ulp, so d/dx1 is 1 almost everywhere; x2's is 0)
    return with_derivative(_next_bits(a, b, d), (a, b), lambda g: (g, None))


def _next_bits(a: Array, b: Array, d: dt.DType) -> Array:
    """:func:`nextafter` of same-dtype float arrays, on their bits."""
    sa, sb = float_bits(a), float_bits(b)
    nbits, nmant = 8 * d.itemsize, int(np.finfo(d.np).nmant)
    low = -(1 << (nbits - 1))  # the sign bit alone
    inf = ((1 << (nbits - 1 - nmant)) - 1) << nmant  # the bits of +inf; above it (magnitude): NaN
    mag_a, mag_b = sa & ~low, sb & ~low
    key_a, key_b = where(sa < 0, -mag_a, mag_a), where(sb < 0, -mag_b, mag_b)  # ordered like the values
    up = key_b > key_a
    step = where(up == (key_a > 0), sa + 1, sa - 1)  # +1 grows the magnitude whatever the sign
    out = where(mag_a == 0, (sb & low) | 1, step)  # from +-0: the smallest subnormal of x2's sign
    half = d is dt.float16  # NumPy's float16 loop has its one NaN
    out = where(key_a == key_b, sb, out)
    quiet = 1 << (nmant - 1)
    if half:
        return where((mag_a > inf) | (mag_b > inf), inf | quiet, out).view(d)
    out = where(mag_a > inf, sa | quiet, out)
    out = where(mag_b > inf, sb | quiet, out)
    return out.view(d)


def nan_to_num(x: Any, copy: bool = True, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> Array:
    """NaN -> ``nan``, +inf -> ``posinf`` (default: the dtype's largest), -inf -> ``neginf`` (its smallest);
    complex input: in the real and imaginary parts separately, as NumPy does.

    >>> import kdsl as kd
    >>> kd.nan_to_num(kd.asarray([float("nan"), float("-inf"), 1.0]), neginf=-9.0).tolist()
    [0.0, -9.0, 1.0]
    >>> kd.nan_to_num(kd.asarray([complex(float("nan"), float("inf"))]), posinf=5.0).tolist()
    [5j]

    ``copy=False`` replaces the values of a kdsl array in place (and returns it), as NumPy's does.
    """
    if not copy and not isinstance(x, (Array, np.ndarray)):  # NumPy 2: copy=False of Python data cannot hold
        raise ValueError("Unable to avoid copy while creating an array as requested. (nan_to_num(copy=False) "
                         "replaces values in an array; pass one, or copy=True)")
    arr = as_array(x)
    result = _finite(arr, nan, posinf, neginf)
    if not copy and arr is x:  # NumPy's copy=False: replaced in place where x is an array already
        arr[...] = result
        return arr
    return result if result is not arr else arr.copy()  # copy=True of int data: still a new array, as NumPy's


def _finite(x: Array, nan: float, posinf: float | None, neginf: float | None) -> Array:
    """``nan_to_num``'s values (``x`` itself for data that holds no NaN or inf: ints and bools)."""
    if x.dtype.kind == "c":
        from kdsl.frontend.array.complex_math import complex_from_parts, imag, real  # cycle: it imports ops

        re, im = (_finite(p, nan, posinf, neginf) for p in (real(x), imag(x)))
        return complex_from_parts(re, im).astype(x.dtype)
    if not x.dtype.is_float:
        return x
    info = np.finfo(x.dtype.np)
    hi = float(info.max) if posinf is None else posinf
    lo = float(info.min) if neginf is None else neginf
    out = where(apply("isnan", x), nan, x)
    out = where(x == float("inf"), hi, out)
    return where(x == float("-inf"), lo, out).astype(x.dtype)


def isclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Array:
    """``|a - b| <= atol + rtol * |b|`` elementwise (NumPy's ``isclose``: infinities are close only to
    themselves; NaNs only with ``equal_nan``). Integers compare in kdsl's default float (float32).

    >>> import kdsl as kd
    >>> kd.isclose(kd.asarray([1.0, float("inf"), float("nan")]), kd.asarray([1.0 + 1e-7, float("inf"),
    ...            float("nan")]), equal_nan=True).tolist()
    [True, True, True]
    """
    _check_tolerances(rtol, atol)
    for v in (a, b):
        if isinstance(v, (str, bytes)):  # NumPy: no common dtype of text and numbers (DTypePromotionError)
            raise string_operand_error(v)
    dev = ops.device_of((a, b))
    if type(b) is int and not isinstance(a, (int, float, complex)):
        b = float(b)  # NumPy's isclose takes a Python int b as a float (isclose(x, 10**30) is no OverflowError)
    numbers = [type(v) in (int, float, complex) for v in (a, b)]
    if all(numbers):
        x, y = as_arrays(a, b, device=dev)
        d = promotion.result_dtype(np.multiply, promotion.promote(x.dtype, y.dtype), 1.0)
        x, y = x.astype(d), y.astype(d)
    else:  # a Python number is weak (NEP 50) and a constant of the comparison's dtype itself: isclose(a64, 0.1)
        # compares 0.1, not its float32 rounding (kdsl's default float), and uploads nothing
        converted = iter(as_arrays(*[v for v, n in zip((a, b), numbers, strict=True) if not n], device=dev))
        arrays: list[Array | None] = [None if n else next(converted) for n in numbers]
        weak = [v if arr is None else arr.dtype for v, arr in zip((a, b), arrays, strict=True)]
        d = promotion.result_dtype(np.multiply, promotion.result_dtype(np.add, *weak), 1.0)
        device = next(arr.device for arr in arrays if arr is not None)
        x, y = (Array(const_node(v, d, device)) if arr is None else arr.astype(d)
                for v, arr in zip((a, b), arrays, strict=True))
    close = (apply("abs", x - y) <= atol + rtol * apply("abs", y)) & apply("isfinite", y)
    out = close | (x == y)
    if equal_nan:
        out = out | (apply("isnan", x) & apply("isnan", y))
    return out


def _check_tolerances(rtol: Any, atol: Any) -> None:
    """NumPy's RuntimeWarning (under ``errstate(invalid='warn')``, the default; printed under ``'print'``) for a
    NaN or infinite tolerance. Host tolerances only: a kdsl array's values would need a read back, and
    ``isclose`` stays lazy."""
    if isinstance(rtol, Array) or isinstance(atol, Array):
        return
    atol, rtol = (t if isinstance(t, (int, float, complex)) else np.asanyarray(t) for t in (atol, rtol))
    with np.errstate(invalid="ignore"):
        if np.all(np.isfinite(atol)) and np.all(np.isfinite(rtol)):
            return
    message = f"One of rtol or atol is not valid, atol: {atol}, rtol: {rtol}"
    mode = geterr()["invalid"]
    if mode == "warn":
        warnings.warn(message, RuntimeWarning, stacklevel=3)
    elif mode == "print":
        print(message)


def _weak_result(a_in: Any, a: Array, b_in: Any, b: Array) -> Any:
    """The dtype ``a - b`` compares in, with Python scalars weak as NumPy's NEP 50 has them (``isclose(f32, 2)``
    compares in float32, not in the float64 that an int array would promote float32 to); a Python scalar where
    both are."""
    ops_ = [x if type(x) in (int, float, complex) else arr.dtype for x, arr in ((a_in, a), (b_in, b))]
    if not any(isinstance(x, dt.DType) for x in ops_):
        return promotion.promote(a.dtype, b.dtype)
    return promotion.result_dtype(np.add, *ops_)


def allclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Array:
    """Whether every element of ``a`` is close to ``b`` (see :func:`isclose`): a lazy 0-d bool array
    (``if kd.allclose(a, b):`` works; NumPy returns a Python bool).

    >>> import kdsl as kd
    >>> bool(kd.allclose(kd.asarray([1.0, 2.0]), [1.0, 2.000001]))
    True
    """
    return isclose(a, b, rtol, atol, equal_nan).all()


def array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> Array:
    """Whether ``a1`` and ``a2`` have one shape and equal elements: a lazy 0-d bool array (NumPy: a bool).

    >>> import kdsl as kd
    >>> bool(kd.array_equal(kd.asarray([1, 2]), [1, 2])), bool(kd.array_equal(kd.ones(2), kd.ones(3)))
    (True, False)
    """
    dev = ops.device_of((a1, a2))
    a, b = as_arrays(a1, a2, device=dev)
    if a.shape != b.shape:
        return Array(ops.const_node(False, dt.bool_, dev))
    eq = a == b
    if equal_nan and (a.dtype.kind in "fc" or b.dtype.kind in "fc"):  # complex: NaN in either part, as NumPy
        eq = eq | (apply("isnan", a) & apply("isnan", b))
    return eq.all()


def count_nonzero(a: Any, axis: Any = None, *, keepdims: bool = False) -> Array:
    """How many elements are non-zero over ``axis`` (a lazy int64 array; int32 on devices without int64).

    >>> import kdsl as kd
    >>> int(kd.count_nonzero(kd.asarray([[0, 1], [2, 0]]))), kd.count_nonzero(kd.eye(3), axis=0).tolist()
    (2, [1, 1, 1])
    """
    x = as_array(a)
    d = dt.int64 if x.device.supports(dt.int64) else dt.int32
    return ksum(x != 0, axis=axis, dtype=d, keepdims=keepdims)


def isin(element: Any, test_elements: Any, assume_unique: bool = False, invert: bool = False, *,
         kind: str | None = None) -> Array:
    """Whether each element of ``element`` is in ``test_elements`` (a bool array of ``element``'s shape).

    kdsl compares every element with every test element in one fused reduction for short ``test_elements``
    (up to 32), and sorts longer ones to binary-search each element (O((n + m) log m)). ``assume_unique`` and
    ``kind`` change nothing, but ``kind='table'`` refuses float and complex arrays, and integer test elements
    whose range overflows their dtype (one read of their minimum and maximum), as NumPy's does.

    >>> import kdsl as kd
    >>> kd.isin(kd.asarray([[1, 2], [3, 4]]), [2, 4, 9]).tolist()
    [[False, True], [False, True]]
    """
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    if isinstance(test_elements, (set, frozenset, type({}.keys()), type({}.values()))):
        raise TypeError(f"isin: test_elements is a {type(test_elements).__name__}, which NumPy reads as one object "
                        "(every answer False: NumPy's documented pitfall); pass list(s) or np.fromiter(s, int)")
    dev = ops.device_of((element, test_elements))
    x, t = as_arrays(element, test_elements, device=dev)
    if kind == "table" and not (x.dtype.kind in "iub" and t.dtype.kind in "iub"):  # NumPy's refusal (kdsl
        # runs one comparison for every kind, but code written for NumPy should fail here as it does there)
        raise ValueError("The 'table' method is only supported for boolean or integer arrays. Please select "
                         "'sort' or None for kind.")
    t = t.reshape(-1)
    if t.shape[0] == 0:
        return Array(ops.const_node(invert, dt.bool_, dev)) if x.ndim == 0 else \
            Array(ops.movement.broadcast_node(ops.const_node(invert, dt.bool_, dev), x.shape))
    if kind == "table" and t.dtype.kind in "iu":
        _table_range_check(t)
    common = _searchable(x, t)
    if common is not None and t.shape[0] > _COMPARE_ALL_MAX:
        hit = contained(x.reshape(-1).astype(common), sort(t.astype(common))).reshape(x.shape)
    else:
        hit = (x.reshape(x.shape + (1,)) == t).any(axis=-1)
    return ~hit if invert else hit


def _table_range_check(t: Array) -> None:
    """NumPy's RuntimeError for ``kind='table'`` where the test elements' range overflows their integer dtype
    (its table is indexed by ``t - t.min()`` in that dtype): one read of ``t``'s minimum and maximum."""
    lo, hi = (int(v) for v in concatenate([t.min().reshape(1), t.max().reshape(1)]).numpy())
    if hi - lo > np.iinfo(t.dtype.np).max:
        raise RuntimeError("You have specified kind='table', but the range of values in `ar2` or `ar1` exceed the "
                           "maximum integer of the datatype. Please set `kind` to None or 'sort'.")


# isin compares every element with every test element up to this many test elements (one fused kernel: the
# quickest for short lists); beyond, it sorts them and binary-searches each element (O((n + m) log m): 10^5
# elements against 5000 test elements took 1.3 s by comparing all pairs on lavapipe, 14 ms now; the two cross
# near 32 test elements there)
_COMPARE_ALL_MAX = 32


def _searchable(x: Array, t: Array) -> dt.DType | None:
    """The dtype both sides of ``isin`` can be sorted and searched in (NumPy's promotion), or None where a binary
    search would not give the comparisons' answer: complex and boolean data, integers that only meet in floats
    (int64 with uint64: float64 would merge neighbouring large values), a dtype the device lacks."""
    common = dt.as_dtype(np.result_type(x.dtype.np, t.dtype.np))
    if common.kind not in "iuf" or x.dtype.kind == "b" or t.dtype.kind == "b":
        return None
    if common.kind == "f" and x.dtype.kind != "f" and t.dtype.kind != "f":
        return None
    return common if x.device.supports(common) else None
