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
    """Raise RuntimeError unless ``code`` is a well-formed SPIR-V module with a GLCompute entry point.

    A module that passed is remembered (by its bytes, in a bounded cache): a loop builds Algorithms of the same
    few shaders thousands of times, and the walk over the words costs ~0.15 ms each time.
    """
    _checked_spirv(bytes(code))


@functools.lru_cache(maxsize=256)  # (keyed by the module's bytes, so a hit is the very same module; a module
def _checked_spirv(code: bytes) -> bool:  # that fails raises, and raising calls are not cached)
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
    return True


@functools.lru_cache(maxsize=256)
def shader_info(code: bytes) -> ShaderInfo:
    """The reflected interface of a checked module (cached: algorithms are rebuilt with the same shader)."""
    return reflect(code)


def _clear_mismatch(tensor: np.dtype, shader: str) -> bool:
    """True when a tensor of dtype ``tensor`` bound to a buffer of ``shader`` elements is surely a mistake.

    Only signed integers and floats of the same width, read as each other, are refused. Unsigned integers on
    either side mean raw words (a shader reading float bits as ``uint``, a ``uint32`` placeholder bound to an
    unused binding), and elements of another width are how packed data (bytes read as uint32, float16 pairs)
    is read.
    """
    width = tensor.itemsize * 8
    return ((tensor.kind == "i" and shader == f"float{width}")
            or (tensor.kind == "f" and shader == f"int{width}"))


def check_interface(code: bytes, images: list[bool], push_nbytes: int,
                    dtypes: list[np.dtype | None] | None = None) -> None:
    """Raise RuntimeError unless the memory objects and push constants fit what the shader declares.

    ``images[i]`` says whether memory object ``i`` is an image, ``dtypes[i]`` its element dtype. Every set-0
    binding of the shader needs a memory object of its kind, and the push constants must be exactly the size of
    the shader's push block. A tensor whose dtype clearly contradicts the buffer's element type (int32 data in
    a ``float`` buffer, see :func:`_clear_mismatch`) raises TypeError.

    Example:
        >>> from kdsl.runtime.compiler import compile_source
        >>> code = compile_source("#version 450\\nlayout(local_size_x=1) in;\\n"
        ...     "layout(binding=0) buffer B { float x[]; };\\nvoid main() { x[0] = 1.0; }")
        >>> check_interface(code, [False], 0, [np.dtype(np.int32)])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        TypeError: binding 0 (B) of the shader is a buffer of float32 but the tensor bound to it holds int32; ...
    """
    _checked_interface(code, tuple(images), push_nbytes, None if dtypes is None else tuple(dtypes))


@functools.lru_cache(maxsize=1024)  # keyed by everything the check reads; a failing check raises (not cached)
def _checked_interface(code: bytes, images: tuple[bool, ...], push_nbytes: int,
                       dtypes: tuple[np.dtype | None, ...] | None) -> bool:
    """:func:`check_interface`, remembered: an Algorithm is rebound to new tensors of the same kinds and dtypes
    thousands of times in a loop."""
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
        dtype = dtypes[b.binding] if dtypes is not None else None
        if dtype is not None and b.kind == "storage_buffer" and b.dtype and _clear_mismatch(dtype, b.dtype):
            raise TypeError(f"binding {b.binding} ({b.name or 'unnamed'}) of the shader is a buffer of {b.dtype} "
                            f"but the tensor bound to it holds {dtype}; convert the data (e.g. "
                            f"mgr.tensor_t(a.astype(np.{b.dtype}))) or declare the buffer with the tensor's type")
    if push_nbytes != info.push_size:
        raise RuntimeError(f"push constant total memory size provided is {push_nbytes} but expected "
                           f"{info.push_size} bytes (the shader's push_constant block)")
    return True


_SPEC_SIZES = {"bool": 4, "float16": 2, "int16": 2, "uint16": 2, "int8": 1, "uint8": 1, "float64": 8,
               "int64": 8, "uint64": 8}


def check_spec_constants(code: bytes, spec: np.ndarray) -> None:
    """Raise RuntimeError when ``spec`` (values for constant ids 0, 1, ...) goes beyond the shader's declared
    specialization constants or gives one a value of the wrong size."""
    if not spec.size:
        return
    declared = {s.id: s for s in shader_info(code).spec_constants}
    if spec.size > max(declared, default=-1) + 1:
        names = ", ".join(f"{s.id} ({s.name or 'unnamed'}: {s.dtype})" for s in declared.values()) or "none"
        raise RuntimeError(f"{spec.size} specialization constant(s) given (ids 0-{spec.size - 1}) but the shader "
                           f"declares constant_id {names}; pass one value per declared id")
    for i in range(spec.size):
        const = declared.get(i)
        if const is not None and _SPEC_SIZES.get(const.dtype, 4) != spec.itemsize:
            raise RuntimeError(f"specialization constant {i} ({const.name or 'unnamed'}) is a {const.dtype} but "
                               f"the values given are {spec.dtype} ({spec.itemsize} bytes); pass a NumPy array of "
                               f"the shader's type, e.g. np.array([...], dtype=np.{const.dtype})")


def local_size(code: bytes, spec: np.ndarray) -> tuple[int, int, int]:
    """The workgroup size, with axes set by specialization constants (``local_size_x_id``) taken from ``spec``
    (their 32-bit values, as the driver reads them)."""
    info = shader_info(code)
    words = spec.view(np.uint32) if spec.size and spec.itemsize == 4 else None
    size = list(info.local_size)
    for axis, spec_id in enumerate(info.local_size_spec_ids):
        if spec_id is not None and words is not None and spec_id < words.size:
            size[axis] = int(words[spec_id])
    return size[0], size[1], size[2]


def check_limits(code: bytes, spec: np.ndarray, limits: dict) -> None:
    """Raise RuntimeError when the shader's workgroup size or shared memory exceed the device's ``limits``
    (a ``Manager.get_device_properties()`` dict), naming the limit and the value.

    Example:
        >>> from kdsl.runtime.compiler import compile_source
        >>> code = compile_source("#version 450\\nlayout(local_size_x=64, local_size_y=64) in;\\nvoid main() {}")
        >>> check_limits(code, np.zeros(0), {"max_work_group_size": (1024, 1024, 64),
        ...     "max_work_group_invocations": 1024, "max_shared_memory_size": 32768})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        RuntimeError: the shader's workgroup size 64x64x1 is 4096 invocations, more than ... of 1024; ...
    """
    size = local_size(code, spec)
    for axis, (value, limit) in enumerate(zip(size, limits["max_work_group_size"], strict=True)):
        if value > limit:
            raise RuntimeError(f"the shader's local_size_{'xyz'[axis]} is {value}, more than this device's "
                               f"maxComputeWorkGroupSize[{axis}] of {limit}; use a smaller local_size")
    total, limit = size[0] * size[1] * size[2], limits["max_work_group_invocations"]
    if total > limit:
        raise RuntimeError(f"the shader's workgroup size {size[0]}x{size[1]}x{size[2]} is {total} invocations, "
                           f"more than this device's maxComputeWorkGroupInvocations of {limit}; use a smaller "
                           "local_size")
    shared, limit = shader_info(code).shared_size, limits["max_shared_memory_size"]
    if shared > limit:
        raise RuntimeError(f"the shader declares {shared} bytes of shared memory, more than this device's "
                           f"maxComputeSharedMemorySize of {limit} bytes; use smaller shared arrays")
