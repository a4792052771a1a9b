"""float32 exponentials, logarithms, hyperbolic and inverse trigonometric functions: one wrapper function
``kd_w<name>_f`` each, whose body is the float code (GLSL's built-in or kdsl's float form on it).

The wrappers were made so that a program could compute them through kdsl's float64 helpers instead
(:mod:`kdsl.codegen.fp64`, rounded to float32), which gives NumPy's float32 validation sets to 0 ulp where the
float code has only the precision docs/kernels.md states (``log(0.99999994)`` is 73 % off on lavapipe). That
route was measured too slow to apply (an H200: 2^26 float32 ``exp`` 0.38 ms against 0.17; lavapipe compiled
such kernels several times slower; benchmarks/RESULTS.md), so programs use these bodies as they are.

Example:
    >>> call("log", "x"), "log(x)" in LIBRARY["kd_wlog_f"]
    ('kd_wlog_f(x)', True)
"""

from __future__ import annotations

from kdsl.codegen.precise import exact

_NAN = "uintBitsToFloat(0x7fc00000u)"
# ufunc -> (float32 GLSL of x, the float64 helper the measured float64 route used).
FUNCS = {
    "exp": ("exp(x)", "kd_exp_d"), "exp2": ("exp2(x)", "kd_exp2_d"), "expm1": ("kd_expm1_f(x)", "kd_expm1_d"),
    "log": ("log(x)", "kd_log_d"), "log2": ("log2(x)", "kd_log2_d"),
    "log10": ("(log2(x) * 0.30102999566398120)", "kd_log10_d"), "log1p": ("kd_log1p_f(x)", "kd_log1p_d"),
    "sinh": ("kd_rsinh_f(x)", "kd_sinh_d"), "cosh": ("kd_rcosh_f(x)", "kd_cosh_d"),
    "tanh": ("kd_rtanh_f(x)", "kd_tanh_d"), "arcsinh": ("kd_asinh_f(x)", "kd_asinh_d"),
    "arccosh": ("kd_acosh_f(x)", "kd_acosh_d"), "arctanh": ("kd_atanh_f(x)", "kd_atanh_d"),
    # lavapipe's asin/acos are ~3e-4 off: forms on kdsl's atan (2.6 ulp; NaN outside [-1, 1], where GLSL's are
    # undefined)
    "arcsin": (f"(abs(x) <= 1.0 ? kd_atan2_f(x, sqrt((1.0 - x) * (1.0 + x))) : {_NAN})", "kd_asin_d"),
    "arccos": (f"(abs(x) <= 1.0 ? kd_atan2_f(sqrt((1.0 - x) * (1.0 + x)), x) : {_NAN})", "kd_acos_d"),
    "arctan": ("kd_atan_f(x)", "kd_atan_d"),
}


def call(name: str, x: str) -> str:
    """The float32 GLSL of ufunc ``name`` (a key of :data:`FUNCS`) of ``x``: its wrapper's call."""
    return f"kd_w{name}_f({x})"


def _wrapper(name: str, body: str) -> str:
    return exact(f"float kd_w{name}_f(float x) {{\n    return {body};\n}}")


LIBRARY = {f"kd_w{name}_f": _wrapper(name, portable) for name, (portable, _) in FUNCS.items()}

