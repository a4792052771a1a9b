"""float32 exponentials, logarithms, hyperbolic and inverse trigonometric functions through float64, where the
device has float64.

NumPy's float32 ``exp``, ``log``, ``sinh``, ``arcsin``, ... are within 1 to 4 ulp (the bounds of its accuracy tests,
``numpy/_core/tests/test_umath_accuracy.py``). Drivers' float ``exp``/``log``/``log2`` are not: lavapipe's ``log``
is ``log2(x) * ln 2``, with absolute accuracy only (``log(0.99999994)`` is 73 % off), its ``log2`` reads a subnormal
as ``2**-127`` (``log2(1e-45)`` is -127, not -149), and kdsl's float helpers built on them (``kd_rsinh_f``,
``kd_log1p_f``, ``kd_asinh_f``, ...) are 3 ulp off at some arguments, ``arcsin`` 2.6. The float64 helpers of
:mod:`kdsl.codegen.fp64` are within 2 ulp of float64, so their results rounded to float32 are float32's correctly
rounded values but in rare near-ties. Each such float32 ufunc renders as a wrapper ``kd_w<name>_f`` whose portable
body is the float code; where the device has float64, a program's wrapper becomes the float64 helper rounded to
float32 (by ``kd_single_d``: a driver may drop ``float(double)``'s rounding), a prototype of that helper before it
and the float64 helpers the program lacks added before ``main``. Devices without float64 keep the float code.
(``pow``'s wrapper is :mod:`kdsl.codegen.wide_pow`.)

Example:
    >>> from kdsl.codegen.helpers import needed
    >>> src = "\\n".join(needed("kd_wlog_f(x)")) + "\\nvoid main() {}\\n"
    >>> wide = rewrite(src)
    >>> "float(kd_single_d(kd_log_d(double(x))))" in wide, wide.index("void main") > wide.index("kd_log_d(double")
    (True, True)
    >>> rewrite("void main() {}\\n") == "void main() {}\\n"
    True
"""

from __future__ import annotations

from kdsl.codegen.precise import exact

_NAN = "uintBitsToFloat(0x7fc00000u)"
# ufunc -> (float32 GLSL of x on devices without float64, float64 helper computing it).
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


def rewrite(source: str) -> str:
    """``source`` with every wrapper it has computed in float64 (unchanged when it has none)."""
    from kdsl.codegen import helpers  # (not at the top: helpers imports this module's LIBRARY)

    ALL, needed = helpers.LIBRARY, helpers.needed

    for name, (_, double) in FUNCS.items():
        portable = ALL[f"kd_w{name}_f"]
        if portable not in source:
            continue
        prototype = "\n".join(ALL[h].split("{", 1)[0].strip() + ";" for h in (double, "kd_single_d"))
        wide = _wrapper(name, f"float(kd_single_d({double}(double(x))))")
        source = source.replace(portable, f"{prototype}\n{wide}")
        missing = "\n".join(d for d in needed(f"{double}(x); kd_single_d(x)") if d not in source)
        at = source.index("void main(")
        source = f"{source[:at]}{missing}\n{source[at:]}"
    return source
