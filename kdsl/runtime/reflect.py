"""SPIR-V reflection: what a compute shader expects from the host, read from its binary.

It reads the module :class:`~kdsl.runtime.spirv_module.SpirvModule` parses (no SPIRV-Cross, no
spirv-tools) and reports:

* the descriptor bindings of set 0 and their kind (``storage_buffer``, ``uniform_buffer``, ``storage_image``,
  ``sampled_image``, ``sampler``), with the element dtype of a buffer's runtime array and whether the shader
  writes it;
* the push-constant block: byte size and each member's name, offset and type;
* specialization constants: id, name, dtype and default value;
* the local size, from the ``LocalSize`` / ``LocalSizeId`` execution mode or the ``WorkgroupSize`` built-in
  (whose components may be specialization constants: ``local_size_spec_ids`` says which);
* the bytes of shared memory (``Workgroup`` storage-class variables: ``shared`` in GLSL), counted as the
  validation layer does (scalars, vectors, arrays and structs without padding; spec-constant array lengths at
  their default).

Example:
    >>> from kdsl.runtime.compiler import compile_source
    >>> info = reflect(compile_source('''
    ... #version 450
    ... layout(local_size_x = 64) in;
    ... layout(set = 0, binding = 0) buffer X { float x[]; };
    ... layout(push_constant) uniform P { float a; uint n; };
    ... void main() { if (gl_GlobalInvocationID.x < n) x[gl_GlobalInvocationID.x] *= a; }'''))
    >>> info.local_size, [(b.binding, b.kind, b.dtype) for b in info.bindings]
    ((64, 1, 1), [(0, 'storage_buffer', 'float32')])
    >>> info.push_size, [(m.name, m.offset, m.type.dtype) for m in info.push_members]
    (8, [('a', 0, 'float32'), ('n', 4, 'uint32')])
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from kdsl.runtime.spirv_module import (
    BUILTIN_WORKGROUP_SIZE,
    DEC_BINDING,
    DEC_BUFFER_BLOCK,
    DEC_BUILTIN,
    DEC_NON_READABLE,
    DEC_NON_WRITABLE,
    DEC_OFFSET,
    DEC_SET,
    DEC_SPEC_ID,
    EXEC_MODEL_GLCOMPUTE,
    MODE_LOCAL_SIZE,
    MODE_LOCAL_SIZE_ID,
    OP_SPEC_COMPOSITE,
    OP_SPEC_FALSE,
    OP_SPEC_TRUE,
    OP_TYPE_IMAGE,
    OP_TYPE_RUNTIME_ARRAY,
    OP_TYPE_SAMPLED_IMAGE,
    OP_TYPE_SAMPLER,
    OP_TYPE_STRUCT,
    SC_PUSH_CONSTANT,
    SC_STORAGE_BUFFER,
    SC_UNIFORM,
    SC_UNIFORM_CONSTANT,
    SC_WORKGROUP,
    ReflectionError,
    SpirvModule,
    SpirvType,
)


@dataclass(frozen=True)
class Binding:
    """One descriptor of set 0. ``dtype`` is the element type of a buffer's last (runtime) array member and
    ``components`` its vector width (2 for ``vec2 x[]``, which a complex64 array can bind)."""

    binding: int
    kind: str
    name: str
    dtype: str | None = None
    readonly: bool = False
    writeonly: bool = False
    components: int = 1


@dataclass(frozen=True)
class PushMember:
    """One member of the push-constant block."""

    name: str
    offset: int
    type: SpirvType


@dataclass(frozen=True)
class SpecConstant:
    """A specialization constant: ``layout(constant_id = id) const T name = default``."""

    id: int
    name: str
    dtype: str
    default: bool | int | float


@dataclass
class ShaderInfo:
    """Everything :func:`reflect` found. ``local_size_spec_ids[i]`` is the spec-constant id that sets local
    size axis ``i`` (``local_size_x_id``), else None."""

    entry_point: str = "main"
    bindings: list[Binding] = field(default_factory=list)
    push_size: int = 0
    push_members: list[PushMember] = field(default_factory=list)
    spec_constants: list[SpecConstant] = field(default_factory=list)
    local_size: tuple[int, int, int] = (1, 1, 1)
    local_size_spec_ids: tuple[int | None, int | None, int | None] = (None, None, None)
    descriptor_sets: set[int] = field(default_factory=set)  # every set any resource is decorated with
    shared_size: int = 0  # bytes of Workgroup (shared) variables


def _binding(m: SpirvModule, var_id: int, storage: int, type_id: int) -> Binding | None:
    decorations = m.decorations.get(var_id, {})
    if decorations.get(DEC_SET, [0])[0] != 0 or DEC_BINDING not in decorations:
        return None
    number = decorations[DEC_BINDING][0]
    type_id = m.unwrap_arrays(type_id)
    op, a = m.types.get(type_id, (None, []))
    name = m.names.get(var_id) or m.names.get(type_id, "")
    if op == OP_TYPE_STRUCT:
        block = m.decorations.get(type_id, {})
        is_storage = storage == SC_STORAGE_BUFFER or DEC_BUFFER_BLOCK in block
        flags = [m.member_decorations.get((type_id, i), {}) for i in range(len(a))] or [{}]
        readonly = all(DEC_NON_WRITABLE in f for f in flags) or DEC_NON_WRITABLE in decorations
        writeonly = all(DEC_NON_READABLE in f for f in flags) or DEC_NON_READABLE in decorations
        dtype = m.describe(a[-1]).dtype if a else None
        readonly = readonly or not is_storage  # shaders cannot write uniform buffers
        return Binding(number, "storage_buffer" if is_storage else "uniform_buffer", name, dtype,
                       readonly, writeonly, _components(m, a[-1]) if a else 1)
    if op == OP_TYPE_IMAGE:
        sampled = a[5]  # 1: used with a sampler, 2: storage image
        kind = "storage_image" if sampled == 2 else "sampled_image"
        return Binding(number, kind, name, m.scalar_dtype(a[0]), DEC_NON_WRITABLE in decorations,
                       DEC_NON_READABLE in decorations)
    if op == OP_TYPE_SAMPLED_IMAGE:
        return Binding(number, "sampled_image", name, None, True, False)
    if op == OP_TYPE_SAMPLER:
        return Binding(number, "sampler", name, None, True, False)
    return None


def _components(m: SpirvModule, member_type: int) -> int:
    """Vector width of a runtime array's element (1 for scalars and everything else)."""
    op, a = m.types.get(member_type, (None, []))
    if op != OP_TYPE_RUNTIME_ARRAY:
        return 1
    element = m.describe(a[0])
    return element.count if element.kind == "vector" else 1


def _push_block(m: SpirvModule, type_id: int, info: ShaderInfo) -> None:
    _, members = m.types[type_id]
    for index, member_type in enumerate(members):
        offset = m.member_decorations.get((type_id, index), {}).get(DEC_OFFSET, [0])[0]
        described = m.describe(member_type)
        size = m.member_size(type_id, index, member_type)
        described = SpirvType(described.kind, described.dtype, described.count, size)
        info.push_members.append(PushMember(m.member_names.get((type_id, index), f"member{index}"), offset,
                                            described))
    info.push_size = m.struct_size(type_id) or 0


def _spec_value(m: SpirvModule, op: int, type_id: int, operands: list[int]) -> tuple[str, bool | int | float]:
    dtype = m.scalar_dtype(type_id) or "uint32"
    if op in (OP_SPEC_TRUE, OP_SPEC_FALSE):
        return "bool", op == OP_SPEC_TRUE
    raw = struct.pack(f"<{len(operands)}I", *operands)
    codes = {"float32": "<f", "float64": "<d", "int32": "<i", "uint32": "<I", "int64": "<q", "uint64": "<Q",
             "int16": "<i", "uint16": "<I", "int8": "<i", "uint8": "<I"}
    fmt = codes.get(dtype, "<I")
    value = struct.unpack(fmt, raw[:struct.calcsize(fmt)])[0]
    if dtype in ("int16", "int8"):  # narrow ints are sign-extended into one word only when signed
        bits = int(dtype[3:])
        value = ((value & ((1 << bits) - 1)) ^ (1 << (bits - 1))) - (1 << (bits - 1))
    return dtype, value


def _local_size(m: SpirvModule, entry: int, info: ShaderInfo) -> None:
    size: list[int] = [1, 1, 1]
    spec_ids: list[int | None] = [None, None, None]
    for function, mode, operands in m.modes:
        if function != entry:
            continue
        if mode == MODE_LOCAL_SIZE:
            size = list(operands[:3])
        elif mode == MODE_LOCAL_SIZE_ID:
            for axis, const_id in enumerate(operands[:3]):
                size[axis] = m.constant_value(const_id) or 1
                spec_ids[axis] = m.decorations.get(const_id, {}).get(DEC_SPEC_ID, [None])[0]
    # The WorkgroupSize built-in overrides the execution mode (SPIR-V spec, "WorkgroupSize").
    for const_id, decorations in m.decorations.items():
        if decorations.get(DEC_BUILTIN, [None])[0] == BUILTIN_WORKGROUP_SIZE and const_id in m.constants:
            for axis, component in enumerate(m.constants[const_id][2][:3]):
                size[axis] = m.constant_value(component) or 1
                spec_ids[axis] = m.decorations.get(component, {}).get(DEC_SPEC_ID, [None])[0]
    info.local_size = (size[0], size[1], size[2])
    info.local_size_spec_ids = (spec_ids[0], spec_ids[1], spec_ids[2])


def reflect(spirv: bytes, entry_point: str | None = None) -> ShaderInfo:
    """Read the host interface of a compute shader from its SPIR-V bytes.

    ``entry_point`` picks among several GLCompute entry points (default: the first). Raises
    :class:`ReflectionError` for bytes that are not SPIR-V or a module without a compute entry point.

    Example:
        >>> from kdsl.runtime.compiler import compile_source
        >>> info = reflect(compile_source('''
        ... #version 450
        ... layout(local_size_x_id = 0) in;
        ... layout(constant_id = 1) const int N = 4;
        ... void main() {}'''))
        >>> info.local_size_spec_ids[0], [(s.id, s.name, s.dtype, s.default) for s in info.spec_constants]
        (0, [(0, '', 'uint32', 1), (1, 'N', 'int32', 4)])
    """
    m = SpirvModule(spirv)
    computes = [(fid, name) for model, fid, name in m.entry_points if model == EXEC_MODEL_GLCOMPUTE]
    if entry_point is not None:
        computes = [(fid, name) for fid, name in computes if name == entry_point]
    if not computes:
        wanted = f" named {entry_point!r}" if entry_point else ""
        raise ReflectionError(f"the SPIR-V module has no GLCompute entry point{wanted}")
    entry, name = computes[0]
    info = ShaderInfo(entry_point=name)
    for var_id, pointer_type, storage in m.variables:
        type_id = m.pointee(pointer_type)
        if storage == SC_PUSH_CONSTANT:
            _push_block(m, m.unwrap_arrays(type_id), info)
        elif storage == SC_WORKGROUP:
            info.shared_size += m.natural_size(type_id)
        elif storage in (SC_UNIFORM, SC_STORAGE_BUFFER, SC_UNIFORM_CONSTANT):
            info.descriptor_sets.update(m.decorations.get(var_id, {}).get(DEC_SET, []))
            binding = _binding(m, var_id, storage, type_id)
            if binding is not None:
                info.bindings.append(binding)
    info.bindings.sort(key=lambda b: b.binding)
    for const_id, (op, type_id, operands) in m.constants.items():
        spec_id = m.decorations.get(const_id, {}).get(DEC_SPEC_ID, [None])[0]
        if spec_id is not None and op != OP_SPEC_COMPOSITE:
            dtype, value = _spec_value(m, op, type_id, operands)
            info.spec_constants.append(SpecConstant(spec_id, m.names.get(const_id, ""), dtype, value))
    info.spec_constants.sort(key=lambda s: s.id)
    _local_size(m, entry, info)
    return info

