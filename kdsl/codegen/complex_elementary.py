"""Complex GLSL templates of the arithmetic and elementary functions: ``*``, ``/``, reciprocal, ``abs``, sign,
``exp``/``log``/``sqrt``, powers, ``sin``/``cos``/``tan`` and their hyperbolic forms, ``log1p``, ``expm1``,
``exp2``, ``log2``, ``log10``. (The inverse functions are :mod:`kdsl.codegen.complex_inverse`.)

The templates are GLSL over placeholders that :func:`kdsl.codegen.complex.expand` fills per component type:
``CT_``/``RT_`` the complex/real types, ``_S(`` the ``_f``/``_d`` suffix, ``F<name>(`` the real functions,
``INF_``/``NAN_`` and the named constants. The semantics are listed in :mod:`kdsl.codegen.complex`.

Example:
    >>> TEMPLATES["cmul"].splitlines()[0]
    'CT_ kd_cmul_S(CT_ a, CT_ b) {'
"""

TEMPLATES = {
    # NumPy's multiply: the textbook formula (no recovery of infinities, as NumPy).
    "cmul": """CT_ kd_cmul_S(CT_ a, CT_ b) {
    return CT_(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}""",
    # C99 Annex G's multiply (what C's `*` of complex values computes, and so the C library's cpow that NumPy's
    # power calls): the textbook formula, and where both parts come out NaN from infinite operands, the
    # infinities recovered (an infinite factor as its unit direction, NaNs beside infinities as signed zeros).
    "cmulg": """CT_ kd_cmulg_S(CT_ p, CT_ q) {
    RT_ a = p.x, b = p.y, c = q.x, d = q.y;
    RT_ ac = a * c, bd = b * d, ad = a * d, bc = b * c;
    CT_ r = CT_(ac - bd, ad + bc);
    if (!(isnan(r.x) && isnan(r.y))) return r;
    bool again = false;
    if (isinf(a) || isinf(b)) {
        a = FCOPYSIGN(isinf(a) ? RT_(1.0) : RT_(0.0), a);
        b = FCOPYSIGN(isinf(b) ? RT_(1.0) : RT_(0.0), b);
        if (isnan(c)) c = FCOPYSIGN(RT_(0.0), c);
        if (isnan(d)) d = FCOPYSIGN(RT_(0.0), d);
        again = true;
    }
    if (isinf(c) || isinf(d)) {
        c = FCOPYSIGN(isinf(c) ? RT_(1.0) : RT_(0.0), c);
        d = FCOPYSIGN(isinf(d) ? RT_(1.0) : RT_(0.0), d);
        if (isnan(a)) a = FCOPYSIGN(RT_(0.0), a);
        if (isnan(b)) b = FCOPYSIGN(RT_(0.0), b);
        again = true;
    }
    if (!again && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {  // overflowed products
        if (isnan(a)) a = FCOPYSIGN(RT_(0.0), a);
        if (isnan(b)) b = FCOPYSIGN(RT_(0.0), b);
        if (isnan(c)) c = FCOPYSIGN(RT_(0.0), c);
        if (isnan(d)) d = FCOPYSIGN(RT_(0.0), d);
        again = true;
    }
    return again ? CT_(INF_ * (a * c - b * d), INF_ * (a * d + b * c)) : r;
}""",
    # Smith's algorithm (NumPy's loop). FDIV: IEEE division also where 1 / d underflows (|d| > 2**126 in float:
    # GPUs may divide by multiplying with the reciprocal; kd_div_f says why).
    "cdiv": """CT_ kd_cdiv_S(CT_ a, CT_ b) {
    RT_ ar = abs(b.x), ai = abs(b.y);
    if (ar >= ai) {
        if (ar == RT_(0.0) && ai == RT_(0.0)) return CT_(a.x / ar, a.y / ar);
        RT_ rat = FDIV(b.y, b.x);
        RT_ d = b.x + b.y * rat;
        return CT_(FDIV(a.x + a.y * rat, d), FDIV(a.y - a.x * rat, d));
    }
    RT_ rat = FDIV(b.x, b.y);
    RT_ d = b.y + b.x * rat;
    return CT_(FDIV(a.x * rat + a.y, d), FDIV(a.y * rat - a.x, d));
}""",
    # NumPy's reciprocal loop (Smith's with numerator 1): 1 / 0 is NaN + NaN j there, unlike 1 / (0 + 0j).
    "crecip": """CT_ kd_crecip_S(CT_ z) {
    if (abs(z.y) <= abs(z.x)) {
        RT_ r = FDIV(z.y, z.x);
        RT_ d = z.x + z.y * r;
        return CT_(FDIV(RT_(1.0), d), FDIV(-r, d));
    }
    RT_ r = FDIV(z.x, z.y);
    RT_ d = z.x * r + z.y;
    return CT_(FDIV(r, d), FDIV(RT_(-1.0), d));
}""",
    # hypot: inf wins over NaN (C99), the smaller component scaled by the larger (no overflow of squares).
    "cabs": """RT_ kd_cabs_S(CT_ z) {
    RT_ a = abs(z.x), b = abs(z.y);
    if (isinf(a) || isinf(b)) return INF_;
    if (isnan(a) || isnan(b)) return a + b;
    RT_ hi = max(a, b), lo = min(a, b);
    if (hi == RT_(0.0)) return RT_(0.0);
    RT_ r = FDIV(lo, hi);
    return hi * sqrt(RT_(1.0) + r * r);
}""",
    "cexp": """CT_ kd_cexp_S(CT_ z) {
    RT_ x = z.x, y = z.y;
    if (isinf(x)) {
        if (x < RT_(0.0)) {  // +-0 in the direction of (cos y, sin y); copysign: compilers fold 0.0 * v to 0.0
            if (isinf(y) || isnan(y)) return CT_(RT_(0.0), isinf(y) ? FCOPYSIGN(RT_(0.0), y) : RT_(0.0));
            return CT_(FCOPYSIGN(RT_(0.0), FCOS(y)), y == RT_(0.0) ? y : FCOPYSIGN(RT_(0.0), FSIN(y)));
        }
        if (y == RT_(0.0)) return CT_(x, y);
        if (isinf(y) || isnan(y)) return CT_(x, NAN_);
        return CT_(x * FCOS(y), x * FSIN(y));
    }
    if (isnan(x)) return CT_(x, y == RT_(0.0) ? y : NAN_);
    if (isinf(y) || isnan(y)) return CT_(NAN_, NAN_);
    if (y == RT_(0.0)) return CT_(FEXP(x), y);
    RT_ c = FCOS(y), s = FSIN(y);
    if (x > BIGEXP) {  // exp(x) overflows but exp(x) * cos(y) may not: two halves
        RT_ h = FEXP(RT_(0.5) * x);
        return CT_((h * c) * h, (h * s) * h);
    }
    RT_ r = FEXP(x);
    return CT_(r * c, r * s);
}""",
    # a^2 + b^2 - 1 for a in [0.7, 1.42] (so a^2 - 1 is exact), b <= a: the squares' rounding errors (Dekker's
    # split, ``precise`` against contraction) are added back, so the result is relatively accurate however much
    # the terms cancel.
    "csqm1": """RT_ kd_csqm1_S(RT_ a, RT_ b) {
    precise RT_ ca = SPLIT * a;
    precise RT_ ah = ca - (ca - a);
    precise RT_ al = a - ah;
    precise RT_ cb = SPLIT * b;
    precise RT_ bh = cb - (cb - b);
    precise RT_ bl = b - bh;
    precise RT_ pa = a * a;
    precise RT_ ea = ((ah * ah - pa) + RT_(2.0) * ah * al) + al * al;
    precise RT_ pb = b * b;
    precise RT_ eb = ((bh * bh - pb) + RT_(2.0) * bh * bl) + bl * bl;
    precise RT_ s = (pa - RT_(1.0)) + pb;
    return s + (ea + eb);
}""",
    # log|z| = log1p(|z|^2 - 1) / 2 near |z| = 1 (|z|^2 - 1 without cancellation), else log(hypot).
    "clog": """CT_ kd_clog_S(CT_ z) {
    RT_ ax = abs(z.x), ay = abs(z.y);
    RT_ t = FATAN2(z.y, z.x);
    if (isinf(ax) || isinf(ay)) return CT_(INF_, t);
    if (isnan(ax) || isnan(ay)) return CT_(NAN_, NAN_);
    if (ax == RT_(0.0) && ay == RT_(0.0)) return CT_(-INF_, t);
    RT_ hi = max(ax, ay), lo = min(ax, ay);
    if (hi >= RT_(0.70711) && hi <= RT_(1.4142) && lo < RT_(1.0))
        return CT_(RT_(0.5) * FLOG1P(kd_csqm1_S(hi, lo)), t);
    return CT_(FLOG(kd_cabs_S(z)), t);
}""",
    # Kahan's principal square root (C99 Annex G special cases), scaled by 1/4 near overflow.
    "csqrt": """CT_ kd_csqrt_S(CT_ z) {
    RT_ x = z.x, y = z.y;
    if (x == RT_(0.0) && y == RT_(0.0)) return CT_(RT_(0.0), y);
    if (isinf(y)) return CT_(INF_, y);
    if (isnan(x)) return CT_(x, NAN_);
    if (isinf(x)) {
        if (isnan(y)) return x > RT_(0.0) ? CT_(x, y) : CT_(y, INF_);
        return x > RT_(0.0) ? CT_(x, FCOPYSIGN(RT_(0.0), y)) : CT_(RT_(0.0), FCOPYSIGN(INF_, y));
    }
    if (isnan(y)) return CT_(NAN_, NAN_);
    bool big = abs(x) > QUARTERMAX || abs(y) > QUARTERMAX;
    RT_ sx = big ? x * RT_(0.25) : x, sy = big ? y * RT_(0.25) : y;
    RT_ t = sqrt(RT_(0.5) * (abs(sx) + kd_cabs_S(CT_(sx, sy))));
    if (big) t *= RT_(2.0);
    if (x >= RT_(0.0)) return CT_(t, y / (RT_(2.0) * t));
    return CT_(abs(y) / (RT_(2.0) * t), FCOPYSIGN(t, y));
}""",
    # sinh and cosh of x + iy for sin(z) = -i sinh(iz) and cos(z) = cosh(iz) (C99's definitions). The signs of
    # infinities C99 leaves open are NumPy's: sin(inf + inf j) = NaN + inf j.
    "csinh": """CT_ kd_csinh_S(CT_ z) {
    RT_ x = z.x, y = z.y;
    if (y == RT_(0.0)) return CT_(FSINH(x), y);
    if (isinf(y) || isnan(y)) return CT_(x == RT_(0.0) ? x : (isinf(x) ? INF_ : NAN_), NAN_);
    if (isnan(x)) return CT_(x, NAN_);
    return CT_(FSINH(x) * FCOS(y), FCOSH(x) * FSIN(y));
}""",
    "ccosh": """CT_ kd_ccosh_S(CT_ z) {
    RT_ x = z.x, y = z.y;
    if (y == RT_(0.0)) return CT_(FCOSH(x), isnan(x) ? y : FCOPYSIGN(RT_(0.0), x) * y);
    if (isinf(y) || isnan(y)) return CT_(isinf(x) ? INF_ : NAN_, x == RT_(0.0) ? RT_(0.0) : NAN_);
    if (isnan(x)) return CT_(x, NAN_);
    return CT_(FCOSH(x) * FCOS(y), FSINH(x) * FSIN(y));
}""",
    "csin": """CT_ kd_csin_S(CT_ z) {
    if (isinf(z.y) && (isinf(z.x) || isnan(z.x))) return CT_(NAN_, INF_);  // NumPy's signs (C99 leaves them open)
    CT_ s = kd_csinh_S(CT_(-z.y, z.x));
    return CT_(s.y, -s.x);
}""",
    "ccos": """CT_ kd_ccos_S(CT_ z) {
    return kd_ccosh_S(CT_(-z.y, z.x));
}""",
    # tanh = (sinh x cosh x + i sin y cos y) / (sinh^2 x + cos^2 y): a denominator without cancellation.
    "ctanh": """CT_ kd_ctanh_S(CT_ z) {
    RT_ x = z.x, y = z.y;
    if (isinf(x)) {
        RT_ dir = isinf(y) ? y : (isnan(y) ? RT_(0.0) : FSIN(y) * FCOS(y));  // the sign of sin(2y)
        return CT_(FCOPYSIGN(RT_(1.0), x), FCOPYSIGN(RT_(0.0), dir));
    }
    if (isnan(x)) return CT_(x, y == RT_(0.0) ? y : NAN_);
    if (isinf(y) || isnan(y)) return CT_(x == RT_(0.0) ? x : NAN_, NAN_);
    if (y == RT_(0.0)) return CT_(FTANH(x), y);
    RT_ s = FSIN(y), c = FCOS(y);
    if (abs(x) > BIGTANH) {  // tanh(x) is +-1 to the last bit; sinh^2 x would overflow
        RT_ e = FEXP(RT_(-2.0) * abs(x));
        return CT_(FCOPYSIGN(RT_(1.0), x), RT_(4.0) * s * c * e);
    }
    RT_ sh = FSINH(x);
    RT_ d = sh * sh + c * c;
    return CT_(sh * FCOSH(x) / d, s * c / d);
}""",
    # NumPy's npy_cpow: 0 and whole exponents below 100 exactly as NumPy (repeated squaring, unrolled: no loop
    # spends the device's loop budget), other exponents exp(b log a).
    "cpow": """CT_ kd_cpow_S(CT_ a, CT_ b) {
    if (b.x == RT_(0.0) && b.y == RT_(0.0)) return CT_(RT_(1.0), RT_(0.0));
    if (a.x == RT_(0.0) && a.y == RT_(0.0)) {
        if (b.x > RT_(0.0)) return CT_(RT_(0.0), RT_(0.0));  // NumPy 2: any exponent with a positive real part
        return CT_(NAN_, NAN_);
    }
    if (b.y == RT_(0.0) && b.x == trunc(b.x) && abs(b.x) < RT_(100.0)) {
        int n = int(b.x);
        if (n == 1) return a;
        if (n == 2) return kd_cmul_S(a, a);
        if (n == 3) return kd_cmul_S(a, kd_cmul_S(a, a));
        uint m = uint(abs(n));
        // NumPy's 1 + 0j, whose zero takes part in the products (0 inf is NaN, -0 + 0 is +0): a literal 0 is
        // folded away by drivers that drop signed zeros (lavapipe gave (4 + 0j) ** -2 as 0.0625 - 0j); b.y is 0
        CT_ one = CT_(RT_(1.0), abs(b.y));
        CT_ r = one;
        CT_ p = a;
SQUARINGS
        return n < 0 ? kd_cdiv_S(one, r) : r;
    }
    return kd_cexp_S(kd_cmulg_S(b, kd_clog_S(a)));  // the C library's cpow: cexp(b * clog(a)), C's multiply
}""".replace("SQUARINGS", "\n".join(["        if ((m & 1u) != 0u) r = kd_cmul_S(r, p); p = kd_cmul_S(p, p); "
                                     "m >>= 1u;"] * 6 + ["        if (m != 0u) r = kd_cmul_S(r, p);"])),
    # NumPy 2's sign: z / |z|, 0 for 0, NaN for NaN; an infinite component gives its unit direction.
    "csign": """CT_ kd_csign_S(CT_ z) {
    if (isinf(z.x) && isinf(z.y)) return CT_(NAN_, NAN_);
    if (isinf(z.x)) return CT_(FCOPYSIGN(RT_(1.0), z.x), RT_(0.0));
    if (isinf(z.y)) return CT_(RT_(0.0), FCOPYSIGN(RT_(1.0), z.y));
    if (isnan(z.x) || isnan(z.y)) return CT_(NAN_, NAN_);
    RT_ a = kd_cabs_S(z);
    if (a == RT_(0.0)) return CT_(RT_(0.0), RT_(0.0));
    return CT_(FDIV(z.x, a), FDIV(z.y, a));
}""",
    "ctan": """CT_ kd_ctan_S(CT_ z) {
    CT_ w = kd_ctanh_S(CT_(-z.y, z.x));
    return CT_(w.y, -w.x);
}""",
    # log1p: for |z| < 1/2, log|1 + z| = log1p(x (2 + x) + y^2) / 2 (no rounding of 1 + x); else log(1 + z).
    "clog1p": """CT_ kd_clog1p_S(CT_ z) {
    RT_ x = z.x, y = z.y;
    if (kd_cabs_S(z) < RT_(0.5))
        return CT_(RT_(0.5) * FLOG1P(x * (RT_(2.0) + x) + y * y), FATAN2(y, RT_(1.0) + x));
    return kd_clog_S(CT_(RT_(1.0) + x, y));
}""",
    # expm1: for |x| < 1, Re = expm1(x) cos y - 2 sin^2(y / 2) (NumPy's formula, accurate near 0); else
    # exp(z) - 1, whose special values are C99's and the array API's (exp(inf + 0j) - 1 = inf + 0j; NumPy's
    # formula gives inf + NaN j, and -0 + 0j for expm1(-0 + 0j)).
    "cexpm1": """CT_ kd_cexpm1_S(CT_ z) {
    RT_ x = z.x, y = z.y;
    if (x == RT_(0.0) && y == RT_(0.0)) return CT_(RT_(0.0), y);  // exp(z) - 1: +0 for x = -0 too (array API)
    if (abs(x) < RT_(1.0) && !isinf(y) && !isnan(y)) {
        RT_ h = FSIN(RT_(0.5) * y);
        return CT_(FEXPM1(x) * FCOS(y) - RT_(2.0) * h * h, FEXP(x) * FSIN(y));
    }
    CT_ e = kd_cexp_S(z);
    return CT_(e.x - RT_(1.0), e.y);
}""",
    # NumPy's: exp(z ln 2), log(z) log2(e), log(z) log10(e) (components scaled by a real).
    "cexp2": """CT_ kd_cexp2_S(CT_ z) { return kd_cexp_S(z * LN2_); }""",
    "clog2": """CT_ kd_clog2_S(CT_ z) { return kd_clog_S(z) * LOG2E_; }""",
    "clog10": """CT_ kd_clog10_S(CT_ z) { return kd_clog_S(z) * LOG10E_; }""",
}
