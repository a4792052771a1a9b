"""Float-to-integer conversions with x86's results, which NumPy's casts give there (``render_cast`` in
``codegen/ops.py`` calls them): GPUs' own conversions of NaN, infinities and out-of-range values differ by vendor."""

from __future__ import annotations


def _library() -> dict[str, str]:
    """float/double -> int, uint, int64, uint64 with x86's results, which NumPy's casts give there: a NaN, an
    infinity or a value out of the signed range becomes the type's lowest value (int32(nan) is -2**31, so
    int16 and uint8 take its low bits, 0); unsigned types also keep [2**(W-1), 2**W) and wrap small negatives,
    and give 0 from 2**W up. GPUs' own conversions of such values differ by vendor (lavapipe saturates, NVIDIA
    gives 0 for NaN), so every conversion goes through these."""
    lib: dict[str, str] = {}
    for s, t, lf in (("f", "float", ""), ("d", "double", "LF")):
        lib[f"kd_f2i_{s}"] = (f"int kd_f2i_{s}({t} x) {{ return abs(x) < 2147483648.0{lf} ? int(x) : "
                              "int(0x80000000u); }")
        lib[f"kd_f2u_{s}"] = (f"uint kd_f2u_{s}({t} x) {{ return x >= 4294967296.0{lf} ? 0u : "
                              f"x > -2147483648.0{lf} ? (x < 0.0{lf} ? uint(int(x)) : uint(x)) : 0x80000000u; }}")
        lib[f"kd_f2l_{s}"] = (f"int64_t kd_f2l_{s}({t} x) {{ return abs(x) < 9223372036854775808.0{lf} ? "
                              "int64_t(x) : int64_t(0x8000000000000000ul); }")
        lib[f"kd_f2ul_{s}"] = (f"uint64_t kd_f2ul_{s}({t} x) {{ return x >= 18446744073709551616.0{lf} ? 0ul : "
                               f"x > -9223372036854775808.0{lf} ? (x < 0.0{lf} ? uint64_t(int64_t(x)) : "
                               "uint64_t(x)) : 0x8000000000000000ul; }")
    return lib


LIBRARY = _library()
