"""Read the instructions of a SPIR-V module (the tests check what the compiler emitted, not the GLSL text)."""

from __future__ import annotations

import numpy as np

OP_DECORATE, NO_CONTRACTION = 71, 42


def instructions(spirv: bytes) -> list[tuple[int, list[int]]]:
    """``(opcode, operand words)`` of each instruction after the 5-word header."""
    words = np.frombuffer(spirv, dtype=np.uint32)
    out, at = [], 5
    while at < len(words):
        count, op = int(words[at]) >> 16, int(words[at]) & 0xFFFF
        out.append((op, [int(w) for w in words[at + 1:at + count]]))
        at += count
    return out


def no_contraction_ids(spirv: bytes) -> set[int]:
    return {ops[0] for op, ops in instructions(spirv) if op == OP_DECORATE and ops[1] == NO_CONTRACTION}
