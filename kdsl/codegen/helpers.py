"""GLSL helper functions that give NumPy's semantics where GLSL's built-ins differ or are undefined.

Each helper is named ``kd_<what>_<suffix>`` with one suffix per compute type (``i`` int, ``u`` uint, ``f`` float,
``d`` double, ``l`` int64_t, ``ul`` uint64_t), and a shader gets only the helpers its body names (so the
int64 ones never appear in a shader that did not enable int64).

Example:
    >>> "kd_floordiv_i" in "\\n".join(needed("x = kd_floordiv_i(a, b);"))
    True
"""

from __future__ import annotations

import re

from kdsl.codegen import complex as complex_helpers
from kdsl.codegen import (
    erf,
    float32_exp_log,
    float_to_int,
    fp64,
    fp64_atan,
    fp64_hyperbolic,
    fp64_inverse_hyperbolic,
    fp64_log,
    half,
    inverse_hyperbolic,
)
from kdsl.codegen.precise import exact

SUFFIX = {"int": "i", "uint": "u", "float": "f", "double": "d", "int64_t": "l", "uint64_t": "ul", "bool": "b"}
_TYPE = {v: k for k, v in SUFFIX.items()}
_ZERO = {"i": "0", "u": "0u", "f": "0.0", "d": "0.0LF", "l": "0l", "ul": "0ul"}
_ONE = {"i": "1", "u": "1u", "f": "1.0", "d": "1.0LF", "l": "1l", "ul": "1ul"}
_BITS = {"i": "32", "u": "32u", "l": "64", "ul": "64ul"}

# Templates: T type, Z zero, O one, N bit width (integers only).
_SIGNED_FLOORDIV = """T kd_floordiv_S(T a, T b) {
    if (b == Z) return Z;
    T q = a / b; T r = a - q * b;
    if (r != Z && ((r < Z) != (b < Z))) q -= O;
    return q;
}"""
_SIGNED_MOD = """T kd_mod_S(T a, T b) {
    if (b == Z) return Z;
    T r = a - (a / b) * b;
    if (r != Z && ((r < Z) != (b < Z))) r += b;
    return r;
}"""
_UNSIGNED_FLOORDIV = "T kd_floordiv_S(T a, T b) { return b == Z ? Z : a / b; }"
_UNSIGNED_MOD = "T kd_mod_S(T a, T b) { return b == Z ? Z : a % b; }"
# NumPy's npy_divmod for floats (mod takes the divisor's sign; the quotient is floored and corrected).
# ``precise``: GPU compilers may contract and reassociate (NVIDIA turned inf // 1.0 into inf); these need IEEE.
# a - b * trunc(a / b) exactly, as C's fmod (Dekker's product: the rounding error of b * t, no fma, which lavapipe
# splits into a rounded multiply and add): -18.0 // 0.3 is -61.0 as in NumPy (the rounded product gave 18.0,
# remainder 0, quotient -60). a - p is exact (p is within a factor 2 of a, or 0). Past 2**53 (float64) or 2**24
# (float32) quotients t is no exact quotient: the rounded a - p as before; kd_remtrunc_S keeps quotients below that.
_REMSTEP = """T kd_remstep_S(T a, T b) {
    precise T t = kd_trunc_S(a / b);
    precise T p = b * t;
    precise T cb = @split@ * b; precise T bh = cb - (cb - b); precise T bl = b - bh;
    precise T ct = @split@ * t; precise T th = ct - (ct - t); precise T tl = t - th;
    precise T e = ((bh * th - p) + bh * tl + bl * th) + bl * tl;
    precise T r = (a - p) - e;
    return (isinf(cb) || isinf(ct) || !(abs(r) < abs(b))) ? a - p : r;
}"""
# kd_remstep_S on a and b scaled by 2**-e (exact: powers of two), so its products neither overflow nor underflow
# (the split of b * t near the dtype's largest value overflowed), then scaled back (the remainder is exact).
_REMSCALED = "T kd_remscaled_S(T a, T b, int e) { return ldexp(kd_remstep_S(ldexp(a, -e), ldexp(b, -e)), e); }"
# C's fmod exactly for every quotient (NumPy's: fmod(4, tiny) is 0, where a / b overflows): a huge quotient is
# first cut by b * 2**d, a multiple of b (so the remainder stays), d chosen to leave at most 2**(@k@ + 1) per
# step, where kd_remstep_S is exact; at most @steps@ steps span the dtype's exponents, and the loop is skipped
# (no iteration spent: lavapipe's loop budget) unless the quotient is that large.
_REMTRUNC = """T kd_remtrunc_S(T a, T b) {
    if (isinf(a) || isnan(a) || isinf(b) || isnan(b) || b == Z || !(abs(a) >= abs(b))) return kd_remstep_S(a, b);
    int eb;
    frexp(b, eb);
    precise T r = a;
    int er;
    frexp(r, er);
    if (er - eb > @k@) {
        for (int i = 0; i < @steps@; i++) {
            int d = er - eb - @k@;
            if (d <= 0) break;
            r = kd_remscaled_S(r, ldexp(b, d), er);
            frexp(r, er);
        }
    }
    return abs(r) < abs(b) ? r : kd_remscaled_S(r, b, er);  // a remainder already (b * 2**-er may overflow)
}"""
_FLOAT_FLOORDIV = """T kd_floordiv_S(T a, T b) {
    if (b == Z) return a / b;
    precise T m = (isinf(b) && !isinf(a)) ? a : kd_remtrunc_S(a, b);
    precise T q = kd_div_S(a - m, b);  // IEEE's quotient (NVIDIA's float32 / is 1-2 ulp off)
    if (m != Z && ((b < Z) != (m < Z))) q -= O;
    if (q == Z) return kd_copysign_S(Z, a / b);
    T f = floor(q);
    if (q - f > T(0.5)) f += O;
    return f;
}"""
_FLOAT_MOD = """T kd_mod_S(T a, T b) {
    if (b == Z) return @nan@;  // spelled out: lavapipe folded (a - a) / (0 - 0) to 0 in @kd.kernel code
    precise T m = (isinf(b) && !isinf(a)) ? a : kd_remtrunc_S(a, b);
    // a zero takes the divisor's sign; copysign on the bits, since compilers may fold -0.0 into 0.0
    if (m != Z) { if ((b < Z) != (m < Z)) m += b; } else { m = kd_copysign_S(Z, b); }
    return m;
}"""
# Round half to even without roundEven (lavapipe's double roundEven truncates). x - floor(x) is exact.
_RINT = """T kd_rint_S(T x) {
    if (isinf(x) || isnan(x)) return x;
    T f = floor(x); T d = x - f;
    T r = (d > T(0.5) || (d == T(0.5) && mod(f, T(2.0)) != Z)) ? f + O : f;
    return kd_copysign_S(r, x);
}"""
# The sign bit of s on |r| (lavapipe's double trunc and x * 0.0 lose the sign of zero).
_COPYSIGN = {"f": """float kd_copysign_f(float r, float s) {
    return uintBitsToFloat((floatBitsToUint(r) & 0x7fffffffu) | (floatBitsToUint(s) & 0x80000000u));
}""", "d": """double kd_copysign_d(double r, double s) {
    uvec2 u = unpackDouble2x32(r);
    return packDouble2x32(uvec2(u.x, (u.y & 0x7fffffffu) | (unpackDouble2x32(s).y & 0x80000000u)));
}"""}
_MAX = "T kd_max_S(T a, T b) { return (a > b || isnan(a)) ? a : b; }"
_MIN = "T kd_min_S(T a, T b) { return (a < b || isnan(a)) ? a : b; }"
_SIGN = "T kd_sign_S(T a) { return isnan(a) ? a : sign(a); }"
# Square-and-multiply unrolled (BITS steps), not a loop: lavapipe counts every loop iteration of an
# invocation against one budget, and a helper called in a user's loop must not spend it.
_SQUARE_MULTIPLY = "\n".join(["    if ((b & O) != Z) r *= a; a *= a; b >>= O;"] * 8)
_IPOW = """T kd_ipow_S(T a, T b) {
    if (b < Z) return (a == O) ? O : ((a == Z - O) ? (((b & O) == Z) ? O : a) : Z);
    T r = O;
    for (int k = 0; k < N; k += 8) {  // N / 8 iterations
STEPS
        if (b == Z) break;
    }
    return r;
}""".replace("STEPS", _SQUARE_MULTIPLY.replace("    ", "        "))
_UPOW = _IPOW.replace("""    if (b < Z) return (a == O) ? O : ((a == Z - O) ? (((b & O) == Z) ? O : a) : Z);\n""", "")
_SHL = "T kd_shl_S(T a, T b) { return (b >= T(N) || b < Z) ? Z : (a << b); }"
_SHR_SIGNED = "T kd_shr_S(T a, T b) { return (b >= T(N) || b < Z) ? ((a < Z) ? (Z - O) : Z) : (a >> b); }"
_SHR_UNSIGNED = "T kd_shr_S(T a, T b) { return (b >= T(N)) ? Z : (a >> b); }"

_ROUNDED_TO_FLOAT = """<F> kd_tof<W>_ul(uint64_t m) {
    uint hi = uint(m >> 32);
    int shift = max((hi != 0u ? 33 + findMSB(hi) : 1 + findMSB(uint(m))) - <B>, 0);  // bits past the mantissa
    uint64_t q = m >> shift, rem = m - (q << shift);
    uint64_t tie = shift > 0 ? uint64_t(1u) << (shift - 1) : uint64_t(0u);
    if (shift > 0 && (rem > tie || (rem == tie && (q & uint64_t(1u)) != uint64_t(0u)))) q += uint64_t(1u);
    return <F>(q) * <F>(uint64_t(1u) << shift);
}"""
_SIGNED_TO_FLOAT = """<F> kd_tof<W>_l(int64_t x) {
    bool negative = (uint64_t(x) >> 63) != uint64_t(0u);
    <F> r = kd_tof<W>_ul(negative ? uint64_t(0u) - uint64_t(x) : uint64_t(x));
    return negative ? -r : r;
}"""


_FLOAT_ONLY = {
    # float16 rounding of a float (every float16 op computes in float and rounds): by float32 arithmetic,
    # exact, NaN payloads and signs kept (kdsl.codegen.half says why not the hardware conversion)
    "kd_half_f": half.ROUNDING,
    "kd_single_d": half.SINGLE,  # float64 -> float32 by arithmetic (kdsl.codegen.half)
    # NumPy's power: C99 pow's special cases; whole exponents up to 64 by square-and-multiply (exact for
    # small results, like NumPy's x**2 and x**3), others exp2(b * log2|a|) with b * log2|a| in two parts
    # (kdsl.codegen.float32_exp_log; devices with float64 use kd_pow_d instead: kdsl.codegen.wide_pow).
    "kd_pow_f": """float kd_pow_f(float a, float b) {
    if (b == 0.0 || a == 1.0) return 1.0;
    if (isnan(a) || isnan(b)) return a + b;
    bool whole = trunc(b) == b;
    bool odd = whole && mod(b, 2.0) == 1.0;
    if (a == 0.0 || isinf(a)) {  // -0.0 and -inf to an odd whole power keep their sign
        float z = ((b < 0.0) == (a == 0.0)) ? uintBitsToFloat(0x7f800000u) : 0.0;
        return ((floatBitsToUint(a) >> 31) != 0u && odd) ? -z : z;
    }
    if (isinf(b)) return (abs(a) == 1.0) ? 1.0 : ((abs(a) > 1.0) == (b > 0.0) ? b * b : 0.0);
    if (a < 0.0 && !whole) return uintBitsToFloat(0x7fc00000u);
    float r;
    if (whole && abs(b) <= 64.0) {
        uint n = uint(abs(b));
        float p = abs(a);
        r = 1.0;
SQUARE_MULTIPLY
        if (b < 0.0) r = 1.0 / r;
    } else {
        float w;  // b * log2|a| as ph + c (log2 and the product in two parts: its rounding is scaled by b)
        float lo = kd_log2p_f(abs(a), w);
        float e;
        float ph = kd_twoprod_f(b, w, e);
        r = kd_exp2c_f(ph, abs(ph) < 256.0 ? e + b * lo : 0.0);
    }
    return (a < 0.0 && odd) ? -r : r;
}""".replace("SQUARE_MULTIPLY", "\n".join(["        if ((n & 1u) != 0u) r *= p; p *= p; n >>= 1u;"] * 6
                                            + ["        if (n != 0u) r *= p;"])),
    # a / b rounded as IEEE division (NumPy's): GPUs may divide as a * (1 / b) (NVIDIA: about 2 ulp off, and 0
    # once 1 / b underflows, |b| > 2**126). Both operands are taken to [1, 2) by setting their exponent bits, the
    # quotient's residual is taken exactly with Dekker's product (no fma: lavapipe's is not fused) and added
    # back, and the exponent difference restored by two exact power-of-two products. Straight-line code
    # (selects, no frexp/ldexp): 100 divisions in one kernel must still compile fast. Zeros, subnormals, inf
    # and NaN operands are the hardware's a / b; a subnormal result may round twice.
    "kd_div_f": """float kd_div_f(float a, float b) {
    uint ua = floatBitsToUint(a), ub = floatBitsToUint(b);
    int ea = int((ua >> 23) & 0xffu), eb = int((ub >> 23) & 0xffu);
    float ma = uintBitsToFloat((ua & 0x807fffffu) | 0x3f800000u);
    float mb = uintBitsToFloat((ub & 0x807fffffu) | 0x3f800000u);
    float q = ma / mb;
    float e;
    float p = kd_twoprod_f(q, mb, e);
    q = q + ((ma - p) - e) / mb;
    int n = ea - eb, n1 = clamp(n, -126, 127), n2 = clamp(n - n1, -126, 127);
    float r = (q * uintBitsToFloat(uint(n1 + 127) << 23)) * uintBitsToFloat(uint(n2 + 127) << 23);
    bool plain = ea == 0 || ea == 255 || eb == 0 || eb == 255;
    return plain ? a / b : r;
}""",
    # NumPy's arctan2 from the one-argument atan (lavapipe's two-argument atan is ~1e-5 off), signed zeros
    # and infinities included.
    "kd_atan2_f": """float kd_atan2_f(float y, float x) {
    if (isnan(x) || isnan(y)) return x + y;
    bool ny = (floatBitsToUint(y) >> 31) != 0u;
    bool nx = (floatBitsToUint(x) >> 31) != 0u;
    float ay = abs(y), ax = abs(x);
    float r;
    if (ay == 0.0 && ax == 0.0) r = 0.0;
    else if (isinf(ay) && isinf(ax)) r = 0.7853981633974483;
    else if (ay <= ax) r = kd_atanp_f(kd_div_f(ay, ax));
    else r = 1.5707963267948966 - kd_atanp_f(kd_div_f(ax, ay));
    if (nx) r = 3.141592653589793 - r;
    return ny ? -r : r;
}""",
    # atan on [0, inf] (lavapipe's float atan is up to ~2e-5 off): 1/a above 1, then atan(c) +
    # atan((a - c) / (1 + a c)) with c in {0, 1/2, 1} and the series to t**13 on |t| <= 1/4.
    "kd_atanp_f": """float kd_atanp_f(float a) {
    bool inv = a > 1.0;
    if (inv) a = 1.0 / a;
    float c = a < 0.25 ? 0.0 : (a < 0.75 ? 0.5 : 1.0);
    float t = (a - c) / (1.0 + a * c);
    float z = t * t;
    float r = t + t * z * (-0.33333334 + z * (0.2 + z * (-0.14285715 + z * (0.11111111 + z * (-0.09090909
        + z * 0.07692308)))));
    r += a < 0.25 ? 0.0 : (a < 0.75 ? 0.4636476090008061 : 0.7853981633974483);
    return inv ? 1.5707963267948966 - r : r;
}""",
    "kd_atan_f": """float kd_atan_f(float x) {
    if (isnan(x) || x == 0.0) return x;
    float r = kd_atanp_f(abs(x));
    return x < 0.0 ? -r : r;
}""",
    # Philox4x32-10 (Salmon et al. 2011): counter (c0, c1), key (k0, k1) -> four random words.
    "kd_philox_u": """uvec4 kd_philox_u(uint c0, uint k0, uint k1, uint c1) {
    uvec4 c = uvec4(c0, c1, 0u, 0u); uvec2 k = uvec2(k0, k1);
    for (int r = 0; r < 10; r++) {
        uint hi0, lo0, hi1, lo1;
        umulExtended(0xD2511F53u, c.x, hi0, lo0);
        umulExtended(0xCD9E8D57u, c.z, hi1, lo1);
        c = uvec4(hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);
        k += uvec2(0x9E3779B9u, 0xBB67AE85u);
    }
    return c;
}""",
    "kd_boxmuller_f": """float kd_boxmuller_f(uvec4 b) {
    float u1 = float((b.x >> 8) + 1u) * 5.9604644775390625e-8;
    float u2 = float(b.y >> 8) * 5.9604644775390625e-8;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}""",
    # A negative index counts from the end (Python, NumPy): one compare and select.
    "kd_wrap_i": "int kd_wrap_i(int i, int n) { return i < 0 ? i + n : i; }",
    # int -> int64 by its two words. lavapipe (Mesa 22.3, LLVM 15) miscompiles comparisons of a plain
    # int64_t(x) of an int x: int64_t(x) < 0l is false and int64_t(x) >= 64l true for every x, so x // y and
    # x >> y of an int64 x and a narrower signed y went wrong (the widened value itself was right).
    # (the int64_t overload: an index past 2**31 is already 64-bit where its IR dtype says int32)
    "kd_sext_l": "int64_t kd_sext_l(int x) { return int64_t(pack64(uvec2(uint(x), uint(x >> 31)))); }\n"
                 "int64_t kd_sext_l(int64_t x) { return x; }",
    # 64-bit int -> float32/float64 rounded (to nearest, ties to even) in integer arithmetic, the result made as
    # an exact product: lavapipe folds int64_t(float(x)) of an int64 x back to x, and float(double(x)) to
    # float(x), dropping the rounding NumPy does (a = [2**24 + 1] as float32 and back is 2**24 there).
    "kd_tof32_ul": _ROUNDED_TO_FLOAT.replace("<F>", "float").replace("<B>", "24").replace("<W>", "32"),
    "kd_tof64_ul": _ROUNDED_TO_FLOAT.replace("<F>", "double").replace("<B>", "53").replace("<W>", "64"),
    "kd_tof32_l": _SIGNED_TO_FLOAT.replace("<F>", "float").replace("<W>", "32"),
    "kd_tof64_l": _SIGNED_TO_FLOAT.replace("<F>", "double").replace("<W>", "64"),
    # A double -> the float a float16 conversion rounds correctly from (NumPy rounds float64 -> float16 once): the
    # double rounded to float toward zero with the last bit set when inexact ("round to odd"). Rounding to nearest
    # float first and then to half rounds twice: a double just above a half midpoint became the midpoint and went
    # to even. float keeps 13 bits past half's, so the sticky last bit decides every tie as the double would.
    "kd_halfodd_d": """float kd_halfodd_d(double x) {
    float f = float(x);
    double back = double(f);
    if (isnan(x) || back == x) return f;
    uint b = floatBitsToUint(f);
    if (abs(back) > abs(x)) b -= 1u;  // f rounded away from zero: its neighbour toward zero truncates x
    return uintBitsToFloat(b | 1u);
}""",
    "kd_f16bits_f": half.NARROWING,  # float -> float16 bits, and back (kdsl.codegen.half)
    "kd_f16val_u": half.WIDENING,
}


def _expand(template: str, s: str) -> str:
    t = _TYPE[s]
    out = template.replace("kd_", "\x00").replace("T", t).replace("\x00", "kd_")
    out = out.replace("_S(", f"_{s}(").replace("Z", _ZERO[s]).replace("O", _ONE[s])
    return out.replace("N", _BITS.get(s, "0"))


def _library() -> dict[str, str]:
    lib = dict(_FLOAT_ONLY)
    signed = {"floordiv": _SIGNED_FLOORDIV, "mod": _SIGNED_MOD, "ipow": _IPOW, "shl": _SHL, "shr": _SHR_SIGNED}
    unsigned = {"floordiv": _UNSIGNED_FLOORDIV, "mod": _UNSIGNED_MOD, "ipow": _UPOW, "shl": _SHL,
                "shr": _SHR_UNSIGNED}
    for suffixes, templates in ((("i", "l"), signed), (("u", "ul"), unsigned)):
        for s in suffixes:
            for name, template in templates.items():
                lib[f"kd_{name}_{s}"] = _expand(template, s)
    lib.update(float_to_int.LIBRARY)
    lib.update(fp64.LIBRARY)
    lib.update(fp64_atan.LIBRARY)
    lib.update(fp64_hyperbolic.LIBRARY)
    lib.update(fp64_log.LIBRARY)
    lib.update(fp64_inverse_hyperbolic.LIBRARY)
    lib.update(complex_helpers.LIBRARY)
    lib.update(erf.LIBRARY)
    lib.update(inverse_hyperbolic.LIBRARY)
    lib.update(float32_exp_log.LIBRARY)
    for s in ("f", "d"):
        lib[f"kd_remstep_{s}"] = _expand(_REMSTEP, s).replace("@split@", "4097.0" if s == "f" else "134217729.0LF")
        k, steps = ("22", "14") if s == "f" else ("50", "44")  # exponent spans: 277 (float32), 2098 (float64)
        lib[f"kd_remscaled_{s}"] = _expand(_REMSCALED, s)
        lib[f"kd_remtrunc_{s}"] = _expand(_REMTRUNC, s).replace("@k@", k).replace("@steps@", steps)
        lib[f"kd_floordiv_{s}"] = _expand(_FLOAT_FLOORDIV, s)
        nan = "uintBitsToFloat(0x7fc00000u)"
        lib[f"kd_mod_{s}"] = _expand(_FLOAT_MOD, s).replace("@nan@", nan if s == "f" else f"double({nan})")
        lib[f"kd_max_{s}"] = _expand(_MAX, s)
        lib[f"kd_min_{s}"] = _expand(_MIN, s)
        lib[f"kd_sign_{s}"] = _expand(_SIGN, s)
        lib[f"kd_rint_{s}"] = _expand(_RINT, s)
        lib[f"kd_copysign_{s}"] = _COPYSIGN[s]
    # lavapipe's double trunc is wrong past ~1e9 and loses the sign of zero; floor and ceil are right.
    lib["kd_trunc_d"] = "double kd_trunc_d(double x) { return kd_copysign_d(x < 0.0LF ? ceil(x) : floor(x), x); }"
    lib["kd_trunc_f"] = "float kd_trunc_f(float x) { return trunc(x); }"
    return {name: exact(code) for name, code in lib.items()}


LIBRARY = _library()
_NAME = re.compile(r"\bkd_[a-z0-9]+_(?:ul|[iufdl])\b")


def _calls(name: str) -> list[str]:
    """The other helpers helper ``name`` calls, sorted."""
    return sorted({n for n in _NAME.findall(LIBRARY[name]) if n != name and n in LIBRARY})


def needed(body: str) -> list[str]:
    """The helper definitions ``body`` calls, with the helpers those call, each after the helpers it calls
    (GLSL needs a function declared before its use), in a fixed order (deterministic source text).

    >>> [h.split("(")[0] for h in needed("y = kd_log_d(x);")]
    ['bool kd_logspecial_d', 'precise double kd_logsplit_d', 'precise double kd_log_d']
    """
    out: list[str] = []
    seen: set[str] = set()

    def visit(name: str) -> None:
        if name in seen:
            return
        seen.add(name)
        for dep in _calls(name):
            visit(dep)
        out.append(LIBRARY[name])

    for name in sorted(set(_NAME.findall(body))):
        if name in LIBRARY:
            visit(name)
    return out
