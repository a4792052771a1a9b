"""Python AST -> kernel IR, statements: the half of :class:`~kdsl.frontend.kernels.ast.Lowerer` that turns
statement nodes into GLSL lines.

Assignments give a local variable the dtype of its first value; when a later assignment (or a helper's
``return``) needs a wider one, :class:`Widened` is raised and :func:`~kdsl.frontend.kernels.ast.lower`
translates the body again with the wider dtype. ``for`` loops run over ``range(...)`` only, with a hidden
counter so that assigning the loop variable does not change the loop, as in Python.

Example:
    >>> same_width("int32", "uint32"), same_width("int32", "int64")
    (True, False)
"""

from __future__ import annotations

import ast

from kdsl.frontend.kernels.ast_expr import BINOPS, UNSUPPORTED, weak_dtype
from kdsl.frontend.kernels.glsl import cast, literal, stored
from kdsl.frontend.kernels.ir import ArrayRef, Expr
from kdsl.frontend.kernels.types import bits, dtype_name, is_int, promote, value_dtype


class Widened(Exception):
    """A variable (or a helper's return value) needs a wider dtype: translate the body again."""


def same_width(a: str, b: str) -> bool:
    """int32 and uint32 (etc.) do not widen each other: a variable keeps its first integer type."""
    return bits(a) == bits(b)


class StatementLowerer:
    """Statement methods of :class:`~kdsl.frontend.kernels.ast.Lowerer` (a mixin: it relies on the Lowerer's
    state and on the expression methods of :class:`~kdsl.frontend.kernels.ast_expr.ExpressionLowerer`)."""

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
        if e.const is None or e.dtype == "void":
            self.emit(f"{e.code};")

    def stmt_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) != 1:
            raise self.syntax_error(node, "chained assignment (a = b = ...) is not supported in kernels")
        target = node.targets[0]
        if isinstance(target, ast.Tuple):
            return self.assign_tuple(target, node.value)
        from kdsl.frontend.kernels.intrinsics import array_constructor
        ctor = array_constructor(self, node.value)
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
            dtype = value_dtype(dtype_name(annotation))
        except ValueError:
            raise self.type_error(node.annotation, f"{ast.unparse(node.annotation)} is not a scalar type; "
                                                   "use e.g. kd.f32 or kd.i32") from None
        if name in self.locals and self.locals[name] != dtype:
            raise self.type_error(node, f"variable '{name}' already has dtype {self.locals[name]}")
        self.locals[name] = dtype
        self.hints[name] = dtype
        self.env[name] = ("var", dtype, True)
        if node.value is not None:
            self.assign(node.target, self.expr(node.value), node)

    def stmt_AugAssign(self, node: ast.AugAssign) -> None:
        op = BINOPS.get(type(node.op))
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
                return [Expr(self.dim(array, k), "int32") for k in range(array.ndim)]
        raise self.syntax_error(node, "only tuples and array.shape can be unpacked in kernels")

    def assign(self, target: ast.expr, value: Expr, node: ast.AST) -> None:
        if value.dtype == "void":
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

    def assign_name(self, target: ast.Name, value: Expr) -> None:
        name = target.id
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
        if not fixed and not value.weak and value.dtype != dtype:
            wider = promote(dtype, value.dtype) if dtype != "bool" else value.dtype
            if wider != dtype and not (is_int(dtype) and is_int(wider) and same_width(dtype, wider)):
                self.hints[name] = wider
                raise Widened(name)
        self.emit(f"v_{name} = {cast(value, dtype).code};")

    def declare_array(self, target: ast.Name, call: ast.Call, ctor: tuple) -> None:
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
        cond = cast(self.expr(node.test), "bool")
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
        cond = cast(self.expr(node.test), "bool")
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
        for a, n in zip(args, it.args, strict=False):
            if not (is_int(a.dtype)):
                raise self.type_error(n, f"range arguments must be integers, got {a.dtype}")
        start, stop, step = (Expr("0", "int32", True, 0), args[0], Expr("1", "int32", True, 1)) \
            if len(args) == 1 else (args[0], args[1], args[2] if len(args) == 3 else Expr("1", "int32", True, 1))
        strong = [a.dtype for a in (start, stop, step) if not a.weak]
        dtype = strong[0] if strong else "int32"
        for d in strong[1:]:
            dtype = promote(dtype, d)
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
        self.assign_name(node.target, Expr(f"v_{counter}", dtype))
        self.loop_depth += 1
        self.body(node.body)
        self.loop_depth -= 1
        self.depth -= 1
        self.emit("}")

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
        if value.dtype == "void":
            raise self.type_error(node.value, "this call returns no value")
        dtype = weak_dtype(value) if value.weak else value.dtype
        if self.return_dtype is None:
            self.return_dtype = dtype
            self.hints["<return>"] = dtype
        elif not value.weak and promote(self.return_dtype, dtype) != self.return_dtype \
                and self.return_dtype != "bool":
            self.hints["<return>"] = promote(self.return_dtype, dtype)
            raise Widened("<return>")
        self.emit(f"return {cast(value, self.return_dtype).code};")
