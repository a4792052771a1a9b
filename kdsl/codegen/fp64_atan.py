"""float64 ``arctan``, ``arctan2``, ``arcsin``, ``arccos``: one arctangent of a double-word argument, rounded once.

Every argument reaches ``kd_atandd_d`` as a value and the error of its last rounding (quotients corrected by their
exact residuals, Dekker's products; ``sqrt(1 - x*x)`` with ``1 - x*x`` exact and the root's residual): there
``1/a`` past 1, then ``atan(c) + atan((a - c) / (1 + a c))`` for ``c`` in ``{0, 1/2, 1}`` with ``atan(c)`` in two
parts, the reduced quotient again with its residual, and the sums that meet the constant kept exact until the last.
The earlier forms rounded each quotient and the square root once more (arcsin and arccos up to 3 ulp from NumPy,
23% and 14% of random arguments not correctly rounded; arctan 19%).

No loops (lavapipe's loop budget); the quotients' residuals are skipped where Dekker's split could overflow or the
residual would fall below the subnormal range (an operand or the quotient beyond ~1e290 or below ~1e-280: the plain
quotient, correctly rounded, is then what is left).

Example:
    >>> "double kd_atandd_d(double a, double al, out double lo)" in LIBRARY["kd_atandd_d"]
    True
"""

from __future__ import annotations

from kdsl.codegen.fp64 import horner

_NAN = "double(uintBitsToFloat(0x7fc00000u))"
# atan(t) = t + t z P(z), z = t*t <= 0.05 (|t| <= 0.23 after the reduction): the Taylor series to t**31.
_ATAN_POLY = horner([(-1) ** n / (2 * n + 1) for n in range(1, 16)], "z")
_PIO2_HI, _PIO2_LO = "1.5707963267948966LF", "6.123233995736766e-17LF"
_PI_HI, _PI_LO = "3.141592653589793LF", "1.2246467991473532e-16LF"

LIBRARY: dict[str, str] = {
    # (n + nl) / (d + dl) as value + lo: t = n / d, its residual n - t d exact (Dekker's product)
    "kd_divdd_d": """double kd_divdd_d(double n, double nl, double d, double dl, out double lo) {
    double t = n / d;
    lo = 0.0LF;
    if (isinf(t) || !(min(min(abs(t), abs(d)), abs(n)) >= 1e-280LF) || max(abs(d), abs(t)) > 1e290LF) return t;
    double pe;
    double p = kd_twoprod_d(t, d, pe);
    lo = (((n - p) - pe) + (nl - t * dl)) / d;
    return t;
}""",
    # atan(a + al) for a >= 0 (al below a's last bit) as hi + lo, hi rounded about once
    "kd_atandd_d": f"""double kd_atandd_d(double a, double al, out double lo) {{
    bool inv = a > 1.0LF;
    double u = a, ul = al;
    if (inv) u = kd_divdd_d(1.0LF, 0.0LF, a, al, ul);
    double bh = 0.0LF, bl = 0.0LF, t = u, tl = ul;
    if (u >= 0.25LF) {{
        double c = u < 0.75LF ? 0.5LF : 1.0LF;
        bh = u < 0.75LF ? 4.6364760900080609e-01LF : 7.8539816339744828e-01LF;
        bl = u < 0.75LF ? 2.2698777452961687e-17LF : 3.0616169978683830e-17LF;
        double dl;
        double d = kd_twosum_d(1.0LF, c * u, dl);
        t = kd_divdd_d(u - c, ul, d, dl + c * ul, tl);
    }}
    double z = t * t;
    double sl;
    double s = kd_twosum_d(bh, t, sl);
    double l = sl + (bl + ((tl - tl * z) + t * z * ({_ATAN_POLY})));
    double hi = s + l;
    lo = l - (hi - s);
    if (!inv) return hi;
    double e;
    double r = kd_twosum_d({_PIO2_HI}, -hi, e);
    double rl = e + ({_PIO2_LO} - lo);
    double rh = r + rl;
    lo = rl - (rh - r);
    return rh;
}}""",
    "kd_atanp_d": """double kd_atanp_d(double a) { double lo; return kd_atandd_d(a, 0.0LF, lo); }""",
    "kd_atan_d": """double kd_atan_d(double x) {
    if (isnan(x)) return x;
    double r = kd_atanp_d(abs(x));
    return x < 0.0LF ? -r : (x == 0.0LF ? x : r);
}""",
    # atan(n / d) for n, d >= 0 given as double-word values, folded into pi - t when d is negative (nx):
    # the angle a quotient of at most 1 (pi/2 - atan of the inverse quotient otherwise)
    "kd_atanq_d": f"""double kd_atanq_d(double n, double nl, double d, double dl, bool nx) {{
    double q, ql, lo, t;
    bool swap = n > d;
    if (swap) q = kd_divdd_d(d, dl, n, nl, ql); else q = kd_divdd_d(n, nl, d, dl, ql);
    t = n == 0.0LF ? 0.0LF : kd_atandd_d(q, ql, lo);
    if (n == 0.0LF) lo = 0.0LF;
    double base = swap ? {_PIO2_HI} : (nx ? {_PI_HI} : 0.0LF);
    double basel = swap ? {_PIO2_LO} : (nx ? {_PI_LO} : 0.0LF);
    bool minus = swap ? !nx : nx;  // pi/2 - t, pi/2 + t, pi - t or t
    if (minus) {{ t = -t; lo = -lo; }}
    if (base == 0.0LF) return t;
    double e;
    double r = kd_twosum_d(base, t, e);
    return r + (e + (basel + lo));
}}""",
    # NumPy's arctan2, signed zeros and infinities included.
    "kd_atan2_d": """double kd_atan2_d(double y, double x) {
    if (isnan(x) || isnan(y)) return x + y;
    bool ny = (unpackDouble2x32(y).y >> 31) != 0u;
    bool nx = (unpackDouble2x32(x).y >> 31) != 0u;
    double ay = abs(y), ax = abs(x);
    double r;
    if (isinf(ay) && isinf(ax)) r = nx ? 2.35619449019234492885e+00LF : 7.85398163397448278999e-01LF;
    else if (isinf(ay) || isinf(ax)) r = kd_atanq_d(isinf(ay) ? 1.0LF : 0.0LF, 0.0LF, isinf(ax) ? 1.0LF : 0.0LF,
                                                 0.0LF, nx);
    else r = kd_atanq_d(ay, 0.0LF, ax, 0.0LF, nx);
    return ny ? -r : r;
}""",
    # sqrt(1 - x*x) for |x| <= 1 as hi + lo: 1 - x*x exact in two parts ((1 - a)(1 + a) past 1/2), the root
    # corrected by its residual
    "kd_sqrt1mx2_d": """double kd_sqrt1mx2_d(double x, out double lo) {
    double a = abs(x);
    double w, wl, e, f;
    if (a <= 0.5LF) {
        double xx = kd_twoprod_d(a, a, e);
        w = kd_twosum_d(1.0LF, -xx, f);
        wl = f - e;
    } else {
        double d = 1.0LF - a;
        double v = kd_twosum_d(1.0LF, a, f);
        w = kd_twoprod_d(d, v, e);
        wl = e + d * f;
    }
    double s = sqrt(w);
    lo = 0.0LF;
    if (s == 0.0LF) return s;
    double p = kd_twoprod_d(s, s, e);
    lo = (((w - p) - e) + wl) / (2.0LF * s);
    return s;
}""",
    "kd_asin_d": f"""double kd_asin_d(double x) {{
    if (!(abs(x) <= 1.0LF)) return isnan(x) ? x : {_NAN};
    if (x == 0.0LF) return x;
    double cl;
    double c = kd_sqrt1mx2_d(x, cl);
    double r = kd_atanq_d(abs(x), 0.0LF, c, cl, false);
    return x < 0.0LF ? -r : r;
}}""",
    "kd_acos_d": f"""double kd_acos_d(double x) {{
    if (!(abs(x) <= 1.0LF)) return isnan(x) ? x : {_NAN};
    double cl;
    double c = kd_sqrt1mx2_d(x, cl);
    return kd_atanq_d(c, cl, abs(x), 0.0LF, x < 0.0LF);
}}""",
}
