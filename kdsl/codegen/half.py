"""float16 rounding of a float32 value by float32 arithmetic: the body of ``kd_half_f``.

NumPy computes each float16 operation in float32 and rounds the result to float16, so every generated kernel
rounds every float16 intermediate through ``kd_half_f`` (:mod:`kdsl.codegen.helpers`). It adds and subtracts
``c = 2^(e + 13)``, ``e`` the exponent of ``|x|`` (at least -14, float16's smallest normal one): the sum's last
bit is then float16's last bit for ``|x|``, and Vulkan's correctly rounded float32 addition rounds it to nearest
even, as a float16 conversion would (subnormals included: their ``c`` is ``2^-1``, a last bit of ``2^-24``).
``|x| >= 65520`` gives an infinity, the sign is put back by its bit (``-0.0`` stays ``-0.0``), and a NaN is
passed through, so its float32 payload and sign reach the store's exact packing.

Why not the alternatives:

* the hardware conversion ``float(float16_t(x))``: the H200's driver dropped it (an NVIDIA H200 left 1 048 451
  of 1 048 576 random values unrounded, and ``unpackHalf2x16(packHalf2x16(v))`` the same), so every fused
  float16 intermediate there was silently float32 (``(a * b) * 0.5`` gave 65504 where NumPy gives inf);
* integer operations on the bits (``kd_f16val_u(kd_f16bits_f(x))``, about 30 operations, still used by stores
  and by ``view``-exact paths): exact everywhere, but MiniLM's float16 forward on the H200 took 6.65 ms with
  them against 4.45 ms with this body.

Example:
    >>> ROUNDING.split("{")[0].strip()
    'float kd_half_f(float x)'
"""

from __future__ import annotations

ROUNDING = """float kd_half_f(float x) {
    if (isnan(x)) return x;
    float z = abs(x);
    if (z >= 65520.0) return uintBitsToFloat((floatBitsToUint(x) & 0x80000000u) | 0x7f800000u);
    float c = uintBitsToFloat(max(floatBitsToUint(z) & 0x7f800000u, 113u << 23) + (13u << 23));
    float r = (z + c) - c;
    return uintBitsToFloat(floatBitsToUint(r) | (floatBitsToUint(x) & 0x80000000u));
}"""
