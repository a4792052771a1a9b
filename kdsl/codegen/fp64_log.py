"""float64 logarithms as double-word values: ``pow``'s ``log|a|``, ``log2``, ``log10``, ``log1p``.

``kd_logdd_d(f, e)`` is ``e ln2 + log(1 + f)`` for an exact ``f`` in ``[sqrt(1/2) - 1, sqrt(2) - 1]`` as hi + lo,
relatively accurate to ~2**-66: ``log(1 + f) = 2 atanh(s) = 2s + (2/3) s**3 + s**5 Q(s**2)`` with ``s = f / (2 + f)``
and ``(2/3) s**3`` carried in two doubles (Dekker's products, Knuth's two-sums). ``pow`` needs that much (``exp(b
log a)`` wants ``b log a`` to ~2**-60 absolutely up to 745; the earlier fdlibm form, ``f*f/2`` and ``s (hf + R)``
rounded once each, was 95 ulp off at ``0.7 ** -1024``); ``log2``, ``log10`` and ``log1p`` then scale and add it
with the products' errors kept, so each rounds about once (they rounded the logarithm first: 11% of random
arguments off the exact result, ``log10`` 2 ulp from NumPy near 1). ``log2(2**k)`` is ``k`` and
``log10(10**k)`` is ``k``. ``log`` itself stays fdlibm's cheaper form in :mod:`kdsl.codegen.fp64` (0.3% off).

Example:
    >>> "double kd_logdd_d(double f, double e, out double lo)" in LIBRARY["kd_logdd_d"]
    True
"""

from __future__ import annotations

from kdsl.codegen.fp64 import horner

_INF = "double(uintBitsToFloat(0x7f800000u))"
_LN2_HI, _LN2_LO = "6.93147180369123816490e-01LF", "1.90821492927058770002e-10LF"
# 2 atanh(s) = 2s + (2/3) s**3 + s**5 Q(z), z = s*s <= 0.0295 (|s| <= 3 - 2 sqrt 2): Q's terms to z**12.
_LOG_Q = horner([2 / (2 * n + 1) for n in range(2, 15)], "z")
_TWO3_HI, _TWO3_LO = "0.6666666666666666LF", "3.700743415417188e-17LF"  # 2/3 in two parts
_INVLN2_HI, _INVLN2_LO = "1.4426950408889634LF", "2.0355273740931033e-17LF"
_LOG10E_HI, _LOG10E_LO = "0.4342944819032518LF", "1.098319650216765e-17LF"
# log10(2) with the high part's low 13 bits zero (e times it is exact): fdlibm's split
_LG2_HI, _LG2_LO = "3.01029995663611771306e-01LF", "3.694239077158931e-13LF"

LIBRARY: dict[str, str] = {
    "kd_logdd_d": f"""double kd_logdd_d(double f, double e, out double lo) {{
    double u = 2.0LF + f;
    double ul = f - (u - 2.0LF);
    double s = f / u;
    double pe;
    double p = kd_twoprod_d(s, u, pe);
    double sl = (((f - p) - pe) - s * ul) / u;
    double zl;
    double z = kd_twoprod_d(s, s, zl);
    double ce;
    double c = kd_twoprod_d(z, s, ce);
    ce = ce + (zl * s + 3.0LF * z * sl);
    double ge;
    double g = kd_twoprod_d(c, {_TWO3_HI}, ge);
    ge = ge + (c * {_TWO3_LO} + ce * {_TWO3_HI});
    double t1;
    double h1 = kd_twosum_d(e * {_LN2_HI}, 2.0LF * s, t1);
    double t2;
    double h2 = kd_twosum_d(h1, g, t2);
    double l = (t1 + t2) + ((2.0LF * sl + e * {_LN2_LO}) + (ge + c * z * ({_LOG_Q})));
    double hi = h2 + l;
    lo = l - (hi - h2);
    return hi;
}}""",
    # log|a| as hi + lo for pow
    "kd_loghl_d": """double kd_loghl_d(double a, out double lo) {
    double e;
    double f = kd_logsplit_d(a, e);
    return kd_logdd_d(f, e, lo);
}""",
    "kd_log2_d": f"""double kd_log2_d(double x) {{
    double r;
    if (kd_logspecial_d(x, r)) return r;
    double e, ll, pe, se;
    double f = kd_logsplit_d(x, e);
    double l = kd_logdd_d(f, 0.0LF, ll);
    double p = kd_twoprod_d(l, {_INVLN2_HI}, pe);
    double s = kd_twosum_d(e, p, se);
    return s + (se + (pe + (l * {_INVLN2_LO} + ll * {_INVLN2_HI})));
}}""",
    "kd_log10_d": f"""double kd_log10_d(double x) {{
    double r;
    if (kd_logspecial_d(x, r)) return r;
    double e, ll, pe, se;
    double f = kd_logsplit_d(x, e);
    double l = kd_logdd_d(f, 0.0LF, ll);
    double p = kd_twoprod_d(l, {_LOG10E_HI}, pe);
    double s = kd_twosum_d(e * {_LG2_HI}, p, se);
    return s + (se + ((pe + (l * {_LOG10E_LO} + ll * {_LOG10E_HI})) + e * {_LG2_LO}));
}}""",
    # log1p: small x directly (f = x is exact; below 1e-150 it is x itself); otherwise log(u) for u = 1 + x,
    # whose rounding error ue joins as ue / u
    "kd_log1p_d": f"""double kd_log1p_d(double x) {{
    double lo;
    if (abs(x) < 1e-150LF) return x;
    if (abs(x) <= 0.29289321881345248LF) return kd_logdd_d(x, 0.0LF, lo);
    if (x == -1.0LF) return -{_INF};
    double ue;
    double u = kd_twosum_d(1.0LF, x, ue);
    if (isinf(u) || isnan(u) || u < 0.0LF) return kd_log_d(u);
    double e;
    double f = kd_logsplit_d(u, e);
    double hi = kd_logdd_d(f, e, lo);
    return hi + (lo + ue / u);
}}""",
    # log(v + vl) for a positive normal v and vl below its last bit
    "kd_logv_d": """double kd_logv_d(double v, double vl) {
    double e, lo;
    double f = kd_logsplit_d(v, e);
    double hi = kd_logdd_d(f, e, lo);
    return hi + (lo + vl / v);
}""",
    # log1p(y + yl) for y > -1 and yl below y's last bit (the inverse hyperbolic functions' arguments)
    "kd_log1pdd_d": """double kd_log1pdd_d(double y, double yl) {
    if (abs(y) < 1e-150LF) return y + yl;
    if (abs(y) <= 0.29289321881345248LF) {
        double lo;
        double hi = kd_logdd_d(y, 0.0LF, lo);
        return hi + (lo + yl / (1.0LF + y));
    }
    double ue;
    double u = kd_twosum_d(1.0LF, y, ue);
    return kd_logv_d(u, ue + yl);
}""",
}
