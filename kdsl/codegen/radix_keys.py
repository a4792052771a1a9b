"""The order-preserving keys of the LSD radix sort (kdsl/codegen/radix.py), as GLSL: a value's raw bits
(one uint32 word, two for 64-bit dtypes, most significant first), the key derived from them, the 8-bit digit
a pass sorts by, and the value decoded back from its raw bits.

The key (:func:`key_from_raw`): signed ints flip the sign bit; floats flip every bit when negative and set the
sign bit otherwise, with -0.0 read as +0.0 (equal keys keep their order) and every NaN as the largest key
(NaNs last, as NumPy); a descending sort inverts the key bits. The records keep the raw bits, not the key, so
a sort's output decodes them (:func:`decode_raw`) with the sign of each zero and each NaN's payload intact.

Example:
    >>> from kdsl import dtype as dt
    >>> raw_lines(dt.int8, "x", "r")
    (['uint r0 = uint(x) & 255u;'], ['r0'])
    >>> key_from_raw(dt.int8, ["r0"], "k", False)
    (['uint k0 = r0 ^ 128u;'], ['k0'])
    >>> radix_passes(dt.float32), radix_passes(dt.uint16), radix_passes(dt.float64), radix_passes(dt.bool_)
    (4, 2, 8, 1)
"""

from __future__ import annotations

from kdsl import dtype as dt
from kdsl.dtype import promotion

BITS = 8  # bits per pass
DIGITS = 1 << BITS


def key_bits(d: dt.DType) -> int:
    """Significant bits of ``d``'s radix key."""
    if d is dt.bool_:
        return 1
    return d.itemsize * 8


def raw_words(d: dt.DType) -> int:
    """uint32 words of ``d``'s raw bits in a record."""
    return 2 if d.itemsize == 8 else 1


def radix_passes(d: dt.DType) -> int:
    """Passes of :data:`BITS` bits that sort keys of ``d``."""
    return -(-key_bits(d) // BITS)


def raw_lines(d: dt.DType, v: str, name: str) -> tuple[list[str], list[str]]:
    """GLSL lines putting the raw bits of compute-type value ``v`` into ``name0`` (``name1``: the low word of
    a 64-bit value); returns (lines, the word names, most significant first)."""
    r0, r1 = f"{name}0", f"{name}1"
    c = d.glsl_compute
    if d is dt.bool_:
        return [f"uint {r0} = {v} ? 1u : 0u;"], [r0]
    if d.name == "float16":  # the value is exact in float32: its half-precision bits
        return [f"uint {r0} = packHalf2x16(vec2({v}, 0.0)) & 65535u;"], [r0]
    if c == "float":
        return [f"uint {r0} = floatBitsToUint({v});"], [r0]
    if c == "double":
        p = f"{name}p"
        return [f"uvec2 {p} = unpackDouble2x32({v});", f"uint {r0} = {p}.y;", f"uint {r1} = {p}.x;"], [r0, r1]
    if c in ("int64_t", "uint64_t"):
        p = f"{name}p"
        return [f"uint64_t {p} = uint64_t({v});", f"uint {r0} = uint({p} >> 32);", f"uint {r1} = uint({p});"], \
            [r0, r1]
    if d.kind == "c":
        raise promotion.complex_error("sort", d)
    if c in ("int", "uint"):
        mask = f" & {(1 << key_bits(d)) - 1}u" if d.itemsize < 4 else ""
        return [f"uint {r0} = uint({v}){mask};"], [r0]
    raise TypeError(f"no sort key for dtype {d.name}")


def key_from_raw(d: dt.DType, raw: list[str], name: str, descending: bool) -> tuple[list[str], list[str]]:
    """GLSL lines computing the order-preserving key words ``name0`` (``name1``) from raw words ``raw``
    (see the module docstring); returns (lines, the key names, most significant first)."""
    k0, k1 = f"{name}0", f"{name}1"
    bits = key_bits(d)
    mask = (1 << bits) - 1 if bits < 32 else 0xFFFFFFFF
    r0 = raw[0]
    if d.kind == "f" and d.itemsize <= 4:
        sign, inf = (0x8000, 0x7C00) if d.itemsize == 2 else (0x80000000, 0x7F800000)
        u = f"{name}u"
        lines = [f"uint {u} = ({r0} & {sign - 1}u) == 0u ? 0u : {r0};",  # -0.0 sorts as +0.0
                 f"uint {k0} = ({u} & {sign - 1}u) > {inf}u ? {mask}u : "
                 f"(({u} & {sign}u) != 0u ? (~{u} & {mask}u) : ({u} | {sign}u));"]
    elif d.glsl_compute == "double":
        hi, lo, m, nan = f"{name}h", f"{name}l", f"{name}m", f"{name}n"
        lines = [f"uint {m} = {r0} & 0x7FFFFFFFu;",
                 f"bool {nan} = {m} > 0x7FF00000u || ({m} == 0x7FF00000u && {raw[1]} != 0u);",
                 f"uint {hi} = {r0}; uint {lo} = {raw[1]};",
                 f"if ({m} == 0u && {lo} == 0u) {hi} = 0u;",  # -0.0 sorts as +0.0
                 f"if (({hi} & 0x80000000u) != 0u) {{ {hi} = ~{hi}; {lo} = ~{lo}; }} else {hi} |= 0x80000000u;",
                 f"uint {k0} = {nan} ? 0xFFFFFFFFu : {hi};",
                 f"uint {k1} = {nan} ? 0xFFFFFFFFu : {lo};"]
    elif d.kind == "i":
        flip = 1 << (bits - 1) if bits < 64 else 1 << 31  # a 64-bit key: the sign is in the high word
        lines = [f"uint {k0} = {r0} ^ {flip}u;"]
        if bits == 64:
            lines.append(f"uint {k1} = {raw[1]};")
    else:  # unsigned ints and bool: the raw bits are the key
        lines = [f"uint {k0} = {r0};"] + ([f"uint {k1} = {raw[1]};"] if bits == 64 else [])
    names = [k0, k1][:raw_words(d)]
    if descending:
        lines += [f"{k} = ~{k} & {mask}u;" if bits < 32 else f"{k} = ~{k};" for k in names]
    return lines, names


def radix_key(d: dt.DType, v: str, name: str, descending: bool) -> tuple[list[str], list[str], int]:
    """GLSL lines computing the radix key of compute-type value ``v`` into ``name0`` (``name1``); returns
    (lines, the word names, most significant first, significant bits)."""
    raw, words = raw_lines(d, v, f"{name}r")
    lines, names = key_from_raw(d, words, name, descending)
    return raw + lines, names, key_bits(d)


def decode_raw(d: dt.DType, raw: list[str]) -> str:
    """The compute-type value whose raw bits are the words ``raw`` (the inverse of :func:`raw_lines`)."""
    c, r0 = d.glsl_compute, raw[0]
    if d is dt.bool_:
        return f"({r0} != 0u)"
    if d.name == "float16":
        return f"unpackHalf2x16({r0}).x"
    if c == "float":
        return f"uintBitsToFloat({r0})"
    if c == "double":
        return f"packDouble2x32(uvec2({raw[1]}, {r0}))"
    if c in ("int64_t", "uint64_t"):
        return f"{c}((uint64_t({r0}) << 32) | uint64_t({raw[1]}))"
    if c == "int":
        spare = 32 - key_bits(d)
        return f"(int({r0} << {spare}u) >> {spare})" if spare else f"int({r0})"
    return r0


def digit_function(d: dt.DType, descending: bool) -> str:
    """``uint kd_digit(uint r0[, uint r1], uint kr, uint shift)``: the 8-bit digit at ``shift`` of key word
    ``kr`` of the record with raw words ``r0`` (``r1``)."""
    raw = [f"r{x}" for x in range(raw_words(d))]
    lines, names = key_from_raw(d, raw, "k", descending)
    word = names[0] if len(names) == 1 else f"(kr == 0u ? {names[0]} : {names[1]})"
    args = ", ".join(f"uint {r}" for r in raw)
    return (f"uint kd_digit({args}, uint kr, uint shift) {{ " + " ".join(lines)
            + f" return ({word} >> shift) & {DIGITS - 1}u; }}")
