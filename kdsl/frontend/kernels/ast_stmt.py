"""Python AST -> kernel IR, statements: the half of :class:`~kdsl.frontend.kernels.ast.Lowerer` that turns
statement nodes into GLSL lines.

Assignments give a local variable the dtype of its first value; when a later assignment (or a helper's
``return``) needs a wider one, :class:`Widened` is raised and :func:`~kdsl.frontend.kernels.ast.lower`
translates the body again with the wider dtype. ``for`` loops run over ``range(...)`` only, with a hidden
counter so that assigning the loop variable does not change the loop, as in Python.

Loops with constant ``range`` bounds add their trip count (times the enclosing loops') to
``program.loop_trips``, which the launcher checks against the device's loop budget.

Example:
    >>> from kdsl import dtype as dt
    >>> same_width(dt.int32, dt.uint32), same_width(dt.int32, dt.int64)
    (True, False)
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING
from typing import cast as typed

from kdsl import dtype as dt
from kdsl.dtype import DType, promotion
from kdsl.frontend.kernels.ast_expr import UNSUPPORTED
from kdsl.frontend.kernels.ast_indexing import IndexingLowerer
from kdsl.frontend.kernels.ast_operators import BINOPS, OperatorLowerer, weak_dtype
from kdsl.frontend.kernels.glsl import cast, literal, stored
from kdsl.frontend.kernels.ir import VOID, ArrayRef, Expr
from kdsl.frontend.kernels.types import as_kernel_dtype

if TYPE_CHECKING:  # the Lowerer is built from this mixin
    from kdsl.frontend.kernels.ast import Lowerer


class Widened(Exception):
    """A variable (or a helper's return value) needs a wider dtype: translate the body again."""


def same_width(a: DType, b: DType) -> bool:
    """int32 and uint32 (etc.) do not widen each other: a variable keeps its first integer type."""
    return a.itemsize == b.itemsize


class StatementLowerer(OperatorLowerer, IndexingLowerer):
    """Statement methods of :class:`~kdsl.frontend.kernels.ast.Lowerer` (on top of the expression methods)."""

    mode: str
    loop_depth: int
    trips: int  # proven iterations of the enclosing loops (1 outside loops)
    return_dtype: DType | None
    returns_value: bool | None

    def body(self, stmts: list[ast.stmt]) -> None:
        for i, stmt in enumerate(stmts):
            if i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
                    and isinstance(stmt.value.value, str):
                continue  # docstring
            self.statement(stmt)

    def block(self, stmts: list[ast.stmt]) -> None:
        self.depth += 1
        self.body(stmts)
        self.depth -= 1

    def statement(self, node: ast.stmt) -> None:
        kind = type(node).__name__
        method = getattr(self, f"stmt_{kind}", None)
        if method is None:
            what = UNSUPPORTED.get(kind, f"'{kind}' statements")
            raise self.syntax_error(node, f"{what} are not supported in kernels")
        method(node)

    def stmt_Pass(self, node: ast.Pass) -> None:
        pass

    def stmt_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            raise self.syntax_error(node.value, "strings are not supported in kernels")
        e = self.expr(node.value, allow_void=True)
        if e.const is None or e.dtype is VOID:
            self.emit(f"{e.code};")

    def stmt_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) != 1:
            raise self.syntax_error(node, "chained assignment (a = b = ...) is not supported in kernels")
        target = node.targets[0]
        if isinstance(target, ast.Tuple):
            return self.assign_tuple(target, node.value)
        from kdsl.frontend.kernels.intrinsics import array_constructor  # cycle: intrinsics lowers through here
        ctor = array_constructor(typed("Lowerer", self), node.value)
        if ctor is not None:
            if not isinstance(target, ast.Name):
                raise self.syntax_error(node, "kd.shared / kd.local_array must be assigned to a plain name")
            return self.declare_array(target, node.value, ctor)
        self.assign(target, self.expr(node.value), node)

    def stmt_AnnAssign(self, node: ast.AnnAssign) -> None:
        if not isinstance(node.target, ast.Name):
            raise self.syntax_error(node, "annotated assignment needs a plain variable name")
        name = node.target.id
        annotation = self.py_value(node.annotation)
        try:
            dtype = as_kernel_dtype(annotation).value
        except ValueError:
            raise self.type_error(node.annotation, f"{ast.unparse(node.annotation)} is not a scalar type; "
                                                   "use e.g. kd.f32 or kd.i32") from None
        if name in self.locals and self.locals[name] != dtype:
            raise self.type_error(node, f"variable '{name}' already has dtype {self.locals[name].name}")
        self.locals[name] = dtype
        self.hints[name] = dtype
        self.env[name] = ("var", dtype, True)
        if node.value is not None:
            self.assign(node.target, self.expr(node.value), node)

    def stmt_AugAssign(self, node: ast.AugAssign) -> None:
        op = BINOPS[type(node.op)]
        current = self.expr(node.target)
        value = self.binary(op, current, self.expr(node.value), node)
        self.assign(node.target, value, node)

    def assign_tuple(self, target: ast.Tuple, value_node: ast.expr) -> None:
        if isinstance(value_node, ast.Tuple):
            values = [self.expr(v) for v in value_node.elts]
        else:
            values = self.tuple_value(value_node)
        if len(values) != len(target.elts):
            raise self.syntax_error(target, f"cannot unpack {len(values)} values into {len(target.elts)} names")
        temps = []
        for v in values:  # evaluate everything first: a, b = b, a
            name = self.temp(v.dtype if not v.weak else weak_dtype(v))
            self.emit(f"v_{name} = {cast(v, self.locals[name]).code};")
            temps.append(Expr(f"v_{name}", self.locals[name]))
        for t, v in zip(target.elts, temps, strict=False):
            self.assign(t, v, t)

    def tuple_value(self, node: ast.expr) -> list[Expr]:
        """Values of a tuple-valued expression other than a literal tuple: ``x.shape``."""
        if isinstance(node, ast.Attribute) and node.attr == "shape":
            array = self.array_of(node.value)
            if array is not None:
                return [Expr(self.dim(array, k), dt.int32, nonneg=True) for k in range(array.ndim)]
        raise self.syntax_error(node, "only tuples and array.shape can be unpacked in kernels")

    def assign(self, target: ast.expr, value: Expr, node: ast.AST) -> None:
        if value.dtype is VOID:
            raise self.type_error(node, "this call returns no value")
        if isinstance(target, ast.Subscript):
            array = self.array_of(target.value)
            if array is None:
                raise self.type_error(target, f"'{ast.unparse(target.value)}' is not an array; only arrays "
                                              "can be indexed")
            index = self.index(array, target.slice)
            array.written = True
            self.emit(f"{array.glsl}[{index}] = {stored(array, value)};")
            return
        if isinstance(target, ast.Attribute):
            raise self.syntax_error(target, "attributes cannot be assigned in kernels")
        if not isinstance(target, ast.Name):
            raise self.syntax_error(target, f"cannot assign to {type(target).__name__} in kernels")
        self.assign_name(target, value)

    def assign_name(self, target: ast.Name, value: Expr, nonneg: bool | None = None) -> None:
        """``name = value``; the name is known >= 0 (no index wrapping) when it is a local assigned only here
        from a value >= 0 (locals start at 0; a parameter's incoming value is unknown)."""
        name = target.id
        nonneg = value.nonneg if nonneg is None else nonneg
        if nonneg and self.env.get(name, ("",))[0] != "var" and self.stored_once(name):
            self.nonneg.add(name)
        else:
            self.nonneg.discard(name)
        symbol = self.env.get(name)
        if symbol is not None and symbol[0] == "array":
            raise self.type_error(target, f"'{name}' is an array; write its elements ({name}[i] = ...) "
                                          "instead of rebinding it")
        if symbol is not None and symbol[0] == "const":
            raise self.type_error(target, f"'{name}' is a compile-time constant and cannot be assigned")
        fixed = symbol is not None and len(symbol) > 2 and symbol[2]
        if name not in self.locals:
            dtype = self.hints.get(name) or (weak_dtype(value) if value.weak else value.dtype)
            self.locals[name] = dtype
            self.env[name] = ("var", dtype, fixed)
        dtype = self.locals[name]
        if not fixed and not value.weak and value.dtype is not dtype:
            wider = promotion.promote(dtype, value.dtype) if dtype is not dt.bool_ else value.dtype
            if wider is not dtype and not (dtype.is_int and value.dtype.is_int and same_width(dtype, value.dtype)):
                self.hints[name] = wider
                raise Widened(name)
        self.emit(f"v_{name} = {cast(value, dtype).code};")

    def declare_array(self, target: ast.Name, call: ast.expr, ctor: tuple) -> None:
        kind, shape, dtype = ctor
        name = target.id
        if name in self.env or name in self.locals:
            raise self.type_error(target, f"'{name}' is already defined; give the {kind} array its own name")
        if self.mode != "kernel":
            raise self.syntax_error(call, f"{kind} arrays are declared in the kernel, not in a @kd.func helper")
        if self.loop_depth or self.depth:
            raise self.syntax_error(call, f"declare {kind} arrays at the top level of the kernel body")
        array = ArrayRef(name, dtype, len(shape), kind, shape=shape)
        self.program.arrays.append(array)
        self.env[name] = ("array", array)

    def stmt_If(self, node: ast.If) -> None:
        cond = cast(self.expr(node.test), dt.bool_)
        self.emit(f"if ({cond.code}) {{")
        self.block(node.body)
        if node.orelse:
            self.emit("} else {")
            self.block(node.orelse)
        self.emit("}")

    def stmt_While(self, node: ast.While) -> None:
        if node.orelse:
            raise self.syntax_error(node, "while ... else is not supported in kernels")
        self.emit("while (true) {")
        self.depth += 1
        cond = cast(self.expr(node.test), dt.bool_)
        self.emit(f"if (!{cond.code}) break;")
        self.loop_depth += 1
        self.body(node.body)
        self.loop_depth -= 1
        self.depth -= 1
        self.emit("}")

    def stmt_For(self, node: ast.For) -> None:
        if node.orelse:
            raise self.syntax_error(node, "for ... else is not supported in kernels")
        if not isinstance(node.target, ast.Name):
            raise self.syntax_error(node.target, "the loop variable must be a plain name")
        it = node.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
                and self.py_lookup(it.func.id) is range):
            raise self.syntax_error(it, "kernels loop over range(...) only; iterate over indices, not arrays")
        if it.keywords or not 1 <= len(it.args) <= 3:
            raise self.syntax_error(it, "range takes 1 to 3 positional arguments")
        args = [self.expr(a) for a in it.args]
        for a, n in zip(args, it.args, strict=True):
            if not a.dtype.is_int:
                raise self.type_error(n, f"range arguments must be integers, got {a.dtype.name}")
        one = Expr("1", dt.int32, True, 1, nonneg=True)
        start, stop, step = (Expr("0", dt.int32, True, 0, nonneg=True), args[0], one) if len(args) == 1 \
            else (args[0], args[1], args[2] if len(args) == 3 else one)
        strong = [a.dtype for a in (start, stop, step) if not a.weak]
        dtype = promotion.promote(*strong) if strong else dt.int32
        if step.const == 0:
            raise self.type_error(it, "range() step must not be zero")
        counter, end, inc = self.temp(dtype), self.temp(dtype), self.temp(dtype)
        self.emit(f"v_{end} = {cast(stop, dtype).code};")
        self.emit(f"v_{inc} = {cast(step, dtype).code};")
        if step.const is not None:
            test = f"v_{counter} {'<' if step.const > 0 else '>'} v_{end}"
        else:
            zero = literal(0, dtype)
            test = f"(v_{inc} > {zero} ? v_{counter} < v_{end} : v_{counter} > v_{end})"
        # A hidden counter keeps Python's semantics: assigning the loop variable does not change the loop.
        self.emit(f"for (v_{counter} = {cast(start, dtype).code}; {test}; v_{counter} += v_{inc}) {{")
        self.depth += 1
        counting_up = start.nonneg and step.const is not None and step.const > 0
        self.assign_name(node.target, Expr(f"v_{counter}", dtype), nonneg=counting_up)
        # The loop budget: constant bounds count fully (as if run to completion), others as one iteration.
        known = all(isinstance(a.const, int) for a in (start, stop, step))
        outer = self.trips
        self.trips = outer * (len(range(start.const, stop.const, step.const)) if known else 1)
        self.program.loop_trips += self.trips if known else 0
        self.loop_depth += 1
        self.body(node.body)
        self.loop_depth -= 1
        self.trips = outer
        self.depth -= 1
        self.emit("}")
        self.nonneg.discard(node.target.id)

    def stored_once(self, name: str) -> bool:
        """Whether the function assigns ``name`` in one place only (an assignment, a loop variable...)."""
        stores = [n for n in ast.walk(self.src.tree)
                  if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)]
        return len(stores) == 1

    def stmt_Break(self, node: ast.Break) -> None:
        if not self.loop_depth:
            raise self.syntax_error(node, "'break' outside a loop")
        self.emit("break;")

    def stmt_Continue(self, node: ast.Continue) -> None:
        if not self.loop_depth:
            raise self.syntax_error(node, "'continue' outside a loop")
        self.emit("continue;")

    def stmt_Return(self, node: ast.Return) -> None:
        if self.mode == "kernel":
            if node.value is not None:
                raise self.syntax_error(node, "kernels return nothing: write results into an array argument")
            self.emit("return;")
            return
        if node.value is None:
            if self.returns_value:
                raise self.type_error(node, "this helper returns a value elsewhere; return one here too")
            self.returns_value = False
            self.emit("return;")
            return
        if self.returns_value is False:
            raise self.type_error(node, "this helper returns no value elsewhere; return nothing here too")
        self.returns_value = True
        value = self.expr(node.value)
        if value.dtype is VOID:
            raise self.type_error(node.value, "this call returns no value")
        dtype = weak_dtype(value) if value.weak else value.dtype
        if self.return_dtype is None:
            self.return_dtype = dtype
            self.hints["<return>"] = dtype
        elif not value.weak and promotion.promote(self.return_dtype, dtype) is not self.return_dtype \
                and self.return_dtype is not dt.bool_ \
                and not (dtype.is_int and self.return_dtype.is_int and same_width(dtype, self.return_dtype)):
            self.hints["<return>"] = promotion.promote(self.return_dtype, dtype)
            raise Widened("<return>")
        self.emit(f"return {cast(value, self.return_dtype).code};")
