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

The helpers are templates over the component type (:mod:`kdsl.codegen.complex_elementary`,
:mod:`kdsl.codegen.complex_inverse`; :func:`expand` fills them in) and are merged into
:data:`kdsl.codegen.helpers.LIBRARY` (a shader gets only those its body names). This module imports no other
helper library (helpers imports it).

Example:
    >>> from kdsl import dtype as dt
    >>> render("mul", dt.complex64, [dt.complex64, dt.complex64], ["a", "b"])
    'kd_cmul_f(a, b)'
    >>> render("abs", dt.float64, [dt.complex128], ["z"]), render("real", dt.float32, [dt.complex64], ["z"])
    ('kd_cabs_d(z)', '(z).x')
"""

from __future__ import annotations

from kdsl import dtype as dt
from kdsl.codegen import complex_elementary, complex_inverse, complex_order
from kdsl.codegen.precise import exact
from kdsl.dtype import promotion

# Per component type: GLSL type names and the real functions the templates call.
_TYPES = {
    "f": {"CT_": "vec2", "RT_": "float", "FEXP(": "kd_exp_f(", "FLOG(": "kd_log_f(", "FSIN(": "kd_sin_f(",
          "FCOS(": "kd_cos_f(",
          "FATAN2(": "kd_atan2_f(", "FDIV(": "kd_div_f(", "FLOG1P(": "kd_log1p_f(", "FSINH(": "kd_rsinh_f(",
          "FCOSH(": "kd_rcosh_f(", "FCOPYSIGN(": "kd_copysign_f(",
          "FTANH(": "kd_rtanh_f(", "BIGEXP": "80.0", "BIGTANH": "9.0", "SPLIT": "4097.0",
          "QUARTERMAX": "8.5e37", "FEXPM1(": "kd_expm1_f(", "EPS_": "1.1920929e-7", "BIGASIN": "1.0e6",
          "BIGATANH": "1.0e18", "LN2_": "0.6931472", "PIO2_": "1.5707964", "LOG2E_": "1.442695",
          "LOG10E_": "0.4342945"},
    "d": {"CT_": "dvec2", "RT_": "double", "FEXP(": "kd_exp_d(", "FLOG(": "kd_log_d(", "FSIN(": "kd_sin_d(",
          "FCOS(": "kd_cos_d(", "FATAN2(": "kd_atan2_d(", "FDIV(": "kd_div_d(", "FLOG1P(": "kd_log1p_d(",
          "FSINH(": "kd_fdsinh_d(", "FCOSH(": "kd_fdcosh_d(", "FCOPYSIGN(": "kd_copysign_d(",
          "FTANH(": "kd_tanh_d(", "BIGEXP": "700.0LF", "BIGTANH": "20.0LF", "SPLIT": "134217729.0LF",
          "QUARTERMAX": "4.4e307LF", "FEXPM1(": "kd_expm1_d(", "EPS_": "2.220446049250313e-16LF",
          "BIGASIN": "1.0e12LF", "BIGATANH": "1.0e150LF", "LN2_": "0.6931471805599453LF",
          "PIO2_": "1.5707963267948966LF", "LOG2E_": "1.4426950408889634LF", "LOG10E_": "0.4342944819032518LF"},
}
_INF = "RT_(uintBitsToFloat(0x7f800000u))"
_NAN = "RT_(uintBitsToFloat(0x7fc00000u))"

# float32 sinh, cosh and tanh of the components: expm1 near 0 (e**x - e**-x loses the relative accuracy there),
# and e**|x| / 2 as one exp with the halving in its power-of-two scale beyond (sinh(89) is finite in float32,
# exp(89) is not; exp(x - ln 2) would round x - ln 2): kdsl.codegen.float32_exp_log's kd_exps_f.
_FLOAT_ONLY = {
    "kd_div_d": "double kd_div_d(double a, double b) { return a / b; }",
    "kd_rsinh_f": """float kd_rsinh_f(float x) {
    float a = abs(x);
    float r;
    if (a < 1.0) { float t = kd_expm1_f(a); r = 0.5 * (t + t / (t + 1.0)); }
    else { float h = kd_exps_f(a, -1); r = h - 0.25 / h; }
    return x == 0.0 ? x : kd_copysign_f(r, x);
}""",
    # t / (t + 2) with t = expm1(2|x|): no cancellation anywhere; t + 2 = d + de exactly (Fast2Sum while t <= 2),
    # the quotient corrected for de. |x| is capped at 10 (tanh rounds to 1 past 9.1).
    "kd_rtanh_f": """float kd_rtanh_f(float x) {
    float a = abs(x);
    if (isnan(x) || a == 0.0) return x;
    float t = kd_expm1_f(2.0 * min(a, 10.0));
    float d = t + 2.0;
    float q = kd_div_f(t, d);  // IEEE's quotient: NVIDIA's / is up to 2 ulp off, NumPy's bound is 2
    float de = t <= 2.0 ? (2.0 - d) + t : 0.0;
    return kd_copysign_f(q - q * (de / d), x);
}""",
    "kd_rcosh_f": """float kd_rcosh_f(float x) {
    float h = kd_exps_f(abs(x), -1);
    return h + 0.25 / h;
}""",
}


def expand(template: str, s: str) -> str:
    """``template`` with its placeholders filled for component type ``s`` (``"f"``: float, ``"d"``: double)."""
    out = template.replace("INF_", _INF).replace("NAN_", _NAN).replace("_S(", f"_{s}(")
    for token, text in sorted(_TYPES[s].items(), key=lambda kv: -len(kv[0])):  # FCOSH( before FCOS(
        out = out.replace(token, text)
    return out


def _library() -> dict[str, str]:
    """Every helper for both component types, with the float-only real helpers the float ones call."""
    lib = dict(_FLOAT_ONLY)
    for s in ("f", "d"):
        templates = complex_elementary.TEMPLATES | complex_inverse.TEMPLATES | complex_order.TEMPLATES
        for name, template in templates.items():
            lib[f"kd_{name}_{s}"] = expand(template, s)
    return {name: exact(code) for name, code in lib.items()}


LIBRARY = _library()

_HELPER = {"mul": "cmul", "div": "cdiv", "pow": "cpow", "exp": "cexp", "log": "clog", "sqrt": "csqrt",
           "sin": "csin", "cos": "ccos", "tanh": "ctanh", "sign": "csign", "tan": "ctan", "sinh": "csinh",
           "cosh": "ccosh", "arcsin": "casin", "arccos": "cacos", "arctan": "catan", "arcsinh": "casinh",
           "arccosh": "cacosh", "arctanh": "catanh", "log1p": "clog1p", "expm1": "cexpm1", "exp2": "cexp2",
           "log2": "clog2", "log10": "clog10", "lt": "clt", "le": "cle", "gt": "cgt", "ge": "cge",
           "maximum": "cmax", "minimum": "cmin"}


# the other ops' GLSL: {0}, {1} the operands, {c} the complex compute type (vec2/dvec2), {s} its helpers' suffix
_TEMPLATES = {
    "add": "({0} + {1})", "sub": "({0} - {1})", "neg": "(-{0})",
    "square": "kd_cmul_{s}({0}, {0})", "reciprocal": "kd_crecip_{s}({0})", "abs": "kd_cabs_{s}({0})",
    "conj": "{c}(({0}).x, -({0}).y)", "real": "({0}).x", "imag": "({0}).y",
    "angle": "kd_atan2_{s}(({0}).y, ({0}).x)",
    "eq": "all(equal({0}, {1}))", "ne": "any(notEqual({0}, {1}))",
    "isnan": "any(isnan({0}))", "isinf": "any(isinf({0}))", "isfinite": "!(any(isnan({0})) || any(isinf({0})))",
}


def render(name: str, out: dt.DType, ins: list[dt.DType], a: list[str]) -> str:
    """GLSL of op ``name`` with complex operands (or a complex result) ``a`` of dtypes ``ins``."""
    t = next((d for d in ins if d.kind == "c"), out)
    c, s = t.glsl_compute, "d" if t.glsl_compute == "dvec2" else "f"
    if name in _HELPER:
        return f"kd_{_HELPER[name]}_{s}({', '.join(a)})"
    if name in _TEMPLATES:
        return _TEMPLATES[name].format(*a, c=c, s=s)
    if name == "complex":  # two components -> one complex value
        return f"{out.glsl_compute}({a[0]}, {a[1]})"
    raise promotion.complex_error(name, t)


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

