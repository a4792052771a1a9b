"""float64 ``expm1``, ``sinh``, ``cosh``, ``tanh``: each from ``expm1`` as a double-word value, rounded once at the end.

``kd_expm1dd_d`` reduces ``x = k ln2 + r`` (``|r| <= ln2/2``, ``r`` and its rounding error exact by a two-sum),
sums ``r + r*r/2`` exactly (Dekker's product, Knuth's two-sum) with the rest of the series (below 0.007 of the
result) in one double, and recombines ``2**k (1 + e) - 1`` with two more two-sums: ``expm1`` and its error to
~2**-60. ``tanh = t / (t + 2)``, ``sinh = (t + t / (t + 1)) / 2`` (``t = expm1(|x|)``) and ``cosh = (E + 1/E) / 2``
(``E = 1 + t``) then divide and add with the residuals carried (``kd_divdd_d``), so each rounds about once. The
forms before rounded ``t`` and every step (``tanh`` 2 ulp from NumPy, 24% of random arguments off the exact
result; ``sinh`` 2 ulp near 0.8; ``expm1`` 11%).

Example:
    >>> "double kd_expm1dd_d(double x, out double lo)" in LIBRARY["kd_expm1dd_d"]
    True
"""

from __future__ import annotations

from math import factorial

from kdsl.codegen.fp64 import horner

_LN2_HI, _LN2_LO = "6.93147180369123816490e-01LF", "1.90821492927058770002e-10LF"
# (expm1(r) - r - r**2/2) / r**3 on |r| <= ln2/2: the Taylor series to r**17 (truncation below 1e-20).
_TAIL = horner([1 / factorial(n) for n in range(3, 18)], "r")

LIBRARY: dict[str, str] = {
    # expm1(x) as hi + lo for -40 <= x <= 40: 2**k (1 + s + l) - 1 by two two-sums (2**k - 1 is not exact past 53)
    "kd_expm1dd_d": f"""double kd_expm1dd_d(double x, out double lo) {{
    double k = floor(x * 1.4426950408889634LF + 0.5LF);
    double re = 0.0LF, r = x;
    if (k != 0.0LF) r = kd_twosum_d(x - k * {_LN2_HI}, -k * {_LN2_LO}, re);
    double ze;
    double z = kd_twoprod_d(r, r, ze);
    double sl;
    double s = kd_twosum_d(r, 0.5LF * z, sl);
    double l = sl + (0.5LF * ze + (re * (1.0LF + r) + r * z * ({_TAIL})));
    if (k == 0.0LF) {{
        double hi = s + l;
        lo = l - (hi - s);
        return hi;
    }}
    int ik = int(k);
    double e, f;
    double t = kd_twosum_d(ldexp(1.0LF, ik), ldexp(s, ik), e);
    t = kd_twosum_d(t, -1.0LF, f);
    double m = (e + f) + ldexp(l, ik);
    double hi = t + m;
    lo = m - (hi - t);
    return hi;
}}""",
    "kd_expm1_d": """double kd_expm1_d(double x) {
    if (isnan(x) || x == 0.0LF) return x;
    if (x > 40.0LF) return kd_exp_d(x);  // expm1 = exp there (exp - 1 rounds to exp), inf past the threshold
    if (x < -40.0LF) return -1.0LF;
    double lo;
    return kd_expm1dd_d(x, lo);
}""",
    # Beyond 22, sinh and cosh are exp(a) / 2 = exp(a - ln2) to double precision (no overflow before theirs).
    "kd_sinh_d": f"""double kd_sinh_d(double x) {{
    double a = abs(x);
    if (isnan(x) || x == 0.0LF) return x;
    double r;
    if (a < 22.0LF) {{
        double tl, ql, dl, e;
        double t = kd_expm1dd_d(a, tl);
        double d = kd_twosum_d(t, 1.0LF, dl);
        double q = kd_divdd_d(t, tl, d, dl + tl, ql);
        double s = kd_twosum_d(t, q, e);
        r = 0.5LF * (s + (e + (tl + ql)));
    }} else r = kd_exp2part_d(a - {_LN2_HI}, -{_LN2_LO});
    return x < 0.0LF ? -r : r;
}}""",
    "kd_cosh_d": f"""double kd_cosh_d(double x) {{
    double a = abs(x);
    if (isnan(x)) return a;
    if (a >= 22.0LF) return kd_exp2part_d(a - {_LN2_HI}, -{_LN2_LO});
    double tl, el, il, e;
    double t = kd_expm1dd_d(a, tl);
    double eh = kd_twosum_d(1.0LF, t, el);
    el = el + tl;
    double ih = kd_divdd_d(1.0LF, 0.0LF, eh, el, il);
    double s = kd_twosum_d(eh, ih, e);
    return 0.5LF * (s + (e + (el + il)));
}}""",
    # tanh rounds to +-1 past 19.1 (1 - tanh(a) = 2 / (e**2a + 1) < 2**-54)
    "kd_tanh_d": """double kd_tanh_d(double x) {
    double a = abs(x);
    if (isnan(x) || x == 0.0LF) return x;
    if (a > 19.5LF) return x < 0.0LF ? -1.0LF : 1.0LF;
    double tl, dl, rl;
    double t = kd_expm1dd_d(2.0LF * a, tl);
    double d = kd_twosum_d(t, 2.0LF, dl);
    double r = kd_divdd_d(t, tl, d, dl + tl, rl);
    r = r + rl;
    return x < 0.0LF ? -r : r;
}""",
    # fdlibm's forms (glibc's sinh and cosh, which NumPy's complex sin, cos, sinh, cosh call through csin and
    # friends): kdsl's complex128 functions use these, so they round as NumPy's do (with the double-word forms
    # above, closer to the exact values, they differed from NumPy's in 44% of arguments instead of 17%)
    "kd_fdsinh_d": f"""double kd_fdsinh_d(double x) {{
    double a = abs(x);
    double r;
    if (a < 1.0LF) {{ double t = kd_expm1_d(a); r = 0.5LF * (2.0LF * t - t * t / (t + 1.0LF)); }}
    else if (a < 22.0LF) {{ double t = kd_expm1_d(a); r = 0.5LF * (t + t / (t + 1.0LF)); }}
    else r = kd_exp2part_d(a - {_LN2_HI}, -{_LN2_LO});
    return x < 0.0LF ? -r : (x == 0.0LF ? x : r);
}}""",
    "kd_fdcosh_d": f"""double kd_fdcosh_d(double x) {{
    double a = abs(x);
    if (a < 22.0LF) {{ double t = kd_exp_d(a); return 0.5LF * (t + 1.0LF / t); }}
    return kd_exp2part_d(a - {_LN2_HI}, -{_LN2_LO});
}}""",
}
