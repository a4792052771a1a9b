"""One call being translated inside a kernel: the argument checks shared by every intrinsic.

:func:`~kdsl.frontend.kernels.intrinsics.lower_call` resolves the callee, wraps the call in an
:class:`IntrinsicCall` and hands it to the intrinsic's translator (:mod:`~kdsl.frontend.kernels.math`,
:mod:`~kdsl.frontend.kernels.atomics`, :mod:`~kdsl.frontend.kernels.subgroup`...), which reads its arguments
with :meth:`~IntrinsicCall.values` (translated) or :meth:`~IntrinsicCall.nargs` (AST nodes) and raises errors
pointing at the call.

Example:
    >>> import ast
    >>> c = IntrinsicCall(None, ast.parse("kd.global_id(0)").body[0].value, "kd.global_id")
    >>> len(c.nargs(0, 1))
    1
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from kdsl.frontend.kernels.errors import KernelTypeError
from kdsl.frontend.kernels.ir import Expr

if TYPE_CHECKING:  # the Lowerer's modules import this one
    from kdsl.frontend.kernels.ast import Lowerer


class IntrinsicCall:
    """One call being translated: the Lowerer, the node and the resolved name."""

    def __init__(self, lw: Lowerer, node: ast.Call, name: str):
        self.lw, self.node, self.name = lw, node, name

    def error(self, msg: str, node: ast.AST | None = None) -> KernelTypeError:
        return self.lw.type_error(node or self.node, msg)

    def nargs(self, low: int, high: int | None = None) -> list[ast.expr]:
        high = low if high is None else high
        if self.node.keywords:
            raise self.lw.syntax_error(self.node, f"{self.name}() takes positional arguments only in kernels")
        n = len(self.node.args)
        if not low <= n <= high:
            count = str(low) if low == high else f"{low} to {high}"
            raise self.error(f"{self.name}() takes {count} argument(s), {n} given")
        return self.node.args

    def values(self, low: int, high: int | None = None) -> list[Expr]:
        return [self.lw.expr(a) for a in self.nargs(low, high)]

    def axis(self) -> int:
        args = self.nargs(0, 1)
        axis = self.lw.const_int(args[0]) if args else 0
        if axis not in (0, 1, 2):
            raise self.error(f"{self.name}() axis must be 0, 1 or 2, got {axis}", args[0])
        return axis
