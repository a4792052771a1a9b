"""SPIR-V reflection: what a compute shader expects from the host, read from its binary.

The module parses the SPIR-V word stream itself (no SPIRV-Cross, no spirv-tools) and reports:

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

MAGIC = 0x07230203

# Opcodes (SPIR-V specification, section 3.52).
_OP_NAME, _OP_MEMBER_NAME, _OP_ENTRY_POINT, _OP_EXECUTION_MODE = 5, 6, 15, 16
_OP_TYPE_VOID, _OP_TYPE_BOOL, _OP_TYPE_INT, _OP_TYPE_FLOAT = 19, 20, 21, 22
_OP_TYPE_VECTOR, _OP_TYPE_MATRIX, _OP_TYPE_IMAGE, _OP_TYPE_SAMPLER = 23, 24, 25, 26
_OP_TYPE_SAMPLED_IMAGE, _OP_TYPE_ARRAY, _OP_TYPE_RUNTIME_ARRAY, _OP_TYPE_STRUCT = 27, 28, 29, 30
_OP_TYPE_POINTER = 32
_OP_CONSTANT_TRUE, _OP_CONSTANT_FALSE, _OP_CONSTANT, _OP_CONSTANT_COMPOSITE = 41, 42, 43, 44
_OP_SPEC_TRUE, _OP_SPEC_FALSE, _OP_SPEC_CONSTANT, _OP_SPEC_COMPOSITE = 48, 49, 50, 51
_OP_VARIABLE, _OP_DECORATE, _OP_MEMBER_DECORATE, _OP_EXECUTION_MODE_ID = 59, 71, 72, 331

# Decorations, storage classes, execution modes, built-ins.
_DEC_SPEC_ID, _DEC_BLOCK, _DEC_BUFFER_BLOCK, _DEC_ARRAY_STRIDE, _DEC_MATRIX_STRIDE = 1, 2, 3, 6, 7
_DEC_BUILTIN, _DEC_NON_WRITABLE, _DEC_NON_READABLE = 11, 24, 25
_DEC_BINDING, _DEC_SET, _DEC_OFFSET = 33, 34, 35
_SC_UNIFORM_CONSTANT, _SC_UNIFORM, _SC_WORKGROUP, _SC_PUSH_CONSTANT, _SC_STORAGE_BUFFER = 0, 2, 4, 9, 12
_MODE_LOCAL_SIZE, _MODE_LOCAL_SIZE_ID = 17, 38
_BUILTIN_WORKGROUP_SIZE = 25
_EXEC_MODEL_GLCOMPUTE = 5


class ReflectionError(ValueError):
    """The bytes are not a SPIR-V module this reflector understands."""


@dataclass(frozen=True)
class SpirvType:
    """A SPIR-V type. ``kind`` is one of scalar, vector, matrix, array, runtime_array, struct, image,
    sampled_image, sampler, pointer, other. ``dtype`` is the NumPy name of a scalar (or of a vector's,
    matrix's or array's innermost scalar); ``count`` the number of elements of a vector/array; ``size`` the
    byte size where the layout decorations define it (None otherwise)."""

    kind: str
    dtype: str | None = None
    count: int = 1
    size: int | None = None


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


def _string(words: list[int]) -> str:
    """A literal string: UTF-8, NUL-terminated, packed little-endian into words."""
    raw = struct.pack(f"<{len(words)}I", *words)
    return raw.split(b"\0", 1)[0].decode("utf-8", "replace")


class _Module:
    """The instructions of a module, indexed by result id."""

    def __init__(self, spirv: bytes):
        if not isinstance(spirv, (bytes, bytearray, memoryview)):
            raise TypeError(f"reflect expects SPIR-V bytes, got {type(spirv).__name__}")
        spirv = bytes(spirv)
        if len(spirv) < 20 or len(spirv) % 4:
            raise ReflectionError("SPIR-V must be a whole number of 32-bit words (at least 5), "
                                  f"got {len(spirv)} bytes")
        words = list(struct.unpack(f"<{len(spirv) // 4}I", spirv))
        if words[0] != MAGIC:
            raise ReflectionError(f"not SPIR-V: magic number is {words[0]:#010x}, expected {MAGIC:#010x}")
        self.names: dict[int, str] = {}
        self.member_names: dict[tuple[int, int], str] = {}
        self.decorations: dict[int, dict[int, list[int]]] = {}
        self.member_decorations: dict[tuple[int, int], dict[int, list[int]]] = {}
        self.types: dict[int, tuple[int, list[int]]] = {}      # id -> (opcode, operands after the id)
        self.constants: dict[int, tuple[int, int, list[int]]] = {}  # id -> (opcode, type id, operands)
        self.variables: list[tuple[int, int, int]] = []        # (id, pointer type id, storage class)
        self.entry_points: list[tuple[int, int, str]] = []     # (model, function id, name)
        self.modes: list[tuple[int, int, list[int]]] = []      # (function id, mode, operands)
        self._parse(words)

    def _parse(self, words: list[int]) -> None:
        i = 5
        while i < len(words):
            count, op = words[i] >> 16, words[i] & 0xFFFF
            if count == 0 or i + count > len(words):
                raise ReflectionError(f"truncated SPIR-V instruction (opcode {op}) at word {i}")
            self._instruction(op, words[i + 1:i + count])
            i += count

    def _instruction(self, op: int, a: list[int]) -> None:
        if op == _OP_NAME:
            self.names[a[0]] = _string(a[1:])
        elif op == _OP_MEMBER_NAME:
            self.member_names[(a[0], a[1])] = _string(a[2:])
        elif op == _OP_DECORATE:
            self.decorations.setdefault(a[0], {})[a[1]] = a[2:]
        elif op == _OP_MEMBER_DECORATE:
            self.member_decorations.setdefault((a[0], a[1]), {})[a[2]] = a[3:]
        elif op == _OP_ENTRY_POINT:
            self.entry_points.append((a[0], a[1], _string(a[2:])))
        elif op in (_OP_EXECUTION_MODE, _OP_EXECUTION_MODE_ID):
            self.modes.append((a[0], a[1], a[2:]))
        elif _OP_TYPE_VOID <= op <= _OP_TYPE_POINTER:
            self.types[a[0]] = (op, a[1:])
        elif op in (_OP_CONSTANT_TRUE, _OP_CONSTANT_FALSE, _OP_CONSTANT, _OP_CONSTANT_COMPOSITE,
                    _OP_SPEC_TRUE, _OP_SPEC_FALSE, _OP_SPEC_CONSTANT, _OP_SPEC_COMPOSITE):
            self.constants[a[1]] = (op, a[0], a[2:])
        elif op == _OP_VARIABLE:
            self.variables.append((a[1], a[0], a[2]))

    # -- types ------------------------------------------------------------------------------------------
    def scalar_dtype(self, type_id: int) -> str | None:
        op, a = self.types.get(type_id, (None, []))
        if op == _OP_TYPE_BOOL:
            return "bool"
        if op == _OP_TYPE_INT:
            return f"{'int' if a[1] else 'uint'}{a[0]}"
        if op == _OP_TYPE_FLOAT:
            return f"float{a[0]}"
        return None

    def constant_value(self, const_id: int) -> int | None:
        """The integer value of an OpConstant (used for array lengths)."""
        op, _, a = self.constants.get(const_id, (None, 0, []))
        return a[0] if op in (_OP_CONSTANT, _OP_SPEC_CONSTANT) and a else None

    def describe(self, type_id: int) -> SpirvType:
        op, a = self.types.get(type_id, (None, []))
        dtype = self.scalar_dtype(type_id)
        if dtype is not None:
            bits = 8 if dtype == "bool" else int("".join(c for c in dtype if c.isdigit()))
            return SpirvType("scalar", dtype, 1, bits // 8)
        if op == _OP_TYPE_VECTOR:
            inner = self.describe(a[0])
            return SpirvType("vector", inner.dtype, a[1], (inner.size or 0) * a[1])
        if op == _OP_TYPE_MATRIX:
            col = self.describe(a[0])
            return SpirvType("matrix", col.dtype, a[1], None)
        if op in (_OP_TYPE_ARRAY, _OP_TYPE_RUNTIME_ARRAY):
            inner = self.describe(a[0])
            stride: int | None = self.decorations.get(type_id, {}).get(_DEC_ARRAY_STRIDE, [None])[0]
            if op == _OP_TYPE_RUNTIME_ARRAY:
                return SpirvType("runtime_array", inner.dtype, 0, None)
            length = self.constant_value(a[1]) or 0
            return SpirvType("array", inner.dtype, length, stride * length if stride else None)
        if op == _OP_TYPE_STRUCT:
            return SpirvType("struct", None, len(a), self.struct_size(type_id))
        kinds = {_OP_TYPE_IMAGE: "image", _OP_TYPE_SAMPLED_IMAGE: "sampled_image",
                 _OP_TYPE_SAMPLER: "sampler", _OP_TYPE_POINTER: "pointer"}
        return SpirvType(kinds.get(op, "other") if op is not None else "other")

    def struct_size(self, struct_id: int) -> int | None:
        """Byte size of a block struct: the end of its furthest member (offsets from Offset decorations)."""
        _, members = self.types[struct_id]
        end = 0
        for index, member_type in enumerate(members):
            offset = self.member_decorations.get((struct_id, index), {}).get(_DEC_OFFSET, [None])[0]
            size = self.member_size(struct_id, index, member_type)
            if offset is None or size is None:
                return None
            end = max(end, offset + size)
        return end

    def member_size(self, struct_id: int, index: int, type_id: int) -> int | None:
        op, a = self.types.get(type_id, (None, []))
        if op == _OP_TYPE_MATRIX:
            stride = self.member_decorations.get((struct_id, index), {}).get(_DEC_MATRIX_STRIDE, [None])[0]
            return stride * a[1] if stride else None
        return self.describe(type_id).size

    def natural_size(self, type_id: int) -> int:
        """Bytes of a type without explicit layout (shared variables): no padding, booleans as 4 bytes."""
        op, a = self.types.get(type_id, (None, []))
        if op == _OP_TYPE_BOOL:
            return 4
        if op in (_OP_TYPE_INT, _OP_TYPE_FLOAT):
            return a[0] // 8
        if op in (_OP_TYPE_VECTOR, _OP_TYPE_MATRIX):
            return a[1] * self.natural_size(a[0])
        if op == _OP_TYPE_ARRAY:
            return (self.constant_value(a[1]) or 0) * self.natural_size(a[0])
        if op == _OP_TYPE_STRUCT:
            return sum(self.natural_size(member) for member in a)
        return 0

    def pointee(self, pointer_type: int) -> int:
        op, a = self.types[pointer_type]
        if op != _OP_TYPE_POINTER:
            raise ReflectionError(f"variable type %{pointer_type} is not a pointer")
        return a[1]

    def unwrap_arrays(self, type_id: int) -> int:
        """Descriptor arrays (``buffer B {..} b[4]``) reflect as their element type."""
        while self.types.get(type_id, (None,))[0] in (_OP_TYPE_ARRAY, _OP_TYPE_RUNTIME_ARRAY):
            type_id = self.types[type_id][1][0]
        return type_id


def _binding(m: _Module, var_id: int, storage: int, type_id: int) -> Binding | None:
    decorations = m.decorations.get(var_id, {})
    if decorations.get(_DEC_SET, [0])[0] != 0 or _DEC_BINDING not in decorations:
        return None
    number = decorations[_DEC_BINDING][0]
    type_id = m.unwrap_arrays(type_id)
    op, a = m.types.get(type_id, (None, []))
    name = m.names.get(var_id) or m.names.get(type_id, "")
    if op == _OP_TYPE_STRUCT:
        block = m.decorations.get(type_id, {})
        is_storage = storage == _SC_STORAGE_BUFFER or _DEC_BUFFER_BLOCK in block
        flags = [m.member_decorations.get((type_id, i), {}) for i in range(len(a))] or [{}]
        readonly = all(_DEC_NON_WRITABLE in f for f in flags) or _DEC_NON_WRITABLE in decorations
        writeonly = all(_DEC_NON_READABLE in f for f in flags) or _DEC_NON_READABLE in decorations
        dtype = m.describe(a[-1]).dtype if a else None
        readonly = readonly or not is_storage  # shaders cannot write uniform buffers
        return Binding(number, "storage_buffer" if is_storage else "uniform_buffer", name, dtype,
                       readonly, writeonly, _components(m, a[-1]) if a else 1)
    if op == _OP_TYPE_IMAGE:
        sampled = a[5]  # 1: used with a sampler, 2: storage image
        kind = "storage_image" if sampled == 2 else "sampled_image"
        return Binding(number, kind, name, m.scalar_dtype(a[0]), _DEC_NON_WRITABLE in decorations,
                       _DEC_NON_READABLE in decorations)
    if op == _OP_TYPE_SAMPLED_IMAGE:
        return Binding(number, "sampled_image", name, None, True, False)
    if op == _OP_TYPE_SAMPLER:
        return Binding(number, "sampler", name, None, True, False)
    return None


def _components(m: _Module, member_type: int) -> int:
    """Vector width of a runtime array's element (1 for scalars and everything else)."""
    op, a = m.types.get(member_type, (None, []))
    if op != _OP_TYPE_RUNTIME_ARRAY:
        return 1
    element = m.describe(a[0])
    return element.count if element.kind == "vector" else 1


def _push_block(m: _Module, type_id: int, info: ShaderInfo) -> None:
    _, members = m.types[type_id]
    for index, member_type in enumerate(members):
        offset = m.member_decorations.get((type_id, index), {}).get(_DEC_OFFSET, [0])[0]
        described = m.describe(member_type)
        size = m.member_size(type_id, index, member_type)
        described = SpirvType(described.kind, described.dtype, described.count, size)
        info.push_members.append(PushMember(m.member_names.get((type_id, index), f"member{index}"), offset,
                                            described))
    info.push_size = m.struct_size(type_id) or 0


def _spec_value(m: _Module, op: int, type_id: int, operands: list[int]) -> tuple[str, bool | int | float]:
    dtype = m.scalar_dtype(type_id) or "uint32"
    if op in (_OP_SPEC_TRUE, _OP_SPEC_FALSE):
        return "bool", op == _OP_SPEC_TRUE
    raw = struct.pack(f"<{len(operands)}I", *operands)
    codes = {"float32": "<f", "float64": "<d", "int32": "<i", "uint32": "<I", "int64": "<q", "uint64": "<Q",
             "int16": "<i", "uint16": "<I", "int8": "<i", "uint8": "<I"}
    fmt = codes.get(dtype, "<I")
    value = struct.unpack(fmt, raw[:struct.calcsize(fmt)])[0]
    if dtype in ("int16", "int8"):  # narrow ints are sign-extended into one word only when signed
        bits = int(dtype[3:])
        value = ((value & ((1 << bits) - 1)) ^ (1 << (bits - 1))) - (1 << (bits - 1))
    return dtype, value


def _local_size(m: _Module, entry: int, info: ShaderInfo) -> None:
    size: list[int] = [1, 1, 1]
    spec_ids: list[int | None] = [None, None, None]
    for function, mode, operands in m.modes:
        if function != entry:
            continue
        if mode == _MODE_LOCAL_SIZE:
            size = list(operands[:3])
        elif mode == _MODE_LOCAL_SIZE_ID:
            for axis, const_id in enumerate(operands[:3]):
                size[axis] = m.constant_value(const_id) or 1
                spec_ids[axis] = m.decorations.get(const_id, {}).get(_DEC_SPEC_ID, [None])[0]
    # The WorkgroupSize built-in overrides the execution mode (SPIR-V spec, "WorkgroupSize").
    for const_id, decorations in m.decorations.items():
        if decorations.get(_DEC_BUILTIN, [None])[0] == _BUILTIN_WORKGROUP_SIZE and const_id in m.constants:
            for axis, component in enumerate(m.constants[const_id][2][:3]):
                size[axis] = m.constant_value(component) or 1
                spec_ids[axis] = m.decorations.get(component, {}).get(_DEC_SPEC_ID, [None])[0]
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
    m = _Module(spirv)
    computes = [(fid, name) for model, fid, name in m.entry_points if model == _EXEC_MODEL_GLCOMPUTE]
    if entry_point is not None:
        computes = [(fid, name) for fid, name in computes if name == entry_point]
    if not computes:
        wanted = f" named {entry_point!r}" if entry_point else ""
        raise ReflectionError(f"the SPIR-V module has no GLCompute entry point{wanted}")
    entry, name = computes[0]
    info = ShaderInfo(entry_point=name)
    for var_id, pointer_type, storage in m.variables:
        type_id = m.pointee(pointer_type)
        if storage == _SC_PUSH_CONSTANT:
            _push_block(m, m.unwrap_arrays(type_id), info)
        elif storage == _SC_WORKGROUP:
            info.shared_size += m.natural_size(type_id)
        elif storage in (_SC_UNIFORM, _SC_STORAGE_BUFFER, _SC_UNIFORM_CONSTANT):
            info.descriptor_sets.update(m.decorations.get(var_id, {}).get(_DEC_SET, []))
            binding = _binding(m, var_id, storage, type_id)
            if binding is not None:
                info.bindings.append(binding)
    info.bindings.sort(key=lambda b: b.binding)
    for const_id, (op, type_id, operands) in m.constants.items():
        spec_id = m.decorations.get(const_id, {}).get(_DEC_SPEC_ID, [None])[0]
        if spec_id is not None and op != _OP_SPEC_COMPOSITE:
            dtype, value = _spec_value(m, op, type_id, operands)
            info.spec_constants.append(SpecConstant(spec_id, m.names.get(const_id, ""), dtype, value))
    info.spec_constants.sort(key=lambda s: s.id)
    _local_size(m, entry, info)
    return info
