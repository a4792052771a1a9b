"""Double-precision transcendental functions in GLSL, which has them only for float.

Each is argument reduction done in double (Cody-Waite: the constant split in parts whose products with the
reduction multiple are exact) followed by a Taylor polynomial evaluated in Horner form; the polynomials are
long enough that their truncation error is below 1e-17 on the reduced range, so the rounding of a few
operations dominates. ``exp``/``exp2`` are correctly rounded but for ~1% of arguments: the reduced argument is split so
``1 + a`` is exact and only the small rest rounds before the last addition; subnormal results are rounded once onto
their grid. ``pow`` carries ``log|a|`` (:mod:`kdsl.codegen.fp64_log`) and ``b * log(a)`` in two doubles, so it is
within an ulp up to the overflow threshold. Within 1 ulp everywhere (docs/kernels.md lists each). The inverse
trigonometric, hyperbolic and logarithmic functions on double-word values live in ``fp64_atan.py``,
``fp64_hyperbolic.py``, ``fp64_log.py`` and ``fp64_inverse_hyperbolic.py``; ``sin``/``cos``/``tan`` (and the
exact products and sums they all use) come from :mod:`kdsl.codegen.trig`, which generates them for float and
double alike.

No helper loops: lavapipe counts every loop iteration of an invocation against one budget, so the code is
straight-line (the polynomials are unrolled here, in Python).

Example:
    >>> "double kd_exp_d(double x)" in LIBRARY["kd_exp_d"], horner([1.0, 0.5], "r")
    (True, '1.0LF + r * (0.5LF)')
"""

from __future__ import annotations

from collections.abc import Sequence
from math import factorial

from kdsl.codegen import trig
from kdsl.codegen.precise import exact


def horner(coefs: Sequence[float], var: str, suffix: str = "LF") -> str:
    """GLSL of ``coefs[0] + coefs[1] * var + coefs[2] * var**2 + ...`` in Horner form (double literals; float
    ones with ``suffix=""``)."""
    text = f"{coefs[-1]!r}{suffix}"
    for c in reversed(coefs[:-1]):
        text = f"{c!r}{suffix} + {var} * ({text})"
    return text


_INF = "double(uintBitsToFloat(0x7f800000u))"
_NAN = "double(uintBitsToFloat(0x7fc00000u))"
# (exp(r) - 1 - r) / r**2 on |r| <= ln2 / 2: the Taylor series to r**15 (truncation error < 1e-19).
_EXP_TAIL = horner([1 / factorial(n) for n in range(2, 16)], "r")
# log(1 + f) = f - (hf - s * (hf + R)), s = f / (2 + f), R = 2 (z/3 + z**2/5 + ...), z = s*s <= 0.0295.
_LOG_R = horner([2 / (2 * n + 1) for n in range(1, 13)], "z")

# ln2 = LN2_HI + LN2_LO with LN2_HI's low 21 bits zero (k * LN2_HI exact for |k| < 2**21): fdlibm's split.
_LN2_HI, _LN2_LO = "6.93147180369123816490e-01LF", "1.90821492927058770002e-10LF"
_INV_LN2 = "1.4426950408889634LF"

LIBRARY: dict[str, str] = {
    # exp(r + re) 2**k for |r| <= ~0.35 and a tiny correction re, rounded once (nearly always): r = a + b with a
    # r's leading bits (its multiples of 2**-28, so 1 + a is exact) and exp(r) = (1 + a) + q, q = b + r**2 / 2
    # + ...: the only roundings before the last are q's own (q <= 0.06: a few hundredths of an ulp); a plain
    # Horner sum 1 + r (1 + r (1/2 + ...)) rounded r**2/2 and the sum near 1, 1 ulp from NumPy in 12% of cases.
    # A result below 2**-1022 is rounded once onto the subnormal grid (as (1 + v) - 1, exact but the one rounding).
    "kd_expcore_d": f"""double kd_expcore_d(double r, double re, double k) {{
    double a = (r + 25165824.0LF) - 25165824.0LF;
    double q = ((r - a) + re) + (r * re + r * r * ({_EXP_TAIL}));
    int ik = int(k);
    if (ik >= -1021) {{
        int h = ik / 2;
        return ldexp(ldexp((1.0LF + a) + q, h), ik - h);
    }}
    double ps = ldexp(1.0LF + a, ik + 1022);
    double qs = ldexp(q, ik + 1022);
    double we;
    double w = kd_twosum_d(1.0LF, ps, we);
    return ((w + (we + qs)) - 1.0LF) * 2.2250738585072014e-308LF;
}}""",
    # exp(y + ey) for a y carrying a small correction ey (pow's product in two parts): k = round(y / ln2),
    # y - k ln2 as a sum r + re (k LN2_HI is exact, the rest carried exactly by a two-sum).
    "kd_exp2part_d": f"""double kd_exp2part_d(double y, double ey) {{
    if (isnan(y)) return y;
    if (y > 709.8LF) return {_INF};
    if (y < -745.2LF) return 0.0LF;
    double k = floor(y * {_INV_LN2} + 0.5LF);
    double re;
    double r = kd_twosum_d(y - k * {_LN2_HI}, ey - k * {_LN2_LO}, re);
    return kd_expcore_d(r, re, k);
}}""",
    "kd_exp_d": """double kd_exp_d(double x) { return kd_exp2part_d(x, 0.0LF); }""",
    # 2**x = 2**k exp((x - k) ln2): x - k is exact, its product with ln2 exact in two parts (Dekker's).
    "kd_exp2_d": f"""double kd_exp2_d(double x) {{
    if (isnan(x)) return x;
    if (x >= 1024.0LF) return {_INF};
    if (x < -1080.0LF) return 0.0LF;
    double k = floor(x + 0.5LF);
    double d = x - k;
    double re;
    double r = kd_twoprod_d(d, 6.93147180559945286227e-01LF, re);
    return kd_expcore_d(r, re + d * 2.3190468138462996e-17LF, k);
}}""",
    # x = 2**e * (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)) (subnormals scaled first); returns f.
    "kd_logsplit_d": """double kd_logsplit_d(double x, out double e) {
    double bias = 0.0LF;
    if (x < 2.2250738585072014e-308LF) { x *= 18014398509481984.0LF; bias = -54.0LF; }
    int ex;
    double m = frexp(x, ex);
    if (m < 0.70710678118654752LF) { m *= 2.0LF; ex -= 1; }
    e = double(ex) + bias;
    return m - 1.0LF;
}""",
    # NaN for x < 0, -inf for 0, inf for inf (NumPy's results); 0 for the rest (the caller computes).
    "kd_logspecial_d": f"""bool kd_logspecial_d(double x, out double r) {{
    r = 0.0LF;
    if (isnan(x) || (isinf(x) && x > 0.0LF)) {{ r = x; return true; }}
    if (x < 0.0LF) {{ r = {_NAN}; return true; }}
    if (x == 0.0LF) {{ r = -{_INF}; return true; }}
    return false;
}}""",
    "kd_log_d": f"""double kd_log_d(double x) {{
    double r;
    if (kd_logspecial_d(x, r)) return r;
    double e;
    double f = kd_logsplit_d(x, e);
    double s = f / (2.0LF + f);
    double z = s * s;
    double hf = 0.5LF * f * f;
    return e * {_LN2_HI} + (f - (hf - (s * (hf + z * ({_LOG_R})) + e * {_LN2_LO})));
}}""",
    # NumPy's power for doubles: the float version's special cases, then exp(b * log|a|) with the product
    # kept in two parts (the exact product's rounding error joins b * lo).
    "kd_pow_d": f"""double kd_pow_d(double a, double b) {{
    if (b == 0.0LF || a == 1.0LF) return 1.0LF;
    if (isnan(a) || isnan(b)) return a + b;
    bool odd = floor(b) == b && mod(b, 2.0LF) == 1.0LF;  // floor: lavapipe's double trunc is inexact
    if (a == 0.0LF || isinf(a)) {{  // -0.0 and -inf to an odd whole power keep their sign
        double z = ((b < 0.0LF) == (a == 0.0LF)) ? {_INF} : 0.0LF;
        return ((unpackDouble2x32(a).y >> 31) != 0u && odd) ? -z : z;
    }}
    if (isinf(b)) return (abs(a) == 1.0LF) ? 1.0LF : ((abs(a) > 1.0LF) == (b > 0.0LF) ? b * b : 0.0LF);
    if (a < 0.0LF && floor(b) != b) return {_NAN};
    double r;
    {{
        double lo;
        double hi = kd_loghl_d(abs(a), lo);
        double e = 0.0LF;
        double y = abs(b) < 1e290LF ? kd_twoprod_d(b, hi, e) : b * hi;
        r = kd_exp2part_d(y, e + b * lo);
    }}
    return (a < 0.0LF && odd) ? -r : r;
}}""",
    "kd_sigmoid_d": """double kd_sigmoid_d(double x) { return 1.0LF / (1.0LF + kd_exp_d(-x)); }""",
}


LIBRARY.update(trig.LIBRARY)
LIBRARY = {name: exact(code) for name, code in LIBRARY.items()}
