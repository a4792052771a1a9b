"""GLSL of float32 ``arcsinh``, ``arccosh`` and ``arctanh`` (float16 computes in them and rounds once).

GLSL's ``asinh``/``acosh``/``atanh`` have no precision requirement beyond their textbook formulas, and drivers
use them as written: lavapipe's ``asinh(x)`` is ``log(x + sqrt(x*x + 1))``, so ``x*x`` overflows past 1.8e19
(``arcsinh(1e20)`` was inf, NumPy's 46.7) and ``x + sqrt(...)`` rounds to 1 for small ``x``
(``arcsinh(1e-10)`` was 0); ``atanh`` lost small arguments the same way. These are fdlibm's forms, as
:mod:`kdsl.codegen.fp64`'s float64 ones: ``log1p`` of a sum without cancellation near 0, ``log(2x + ...)`` in
the middle, ``log(x) + ln 2`` where ``x*x`` would overflow; signed zeros, infinities and NaN as NumPy's.

Example:
    >>> sorted(LIBRARY)
    ['kd_acosh_f', 'kd_asinh_f', 'kd_atanh_f']
"""

from __future__ import annotations

_NAN = "uintBitsToFloat(0x7fc00000u)"
_INF = "uintBitsToFloat(0x7f800000u)"
_LN2 = "0.6931471805599453"
# past 2**28, 1 / (x + sqrt(x*x +- 1)) is below half an ulp of 2x: log(2x) = log(x) + ln 2 (no overflow)
_BIG = "268435456.0"

LIBRARY = {
    "kd_asinh_f": f"""float kd_asinh_f(float x) {{
    float a = abs(x);
    if (isnan(x) || isinf(x) || a == 0.0) return x;
    float r;
    if (a > {_BIG}) r = kd_log_f(a) + {_LN2};
    else if (a > 2.0) r = kd_log_f(2.0 * a + 1.0 / (sqrt(a * a + 1.0) + a));
    else r = kd_log1p_f(a + a * a / (1.0 + sqrt(1.0 + a * a)));
    return x < 0.0 ? -r : r;
}}""",
    "kd_acosh_f": f"""float kd_acosh_f(float x) {{
    if (isnan(x)) return x;
    if (x < 1.0) return {_NAN};
    if (isinf(x)) return x;
    if (x > {_BIG}) return kd_log_f(x) + {_LN2};
    if (x > 2.0) return kd_log_f(2.0 * x - 1.0 / (x + sqrt(x * x - 1.0)));
    float t = x - 1.0;
    return kd_log1p_f(t + sqrt(2.0 * t + t * t));
}}""",
    "kd_atanh_f": f"""float kd_atanh_f(float x) {{
    float a = abs(x);
    if (isnan(x) || a == 0.0) return x;
    if (a > 1.0) return {_NAN};
    if (a == 1.0) return x > 0.0 ? {_INF} : -{_INF};
    float r = a < 0.5 ? 0.5 * kd_log1p_f(2.0 * a + 2.0 * a * a / (1.0 - a))
                      : 0.5 * kd_log1p_f(2.0 * a / (1.0 - a));
    return x < 0.0 ? -r : r;
}}""",
}
