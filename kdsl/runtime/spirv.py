"""A structural check of SPIR-V before it reaches the driver (drivers may crash on garbage).

Example:
    >>> from kdsl.runtime.spirv import check_spirv
    >>> check_spirv(b"#version 450 // GLSL, not SPIR-V")
    Traceback (most recent call last):
    ...
    RuntimeError: invalid SPIR-V: the magic number is missing (is this GLSL text? compile it with kp.compile_source)
"""

from __future__ import annotations

import functools
import struct

import numpy as np

from .reflect import ShaderInfo, reflect

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


@functools.lru_cache(maxsize=256)
def shader_info(code: bytes) -> ShaderInfo:
    """The reflected interface of a checked module (cached: algorithms are rebuilt with the same shader)."""
    return reflect(code)


def check_interface(code: bytes, images: list[bool], push_nbytes: int) -> None:
    """Raise RuntimeError unless the memory objects and push constants fit what the shader declares.

    ``images[i]`` says whether memory object ``i`` is an image. Every set-0 binding of the shader needs a
    memory object of its kind, and the push constants must be exactly the size of the shader's push block.
    """
    info = shader_info(code)
    if info.descriptor_sets - {0}:
        raise RuntimeError(f"the shader uses descriptor set(s) {sorted(info.descriptor_sets - {0})}; memory objects "
                           "are bound to set 0 only: write layout(set = 0, binding = N)")
    for b in info.bindings:
        if b.binding >= len(images):
            raise RuntimeError(f"the shader reads binding {b.binding} ({b.name or b.kind}) but only {len(images)} "
                               "memory object(s) were given; pass one tensor/image per binding")
        want_image = b.kind == "storage_image"
        if b.kind not in ("storage_buffer", "storage_image"):
            raise RuntimeError(f"binding {b.binding} is a {b.kind}; kdsl binds storage buffers and storage images "
                               "only (declare it as a 'buffer' or an 'image2D')")
        if want_image != images[b.binding]:
            given, wanted = ("an image", "a storage buffer") if images[b.binding] else ("a tensor", "a storage image")
            raise RuntimeError(f"binding {b.binding} of the shader is {wanted} but {given} was given")
    if push_nbytes != info.push_size:
        raise RuntimeError(f"push constant total memory size provided is {push_nbytes} but expected "
                           f"{info.push_size} bytes (the shader's push_constant block)")
