"""A SPIR-V module parsed from its word stream (no SPIRV-Cross, no spirv-tools): the instructions
:func:`kdsl.runtime.reflect.reflect` reads (names, decorations, types, constants, variables, entry points,
execution modes), indexed by result id, and the types described as :class:`SpirvType`.

Example:
    >>> from kdsl.runtime.compiler import compile_source
    >>> m = SpirvModule(compile_source('''
    ... #version 450
    ... layout(local_size_x = 8) in;
    ... layout(set = 0, binding = 0) buffer X { vec2 x[]; };
    ... void main() { x[gl_GlobalInvocationID.x] *= 2.0; }'''))
    >>> [name for model, fid, name in m.entry_points if model == EXEC_MODEL_GLCOMPUTE]
    ['main']
    >>> [m.describe(a[0]) for op, a in m.types.values() if op == OP_TYPE_RUNTIME_ARRAY]
    [SpirvType(kind='vector', dtype='float32', count=2, size=8)]
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

MAGIC = 0x07230203

# Opcodes (SPIR-V specification, section 3.52).
OP_NAME, OP_MEMBER_NAME, OP_ENTRY_POINT, OP_EXECUTION_MODE = 5, 6, 15, 16
OP_TYPE_VOID, OP_TYPE_BOOL, OP_TYPE_INT, OP_TYPE_FLOAT = 19, 20, 21, 22
OP_TYPE_VECTOR, OP_TYPE_MATRIX, OP_TYPE_IMAGE, OP_TYPE_SAMPLER = 23, 24, 25, 26
OP_TYPE_SAMPLED_IMAGE, OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY, OP_TYPE_STRUCT = 27, 28, 29, 30
OP_TYPE_POINTER = 32
OP_CONSTANT_TRUE, OP_CONSTANT_FALSE, OP_CONSTANT, OP_CONSTANT_COMPOSITE = 41, 42, 43, 44
OP_SPEC_TRUE, OP_SPEC_FALSE, OP_SPEC_CONSTANT, OP_SPEC_COMPOSITE = 48, 49, 50, 51
OP_VARIABLE, OP_DECORATE, OP_MEMBER_DECORATE, OP_EXECUTION_MODE_ID = 59, 71, 72, 331

# Decorations, storage classes, execution modes, built-ins.
DEC_SPEC_ID, DEC_BLOCK, DEC_BUFFER_BLOCK, DEC_ARRAY_STRIDE, DEC_MATRIX_STRIDE = 1, 2, 3, 6, 7
DEC_BUILTIN, DEC_NON_WRITABLE, DEC_NON_READABLE = 11, 24, 25
DEC_BINDING, DEC_SET, DEC_OFFSET = 33, 34, 35
SC_UNIFORM_CONSTANT, SC_UNIFORM, SC_WORKGROUP, SC_PUSH_CONSTANT, SC_STORAGE_BUFFER = 0, 2, 4, 9, 12
MODE_LOCAL_SIZE, MODE_LOCAL_SIZE_ID = 17, 38
BUILTIN_WORKGROUP_SIZE = 25
EXEC_MODEL_GLCOMPUTE = 5


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


def _string(words: list[int]) -> str:
    """A literal string: UTF-8, NUL-terminated, packed little-endian into words."""
    raw = struct.pack(f"<{len(words)}I", *words)
    return raw.split(b"\0", 1)[0].decode("utf-8", "replace")


class SpirvModule:
    """The instructions of a module, indexed by result id (parsing raises :class:`ReflectionError` for
    bytes that are not SPIR-V)."""

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
        if op == OP_NAME:
            self.names[a[0]] = _string(a[1:])
        elif op == OP_MEMBER_NAME:
            self.member_names[(a[0], a[1])] = _string(a[2:])
        elif op == OP_DECORATE:
            self.decorations.setdefault(a[0], {})[a[1]] = a[2:]
        elif op == OP_MEMBER_DECORATE:
            self.member_decorations.setdefault((a[0], a[1]), {})[a[2]] = a[3:]
        elif op == OP_ENTRY_POINT:
            self.entry_points.append((a[0], a[1], _string(a[2:])))
        elif op in (OP_EXECUTION_MODE, OP_EXECUTION_MODE_ID):
            self.modes.append((a[0], a[1], a[2:]))
        elif OP_TYPE_VOID <= op <= OP_TYPE_POINTER:
            self.types[a[0]] = (op, a[1:])
        elif op in (OP_CONSTANT_TRUE, OP_CONSTANT_FALSE, OP_CONSTANT, OP_CONSTANT_COMPOSITE,
                    OP_SPEC_TRUE, OP_SPEC_FALSE, OP_SPEC_CONSTANT, OP_SPEC_COMPOSITE):
            self.constants[a[1]] = (op, a[0], a[2:])
        elif op == OP_VARIABLE:
            self.variables.append((a[1], a[0], a[2]))

    # -- types ------------------------------------------------------------------------------------------
    def scalar_dtype(self, type_id: int) -> str | None:
        op, a = self.types.get(type_id, (None, []))
        if op == OP_TYPE_BOOL:
            return "bool"
        if op == OP_TYPE_INT:
            return f"{'int' if a[1] else 'uint'}{a[0]}"
        if op == OP_TYPE_FLOAT:
            return f"float{a[0]}"
        return None

    def constant_value(self, const_id: int) -> int | None:
        """The integer value of an OpConstant (used for array lengths)."""
        op, _, a = self.constants.get(const_id, (None, 0, []))
        return a[0] if op in (OP_CONSTANT, OP_SPEC_CONSTANT) and a else None

    def describe(self, type_id: int) -> SpirvType:
        op, a = self.types.get(type_id, (None, []))
        dtype = self.scalar_dtype(type_id)
        if dtype is not None:
            bits = 8 if dtype == "bool" else int("".join(c for c in dtype if c.isdigit()))
            return SpirvType("scalar", dtype, 1, bits // 8)
        if op == OP_TYPE_VECTOR:
            inner = self.describe(a[0])
            return SpirvType("vector", inner.dtype, a[1], (inner.size or 0) * a[1])
        if op == OP_TYPE_MATRIX:
            col = self.describe(a[0])
            return SpirvType("matrix", col.dtype, a[1], None)
        if op in (OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY):
            inner = self.describe(a[0])
            stride: int | None = self.decorations.get(type_id, {}).get(DEC_ARRAY_STRIDE, [None])[0]
            if op == OP_TYPE_RUNTIME_ARRAY:
                return SpirvType("runtime_array", inner.dtype, 0, None)
            length = self.constant_value(a[1]) or 0
            return SpirvType("array", inner.dtype, length, stride * length if stride else None)
        if op == OP_TYPE_STRUCT:
            return SpirvType("struct", None, len(a), self.struct_size(type_id))
        kinds = {OP_TYPE_IMAGE: "image", OP_TYPE_SAMPLED_IMAGE: "sampled_image",
                 OP_TYPE_SAMPLER: "sampler", OP_TYPE_POINTER: "pointer"}
        return SpirvType(kinds.get(op, "other") if op is not None else "other")

    def struct_size(self, struct_id: int) -> int | None:
        """Byte size of a block struct: the end of its furthest member (offsets from Offset decorations)."""
        _, members = self.types[struct_id]
        end = 0
        for index, member_type in enumerate(members):
            offset = self.member_decorations.get((struct_id, index), {}).get(DEC_OFFSET, [None])[0]
            size = self.member_size(struct_id, index, member_type)
            if offset is None or size is None:
                return None
            end = max(end, offset + size)
        return end

    def member_size(self, struct_id: int, index: int, type_id: int) -> int | None:
        op, a = self.types.get(type_id, (None, []))
        if op == OP_TYPE_MATRIX:
            stride = self.member_decorations.get((struct_id, index), {}).get(DEC_MATRIX_STRIDE, [None])[0]
            return stride * a[1] if stride else None
        return self.describe(type_id).size

    def natural_size(self, type_id: int) -> int:
        """Bytes of a type without explicit layout (shared variables): no padding, booleans as 4 bytes."""
        op, a = self.types.get(type_id, (None, []))
        if op == OP_TYPE_BOOL:
            return 4
        if op in (OP_TYPE_INT, OP_TYPE_FLOAT):
            return a[0] // 8
        if op in (OP_TYPE_VECTOR, OP_TYPE_MATRIX):
            return a[1] * self.natural_size(a[0])
        if op == OP_TYPE_ARRAY:
            return (self.constant_value(a[1]) or 0) * self.natural_size(a[0])
        if op == OP_TYPE_STRUCT:
            return sum(self.natural_size(member) for member in a)
        return 0

    def pointee(self, pointer_type: int) -> int:
        op, a = self.types[pointer_type]
        if op != OP_TYPE_POINTER:
            raise ReflectionError(f"variable type %{pointer_type} is not a pointer")
        return a[1]

    def unwrap_arrays(self, type_id: int) -> int:
        """Descriptor arrays (``buffer B {..} b[4]``) reflect as their element type."""
        while self.types.get(type_id, (None,))[0] in (OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY):
            type_id = self.types[type_id][1][0]
        return type_id
