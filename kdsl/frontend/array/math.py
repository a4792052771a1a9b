"""The public elementwise functions (``kd.sin``, ``kd.maximum``, ``kd.where``...), NumPy's names and semantics.

All of them are lazy and fuse: ``kd.sqrt(kd.abs(a)) * kd.sin(b)`` is one kernel.

Example:
    >>> import kdsl as kd, numpy as np
    >>> x = kd.asarray(np.array([-1.0, 0.0, 4.0], np.float32))
    >>> kd.sqrt(kd.abs(x)).tolist(), kd.maximum(x, 0).tolist()
    ([1.0, 0.0, 2.0], [0.0, 0.0, 4.0])
"""

from __future__ import annotations

import operator

import numpy as np

from kdsl.frontend.array.array import Array
from kdsl.frontend.array.complex_math import complex_from_parts, imag, real
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.ops import apply, where  # noqa: F401  (where is public from here)
from kdsl.frontend.array.ufunc_errors import no_loop_error, output_casting_error


def _unary(name: str, doc: str):
    def fn(x):
        return apply(name, x)
    fn.__name__ = fn.__qualname__ = doc.split()[0]
    fn.__doc__ = f"Elementwise ``{doc}`` (NumPy semantics, lazy)."
    return fn


def _binary(name: str, doc: str):
    def fn(x1, x2):
        return apply(name, x1, x2)
    fn.__name__ = fn.__qualname__ = doc.split()[0]
    fn.__doc__ = f"Elementwise ``{doc}`` with broadcasting (NumPy semantics, lazy)."
    return fn


negative = _unary("neg", "negative -x")
abs = absolute = _unary("abs", "abs |x|")
sign = _unary("sign", "sign of x")
exp = _unary("exp", "exp e**x")
exp2 = _unary("exp2", "exp2 2**x")
log = _unary("log", "log natural logarithm")
log2 = _unary("log2", "log2 base-2 logarithm")
log10 = _unary("log10", "log10 base-10 logarithm")
log1p = _unary("log1p", "log1p log(1 + x), accurate near 0")
expm1 = _unary("expm1", "expm1 exp(x) - 1, accurate near 0")
sqrt = _unary("sqrt", "sqrt square root")
rsqrt = _unary("rsqrt", "rsqrt 1 / sqrt(x)")
square = _unary("square", "square x * x")
reciprocal = _unary("reciprocal", "reciprocal 1 / x")
sin, cos, tan = _unary("sin", "sin"), _unary("cos", "cos"), _unary("tan", "tan")
arcsin, arccos, arctan = _unary("arcsin", "arcsin"), _unary("arccos", "arccos"), _unary("arctan", "arctan")
sinh, cosh, tanh = _unary("sinh", "sinh"), _unary("cosh", "cosh"), _unary("tanh", "tanh")
arcsinh, arccosh, arctanh = _unary("arcsinh", "arcsinh"), _unary("arccosh", "arccosh"), _unary("arctanh", "arctanh")
floor, ceil, trunc = _unary("floor", "floor"), _unary("ceil", "ceil"), _unary("trunc", "trunc")
_real_rint = _unary("rint", "rint round half to even")


def rint(x):
    """Elementwise ``rint``: round half to even (NumPy semantics, lazy); a complex array rounds each part, as
    NumPy's (``rint`` needs no order, unlike ``floor``).

    >>> import kdsl as kd
    >>> kd.rint(kd.asarray([0.5, 1.5, -2.5])).tolist(), kd.rint(kd.asarray([1.5 + 2.5j])).tolist()
    ([0.0, 2.0, -2.0], [(2+2j)])
    """
    if not isinstance(x, Array) and np.iscomplexobj(x):  # host complex data: as NumPy, an array of it
        x = asarray(x)
    if isinstance(x, Array) and x.dtype.kind == "c":
        return complex_from_parts(_real_rint(real(x)), _real_rint(imag(x)))
    return _real_rint(x)
isnan, isinf, isfinite = _unary("isnan", "isnan"), _unary("isinf", "isinf"), _unary("isfinite", "isfinite")
sigmoid = _unary("sigmoid", "sigmoid 1 / (1 + exp(-x))")
erf = _unary("erf", "erf error function (kdsl.codegen.erf)")
logical_not = _unary("not", "logical_not")
invert = bitwise_not = _unary("invert", "invert ~x")

add, subtract, multiply = _binary("add", "add x1 + x2"), _binary("sub", "subtract x1 - x2"), \
    _binary("mul", "multiply x1 * x2")
divide = true_divide = _binary("div", "divide x1 / x2")
floor_divide = _binary("floordiv", "floor_divide x1 // x2")
mod = remainder = _binary("mod", "remainder x1 % x2 (sign of x2)")
power = pow = _binary("pow", "power x1 ** x2")
maximum, minimum = _binary("maximum", "maximum (NaN propagates)"), _binary("minimum", "minimum (NaN propagates)")
arctan2 = _binary("arctan2", "arctan2 angle of (x2, x1)")
equal, not_equal = _binary("eq", "equal x1 == x2"), _binary("ne", "not_equal x1 != x2")
less, less_equal = _binary("lt", "less x1 < x2"), _binary("le", "less_equal x1 <= x2")
greater, greater_equal = _binary("gt", "greater x1 > x2"), _binary("ge", "greater_equal x1 >= x2")
logical_and, logical_or = _binary("land", "logical_and"), _binary("lor", "logical_or")
logical_xor = _binary("lxor", "logical_xor")
bitwise_and, bitwise_or = _binary("and", "bitwise_and x1 & x2"), _binary("or", "bitwise_or x1 | x2")
bitwise_xor = _binary("xor", "bitwise_xor x1 ^ x2")
left_shift, right_shift = _binary("shl", "left_shift x1 << x2"), _binary("shr", "right_shift x1 >> x2")


def positive(x):
    """``+x``: a new array with ``x``'s values, as NumPy's (writing into it leaves ``x`` alone); booleans
    have no ``positive`` loop in NumPy, so they raise its ``UFuncTypeError`` (a TypeError)."""
    x = x if isinstance(x, Array) else asarray(x)
    if x.dtype.np == np.bool_:
        raise no_loop_error("positive", x.dtype)
    return x.copy()


def round(a, decimals: int = 0, out=None):
    """Round half to even to ``decimals`` places, as NumPy's ``round`` computes it: ``rint(x * f) / f`` with
    ``f = 10**decimals`` in ``x``'s float dtype (``rint(x / f) * f`` for negative ``decimals``; an ``f`` beyond
    the dtype is inf, so the result is NaN); ints unchanged for ``decimals >= 0``, else rounded through float64
    and cast back (NumPy's values past 2**53 and on overflow); bools are ``rint``'s float16 for
    ``decimals=0`` and NumPy's TypeError otherwise. ``out`` (a kdsl array) takes the result, as NumPy's.

    >>> import kdsl as kd
    >>> kd.round(kd.asarray([15, -25, 126], dtype=kd.int8), -1).tolist()
    [20, -20, -126]
    """
    if out is not None:
        from kdsl.frontend.array.ufunc_arguments import written_into  # cycle: that module wraps this one's functions

        return written_into(round(a, decimals), out, True, "same_kind", "round")
    x, decimals = a, operator.index(decimals)  # NumPy: TypeError for round(x, 1.5)
    if not isinstance(x, Array):  # a Python or NumPy scalar, a list: NumPy rounds it as an array
        x = asarray(x)
    if x.dtype.kind == "c":  # NumPy rounds each component
        return complex_from_parts(round(real(x), decimals), round(imag(x), decimals))
    if x.dtype.kind == "b":
        if decimals == 0:
            return rint(x)  # NumPy's rint of bools: float16
        raise output_casting_error("multiply" if decimals > 0 else "divide", np.float64, np.bool_, "same_kind",
                                   "NumPy's round of a bool array with decimals != 0; round x.astype(float) instead")
    if not x.dtype.is_float:
        if decimals >= 0:  # nothing to round, but a new array, as NumPy's
            return x.copy() if x is a else x
        return _round_int(x, -decimals)
    if decimals == 0:
        return rint(x)
    with np.errstate(over="ignore"):  # 1e5 in float16 is inf, as NumPy makes it
        f = float(np.asarray(_power_of_ten(abs(decimals))).astype(x.dtype.np))  # NumPy's f, in x's dtype
    return rint(x * f) / f if decimals > 0 else rint(x / f) * f


def _power_of_ten(n: int) -> float:
    """NumPy's ``power_of_ten`` of its round: exact up to 1e8, then 1e9 times 10.0 repeated (inf past 1e308)."""
    if n < 9:
        return float(10 ** n)
    f = 1e9
    for _ in range(min(n, 400) - 9):  # past 1e308 it is inf already
        f *= 10.0
    return f


def _round_int(x, places: int):
    """An int array rounded to a multiple of ``10**places``: NumPy's float64 route on a device with float64;
    elsewhere exactly in the int dtype (half to even; a multiple beyond the dtype gives 0)."""
    if x.device.supports(np.dtype(np.float64)):
        f = _power_of_ten(places)
        return (rint(x.astype(np.float64) / f) * f).astype(x.dtype)
    s = 10 ** places
    if s > np.iinfo(x.dtype.np).max:
        return x * 0
    q = x // s
    r = x - q * s
    up = (r > s - r) | ((r == s - r) & ((q & 1) != 0))
    return (q + up.astype(x.dtype)) * s


around = round


_NO_BOUND = np._NoValue  # NumPy's "not passed" marker: clip(a, 2) is an error, clip(a, 2, None) is not


def clip(a, a_min=_NO_BOUND, a_max=_NO_BOUND, out=None, *, min=_NO_BOUND, max=_NO_BOUND,  # noqa: A002 - NumPy's names
         **kwargs):
    """``minimum(maximum(a, min), max)``; either bound may be None (both None: a copy of ``a``, as NumPy 2).
    The bounds come as ``a_min, a_max`` (NumPy's positional names: both, as NumPy requires) or as ``min=``/``max=``
    (the standard's). ``out`` (a kdsl array, ``a`` itself in ``kd.clip(a, 0, 1, out=a)``) takes the result, and
    NumPy's ufunc keywords apply: ``casting`` (for ``out``), ``where``, ``dtype``.

    >>> import kdsl as kd
    >>> out = kd.zeros(4, dtype=kd.int32)
    >>> kd.clip(kd.arange(4), 0.5, 2.5, out=out, casting="unsafe").tolist()
    [0, 1, 2, 2]
    """
    lo, hi = _bounds(a_min, a_max, min, max)
    casting, mask, dtype = _clip_keywords(kwargs)
    x = _scalar_operand(a, lo, hi)
    if dtype is not None:
        from kdsl.frontend.array.ufunc_arguments import cast_input  # cycle: that module wraps this one's functions

        x = cast_input("clip", 0, asarray(x), dtype, casting)
    lo, hi = _beyond_range(x, lo, -1), _beyond_range(x, hi, 1)
    lo, hi = _weak_bounds_resolved(x, lo, hi)
    if lo is not None and hi is not None and _single(lo) and _single(hi):
        # NumPy's loop for two scalar bounds keeps x where it equals a bound (-0.0 clipped to [0.0, 1.0] stays
        # -0.0); its loop for array bounds, and maximum/minimum for one bound, give the bound (the second operand)
        result = minimum(hi, maximum(lo, x))
    else:
        result = x if lo is None else maximum(x, lo)
        result = result if hi is None else minimum(result, hi)
    if result is a:  # no bound to apply: still a new array, as NumPy 2's
        result = asarray(a).copy()
    if dtype is not None:
        result = asarray(result).astype(dtype)
    if out is None and mask is True:
        return result
    from kdsl.frontend.array.ufunc_arguments import written_into  # cycle: that module wraps this one's functions

    return written_into(asarray(result), out, mask, casting, "clip")


_PYTHON_SCALARS = (bool, int, float, complex)


def _scalar_operand(a, lo, hi):
    """``a`` as ``clip`` takes it: a Python scalar clipped by array bounds becomes the array NumPy's ``asanyarray``
    makes of it (``clip(3, lo, None)`` is int64, ``clip(3.0, lo16, None)`` float64, as NumPy's, where a weak 3
    would take the bounds' dtype); with only scalar bounds it stays weak (kdsl's default types), and on a device
    without that dtype too (the result keeps the bounds' precision instead of failing).

    >>> import kdsl as kd
    >>> kd.clip(3, kd.asarray([1, 5], dtype=kd.int8), None).dtype
    kdsl.int64
    """
    if a.__class__ not in _PYTHON_SCALARS or all(b is None or b.__class__ in _PYTHON_SCALARS for b in (lo, hi)):
        return a
    d = np.asarray(a).dtype
    if d.kind == "O":
        raise OverflowError(f"Python int {a} too large to convert to int64 or uint64 (NumPy's clip makes an object "
                            "array of it, which kdsl has not; pass a float, or clip an array of an explicit dtype)")
    dev = next((b.device for b in (lo, hi) if isinstance(b, Array)), None)
    if dev is not None and not dev.supports(d):
        return a
    return asarray(a, dtype=d, device=dev)


def _weak_bounds_resolved(x, lo, hi) -> tuple:
    """The bounds with a Python scalar one made an array of the dtype NumPy's three-operand loop resolves when the
    other bound is an array: clipping pairwise would give the scalar its dtype beside ``x`` alone first
    (``clip(bool_a, -5, float32_b)`` became int32, then float64; NumPy's loop is float32).

    >>> import numpy as np, kdsl as kd
    >>> kd.clip(kd.asarray([True, False]), 0, kd.asarray(np.uint8([3]))).dtype
    kdsl.uint8
    """
    scalar = [b is not None and b.__class__ in _PYTHON_SCALARS for b in (lo, hi)]
    if not isinstance(x, Array) or not any(scalar) or \
            not any(isinstance(b, (Array, np.ndarray, np.generic)) for b in (lo, hi)):
        return lo, hi
    from kdsl.frontend.array.api_info import result_type  # cycle: api_info builds on the array modules

    target = result_type(x, lo, hi)
    return tuple(asarray(b, dtype=target, device=x.device) if s else b for b, s in zip((lo, hi), scalar,
                                                                                         strict=True))


def _single(bound) -> bool:
    """Whether a clip bound is one value (a scalar, or an array of size 1) that NumPy's loop steps over at stride 0."""
    size = getattr(bound, "size", None)
    return (np.size(bound) if size is None else size) == 1


def _bounds(a_min, a_max, lo, hi):
    """``clip``'s two bounds from NumPy's spellings, with NumPy's errors for a missing or doubled bound."""
    if a_min is _NO_BOUND and a_max is _NO_BOUND:
        return (None if lo is _NO_BOUND else lo), (None if hi is _NO_BOUND else hi)
    if a_min is _NO_BOUND:
        raise TypeError("clip() missing 1 required positional argument: 'a_min' (pass None for no lower bound)")
    if a_max is _NO_BOUND:
        raise TypeError("clip() missing 1 required positional argument: 'a_max' (pass None for no upper bound)")
    if lo is not _NO_BOUND or hi is not _NO_BOUND:
        raise ValueError("Passing `min` or `max` keyword argument when `a_min` and `a_max` are provided is "
                         "forbidden (NumPy's rule): pass the bounds one way")
    return a_min, a_max


def _clip_keywords(kwargs: dict):
    """NumPy's ufunc keywords ``clip`` takes: (casting, where, dtype); ``order``/``subok`` change nothing."""
    from kdsl.frontend.array.ufunc_arguments import check_keywords  # cycle: that module wraps this one's functions

    unknown = sorted(set(kwargs) - {"casting", "where", "dtype", "order", "subok"})
    if unknown:
        raise TypeError(f"clip() got an unexpected keyword argument {unknown[0]!r}")
    casting = kwargs.get("casting", "same_kind")
    check_keywords("clip", casting, kwargs.get("order", "K"))
    return casting, kwargs.get("where", True), kwargs.get("dtype")


def _beyond_range(x, bound, side: int):
    """None for a Python int bound past ``x``'s integer range on its own side (``clip(uint8_img, -1, 300)``:
    NumPy 2 drops such a bound, as it cannot bind); the bound itself otherwise (one past the other side still
    raises OverflowError, as in NumPy)."""
    kind = getattr(getattr(x, "dtype", None), "kind", "")
    if not isinstance(bound, int) or isinstance(bound, bool) or kind not in ("i", "u"):
        return bound
    info = np.iinfo(np.dtype(x.dtype.name))
    return None if (bound < info.min if side < 0 else bound > info.max) else bound


def relu(x):
    """``maximum(x, 0)``."""
    return maximum(x, 0)
