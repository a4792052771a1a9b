"""float32 ``pow`` through float64, on devices that have float64.

NumPy's float32 ``power`` (C's ``powf``) is within an ulp. The float helper ``kd_pow_f`` computes
``exp2(b * log2|a|)`` with the device's ``exp2`` and ``log2``, whose errors the product scales (up to 7 ulp at
``x ** 1.5`` on lavapipe), and whole exponents by repeated multiplication (about an ulp a step). The double helper
``kd_pow_d`` is within an ulp of float64, so its result rounded to float32 is float32's correctly rounded power
but in rare near-ties. Where the device has float64, a program's ``kd_pow_f`` becomes that: a prototype of
``kd_pow_d`` before it, and the float64 helpers the program lacks added before ``main`` (after every helper it
has, so each one's own helpers come first). Devices without float64 keep the float helper.

Example:
    >>> from kdsl.codegen.helpers import needed
    >>> src = "\\n".join(needed("kd_pow_f(x, y)")) + "\\nvoid main() {}\\n"
    >>> wide = rewrite(src)
    >>> "float(kd_pow_d(double(a), double(b)))" in wide, wide.index("void main") > wide.index("kd_loghl_d(double")
    (True, True)
"""

from __future__ import annotations

from kdsl.codegen.helpers import LIBRARY, needed
from kdsl.codegen.precise import exact

_PORTABLE = LIBRARY["kd_pow_f"]
_DOUBLE = needed("kd_pow_d(a, b)")  # kd_pow_d and the helpers it calls, each after those it calls
_PROTOTYPE = LIBRARY["kd_pow_d"].split("{", 1)[0].strip() + ";"
_WIDE = exact("float kd_pow_f(float a, float b) {\n    return float(kd_pow_d(double(a), double(b)));\n}")


def rewrite(source: str) -> str:
    """``source`` with ``kd_pow_f`` computed in float64 (unchanged when it has no ``kd_pow_f``)."""
    if _PORTABLE not in source:
        return source
    missing = "\n".join(d for d in _DOUBLE if d not in source)
    source = source.replace(_PORTABLE, f"{_PROTOTYPE}\n{_WIDE}")
    at = source.index("void main(")
    return f"{source[:at]}{missing}\n{source[at:]}"
