"""GLSL for complex numbers: ``complex64`` is a ``vec2`` (real, imag), ``complex128`` a ``dvec2``.

That is NumPy's byte layout, so buffers upload and download as plain copies; addition, subtraction, negation
and ``where`` are the vector operations themselves. Everything else is a ``kd_c<name>_<f|d>`` helper with
NumPy's semantics (C99 Annex G special values where NumPy follows them):

* ``*`` is NumPy's textbook product; ``/`` is Smith's algorithm (NumPy's), dividing by the scaled denominator
  rather than multiplying by its reciprocal, so that denominators near the overflow threshold do not flush the
  quotient to zero on GPUs without subnormals.
* ``abs`` is a hypot (no overflow or underflow of the squares), ``log`` takes ``log1p`` near the unit circle,
  ``sqrt`` is Kahan's principal branch (the sign of a zero imaginary part kept), scaled near overflow.
* ``exp`` splits ``exp(re)`` in two halves near overflow (``exp(89 + 0.1j)`` is finite in complex64).
* ``sin``/``cos`` go through ``sinh``/``cosh`` of ``iz``; ``tanh`` is ``(sinh 2x + i sin 2y) / (2 (sinh^2 x +
  cos^2 y))``, whose denominator has no cancellation.
* ``**`` follows NumPy's ``npy_cpow``: whole exponents below 100 by repeated squaring, others ``exp(b log a)``.
* ``asin``/``acos`` (and ``asinh``/``acosh`` through them) are Hull, Fairgrieve and Tang's: ``A - 1`` and ``A - x``
  (``A = (|z + 1| + |z - 1|) / 2``) without cancellation, ``log(2z)`` for huge ``z``; ``atanh`` (and ``atan``)
  takes ``log1p(4x / |1 - z|^2) / 4``; ``tan = -i tanh(iz)``; ``log1p`` and ``expm1`` keep their relative
  accuracy near 0; ``exp2``, ``log2``, ``log10`` are NumPy's (``exp(z ln 2)``, ``log(z) log2(e)``, ...).

The helpers are templates over the component type and are merged into :data:`kdsl.codegen.helpers.LIBRARY`
(a shader gets only those its body names). This module imports only :mod:`kdsl.dtype` (helpers imports it).

Example:
    >>> from kdsl import dtype as dt
    >>> render("mul", dt.complex64, [dt.complex64, dt.complex64], ["a", "b"])
    'kd_cmul_f(a, b)'
    >>> render("abs", dt.float64, [dt.complex128], ["z"]), render("real", dt.float32, [dt.complex64], ["z"])
    ('kd_cabs_d(z)', '(z).x')
"""

from __future__ import annotations

from kdsl import dtype as dt
from kdsl.codegen.precise import exact

# Per component type: GLSL type names and the real functions the templates call.
_TYPES = {
    "f": {"CT_": "vec2", "RT_": "float", "FEXP(": "exp(", "FLOG(": "log(", "FSIN(": "kd_sin_f(", "FCOS(": "kd_cos_f(",
          "FATAN2(": "kd_atan2_f(", "FDIV(": "kd_div_f(", "FLOG1P(": "kd_log1p_f(", "FSINH(": "kd_rsinh_f(",
          "FCOSH(": "kd_rcosh_f(", "FCOPYSIGN(": "kd_copysign_f(",
          "FTANH(": "kd_rtanh_f(", "BIGEXP": "80.0", "BIGTANH": "9.0", "SPLIT": "4097.0",
          "QUARTERMAX": "8.5e37", "FEXPM1(": "kd_expm1_f(", "EPS_": "1.1920929e-7", "BIGASIN": "1.0e6",
          "BIGATANH": "1.0e18", "LN2_": "0.6931472", "PIO2_": "1.5707964", "LOG2E_": "1.442695",
          "LOG10E_": "0.4342945"},
    "d": {"CT_": "dvec2", "RT_": "double", "FEXP(": "kd_exp_d(", "FLOG(": "kd_log_d(", "FSIN(": "kd_sin_d(",
          "FCOS(": "kd_cos_d(", "FATAN2(": "kd_atan2_d(", "FDIV(": "kd_div_d(", "FLOG1P(": "kd_log1p_d(",
          "FSINH(": "kd_sinh_d(", "FCOSH(": "kd_cosh_d(", "FCOPYSIGN(": "kd_copysign_d(",
          "FTANH(": "kd_tanh_d(", "BIGEXP": "700.0LF", "BIGTANH": "20.0LF", "SPLIT": "134217729.0LF",
          "QUARTERMAX": "4.4e307LF", "FEXPM1(": "kd_expm1_d(", "EPS_": "2.220446049250313e-16LF",
          "BIGASIN": "1.0e12LF", "BIGATANH": "1.0e150LF", "LN2_": "0.6931471805599453LF",
          "PIO2_": "1.5707963267948966LF", "LOG2E_": "1.4426950408889634LF", "LOG10E_": "0.4342944819032518LF"},
}
_INF = "RT_(uintBitsToFloat(0x7f800000u))"
_NAN = "RT_(uintBitsToFloat(0x7fc00000u))"

_TEMPLATES = {
    # NumPy's multiply: the textbook formula (no recovery of infinities, as NumPy).
    "cmul": """CT_ kd_cmul_S(CT_ a, CT_ b) {
    return CT_(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
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
        CT_ r = CT_(RT_(1.0), RT_(0.0));
        CT_ p = a;
SQUARINGS
        return n < 0 ? kd_cdiv_S(CT_(RT_(1.0), RT_(0.0)), r) : r;
    }
    return kd_cexp_S(kd_cmul_S(b, kd_clog_S(a)));
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
        c = d == RT_(0.0) ? RT_(0.0)
            : y * sqrt(RT_(0.5) * (a + x) * (RT_(1.0) / (r + x + RT_(1.0)) + RT_(1.0) / d));
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
# float32 sinh and cosh of the components: expm1 near 0 (the built-in loses the relative accuracy there) and
# two halves of exp(|x|) beyond (sinh(89) is finite in float32, exp(89) is not).
_FLOAT_ONLY = {
    "kd_div_d": "double kd_div_d(double a, double b) { return a / b; }",
    "kd_rsinh_f": """float kd_rsinh_f(float x) {
    float a = abs(x);
    float r;
    if (a < 1.0) { float t = kd_expm1_f(a); r = 0.5 * (t + t / (t + 1.0)); }
    else { float h = exp(0.5 * a); r = (0.5 * h) * h - 0.5 / (h * h); }
    return x == 0.0 ? x : kd_copysign_f(r, x);
}""",
    # expm1 below 1/2 (the built-in tanh of 1e-30 can be 3e-8).
    "kd_rtanh_f": """float kd_rtanh_f(float x) {
    if (abs(x) < 0.5) { float t = kd_expm1_f(2.0 * x); return x == 0.0 ? x : t / (t + 2.0); }
    return isnan(x) ? x : tanh(clamp(x, -15.0, 15.0));
}""",
    "kd_rcosh_f": """float kd_rcosh_f(float x) {
    float h = exp(0.5 * abs(x));
    return (0.5 * h) * h + 0.5 / (h * h);
}""",
}


def _expand(template: str, s: str) -> str:
    out = template.replace("INF_", _INF).replace("NAN_", _NAN).replace("_S(", f"_{s}(")
    for token, text in sorted(_TYPES[s].items(), key=lambda kv: -len(kv[0])):  # FCOSH( before FCOS(
        out = out.replace(token, text)
    return out


def _library() -> dict[str, str]:
    lib = dict(_FLOAT_ONLY)
    for s in ("f", "d"):
        for name, template in _TEMPLATES.items():
            lib[f"kd_{name}_{s}"] = _expand(template, s)
    return {name: exact(code) for name, code in lib.items()}


LIBRARY = _library()

_HELPER = {"mul": "cmul", "div": "cdiv", "pow": "cpow", "exp": "cexp", "log": "clog", "sqrt": "csqrt",
           "sin": "csin", "cos": "ccos", "tanh": "ctanh", "sign": "csign", "tan": "ctan", "sinh": "csinh",
           "cosh": "ccosh", "arcsin": "casin", "arccos": "cacos", "arctan": "catan", "arcsinh": "casinh",
           "arccosh": "cacosh", "arctanh": "catanh", "log1p": "clog1p", "expm1": "cexpm1", "exp2": "cexp2",
           "log2": "clog2", "log10": "clog10"}


def render(name: str, out: dt.DType, ins: list[dt.DType], a: list[str]) -> str:
    """GLSL of op ``name`` with complex operands (or a complex result) ``a`` of dtypes ``ins``."""
    t = next((d for d in ins if d.kind == "c"), out)
    c, s = t.glsl_compute, "d" if t.glsl_compute == "dvec2" else "f"
    if name in ("add", "sub"):
        return f"({a[0]} {'+' if name == 'add' else '-'} {a[1]})"
    if name == "neg":
        return f"(-{a[0]})"
    if name in _HELPER:
        return f"kd_{_HELPER[name]}_{s}({', '.join(a)})"
    if name == "square":
        return f"kd_cmul_{s}({a[0]}, {a[0]})"
    if name == "reciprocal":
        return f"kd_crecip_{s}({a[0]})"
    if name == "conj":
        return f"{c}(({a[0]}).x, -({a[0]}).y)"
    if name in ("real", "imag"):
        return f"({a[0]}).{'x' if name == 'real' else 'y'}"
    if name == "abs":
        return f"kd_cabs_{s}({a[0]})"
    if name == "angle":
        return f"kd_atan2_{s}(({a[0]}).y, ({a[0]}).x)"
    if name in ("eq", "ne"):
        return f"all(equal({a[0]}, {a[1]}))" if name == "eq" else f"any(notEqual({a[0]}, {a[1]}))"
    if name == "isnan":
        return f"any(isnan({a[0]}))"
    if name == "isinf":
        return f"any(isinf({a[0]}))"
    if name == "isfinite":
        return f"!(any(isnan({a[0]})) || any(isinf({a[0]})))"
    if name == "complex":  # two components -> one complex value
        return f"{out.glsl_compute}({a[0]}, {a[1]})"
    raise dt.complex_error(name, t)


def cast(x: str, src: dt.DType, dst: dt.DType, component: str) -> str:
    """``x`` from ``src`` to ``dst`` where one of them is complex; ``component``: ``x`` already converted to
    ``dst``'s component type (real -> complex) or the real part of ``x`` (complex -> real, converted by the
    caller). Complex -> real keeps the real part (NumPy's, which warns ComplexWarning; the frontend warns)."""
    if dst.kind == "c":
        if src.kind == "c":
            return f"{dst.glsl_compute}({x})"
        return f"{dst.glsl_compute}({component}, 0.0)"
    if dst is dt.bool_:
        return f"any(notEqual({x}, {src.glsl_compute}(0.0)))"
    return component

