"""A structural check of SPIR-V before it reaches the driver (drivers may crash on garbage).

Example:
    >>> from kdsl.runtime.spirv import check_spirv
    >>> check_spirv(b"#version 450 // GLSL, not SPIR-V")
    Traceback (most recent call last):
    ...
    RuntimeError: invalid SPIR-V: the magic number is missing (is this GLSL text? compile it with kp.compile_source)
"""

from __future__ import annotations

import struct

import numpy as np

MAGIC = 0x07230203
_OP_ENTRY_POINT, _GL_COMPUTE = 15, 5


def spirv_bytes(spirv) -> bytes:
    """SPIR-V as bytes, from bytes, a bytearray, a uint32 NumPy array or a list of 32-bit words."""
    if isinstance(spirv, (bytes, bytearray, memoryview)):
        return bytes(spirv)
    if isinstance(spirv, np.ndarray):
        return np.ascontiguousarray(spirv).tobytes()
    if isinstance(spirv, (list, tuple)) and all(isinstance(w, int) for w in spirv):
        return struct.pack(f"<{len(spirv)}I", *spirv)
    raise TypeError(f"spirv must be bytes (from kp.compile_source), not {type(spirv).__name__}")


def check_spirv(code: bytes) -> None:
    """Raise RuntimeError unless ``code`` is a well-formed SPIR-V module with a GLCompute entry point."""
    if len(code) < 20 or len(code) % 4:
        raise RuntimeError(f"invalid SPIR-V: {len(code)} bytes is not a whole number of 32-bit words with "
                           "a 5-word header")
    words = np.frombuffer(code, dtype="<u4")
    if words[0] != MAGIC:
        if words[0].byteswap() == MAGIC:
            raise RuntimeError("invalid SPIR-V: big-endian modules are not supported")
        raise RuntimeError("invalid SPIR-V: the magic number is missing (is this GLSL text? compile it with "
                           "kp.compile_source)")
    pos, compute = 5, False
    while pos < len(words):
        count, opcode = int(words[pos]) >> 16, int(words[pos]) & 0xFFFF
        if count == 0 or pos + count > len(words):
            raise RuntimeError(f"invalid SPIR-V: instruction at word {pos} has a bad length ({count})")
        if opcode == _OP_ENTRY_POINT and words[pos + 1] == _GL_COMPUTE:
            compute = True
        pos += count
    if not compute:
        raise RuntimeError("invalid SPIR-V: the module has no GLCompute entry point (is it a compute shader?)")
