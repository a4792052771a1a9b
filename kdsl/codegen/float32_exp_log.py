"""GLSL of float32 ``exp``, ``exp2``, ``log``, ``log2``, ``log10`` (and ``log1p``) in float32 arithmetic.

GLSL's built-ins have only the precision Vulkan asks of them: ``log`` within an *absolute* 2**-21 near 1
(lavapipe's ``log(0.99999994)`` was 73% off), subnormal arguments and results flushed (``exp(-100)`` was 0,
NumPy's 3.8e-44). These helpers reduce the argument exactly and evaluate short polynomials, to about one ulp
(NumPy's float32 bounds: ``tests/precision/test_umath_accuracy_nptests19a.py``), with no ``double`` (slower on
GPUs and to compile: benchmarks/RESULTS.md), no loops and no tables:

* ``log``: ``x = 2**e (1 + f)`` with ``1 + f`` in ``[sqrt(1/2), sqrt(2))`` by integer operations on the bits (a
  subnormal ``x`` normalised by ``findMSB``), ``log(1 + f) = f + t`` where ``t`` comes from ``s = f / (2 + f)``
  and the series of ``2 atanh(s)`` (``t`` is small: ``f`` stays exact), ``e ln 2`` in two parts. ``log2`` and
  ``log10`` multiply ``f + t`` by their constants in two parts (Dekker: 12-bit halves multiply exactly), so
  ``log2(2**k)`` is ``k`` and ``log10(10**k)`` is ``k``.
* ``exp``: ``x = k ln 2 + r`` (Cody and Waite: ``ln 2`` in two parts, ``k ln2_hi`` exact), ``e**r = 1 + (r +
  r**2 p(r))``, then ``2**k`` in two exact power-of-two factors, so a subnormal result rounds once and overflow
  gives inf exactly where the rounded value passes the largest float. ``exp2`` likewise with ``k = round(x)``;
  ``expm1`` as ``(2**k - 1) + 2**k (e**r - 1)``, two exact terms added once.

All arithmetic is ``precise`` (:mod:`kdsl.codegen.precise`): a fused multiply-add would break the exact steps.

Example:
    >>> sorted(LIBRARY)[:4]
    ['kd_exp2_f', 'kd_exp2c_f', 'kd_exp_f', 'kd_expm1_f']
    >>> "double" in "".join(LIBRARY.values())  # float32 arithmetic only
    False
"""

from __future__ import annotations

_INF = "uintBitsToFloat(0x7f800000u)"
_NAN = "uintBitsToFloat(0x7fc00000u)"
# ln 2 in two parts: 15 significant bits (k * LN2HI is exact for |k| < 512), the rest rounded
_LN2HI, _LN2LO = "0.693145751953125", "1.428606765330187e-06"
# 1 / ln 2, 1 / ln 10 and log10(2) in two parts (12, 12 and 15 significant bits)
_IL2HI, _IL2LO = "1.4423828125", "0.00031222839606925845"
_IL10HI, _IL10LO = "0.4342041015625", "9.038033749675378e-05"
_L102HI, _L102LO = "0.301025390625", "4.605039066518657e-06"
# 2**n as a float for n in [-126, 127] (exact, no ldexp)
_POW2 = "uintBitsToFloat(uint({0} + 127) << 23)"

LIBRARY = {
    # 0 < x < inf, by the bits: a device that flushes subnormal arithmetic (an H200) compares a subnormal x as
    # 0, where NumPy's log(1e-45) is -103.28; the rest of the logarithms works on the bits too
    "kd_logfinite_f": "bool kd_logfinite_f(float x) { return floatBitsToUint(x) - 1u < 0x7f7fffffu; }",
    # the logarithm of the rest: -inf for +-0, inf for inf, NaN for NaN and negatives
    "kd_logedge_f": f"""float kd_logedge_f(float x) {{
    uint u = floatBitsToUint(x);
    return (u & 0x7fffffffu) == 0u ? -{_INF} : (u == 0x7f800000u ? x : {_NAN});
}}""",
    # x > 0 finite -> f with x = 2**e (1 + f), 1 + f in [sqrt(1/2), sqrt(2)): integer steps only, so a subnormal
    # x is exact too (and a device that flushes subnormal arithmetic still sees its bits).
    "kd_logsplit_f": """float kd_logsplit_f(float x, out int e) {
    uint u = floatBitsToUint(x);
    e = int(u >> 23) - 127;
    if (u < 0x00800000u) { int p = findMSB(u); u <<= uint(23 - p); e = p - 149; }
    uint m = u & 0x7fffffu;
    bool high = m > 0x3504f3u;  // 1.m above sqrt(2): halve it
    e += high ? 1 : 0;
    return uintBitsToFloat(m | (high ? 0x3f000000u : 0x3f800000u)) - 1.0;
}""",
    # log(1 + f) - f for |f| < 0.42: 2 atanh(s) - f with s = f / (2 + f), as s (f**2 / 2 + R) - f**2 / 2 (R the
    # series' tail; |s| < 0.172, so s**10 is below 2**-25)
    "kd_logtail_f": """float kd_logtail_f(float f) {
    float s = f / (2.0 + f);
    float z = s * s;
    float h = 0.5 * f * f;
    float r = z * (0.6666666865348816 + z * (0.4000000059604645 + z * (0.2857142984867096
        + z * 0.2222222238779068)));
    return s * (h + r) - h;
}""",
    # log(x) + c for a small correction c (log1p's rounding of 1 + x), with NumPy's special values
    "kd_logc_f": f"""float kd_logc_f(float x, float c) {{
    if (!kd_logfinite_f(x)) return kd_logedge_f(x);
    int e;
    float f = kd_logsplit_f(x, e);
    float k = float(e);
    return k * {_LN2HI} + (f + ((kd_logtail_f(f) + c) + k * {_LN2LO}));
}}""",
    "kd_log_f": "float kd_log_f(float x) { return kd_logc_f(x, 0.0); }",
    # 1 + x = u + d exactly (Knuth's two-sum with |1| >= |x| or |x| >= 1): log(u) + d / u
    "kd_log1p_f": """float kd_log1p_f(float x) {
    float u = 1.0 + x;
    float d = abs(x) < 1.0 ? x - (u - 1.0) : 1.0 - (u - x);
    if (x == 0.0) return x;  // -0.0 (log(1) + -0.0 is +0.0)
    return kd_logc_f(u, (u == 0.0 || isinf(u)) ? 0.0 : d / u);
}""",
    # x > 0 finite -> log(x) = k ln 2 + hi + lo: hi (returned) is log(1 + f) cut to 12 bits, so its products with
    # the 12-bit constant parts below are exact; log2 and log10 share it
    "kd_lnparts_f": """float kd_lnparts_f(float x, out float lo, out float k) {
    int e;
    float f = kd_logsplit_f(x, e);
    float t = kd_logtail_f(f);
    float hi = uintBitsToFloat(floatBitsToUint(f + t) & 0xfffff000u);
    float l = (f - hi) + t;  // (a local: precise qualifies locals, not out parameters)
    lo = l;
    k = float(e);
    return hi;
}""",
    # log2(x) as w + (returned) lo: f + t cut to 12 bits (hi) times 1/ln2's 12-bit part is exact, e + that
    # product by Fast2Sum (|e| >= 1 > |product| or e = 0); pow needs the two parts.
    "kd_log2p_f": f"""float kd_log2p_f(float x, out float w) {{
    w = x;
    if (!kd_logfinite_f(x)) {{ w = kd_logedge_f(x); return 0.0; }}
    float lo, k;
    float hi = kd_lnparts_f(x, lo, k);
    float vh = hi * {_IL2HI};
    w = k + vh;
    return ((k - w) + vh) + ((hi + lo) * {_IL2LO} + lo * {_IL2HI});
}}""",
    "kd_log2_f": """float kd_log2_f(float x) {
    float w;
    float lo = kd_log2p_f(x, w);
    return w + lo;
}""",
    "kd_log10_f": f"""float kd_log10_f(float x) {{
    if (!kd_logfinite_f(x)) return kd_logedge_f(x);
    float lo, k;
    float hi = kd_lnparts_f(x, lo, k);
    float kh = k * {_L102HI};
    float vh = hi * {_IL10HI};
    float w = kh + vh;
    return w + ((((kh - w) + vh) + k * {_L102LO}) + ((hi + lo) * {_IL10LO} + lo * {_IL10HI}));
}}""",
    # y * 2**n for n of any size: two exact power-of-two factors (n clamped where the result is 0 or inf
    # anyway), so a subnormal result is rounded once and an overflow is inf
    "kd_scale_f": f"""float kd_scale_f(float y, int n) {{
    n = clamp(n, -252, 252);
    int n1 = n >> 1;
    return (y * {_POW2.format("n1")}) * {_POW2.format("(n - n1)")};
}}""",
    # e**x * 2**s (s: a small exact scale, sinh/cosh's 1/2 without rounding x - ln 2): x clamped where e**x
    # overflows or underflows anyway, so the int conversion stays defined
    "kd_exps_f": f"""float kd_exps_f(float x, int s) {{
    if (isnan(x)) return x;
    float a = clamp(x, -200.0, 200.0);
    float k = roundEven(a * 1.4426950216293335);
    float r = (a - k * {_LN2HI}) - k * {_LN2LO};
    float p = 0.5 + r * (0.1666666716337204 + r * (0.0416666679084301 + r * (0.008333333767950535
        + r * (0.0013888889225199819 + r * 0.00019841270113829523))));
    return kd_scale_f(1.0 + (r + r * r * p), int(k) + s);
}}""",
    "kd_exp_f": "float kd_exp_f(float x) { return kd_exps_f(x, 0); }",
    # e**x - 1 from exp's reduction: 2**k (1 + q) - 1 = (2**k - 1) + 2**k q with q = e**r - 1 = r + r**2 p(r),
    # both terms exact (2**k - 1 for |k| <= 24, else rounding below the result's ulp) and added once; k = 0 up
    # to |x| = ln(2) / 2, so q is the result near 0 (relatively accurate: x's own rounding only). -0.0 kept;
    # x clamped where the result is -1 or inf anyway.
    "kd_expm1_f": f"""float kd_expm1_f(float x) {{
    if (x == 0.0 || isnan(x)) return x;
    float a = clamp(x, -40.0, 100.0);
    float k = abs(a) <= 0.3465736 ? 0.0 : roundEven(a * 1.4426950216293335);
    float r = (a - k * {_LN2HI}) - k * {_LN2LO};
    float q = r + r * r * (0.5 + r * (0.1666666716337204 + r * (0.0416666679084301 + r * (0.008333333767950535
        + r * (0.0013888889225199819 + r * (0.00019841270113829523 + r * 2.4801587642286904e-05))))));
    int n = int(k);
    if (n > 100) return kd_scale_f(1.0 + q, n);  // (-1 is far below the result's ulp)
    float t = {_POW2.format("n")};
    return (t - 1.0) + t * q;
}}""",
    # 2**(x + c) for a small c (pow's low part): k = round(x), x - k exact, 2**r by the series of e**(r ln 2)
    "kd_exp2c_f": """float kd_exp2c_f(float x, float c) {
    if (isnan(x)) return x;
    float a = clamp(x, -300.0, 300.0);
    float k = roundEven(a);
    float r = (a - k) + c;
    float q = 0.6931471824645996 + r * (0.24022650718688965 + r * (0.05550410971045494
        + r * (0.009618128649890423 + r * (0.0013333557872101665 + r * (0.0001540352968731895
        + r * 1.5252733646775596e-05)))));
    return kd_scale_f(1.0 + r * q, int(k));
}""",
    "kd_exp2_f": "float kd_exp2_f(float x) { return kd_exp2c_f(x, 0.0); }",
    # 1 / (1 + e**-x), as e**x / (1 + e**x) below 0: 1 + e**-x overflowed to inf there (sigmoid(-90) was 0, not
    # its subnormal 8e-40) and the tail of the sum lost its relative accuracy.
    "kd_sigmoid_f": """float kd_sigmoid_f(float x) {
    float e = kd_exp_f(-abs(x));
    return x < 0.0 ? e / (1.0 + e) : 1.0 / (1.0 + e);
}""",
}
