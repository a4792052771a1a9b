"""The float16 conversions every kernel uses: a float32 value rounded to float16 (``kd_half_f``), to float16's bits
(``kd_f16bits_f``) and back (``kd_f16val_u``), by arithmetic or, where a probe shows them exact, by the hardware
conversions; and a float64 value rounded to float32 (``kd_single_d``, the same construction one size up:
``c = 2^(e + 29)``, ``e >= -126``, inf from ``2^128 - 2^103``; the float64 -> float32 cast is
``float(kd_single_d(x))``, because the H200's driver also dropped ``double(float(x))`` round trips inside a
kernel).

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
  trip the compiler cannot see through does round: :data:`HARDWARE`'s puts a value only known at run time
  between the two conversions (``gl_NumWorkGroups.x >> 31``: 0, as no dispatch has 2^31 workgroups in x). Where
  a probe kernel shows that it rounds every float32 as NumPy does (:mod:`kdsl.engine.half_probe`: an H200 and
  lavapipe do), programs get that body (:func:`rewrite`): MiniLM's float16 forward on the H200 took 2.59 ms of
  GPU time with it against 2.99 with the arithmetic one, whose two dependent additions and exponent
  arithmetic sit on every float16 intermediate's path;
* integer operations on the bits (``kd_f16val_u(kd_f16bits_f(x))``, about 30 operations, the portable loads
  and stores of elementwise kernels, which keep NaN payloads and signs): exact everywhere, but MiniLM's float16
  forward on the H200 took 6.65 ms with them against 4.45 ms with this body. Their hardware bodies (NaNs still
  by their bits) replace them where the probe passes them too.

Example:
    >>> ROUNDING.split("{")[0].strip()
    'float kd_half_f(float x)'
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

# A float value -> the bits of the nearest float16 (ties to even; NaN keeps its sign and the top of its payload,
# as NumPy's conversion), by integer operations only: GPUs' conversions may quiet NaNs, drop their sign and
# flush subnormals (NVIDIA's turned every half NaN into 0x7fff). Exact on every half value.
NARROWING = """uint kd_f16bits_f(float x) {
    uint u = floatBitsToUint(x);
    uint s = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
    if (a > 0x7f800000u) return s | 0x7c00u | max((a >> 13) & 0x3ffu, 1u);
    if (a >= 0x477ff000u) return s | 0x7c00u;  // 65520 and up (inf included) round to inf
    uint h, rem, tie;
    if (a >= 0x38800000u) {  // a normal half: rebias the exponent, round off 13 bits
        h = (a - 0x38000000u) >> 13; rem = a & 0x1fffu; tie = 0x1000u;
    } else {
        if (a <= 0x33000000u) return s;  // at most half the smallest subnormal: +-0
        uint shift = 126u - (a >> 23);  // 14..24: the subnormal's units of 2**-24
        uint m = (a & 0x7fffffu) | 0x800000u;
        h = m >> shift; rem = m & ((1u << shift) - 1u); tie = 1u << (shift - 1u);
    }
    return s | (h + ((rem > tie || (rem == tie && (h & 1u) != 0u)) ? 1u : 0u));
}"""

# float16 bits -> the float of the same value, by integer operations only (a half subnormal is a normal float)
WIDENING = """float kd_f16val_u(uint h) {
    uint s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 31u) return uintBitsToFloat(s | 0x7f800000u | (m << 13));
    if (e != 0u) return uintBitsToFloat(s | ((e + 112u) << 23) | (m << 13));
    if (m == 0u) return uintBitsToFloat(s);
    int p = findMSB(m);  // m * 2**-24 = 1.f * 2**(p - 24)
    return uintBitsToFloat(s | (uint(p + 103) << 23) | ((m << uint(23 - p)) & 0x7fffffu));
}"""

# The same three by the hardware conversions, NaNs still by their bits (where the device's probe passes them).
# Both values are computed and one is selected: on an H200 a branch around the conversion made MiniLM's float16
# layer norms take 0.018 ms against 0.014.
HARDWARE = {
    "round": """float kd_half_f(float x) {
    // the opaque 0 keeps the compiler from dropping the round trip (module docstring)
    float r = unpackHalf2x16(packHalf2x16(vec2(x, 0.0)) ^ (gl_NumWorkGroups.x >> 31u)).x;
    return isnan(x) ? x : r;
}""",
    "narrow": """uint kd_f16bits_f(float x) {
    uint u = floatBitsToUint(x);
    uint nan = ((u >> 16) & 0x8000u) | 0x7c00u | max((u >> 13) & 0x3ffu, 1u);
    return isnan(x) ? nan : packHalf2x16(vec2(x, 0.0)) & 0xffffu;
}""",
    "widen": """float kd_f16val_u(uint h) {
    float nan = uintBitsToFloat(((h & 0x8000u) << 16) | 0x7f800000u | ((h & 0x3ffu) << 13));
    return (h & 0x7fffu) > 0x7c00u ? nan : unpackHalf2x16(h).x;
}"""}

PORTABLE = {"round": ROUNDING, "narrow": NARROWING, "widen": WIDENING}
"""The portable body of each conversion the probe checks (:mod:`kdsl.engine.half_probe`)."""

_SWAPS = {name: (exact(PORTABLE[name]), exact(HARDWARE[name])) for name in PORTABLE}  # as programs hold them


def rewrite(source: str, conversions: frozenset[str]) -> str:
    """``source`` with the hardware body of each conversion in ``conversions`` (those the device's probe passed:
    ``"round"``, ``"narrow"``, ``"widen"``) it holds; the others keep their portable bodies.

    >>> src = "y = kd_half_f(x); " + exact(ROUNDING)
    >>> "packHalf2x16" in rewrite(src, frozenset({"round"})), rewrite(src, frozenset()) == src
    (True, True)
    """
    for name in conversions:
        portable, fast = _SWAPS[name]
        source = source.replace(portable, fast)
    return source


def holds_one(source: str) -> bool:
    """Whether ``source`` holds a portable float16 conversion (only those kernels need the probe's answer)."""
    return any(portable in source for portable, _ in _SWAPS.values())


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
