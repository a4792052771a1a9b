"""Narrowing roundings by arithmetic: a float32 value to float16 (``kd_half_f``) and a float64 value to float32
(``kd_single_d``, the same construction one size up: ``c = 2^(e + 29)``, ``e >= -126``, inf from
``2^128 - 2^103``; the float64 -> float32 cast is ``float(kd_single_d(x))``, because the H200's driver also
dropped ``double(float(x))`` round trips inside a kernel).

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
  float16 intermediate there was silently float32 (``(a * b) * 0.5`` gave 65504 where NumPy gives inf). A round
  trip the compiler cannot see through does round: :data:`HARDWARE` puts a value only known at run time
  between the two conversions (``gl_NumWorkGroups.x >> 31``: 0, as no dispatch has 2^31 workgroups in x). Where
  a probe kernel shows that it rounds every float32 as NumPy does (:mod:`kdsl.engine.half_probe`: an H200 and
  lavapipe do), programs get that body (:func:`rewrite`): MiniLM's float16 forward on the H200 took 2.59 ms of
  GPU time with it against 2.99 with the arithmetic one, whose two dependent additions and exponent
  arithmetic sit on every float16 intermediate's path;
* integer operations on the bits (``kd_f16val_u(kd_f16bits_f(x))``, about 30 operations, still used by stores
  and by ``view``-exact paths): exact everywhere, but MiniLM's float16 forward on the H200 took 6.65 ms with
  them against 4.45 ms with this body.

Example:
    >>> ROUNDING.split("{")[0].strip()
    'float kd_half_f(float x)'
    >>> "packHalf2x16" in rewrite("y = kd_half_f(x);\n" + PORTABLE, True)
    True
"""

from __future__ import annotations

from kdsl.codegen.precise import exact

ROUNDING = """float kd_half_f(float x) {
    if (isnan(x)) return x;
    float z = abs(x);
    if (z >= 65520.0) return uintBitsToFloat((floatBitsToUint(x) & 0x80000000u) | 0x7f800000u);
    float c = uintBitsToFloat(max(floatBitsToUint(z) & 0x7f800000u, 113u << 23) + (13u << 23));
    float r = (z + c) - c;
    return uintBitsToFloat(floatBitsToUint(r) | (floatBitsToUint(x) & 0x80000000u));
}"""

HARDWARE = """float kd_half_f(float x) {
    if (isnan(x)) return x;
    // the opaque 0 keeps the compiler from dropping the round trip (module docstring)
    return unpackHalf2x16(packHalf2x16(vec2(x, 0.0)) ^ (gl_NumWorkGroups.x >> 31u)).x;
}"""

PORTABLE, FAST = exact(ROUNDING), exact(HARDWARE)
"""The two bodies as programs hold them (helpers are declared ``precise``: :func:`kdsl.codegen.precise.exact`)."""


def rewrite(source: str, hardware: bool) -> str:
    """``source`` with :data:`HARDWARE`'s body for ``kd_half_f`` where ``hardware`` (the device's probe passed)."""
    return source.replace(PORTABLE, FAST) if hardware else source


SINGLE = """double kd_single_d(double x) {
    if (isnan(x)) return x;
    double z = abs(x);
    uint sign = unpackDouble2x32(x).y & 0x80000000u;
    if (z >= 3.4028235677973366e38LF) return packDouble2x32(uvec2(0u, sign | 0x7ff00000u));
    double c = packDouble2x32(uvec2(0u, max(unpackDouble2x32(z).y & 0x7ff00000u, 897u << 20) + (29u << 20)));
    double r = (z + c) - c;
    uvec2 bits = unpackDouble2x32(r);
    return packDouble2x32(uvec2(bits.x, bits.y | sign));
}"""
