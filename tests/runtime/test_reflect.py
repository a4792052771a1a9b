"""SPIR-V reflection, checked against shaders whose interface we wrote ourselves."""

import struct

import pytest

from kdsl.runtime.compiler import compile_source
from kdsl.runtime.reflect import ReflectionError, reflect

HEADER = "#version 450\n#extension GL_EXT_shader_explicit_arithmetic_types : require\n"


def shader(body: str) -> bytes:
    return compile_source(HEADER + body)


def test_bindings_kinds_dtypes_and_access():
    info = reflect(shader("""
layout(local_size_x = 8) in;
layout(set = 0, binding = 2) readonly buffer A { float a[]; };
layout(set = 0, binding = 0) buffer B { int b[]; };
layout(set = 0, binding = 1, r32f) uniform image2D img;
layout(set = 0, binding = 3) uniform U { vec4 u; };
layout(set = 0, binding = 4) writeonly buffer C { uint c[]; };
layout(set = 0, binding = 5) buffer D { uint n; double d[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    b[i] = int(a[i] + u.x + imageLoad(img, ivec2(0)).x + float(d[0]) + float(n));
    c[i] = 1u;
}"""))
    got = [(b.binding, b.kind, b.dtype, b.readonly, b.writeonly) for b in info.bindings]
    assert got == [(0, "storage_buffer", "int32", False, False),
                   (1, "storage_image", "float32", False, False),
                   (2, "storage_buffer", "float32", True, False),
                   (3, "uniform_buffer", "float32", True, False),
                   (4, "storage_buffer", "uint32", False, True),
                   (5, "storage_buffer", "float64", False, False)]
    assert [b.name for b in info.bindings][:3] == ["B", "img", "A"]


def test_small_and_wide_element_types():
    info = reflect(shader("""
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 1) in;
layout(binding = 0) buffer A { uint8_t a[]; };
layout(binding = 1) buffer B { float16_t b[]; };
layout(binding = 2) buffer C { int64_t c[]; };
layout(binding = 3) buffer D { int16_t d[]; };
void main() { a[0] = uint8_t(1); b[0] = float16_t(1); c[0] = 1l; d[0] = int16_t(2); }"""))
    assert [b.dtype for b in info.bindings] == ["uint8", "float16", "int64", "int16"]


def test_push_constant_block_layout():
    info = reflect(shader("""
layout(local_size_x = 1) in;
layout(binding = 0) buffer A { float a[]; };
layout(push_constant) uniform P { double d; float f; uint n; vec2 v; int k[3]; } pc;
void main() { a[0] = float(pc.d) + pc.f + float(pc.n) + pc.v.y + float(pc.k[2]); }"""))
    got = [(m.name, m.offset, m.type.kind, m.type.dtype, m.type.count, m.type.size)
           for m in info.push_members]
    assert got == [("d", 0, "scalar", "float64", 1, 8), ("f", 8, "scalar", "float32", 1, 4),
                   ("n", 12, "scalar", "uint32", 1, 4), ("v", 16, "vector", "float32", 2, 8),
                   ("k", 24, "array", "int32", 3, 12)]
    assert info.push_size == 36


def test_no_push_constants_and_no_bindings():
    info = reflect(shader("layout(local_size_x = 4, local_size_y = 2, local_size_z = 3) in;\nvoid main() {}"))
    assert info.bindings == [] and info.push_size == 0 and info.push_members == []
    assert info.local_size == (4, 2, 3) and info.local_size_spec_ids == (None, None, None)
    assert info.entry_point == "main"


def test_spec_constants_and_local_size_ids():
    info = reflect(shader("""
layout(local_size_x_id = 3, local_size_y = 2, local_size_z_id = 4) in;
layout(constant_id = 0) const float SCALE = 2.5;
layout(constant_id = 1) const int N = -7;
layout(constant_id = 2) const bool FLAG = true;
layout(constant_id = 5) const uint M = 9;
layout(binding = 0) buffer A { float a[]; };
void main() { a[0] = SCALE + float(N) + (FLAG ? 1.0 : 0.0) + float(M); }"""))
    specs = {s.id: (s.name, s.dtype, s.default) for s in info.spec_constants}
    assert specs[0] == ("SCALE", "float32", 2.5)
    assert specs[1] == ("N", "int32", -7)
    assert specs[2] == ("FLAG", "bool", True)
    assert specs[5] == ("M", "uint32", 9)
    assert specs[3][1:] == ("uint32", 1) and specs[4][1:] == ("uint32", 1)
    assert info.local_size == (1, 2, 1)
    assert info.local_size_spec_ids == (3, None, 4)


def test_not_spirv_raises():
    with pytest.raises(ReflectionError, match="magic"):
        reflect(b"\0" * 20)
    with pytest.raises(ReflectionError, match="32-bit words"):
        reflect(b"\x03\x02\x23\x07\0")
    with pytest.raises(TypeError, match="SPIR-V bytes"):
        reflect("not bytes")


def test_truncated_module_raises():
    spirv = shader("layout(local_size_x = 1) in;\nvoid main() {}")
    # Keep the header and the first word of an instruction that claims 5 words.
    cut = spirv[:20] + struct.pack("<I", (5 << 16) | 17)
    with pytest.raises(ReflectionError, match="truncated"):
        reflect(cut)


def test_missing_entry_point_name():
    spirv = shader("layout(local_size_x = 1) in;\nvoid main() {}")
    with pytest.raises(ReflectionError, match="'other'"):
        reflect(spirv, entry_point="other")
