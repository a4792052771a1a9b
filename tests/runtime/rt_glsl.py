"""GLSL snippets and NumPy <-> GLSL type facts shared by the runtime tests.

Every shader the runtime tests dispatch is written here once, as a small function returning GLSL text, so a
test reads as "which kernel, which data, which NumPy oracle".

Example:
    >>> glsl_type(np.dtype(np.int8))
    'int8_t'
    >>> "GL_EXT_shader_8bit_storage" in extensions(np.dtype(np.uint8))
    True
"""

from __future__ import annotations

import numpy as np

import kdsl.kp as kp

# Every dtype the runtime's tensor_t keeps (kdsl extension of Kompute's five).
TENSOR_DTYPES = ["float32", "float64", "int32", "uint32", "bool", "int8", "uint8", "int16", "uint16",
                 "float16", "int64", "uint64"]

# GLSL element type of a NumPy dtype inside a storage buffer; bool is 1 byte, seen by shaders as uint8_t.
_GLSL_TYPES = {"float32": "float", "float64": "double", "int32": "int", "uint32": "uint", "bool": "uint8_t",
               "int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t", "uint16": "uint16_t",
               "float16": "float16_t", "int64": "int64_t", "uint64": "uint64_t"}

_EXT_8 = ["GL_EXT_shader_8bit_storage", "GL_EXT_shader_explicit_arithmetic_types_int8"]
_EXT_16I = ["GL_EXT_shader_16bit_storage", "GL_EXT_shader_explicit_arithmetic_types_int16"]
_EXT_16F = ["GL_EXT_shader_16bit_storage", "GL_EXT_shader_explicit_arithmetic_types_float16"]
_EXT_64 = ["GL_EXT_shader_explicit_arithmetic_types_int64"]
_EXTENSIONS = {"bool": _EXT_8, "int8": _EXT_8, "uint8": _EXT_8, "int16": _EXT_16I, "uint16": _EXT_16I,
               "float16": _EXT_16F, "int64": _EXT_64, "uint64": _EXT_64}

# Device features (names from get_device_properties()["features"]) a dtype needs in a storage buffer.
DTYPE_FEATURES = {"float64": {"float64"}, "int64": {"int64"}, "uint64": {"int64"},
                  "float16": {"float16", "storage_buffer_16bit"}, "int16": {"int16", "storage_buffer_16bit"},
                  "uint16": {"int16", "storage_buffer_16bit"}, "int8": {"int8", "storage_buffer_8bit"},
                  "uint8": {"int8", "storage_buffer_8bit"}, "bool": {"int8", "storage_buffer_8bit"}}


def features_for(dtype: np.dtype | str) -> set[str]:
    """The device features a tensor of ``dtype`` and arithmetic in it need (empty for 32-bit types)."""
    return DTYPE_FEATURES.get(np.dtype(dtype).name, set())


def glsl_type(dtype: np.dtype) -> str:
    """The GLSL scalar type a shader declares for a buffer of ``dtype``."""
    return _GLSL_TYPES[np.dtype(dtype).name]


def extensions(dtype: np.dtype) -> list[str]:
    """``#extension`` names a shader needs to read and compute in ``dtype``."""
    return _EXTENSIONS.get(np.dtype(dtype).name, [])


def header(*dtypes: np.dtype, local_size: tuple[int, int, int] = (1, 1, 1)) -> str:
    """``#version``, the extensions every dtype needs, and the local size declaration."""
    names = dict.fromkeys(e for d in dtypes for e in extensions(d))
    lines = ["#version 450"] + [f"#extension {e} : require" for e in names]
    x, y, z = local_size
    lines.append(f"layout(local_size_x = {x}, local_size_y = {y}, local_size_z = {z}) in;")
    return "\n".join(lines) + "\n"


def sample(dtype: np.dtype, n: int = 16) -> np.ndarray:
    """``n`` test values of ``dtype``: small signed values plus the type's extremes for integers."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return np.arange(n) % 3 == 0
    if dtype.kind == "f":
        return (np.arange(n) - n // 2).astype(dtype) * dtype.type(0.5)
    info = np.iinfo(dtype)
    values = np.arange(n, dtype=np.int64) + (0 if info.min == 0 else -n // 2)
    out = values.astype(dtype)
    out[0], out[-1] = info.min, info.max  # extremes make a wrong element width visible
    return out


def affine_kernel(dtype: np.dtype) -> str:
    """``out[i] = in[i] * 3 + 1`` in ``dtype`` (bool: ``out = 1 - in``). Binding 0 in, binding 1 out."""
    t = glsl_type(dtype)
    body = f"b[i] = {t}(1) - a[i];" if np.dtype(dtype) == np.bool_ else f"b[i] = a[i] * {t}(3) + {t}(1);"
    return header(dtype) + f"""
layout(set = 0, binding = 0) buffer A {{ {t} a[]; }};
layout(set = 0, binding = 1) buffer B {{ {t} b[]; }};
void main() {{
    uint i = gl_GlobalInvocationID.x;
    {body}
}}
"""


def affine_oracle(a: np.ndarray) -> np.ndarray:
    """NumPy's answer for :func:`affine_kernel` (integer arithmetic wraps, as on the GPU)."""
    if a.dtype == np.bool_:
        return ~a
    t = a.dtype.type
    return (a * t(3) + t(1)).astype(a.dtype)


def constants_kernel(spec: np.dtype, push: np.dtype, count: int = 2) -> str:
    """Copies ``count`` spec constants (ids 0..) into binding 0 and ``count`` push constants into binding 1."""
    s, p = glsl_type(spec), glsl_type(push)
    specs = "\n".join(f"layout(constant_id = {k}) const {s} s{k} = {s}(0);" for k in range(count))
    fields = " ".join(f"{p} p{k};" for k in range(count))
    stores = "\n    ".join(f"out_s[{k}] = s{k}; out_p[{k}] = p{k};" for k in range(count))
    return header(spec, push) + f"""
{specs}
layout(push_constant) uniform Push {{ {fields} }};
layout(set = 0, binding = 0) buffer S {{ {s} out_s[]; }};
layout(set = 0, binding = 1) buffer P {{ {p} out_p[]; }};
void main() {{
    {stores}
}}
"""


# Kompute's README shader: the seed end-to-end example.
SEED_SHADER = """
#version 450
layout (local_size_x = 1) in;
layout(set = 0, binding = 0) buffer buf_in_a { float in_a[]; };
layout(set = 0, binding = 1) buffer buf_in_b { float in_b[]; };
layout(set = 0, binding = 2) buffer buf_out_a { uint out_a[]; };
layout(set = 0, binding = 3) buffer buf_out_b { uint out_b[]; };
layout(constant_id = 0) const uint const_one = 0;
layout(push_constant) uniform PushConstants { float val; };
void main() {
    uint index = gl_GlobalInvocationID.x;
    out_a[index] += uint(in_a[index] * in_b[index]);
    out_b[index] += uint(const_one * val);
}
"""

# out[i] += 1: counts how many times a dispatch ran (record/eval semantics).
INCREMENT = """
#version 450
layout (local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint counts[]; };
void main() { counts[gl_GlobalInvocationID.x] += 1u; }
"""

# out[i] += push value: which push constants a dispatch saw.
ADD_PUSH = """
#version 450
layout (local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { float x[]; };
layout(push_constant) uniform P { float v; };
void main() { x[gl_GlobalInvocationID.x] += v; }
"""

# c = a * b over float32.
MULTIPLY = """
#version 450
layout (local_size_x = 1) in;
layout(set = 0, binding = 0) buffer A { float a[]; };
layout(set = 0, binding = 1) buffer B { float b[]; };
layout(set = 0, binding = 2) buffer C { float c[]; };
void main() { uint i = gl_GlobalInvocationID.x; c[i] = a[i] * b[i]; }
"""

# Each invocation writes its global id (x, y, z) into three buffers at its linear index.
GLOBAL_IDS = """
#version 450
layout (local_size_x = 2, local_size_y = 1, local_size_z = 1) in;
layout(set = 0, binding = 0) buffer X { uint xs[]; };
layout(set = 0, binding = 1) buffer Y { uint ys[]; };
layout(set = 0, binding = 2) buffer Z { uint zs[]; };
void main() {
    uvec3 g = gl_GlobalInvocationID, n = gl_NumWorkGroups * gl_WorkGroupSize;
    uint i = g.x + n.x * (g.y + n.y * g.z);
    xs[i] = g.x; ys[i] = g.y; zs[i] = g.z;
}
"""

# A slow kernel for async/timeout tests: each invocation steps a 32-bit LCG `rounds * steps` times starting from
# its index. The loops are nested so that each stays below lavapipe's 65 535-iteration cap; `lcg_oracle` gives
# the exact answer.
LCG_A, LCG_C = 1664525, 1013904223
SLOW_LCG = f"""
#version 450
layout (local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B {{ uint h[]; }};
layout(push_constant) uniform P {{ uint steps; uint rounds; }};
void main() {{
    uint i = gl_GlobalInvocationID.x;
    uint x = i;
    for (uint r = 0u; r < rounds; ++r) {{
        for (uint k = 0u; k < steps; ++k) {{ x = x * {LCG_A}u + {LCG_C}u; }}
    }}
    h[i] = x;
}}
"""


def lcg_oracle(n: int, steps: int) -> np.ndarray:
    """What :data:`SLOW_LCG` writes for ``n`` invocations after ``steps`` LCG steps in all (rounds * steps).

    The LCG is the affine map x -> a x + c (mod 2^32); composing it ``steps`` times is affine too, computed
    by squaring in O(log steps).
    """
    mul, add = 1, 0  # the identity map
    base_mul, base_add = LCG_A, LCG_C
    while steps:
        if steps & 1:  # compose: result after base
            mul, add = (base_mul * mul) % 2**32, (base_mul * add + base_add) % 2**32
        base_mul, base_add = (base_mul * base_mul) % 2**32, (base_mul * base_add + base_add) % 2**32
        steps >>= 1
    return ((np.arange(n, dtype=np.uint64) * mul + add) % 2**32).astype(np.uint32)


def spirv(source: str) -> bytes:
    """Compile with the runtime's compiler entry point (cached)."""
    return kp.compile_source(source)
