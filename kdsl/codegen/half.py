"""float16 rounding in hardware, on devices that round float16 conversions to nearest even.

NumPy computes each float16 operation in float32 and rounds the result to float16, so every generated kernel
rounds every float16 intermediate through ``kd_half_f`` (:mod:`kdsl.codegen.helpers`). Its portable body does
the rounding in integer arithmetic (about 30 operations, exact on any device), because Vulkan leaves the
rounding of a float -> float16 conversion to the implementation. On a device whose float controls offer
``RoundingModeRTE`` and ``DenormPreserve`` for 16-bit floats and which has float16 arithmetic types
(``Device.native_half``), one hardware conversion gives the same result: the kernel's SPIR-V then asks for
both modes (:mod:`kdsl.runtime.float_controls`). A NaN is passed through unconverted, so its float32 payload
and sign reach the store's exact packing as before. On an H200 this made MiniLM's float16 GELU, layer norms
and the matmul operands that fuse them several times cheaper.

Example:
    >>> src = "#version 450\\nprecise float kd_half_f(float x) { return kd_f16val_u(kd_f16bits_f(x)); }\\n"
    >>> print(native(src))
    #version 450
    #extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
    precise float kd_half_f(float x) { return isnan(x) ? x : float(float16_t(x)); }
    <BLANKLINE>
    >>> native("#version 450\\nvoid main() {}\\n") == "#version 450\\nvoid main() {}\\n"
    True
"""

from __future__ import annotations

SOFTWARE = "float kd_half_f(float x) { return kd_f16val_u(kd_f16bits_f(x)); }"
NATIVE = "float kd_half_f(float x) { return isnan(x) ? x : float(float16_t(x)); }"
EXTENSION = "#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require\n"


def native(source: str) -> str:
    """``source`` with ``kd_half_f`` rounding through a hardware conversion (unchanged when it has none)."""
    if SOFTWARE not in source:
        return source
    out = source.replace(SOFTWARE, NATIVE)
    if EXTENSION not in out:
        version, rest = out.split("\n", 1)
        out = f"{version}\n{EXTENSION}{rest}"
    return out
