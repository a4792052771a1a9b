"""Python AST -> kernel IR: the translator behind ``@kd.kernel`` and ``@kd.func``.

A :class:`Lowerer` walks one function body. Statements become GLSL lines, expressions become typed
:class:`~kdsl.frontend.kernels.ir.Expr` values. Local variables take the dtype of their first assignment and
widen when a later one needs more (``s = 0`` then ``s += x[i]`` with float x makes ``s`` a float): the body
is then translated again with the widened dtypes, until nothing changes (:func:`lower`).

The statement methods live in :mod:`kdsl.frontend.kernels.ast_stmt`, the expression methods in
:mod:`kdsl.frontend.kernels.ast_expr`, :mod:`~kdsl.frontend.kernels.ast_operators` and
:mod:`~kdsl.frontend.kernels.ast_indexing`; calls (``kd.sin``, ``kd.atomic_add``, ``min``...) are in
:mod:`kdsl.frontend.kernels.intrinsics`.

Example:
    >>> from kdsl import dtype as dt
    >>> "Lambda" in UNSUPPORTED, weak_value_dtype(Expr("x", dt.float64)), weak_value_dtype(Expr("1", dt.int32, True, 1))
    (True, kdsl.float64, kdsl.int32)
"""

from __future__ import annotations

from kdsl.dtype import DType
from kdsl.frontend.kernels.ast_expr import UNSUPPORTED
from kdsl.frontend.kernels.ast_operators import weak_dtype
from kdsl.frontend.kernels.ast_stmt import StatementLowerer, Widened
from kdsl.frontend.kernels.ir import Expr, KernelProgram
from kdsl.frontend.kernels.source import FunctionSource


class Lowerer(StatementLowerer):
    """Translates one function body. ``env`` maps parameter names to symbols: ``("var", dtype)``,
    ``("array", ArrayRef)`` or ``("const", value)``. ``hints`` carries widened dtypes between passes."""

    def __init__(self, src: FunctionSource, program: KernelProgram, env: dict[str, tuple],
                 hints: dict[str, DType], features: set[str] | None, mode: str = "kernel", stack: tuple = ()):
        self.src, self.program, self.env, self.hints = src, program, dict(env), dict(hints)
        self.features, self.mode, self.stack = features, mode, stack
        self.lines: list[str] = []
        self.depth = 0
        # Scalar parameters are variables from the start (assigning one is allowed, as in Python).
        self.locals: dict[str, DType] = {n: self.hints.get(n, s[1]) for n, s in env.items() if s[0] == "var"}
        self.nonneg: set[str] = set()
        self.loop_depth = 0
        self.trips = 1
        self.temp_count = 0
        self.return_dtype: DType | None = hints.get("<return>")
        self.returns_value: bool | None = None


def lower(src: FunctionSource, program: KernelProgram, env: dict[str, tuple], features: set[str] | None,
          mode: str = "kernel", stack: tuple = ()) -> Lowerer:
    """Translate ``src``'s body until no variable needs widening; returns the final :class:`Lowerer`."""
    hints: dict[str, DType] = {}
    for _ in range(32):
        snapshot = (list(program.arrays), list(program.push), list(program.functions),
                    dict(program.func_specs), set(program.features), program.uses_barrier, program.loop_trips)
        lw = Lowerer(src, program, env, hints, features, mode, stack)
        try:
            lw.body(src.tree.body)
            return lw
        except Widened:
            hints = lw.hints
            (program.arrays, program.push, program.functions, program.func_specs,
             program.features, program.uses_barrier, program.loop_trips) = snapshot
    raise src.type_error(src.tree, "variable dtypes did not settle; annotate the variables (x: kd.f32 = 0)")


def weak_value_dtype(e: Expr) -> DType:
    return weak_dtype(e) if e.weak else e.dtype


__all__ = ["Lowerer", "lower", "UNSUPPORTED"]
