"""float64 ``arcsinh``, ``arccosh``, ``arctanh``: fdlibm's forms with their arguments as double-word values.

Each is ``log1p`` or ``log`` of an argument built from squares, square roots and quotients; computed plainly, the
argument's own roundings reach the result (``arccosh`` 2 ulp off near 1, ~13% of random arguments of all three
off the correctly rounded result). Here the squares are Dekker's exact products, the roots and quotients carry
their residuals (``kd_sqrtdd_d``, ``kd_divdd_d``), the sums are two-sums, and :mod:`kdsl.codegen.fp64_log`'s
``kd_log1pdd_d``/``kd_logv_d`` take the argument with its low part, so each rounds about once.

Example:
    >>> "double kd_sqrtdd_d(double w, double wl, out double lo)" in LIBRARY["kd_sqrtdd_d"]
    True
"""

from __future__ import annotations

_NAN = "double(uintBitsToFloat(0x7fc00000u))"
_INF = "double(uintBitsToFloat(0x7f800000u))"

LIBRARY: dict[str, str] = {
    # sqrt(w + wl) as hi + lo: the root corrected by its residual w - s*s (Dekker's product)
    "kd_sqrtdd_d": """double kd_sqrtdd_d(double w, double wl, out double lo) {
    double s = sqrt(w);
    lo = 0.0LF;
    if (s == 0.0LF || isinf(s)) return s;
    double e;
    double p = kd_twoprod_d(s, s, e);
    lo = (((w - p) - e) + wl) / (2.0LF * s);
    return s;
}""",
    # below 2: log1p(a + a*a / (1 + sqrt(1 + a*a))); to 2**28: log(2a + 1 / (sqrt(a*a + 1) + a)); past: log(2a)
    "kd_asinh_d": """double kd_asinh_d(double x) {
    double a = abs(x);
    if (isnan(x) || isinf(x) || a < 1e-9LF) return x;
    double r, ql, wl, sl, dl, rl, yl;
    if (a > 268435456.0LF) {
        double e, lo;
        double f = kd_logsplit_d(a, e);
        r = kd_logdd_d(f, e + 1.0LF, lo) + lo;
    } else if (a > 2.0LF) {
        double d = sqrt(a * a + 1.0LF) + a;
        double v = kd_twosum_d(2.0LF * a, 1.0LF / d, yl);
        r = kd_logv_d(v, yl);
    } else {
        double q = kd_twoprod_d(a, a, ql);
        double w = kd_twosum_d(1.0LF, q, wl);
        double s = kd_sqrtdd_d(w, wl + ql, sl);
        double d = kd_twosum_d(1.0LF, s, dl);
        double t = kd_divdd_d(q, ql, d, dl + sl, rl);
        double y = kd_twosum_d(a, t, yl);
        r = kd_log1pdd_d(y, yl + rl);
    }
    return x < 0.0LF ? -r : r;
}""",
    # below 2: log1p(t + sqrt(2t + t*t)), t = x - 1 exact; to 2**28: log(2x - 1 / (x + sqrt(x*x - 1)))
    "kd_acosh_d": f"""double kd_acosh_d(double x) {{
    if (isnan(x)) return x;
    if (x < 1.0LF) return {_NAN};
    if (isinf(x)) return x;
    double yl;
    if (x > 268435456.0LF) {{
        double e, lo;
        double f = kd_logsplit_d(x, e);
        return kd_logdd_d(f, e + 1.0LF, lo) + lo;
    }}
    if (x > 2.0LF) {{
        double v = kd_twosum_d(2.0LF * x, -1.0LF / (x + sqrt(x * x - 1.0LF)), yl);
        return kd_logv_d(v, yl);
    }}
    double t = x - 1.0LF;
    double ql, wl, sl;
    double q = kd_twoprod_d(t, t, ql);
    double w = kd_twosum_d(2.0LF * t, q, wl);
    double s = kd_sqrtdd_d(w, wl + ql, sl);
    double y = kd_twosum_d(t, s, yl);
    return kd_log1pdd_d(y, yl + sl);
}}""",
    # log1p(2a + 2a*a / (1 - a)) / 2 below 1/2, log1p(2a / (1 - a)) / 2 above (1 - a exact there)
    "kd_atanh_d": f"""double kd_atanh_d(double x) {{
    double a = abs(x);
    if (isnan(x) || a < 1e-9LF) return x;
    if (a > 1.0LF) return {_NAN};
    if (a == 1.0LF) return x * {_INF};
    double y, yl;
    if (a < 0.5LF) {{
        double ql, dl, rl;
        double q = kd_twoprod_d(a, a, ql);
        double d = kd_twosum_d(1.0LF, -a, dl);
        double t = kd_divdd_d(2.0LF * q, 2.0LF * ql, d, dl, rl);
        y = kd_twosum_d(2.0LF * a, t, yl);
        yl = yl + rl;
    }} else y = kd_divdd_d(2.0LF * a, 0.0LF, 1.0LF - a, 0.0LF, yl);
    double r = 0.5LF * kd_log1pdd_d(y, yl);
    return x < 0.0LF ? -r : r;
}}""",
}
