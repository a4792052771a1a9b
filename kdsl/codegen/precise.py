"""``precise`` for GLSL helper functions: every float value they compute rounded as written.

GPU compilers contract ``a * b + c`` into a fused multiply-add and may reassociate (NVIDIA's does; Mesa's
lavapipe does not): that changes the last bits, breaks error-free transformations (Dekker's products,
``fma(-a, r, b)`` keeps the rounding residue that Smith's complex division needs to cancel to an exact 0) and
makes one helper round differently in two kernels. GLSL's ``precise`` (SPIR-V ``NoContraction``) forbids it
for the values it qualifies and everything that feeds them *inside one function*, so each helper qualifies its
float locals and its float return value. NumPy rounds every operation: so do kdsl's elementwise kernels.
Matmul and reduction accumulators are not helpers and keep their fused multiply-adds.

Example:
    >>> print(exact("vec2 kd_f_f(vec2 a) {\\n    float r = a.x * a.y + 1.0;\\n    return vec2(r, a.x * r - a.y);\\n}"))
    precise vec2 kd_f_f(vec2 a) {
        precise float r = a.x * a.y + 1.0;
        return vec2(r, a.x * r - a.y);
    }
"""

from __future__ import annotations

import re

_FLOAT_TYPES = r"(?:float|double|vec[234]|dvec[234])"
_SIGNATURE = re.compile(rf"^({_FLOAT_TYPES} kd_\w+\()")
_LOCAL = re.compile(rf"^(\s+)({_FLOAT_TYPES} )", flags=re.M)


def exact(text: str) -> str:
    """``text`` (one helper function) with its float return type and float locals declared ``precise``
    (``precise`` on the return type covers every value its ``return`` statements compute)."""
    return _LOCAL.sub(r"\1precise \2", _SIGNATURE.sub(r"precise \1", text))
