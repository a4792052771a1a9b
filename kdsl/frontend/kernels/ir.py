"""The kernel IR: what the Python-AST translator (``kernel_ast``) hands the GLSL renderer (``kernel_glsl``).

A kernel is a :class:`KernelProgram`: its arrays (storage buffers, shared and per-invocation arrays), its
push-constant fields (grid size, array shapes, scalar arguments), its local variables with their dtypes, and
its body as typed statements whose expressions are :class:`Expr` values (GLSL text + dtype). Expressions are
typed while they are built, so the renderer only lays out declarations around them.

Example:
    >>> from kdsl import dtype as dt
    >>> x = ArrayRef("x", dt.float32, 1, "buffer", binding=0)
    >>> x.glsl, x.dim(0)
    ('b_x', 'pc.x_shape0')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kdsl.dtype import DType

# The "dtype" of a call that returns nothing (kd.barrier(), a helper without a return value).
VOID = DType("void", np.dtype(np.void), "void", "void", None, None)


@dataclass
class Expr:
    """A typed GLSL expression. ``weak`` marks a Python literal, whose dtype yields to the other operand's
    (``x * 2`` keeps x's dtype); ``const`` holds the Python value of a compile-time constant."""

    code: str
    dtype: DType
    weak: bool = False
    const: Any = None
    nonneg: bool = False  # known to be >= 0 (thread indices): an index that needs no wrapping


@dataclass
class ArrayRef:
    """An array a kernel reads or writes. ``kind``: ``buffer`` (a kernel argument, binding ``binding``),
    ``shared`` (``kd.shared``, one per workgroup) or ``local`` (``kd.local_array``, one per invocation);
    the last two have a static ``shape``."""

    name: str
    dtype: DType
    ndim: int
    kind: str
    binding: int | None = None
    shape: tuple[int, ...] | None = None
    read: bool = False
    written: bool = False

    @property
    def glsl(self) -> str:
        return {"buffer": "b_", "shared": "s_", "local": "l_"}[self.kind] + self.name

    def dim(self, axis: int) -> str:
        """GLSL text of the extent of ``axis``: a literal for static shapes, a push constant for buffers."""
        if self.shape is not None:
            return str(self.shape[axis])
        return f"pc.{self.name}_shape{axis}"


@dataclass(frozen=True)
class PushField:
    """One push-constant member. ``source`` says where the host takes its value: ``("grid", axis)``,
    ``("shape", param, axis)`` or ``("scalar", param)``."""

    name: str
    dtype: DType
    source: tuple


@dataclass
class KernelProgram:
    """A translated kernel, ready to render. ``features`` are the device features the code needs
    (``kdsl.runtime.list_devices()`` names); the helper functions the body calls are found in its text by
    :func:`kdsl.codegen.helpers.needed`. ``loop_trips`` is the proven number of loop iterations of one
    invocation (constant ``range`` bounds, nested loops multiplied), for the device's loop budget."""

    name: str
    local_size: tuple[int, int, int]
    arrays: list[ArrayRef] = field(default_factory=list)
    push: list[PushField] = field(default_factory=list)
    locals: dict[str, DType] = field(default_factory=dict)
    prologue: list[str] = field(default_factory=list)
    body: list[str] = field(default_factory=list)
    functions: list[str] = field(default_factory=list)
    func_specs: dict = field(default_factory=dict)
    extensions: set[str] = field(default_factory=set)
    features: set[str] = field(default_factory=set)
    uses_barrier: bool = False
    loop_trips: int = 0

    @property
    def buffers(self) -> list[ArrayRef]:
        return sorted((a for a in self.arrays if a.kind == "buffer"), key=lambda a: a.binding or 0)
