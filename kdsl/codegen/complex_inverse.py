"""Complex GLSL templates of the inverse trigonometric and hyperbolic functions (``arcsin``, ``arccos``,
``arctan``, ``arcsinh``, ``arccosh``, ``arctanh``): Hull, Fairgrieve and Tang's ``asin``/``acos`` core, with
``A - 1`` and ``A - x`` free of cancellation, and ``atanh`` through ``log1p``.

The templates are GLSL over placeholders that :func:`kdsl.codegen.complex.expand` fills per component type:
``CT_``/``RT_`` the complex/real types, ``_S(`` the ``_f``/``_d`` suffix, ``F<name>(`` the real functions,
``INF_``/``NAN_`` and the named constants. The semantics are listed in :mod:`kdsl.codegen.complex`.

Example:
    >>> sorted(TEMPLATES)
    ['cacos', 'cacosh', 'casin', 'casincore', 'casinh', 'catan', 'catanh']
"""

TEMPLATES = {
    # asin(x + iy) for finite x, y >= 0 (Hull, Fairgrieve and Tang's method): with A = (|z + 1| + |z - 1|) / 2,
    # Im asin = log(A + sqrt(A^2 - 1)) = log1p(A - 1 + sqrt((A - 1)(A + 1))), and Re asin = atan2(x, c) with
    # c = sqrt((A - x)(A + x)); A - 1 and A - x are sums of positive terms (no cancellation), the squares of y
    # written y * (y / d) so that they do not underflow. Returns Im asin and sets c (Re acos = atan2(c, x)).
    "casincore": """RT_ kd_casincore_S(RT_ x, RT_ y, out RT_ c) {
    if (max(x, y) > BIGASIN) {  // asin z = -i log(2iz) + O(1/z^2)
        c = y;
        return LN2_ + FLOG(kd_cabs_S(CT_(x, y)));
    }
    if (x < RT_(1.0) && y < EPS_ * (RT_(1.0) - x)) {  // y^2 is below the rounding of A - 1 (and may underflow)
        c = sqrt((RT_(1.0) - x) * (RT_(1.0) + x));
        return y / c;
    }
    RT_ r = kd_cabs_S(CT_(x + RT_(1.0), y)), s = kd_cabs_S(CT_(x - RT_(1.0), y));
    RT_ a = RT_(0.5) * (r + s);
    RT_ yr = y / (r + x + RT_(1.0));  // (r - (x + 1)) / y
    RT_ am1;
    if (x < RT_(1.0)) {
        am1 = RT_(0.5) * y * (yr + y / (s + (RT_(1.0) - x)));
        c = sqrt(RT_(0.5) * (a + x) * (y * yr + s + (RT_(1.0) - x)));
    } else {
        RT_ d = s + (x - RT_(1.0));  // 0 only at z = 1
        am1 = RT_(0.5) * (y * yr + d);
        // y sqrt(k (1/(r + x + 1) + 1/d)); below y = 1 as sqrt(y) sqrt(k (y/(r + x + 1) + y/d)) (y <= d): 1/d
        // overflows for a subnormal y at x = 1, where c is sqrt(y), not inf (asin(1 + 1e-310j) is pi/2 + ...)
        RT_ k = RT_(0.5) * (a + x);
        c = d == RT_(0.0) ? RT_(0.0)
            : y < RT_(1.0) ? sqrt(y) * sqrt(k * (y / (r + x + RT_(1.0)) + y / d))
            : y * sqrt(k * (RT_(1.0) / (r + x + RT_(1.0)) + RT_(1.0) / d));
    }
    return FLOG1P(am1 + sqrt(am1 * (a + RT_(1.0))));
}""",
    # asinh z = -i asin(iz); the non-finite cases are C99's (NumPy's).
    "casinh": """CT_ kd_casinh_S(CT_ z) {
    RT_ x = z.x, y = z.y, ax = abs(x), ay = abs(y);
    if (isinf(ax) || isinf(ay)) {
        if (isnan(x)) return CT_(INF_, x);
        if (isnan(y)) return CT_(x, y);
        return CT_(FCOPYSIGN(INF_, x), FCOPYSIGN(FATAN2(ay, ax), y));
    }
    if (isnan(x)) return CT_(x, y == RT_(0.0) ? y : NAN_);
    if (isnan(y)) return CT_(NAN_, NAN_);
    RT_ c;
    RT_ l = kd_casincore_S(ay, ax, c);
    return CT_(FCOPYSIGN(l, x), FCOPYSIGN(FATAN2(ay, c), y));
}""",
    "casin": """CT_ kd_casin_S(CT_ z) {
    if (isinf(z.x) && isnan(z.y)) return CT_(z.y, INF_);  // NumPy's sign (C99 leaves it open)
    CT_ w = kd_casinh_S(CT_(-z.y, z.x));
    return CT_(w.y, -w.x);
}""",
    "cacos": """CT_ kd_cacos_S(CT_ z) {
    RT_ x = z.x, y = z.y, ax = abs(x), ay = abs(y);
    if (isinf(ax) || isinf(ay)) {
        if (isnan(x) || isnan(y)) return CT_(NAN_, isnan(x) ? -FCOPYSIGN(INF_, y) : -INF_);
        return CT_(FATAN2(ay, x), -FCOPYSIGN(INF_, y));
    }
    if (isnan(x) || isnan(y)) return CT_(x == RT_(0.0) ? PIO2_ : NAN_, NAN_);
    RT_ c;
    RT_ l = kd_casincore_S(ax, ay, c);
    return CT_(FATAN2(c, x), -FCOPYSIGN(l, y));
}""",
    # acosh z = +-i acos z, the sign making the real part >= 0 (C99's definition; the imaginary part keeps the
    # sign of y).
    "cacosh": """CT_ kd_cacosh_S(CT_ z) {
    CT_ w = kd_cacos_S(z);
    if (isnan(w.x) && isnan(w.y)) return w;
    if (isnan(w.x)) return CT_(abs(w.y), w.x);
    if (isnan(w.y)) return CT_(w.y, w.x);
    return CT_(abs(w.y), FCOPYSIGN(w.x, z.y));
}""",
    # atanh: Re = log(|1 + z| / |1 - z|) / 2 = log1p(4x / |1 - z|^2) / 4 (|1 - z| by a hypot), the difference
    # of the logs where |1 - z| < 1/2 (no cancellation there; 4x / |1 - z|^2 could overflow near z = 1);
    # Im = atan2(2y, 1 - x^2 - y^2) / 2 with 1 - |z|^2 from kd_csqm1 near the unit circle.
    "catanh": """CT_ kd_catanh_S(CT_ z) {
    RT_ x = z.x, y = z.y, ax = abs(x), ay = abs(y);
    if (isnan(x) || isnan(y)) {
        if (isinf(ay)) return CT_(FCOPYSIGN(RT_(0.0), x), FCOPYSIGN(PIO2_, y));
        if (isinf(ax) || x == RT_(0.0)) return CT_(FCOPYSIGN(RT_(0.0), x), NAN_);
        return CT_(NAN_, NAN_);
    }
    if (isinf(ax) || isinf(ay)) return CT_(FCOPYSIGN(RT_(0.0), x), FCOPYSIGN(PIO2_, y));
    RT_ re, im;
    if (max(ax, ay) > BIGATANH) {  // atanh z = 1/z +- i pi/2 + O(1/z^3)
        RT_ h = kd_cabs_S(z);
        re = (ax / h) / h;
        im = PIO2_;
    } else {
        RT_ d1 = RT_(1.0) - ax;
        RT_ h = kd_cabs_S(CT_(d1, ay));
        if (h >= RT_(0.5)) re = RT_(0.25) * FLOG1P((RT_(4.0) * ax / h) / h);
        else re = RT_(0.5) * (FLOG(kd_cabs_S(CT_(RT_(1.0) + ax, ay))) - FLOG(h));  // both terms > 0
        RT_ hi = max(ax, ay), lo = min(ax, ay);
        RT_ den = (hi >= RT_(0.70711) && hi <= RT_(1.4142) && lo < RT_(1.0)) ? -kd_csqm1_S(hi, lo)
            : d1 * (RT_(1.0) + ax) - ay * ay;
        // den = 0 as +0 (atanh(1 + 0j) = inf + 0j) without relying on the compiler keeping zeros' signs
        im = den == RT_(0.0) ? (ay == RT_(0.0) ? RT_(0.0) : RT_(0.5) * PIO2_) : RT_(0.5) * FATAN2(RT_(2.0) * ay, den);
    }
    return CT_(FCOPYSIGN(re, x), FCOPYSIGN(im, y));
}""",
    "catan": """CT_ kd_catan_S(CT_ z) {
    // inf + i NaN: C99 leaves the zero's sign open; NumPy's comes from negating the NaN below, and GPUs need
    // not keep a NaN's sign through arithmetic (the H200 does not): take it from the NaN's bits instead
    if (isinf(z.x) && isnan(z.y)) return CT_(FCOPYSIGN(PIO2_, z.x), FCOPYSIGN(RT_(0.0), z.y));
    CT_ w = kd_catanh_S(CT_(-z.y, z.x));
    return CT_(w.y, -w.x);
}""",
}
