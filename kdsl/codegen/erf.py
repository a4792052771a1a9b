"""GLSL of the error function ``erf`` (the ``erf`` op: ``kd.nn.erf``, and through it ``kd.nn.gelu``), one
helper per precision, so that an erf is one node of the graph and one call in a kernel (as a composite of
~30 elementwise ops, building ``gelu(x @ w)``'s graph cost ~0.4 ms of Python per call on a 2-core machine).

* ``kd_erf_f`` (float32, and float16 computed in float32): the Taylor series for ``|x| < 0.5`` (relative
  accuracy where erf is small), else ``1 - erfc`` with the Chebyshev-fitted ``erfc(z) = t exp(-z^2 + P(t))``,
  ``t = 1 / (1 + z/2)`` (fractional error below 1.2e-7). Within 4e-7 relative and 2e-7 absolute of ``math.erf``.
* ``kd_erf_d`` (float64): the Taylor series for ``|x| < 2`` (47 terms), else ``erfc`` from its continued
  fraction ``exp(-z^2) / sqrt(pi) / (z + (1/2) / (z + 1 / (z + (3/2) / ...)))`` evaluated from a 60-term tail;
  ``+-1`` past 6. Within 2e-15 relative of ``math.erf``.

Both loops have a fixed trip count (under the CPU driver's loop budget); NaN stays NaN, ``erf(+-inf)`` is
``+-1`` and ``erf(-0.0)`` is ``-0.0``.

Example:
    >>> "kd_erf_f" in LIBRARY and "kd_exp_d" in LIBRARY["kd_erf_d"]
    True
"""

from __future__ import annotations

import math

from kdsl.codegen.fp64 import horner

# erfc(z) = t * exp(-z*z + P(t)), t = 1 / (1 + z/2), z >= 0: P's coefficients, lowest order first
# (Numerical Recipes' Chebyshev fit).
ERFC_P = (-1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807, -1.13520398, 1.48851587,
          -0.82215223, 0.17087277)
# erf(x) = x * S(x^2) near 0: S's Taylor coefficients 2/sqrt(pi) (-1)^n / (n! (2n + 1)); the first left out,
# n = 7, is below 1e-9 of the sum for x^2 < 1/4.
_SERIES = tuple(2 / math.sqrt(math.pi) * (-1) ** n / (math.factorial(n) * (2 * n + 1)) for n in range(7))


LIBRARY = {
    "kd_erf_f": f"""float kd_erf_f(float x) {{
    float z = abs(x);
    if (z < 0.5) {{ float s = x * x; return x * ({horner(_SERIES, "s", suffix="")}); }}
    float t = 1.0 / (1.0 + 0.5 * z);
    float e = t * exp(-z * z + ({horner(ERFC_P, "t", suffix="")}));
    return x >= 0.0 ? 1.0 - e : e - 1.0;
}}""",
    "kd_erf_d": """double kd_erf_d(double x) {
    double z = abs(x);
    if (isnan(x) || z == 0.0LF) return x;  // (the series' sum of -0.0 and 0.0 terms would lose -0.0's sign)
    if (z < 2.0LF) {
        double s = x * x, term = x, sum = x;
        for (int n = 1; n < 48; n++) { term *= -s / double(n); sum += term / double(2 * n + 1); }
        return sum * 1.1283791670955126LF;
    }
    if (z > 6.0LF) return x > 0.0LF ? 1.0LF : -1.0LF;
    double k = z;
    for (int n = 60; n >= 1; n--) k = z + (0.5LF * double(n)) / k;
    double e = kd_exp_d(-z * z) / k * 0.5641895835477563LF;
    return x > 0.0LF ? 1.0LF - e : e - 1.0LF;
}""",
}
