"""Built-in shaders of the runtime (OpMult's ``out = a * b``), compiled once and cached on disk."""

from __future__ import annotations

import functools

from .compiler import compile_source

MULT_GLSL = """#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = a[i] * b[i];
}
"""


@functools.lru_cache(maxsize=1)
def mult_spirv() -> bytes:
    return compile_source(MULT_GLSL)
