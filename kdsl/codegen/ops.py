"""GLSL for each elementwise op and for dtype conversions, with NumPy's semantics.

Operands arrive already converted to the op's loop dtype (the frontend inserts the casts NumPy would), in
their compute types. Narrow dtypes (int8/16, uint8/16, float16) compute wide and are narrowed after every op,
so overflow wraps and float16 rounds exactly where NumPy's would.

GLSL has transcendental functions for float only: float64 ``exp, log, sin, ..., **`` call the double-precision
implementations of :mod:`kdsl.codegen.fp64` (about 1e-16 relative error over the whole float64 range).
The same functions render ``@kd.kernel`` code, so both faces compute bit-identical results.

Example:
    >>> from kdsl import dtype as dt
    >>> render_op("floordiv", dt.int32, [dt.int32, dt.int32], ["a", "b"])
    'kd_floordiv_i(a, b)'
    >>> render_bitcast("x", dt.float32, dt.uint32)
    'floatBitsToUint(x)'
"""

from __future__ import annotations

from kdsl import dtype as dt
from kdsl.codegen import complex as cx
from kdsl.codegen import glsl
from kdsl.codegen.helpers import SUFFIX
from kdsl.dtype import promotion

# op name -> (NumPy ufunc giving the result dtype, how operands convert): kdsl.dtype's, shared by both faces.
SIGNATURES = promotion.OP_SIGNATURES
signature = promotion.op_signature

# Float functions GLSL has only for float: (name -> GLSL template of x).
_FLOAT_FUNCS = {
    # kdsl.codegen.float32_exp_log's: drivers' exp/log keep only absolute accuracy near 1 and flush subnormals
    "exp": "kd_exp_f({0})", "exp2": "kd_exp2_f({0})", "log": "kd_log_f({0})", "log2": "kd_log2_f({0})",
    "log10": "kd_log10_f({0})", "log1p": "kd_log1p_f({0})", "expm1": "kd_expm1_f({0})",
    # kdsl.codegen.trig's: drivers' sin/cos may have only absolute accuracy (NVIDIA's: sin(1e-13) = 0)
    "sin": "kd_sin_f({0})", "cos": "kd_cos_f({0})", "tan": "kd_tan_f({0})",
    # lavapipe's asin/acos are ~3e-4 off; forms on the one-argument atan are float32-accurate. NaN guards:
    # GLSL leaves NaN and out-of-domain inputs undefined, NumPy returns NaN.
    "arcsin": "(abs({0}) <= 1.0 ? kd_atan2_f({0}, sqrt((1.0 - {0}) * (1.0 + {0}))) : _NAN_)",
    "arccos": "(abs({0}) <= 1.0 ? kd_atan2_f(sqrt((1.0 - {0}) * (1.0 + {0})), {0}) : _NAN_)",
    # sinh/tanh by expm1 near 0 (drivers' (e^x - e^-x) / 2 keeps only absolute accuracy there), sinh/cosh in
    # two halves of exp near overflow (kdsl.codegen.complex's real helpers)
    "arctan": "kd_atan_f({0})", "sinh": "kd_rsinh_f({0})", "cosh": "kd_rcosh_f({0})", "tanh": "kd_rtanh_f({0})",
    # drivers' asinh/acosh/atanh are the textbook logs (overflow past 1.8e19, 0 for small x): kdsl.codegen's
    # inverse_hyperbolic
    "arcsinh": "kd_asinh_f({0})", "arccosh": "kd_acosh_f({0})", "arctanh": "kd_atanh_f({0})",
    "sigmoid": "kd_sigmoid_f({0})", "erf": "kd_erf_f({0})",  # (kdsl.codegen.erf)
}
# float64 versions: kdsl.codegen.fp64's kd_<name>_d (spelled as in GLSL where the names differ).
_FP64 = {"arcsin": "asin", "arccos": "acos", "arctan": "atan", "arctan2": "atan2", "arcsinh": "asinh",
         "arccosh": "acosh", "arctanh": "atanh"}
# Functions GLSL has for float and double alike.
_ANY_FLOAT = {
    "sqrt": "sqrt({0})", "rsqrt": "inversesqrt({0})", "floor": "floor({0})", "ceil": "ceil({0})",
    "trunc": "trunc({0})", "rint": "roundEven({0})", "abs": "abs({0})", "isnan": "isnan({0})",
    "isinf": "isinf({0})", "isfinite": "!(isnan({0}) || isinf({0}))",
}
_INFIX = {"add": "+", "sub": "-", "mul": "*", "div": "/", "eq": "==", "ne": "!=", "lt": "<", "le": "<=",
          "gt": ">", "ge": ">="}
_BOOL_INFIX = {"add": "||", "mul": "&&", "and": "&&", "or": "||", "xor": "^^", "eq": "==", "ne": "!=",
               "maximum": "||", "minimum": "&&"}
_INT_INFIX = {"and": "&", "or": "|", "xor": "^"}
_COMPARE = ("eq", "ne", "lt", "le", "gt", "ge")
# Ops whose result of in-range operands is in range: no narrowing needed.
_NO_NARROW = {"copy", "where", "maximum", "minimum", "and", "or", "xor", "abs_u", "sign"}

UNARY = tuple(_FLOAT_FUNCS) + tuple(_ANY_FLOAT) + ("neg", "sign", "square", "reciprocal", "not", "invert")
BINARY = tuple(_INFIX) + ("floordiv", "mod", "pow", "maximum", "minimum", "arctan2", "and", "or", "xor",
                          "land", "lor", "lxor", "shl", "shr")
TERNARY = ("where",)


def render_op(name: str, out: dt.DType, ins: list[dt.DType], a: list[str]) -> str:
    """GLSL of op ``name`` on operand expressions ``a`` (of dtypes ``ins``) giving ``out``."""
    code = _render(name, out, ins, a)
    if out.wraps and name not in _NO_NARROW and name not in _COMPARE:
        code = glsl.narrow(out, code)
    return code


def _render(name: str, out: dt.DType, ins: list[dt.DType], a: list[str]) -> str:
    t = ins[0] if ins else out
    if name == "where":
        return f"({a[0]} ? {a[1]} : {a[2]})"
    if name == "copy":
        return a[0]
    if out.kind == "c" or t.kind == "c":
        return cx.render(name, out, ins, a)
    c = t.glsl_compute
    s = SUFFIX[c]
    if name in ("land", "lor", "lxor", "not"):
        op = {"land": "&&", "lor": "||", "lxor": "^^"}.get(name)
        return f"(!{a[0]})" if name == "not" else f"({a[0]} {op} {a[1]})"
    if c == "bool":
        return _render_bool(name, a)
    if name == "div" and c == "float":  # IEEE's rounding, also for divisors past 2**126 (kd_div_f says why)
        return f"kd_div_f({a[0]}, {a[1]})"
    if name in _INFIX:
        return f"({a[0]} {_INFIX[name]} {a[1]})"
    if name in _INT_INFIX:
        return f"({a[0]} {_INT_INFIX[name]} {a[1]})"
    if name in ("floordiv", "mod", "shl", "shr"):
        return f"kd_{name}_{s}({a[0]}, {a[1]})"
    if name == "neg":
        return f"(-{a[0]})"
    if name == "square":
        return f"({a[0]} * {a[0]})"
    if name == "invert":
        return f"(~{a[0]})"
    if name in ("maximum", "minimum"):
        fn = name[:3]
        return f"kd_{fn}_{s}({a[0]}, {a[1]})" if t.is_float else f"{fn}({a[0]}, {a[1]})"
    if t.is_float:
        return _render_float(name, t, s, a)
    return _render_int(name, t, c, a)


def _render_bool(name: str, a: list[str]) -> str:
    if name in _BOOL_INFIX:
        return f"({a[0]} {_BOOL_INFIX[name]} {a[1]})"
    if name in ("lt", "le", "gt", "ge"):
        return f"(int({a[0]}) {_INFIX[name]} int({a[1]}))"
    if name == "invert":
        return f"(!{a[0]})"
    if name in ("abs", "sign", "square", "isfinite", "floor", "ceil", "trunc", "rint"):  # NumPy's bool loops
        return "true" if name == "isfinite" else a[0]
    if name in ("isnan", "isinf"):
        return "false"
    raise TypeError(f"op {name} is not defined for bool")


def _render_float(name: str, t: dt.DType, s: str, a: list[str]) -> str:
    x = a[0]
    if name in ("rint", "trunc") and t is dt.float64:  # lavapipe's double roundEven / trunc (sign of zero)
        return f"kd_{name}_d({x})"
    if name in _ANY_FLOAT:
        return _ANY_FLOAT[name].format(x)
    if name == "sign":
        return f"kd_sign_{s}({x})"
    if name == "reciprocal":
        return f"kd_div_f(1.0, {x})" if t.glsl_compute == "float" else f"({glsl.literal(1, t)} / {x})"
    if t is dt.float64:
        return f"kd_{_FP64.get(name, name)}_d({', '.join(a)})"
    if name in _FLOAT_FUNCS:
        return _FLOAT_FUNCS[name].format(x).replace("_NAN_", "uintBitsToFloat(0x7fc00000u)").replace(
            "_INF_", "uintBitsToFloat(0x7f800000u)")
    if name == "pow":
        return f"kd_pow_f({a[0]}, {a[1]})"
    if name == "arctan2":
        return f"kd_atan2_f({a[0]}, {a[1]})"
    raise TypeError(f"op {name} is not defined for {t.name}")


def _render_int(name: str, t: dt.DType, c: str, a: list[str]) -> str:
    x = a[0]
    s = SUFFIX[c]
    one, zero = glsl.literal(1, t), glsl.literal(0, t)
    if name == "pow":
        return f"kd_ipow_{s}({a[0]}, {a[1]})"
    if name == "abs":
        return x if t.kind == "u" else f"abs({x})" if c == "int" else f"({x} < {zero} ? -{x} : {x})"
    if name == "sign":
        if t.kind == "u":
            return f"({x} > {zero} ? {one} : {zero})"
        return f"sign({x})" if c == "int" else f"({x} > {zero} ? {one} : ({x} < {zero} ? -{one} : {zero}))"
    if name == "reciprocal":  # NumPy's loop: 1.0 / x cast back, so 1 / 0 is inf cast as x86 casts it
        if t.kind == "u":
            return f"({x} == {one} ? {one} : {zero})"
        bits = 8 * t.np.itemsize
        low = glsl.literal(-(1 << (bits - 1)), t) if bits >= 32 else zero  # INT_MIN; 0 for narrower types
        return f"(({x} == {one} || {x} == -{one}) ? {x} : ({x} == {zero} ? {low} : {zero}))"
    if name in ("floor", "ceil", "trunc", "rint"):
        return x
    if name in ("isnan", "isinf"):
        return "false"
    if name == "isfinite":
        return "true"
    raise TypeError(f"op {name} is not defined for {t.name}")


_FROM_FLOAT = {"int": "kd_f2i", "uint": "kd_f2u", "int64_t": "kd_f2l", "uint64_t": "kd_f2ul"}


def render_cast(x: str, src: dt.DType, dst: dt.DType) -> str:
    """Convert ``x`` from ``src``'s compute type to ``dst``'s, with NumPy's results (int narrowing wraps)."""
    cs, cd = src.glsl_compute, dst.glsl_compute
    if src is dst:
        return x
    if src.kind == "c" or dst.kind == "c":  # through the components: (re, 0) in, the real part out
        if dst.kind == "c" or dst is dt.bool_:
            part = render_cast(x, src, dst.real_dtype) if src.kind != "c" else x
        else:
            part = render_cast(f"({x}).x", src.real_dtype, dst)
        return cx.cast(x, src, dst, part)
    if cd == "bool":
        return f"({x} != {glsl.zero(src)})"
    if cs == "bool":
        return f"({x} ? {glsl.literal(1, dst)} : {glsl.literal(0, dst)})"
    if cs == cd:
        code = x
    elif src.is_float and cd in _FROM_FLOAT:  # a NaN or out-of-range value gets x86's (NumPy's) result
        narrow_unsigned = cd == "uint" and dst.itemsize < 4  # through int32, as NumPy: uint8(300.0) is 44
        code = f"uint(kd_f2i_{SUFFIX[cs]}({x}))" if narrow_unsigned else f"{_FROM_FLOAT[cd]}_{SUFFIX[cs]}({x})"
    elif cs in ("int64_t", "uint64_t") and cd == "float":  # rounded by integer steps: see kd_tof32_l
        code = f"kd_tof32_{'l' if cs == 'int64_t' else 'ul'}({x})"
    elif cs == "double" and dst is dt.float16:  # one rounding to half, as NumPy's (see kd_halfodd_d)
        code = f"kd_halfodd_d({x})"
    elif cs == "double" and cd == "float":  # rounded by arithmetic: a driver may drop double(float(x))
        code = f"float(kd_single_d({x}))"
    elif cs == "int" and cd in ("int64_t", "uint64_t"):  # sign-extend by words: see kd_sext_l
        code = f"kd_sext_l({x})" if cd == "int64_t" else f"uint64_t(kd_sext_l({x}))"
    else:
        code = f"{cd}({x})"
    return glsl.narrow(dst, code) if dst.wraps else code


def render_bitcast(x: str, src: dt.DType, dst: dt.DType) -> str:
    """Reinterpret the bits of ``x`` (``src``'s compute type) as ``dst``, a dtype of the same itemsize (the
    same-size ``ndarray.view``), in ``dst``'s compute type.

    Integers of one size (and bool, one byte) convert as NumPy's wrapping cast does, which keeps the bits.
    Floats go through GLSL's bit functions, which move bits without arithmetic: NaN payloads, -0.0 and
    subnormals survive on devices that flush subnormals in arithmetic. float16 computes as float, so
    ``kd_f16bits_f`` / ``kd_f16val_u`` convert between a half value and its 16 bits with integer operations
    (``packHalf2x16`` leaves NaN and subnormal results undefined; ``float16BitsToUint16`` needs float16
    arithmetic, which kdsl does not require of a device).

    >>> render_bitcast("x", dt.int64, dt.float64), render_bitcast("x", dt.float16, dt.int16)
    ('packDouble2x32(unpack32(uint64_t(x)))', 'bitfieldExtract(int(kd_f16bits_f(x)), 0, 16)')
    """
    if src.itemsize != dst.itemsize or src.kind not in "biufc" or dst.kind not in "biufc":
        raise TypeError(f"no bit-cast from {src.name} to {dst.name} (same-size bool, integer, float and complex64)")
    if src is dst:
        return x
    if "c" in (src.kind, dst.kind):
        return _bitcast_complex64(x, src, dst)
    if not src.is_float and not dst.is_float:
        return render_cast(x, src, dst)
    to_bits = src.is_float
    f, i = (src, dst) if to_bits else (dst, src)
    if f is dt.float32:
        kind = "Int" if i.kind == "i" else "Uint"
        return f"floatBits{'To' + kind}({x})" if to_bits else f"{kind.lower()}BitsToFloat({x})"
    if f is dt.float64:
        if to_bits:
            bits = f"pack64(unpackDouble2x32({x}))"
            return bits if i.kind == "u" else f"int64_t({bits})"
        return f"packDouble2x32(unpack32({x if i.kind == 'u' else f'uint64_t({x})'}))"
    if to_bits:  # float16
        bits = f"kd_f16bits_f({x})"
        return bits if i.kind == "u" else glsl.narrow(dt.int16, f"int({bits})")
    return f"kd_f16val_u({x if i.kind == 'u' else f'(uint({x}) & 65535u)'})"


def _bitcast_complex64(x: str, src: dt.DType, dst: dt.DType) -> str:
    """complex64 (a ``vec2``: real part in the low word) <-> another 8-byte dtype, through its two words."""
    if src.kind == "c":
        words = f"floatBitsToUint({x})"
        if dst is dt.float64:
            return f"packDouble2x32({words})"
        return f"pack64({words})" if dst.kind == "u" else f"int64_t(pack64({words}))"
    if src is dt.float64:
        return f"uintBitsToFloat(unpackDouble2x32({x}))"
    return f"uintBitsToFloat(unpack32({x if src.kind == 'u' else f'uint64_t({x})'}))"
