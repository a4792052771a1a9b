"""Python AST -> kernel IR: the translator behind ``@kd.kernel`` and ``@kd.func``.

A :class:`Lowerer` walks one function body. Statements become GLSL lines, expressions become typed
:class:`~kdsl.frontend.kernel_ir.Expr` values. Local variables take the dtype of their first assignment and
widen when a later one needs more (``s = 0`` then ``s += x[i]`` with float x makes ``s`` a float): the body
is then translated again with the widened dtypes, until nothing changes (:func:`lower`).

Calls (``kd.sin``, ``kd.atomic_add``, ``min``...) are in :mod:`kdsl.frontend.kernel_intrinsics`.
"""

from __future__ import annotations

import ast
import operator

from .kernel_glsl import cast, helper, literal, load, stored
from .kernel_ir import ArrayRef, Expr, KernelProgram, PushField
from .kernel_source import FunctionSource
from .kernel_types import KType, dtype_name, is_float, is_int, is_signed, promote, value_dtype

# Python constructs a kernel cannot contain, with the words used in the error message.
UNSUPPORTED = {
    "ClassDef": "class definitions", "Lambda": "lambda expressions", "Try": "try statements",
    "TryStar": "try statements", "With": "with statements", "AsyncWith": "with statements",
    "ListComp": "list comprehensions", "SetComp": "set comprehensions", "DictComp": "dict comprehensions",
    "GeneratorExp": "generator expressions", "List": "list literals", "Dict": "dict literals",
    "Set": "set literals", "JoinedStr": "f-strings", "Yield": "yield", "YieldFrom": "yield",
    "Await": "await", "Global": "global statements", "Nonlocal": "nonlocal statements",
    "Delete": "del statements", "Import": "import statements", "ImportFrom": "import statements",
    "Raise": "raise statements", "Assert": "assert statements", "FunctionDef": "nested function definitions "
    "(define helpers at module level with @kd.func)", "AsyncFunctionDef": "async functions",
    "AsyncFor": "async for", "NamedExpr": "assignment expressions (:=)", "Starred": "starred expressions",
    "Match": "match statements", "Slice": "slices (index one element at a time)",
}

_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
           ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<",
           ast.RShift: ">>", ast.MatMult: "@"}
_FOLD = {"+": operator.add, "-": operator.sub, "*": operator.mul, "&": operator.and_, "|": operator.or_,
         "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift}
_COMPARE = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}


class _Widened(Exception):
    """A variable (or a helper's return value) needs a wider dtype: translate the body again."""


def _weak_dtype(e: Expr) -> str:
    """The dtype a Python literal gets on its own: bool, int32 (int64 when too big), float32."""
    if e.dtype == "bool" or is_float(e.dtype):
        return e.dtype
    return "int32" if -(2 ** 31) <= int(e.const) < 2 ** 31 else "int64"


class Lowerer:
    """Translates one function body. ``env`` maps parameter names to symbols: ``("var", dtype)``,
    ``("array", ArrayRef)`` or ``("const", value)``. ``hints`` carries widened dtypes between passes."""

    def __init__(self, src: FunctionSource, program: KernelProgram, env: dict, hints: dict[str, str],
                 features: set[str] | None, mode: str = "kernel", stack: tuple = ()):
        self.src, self.program, self.env, self.hints = src, program, dict(env), dict(hints)
        self.features, self.mode, self.stack = features, mode, stack
        self.lines: list[str] = []
        self.depth = 0
        # Scalar parameters are variables from the start (assigning one is allowed, as in Python).
        self.locals: dict[str, str] = {n: self.hints.get(n, s[1]) for n, s in env.items() if s[0] == "var"}
        self.loop_depth = 0
        self.temp_count = 0
        self.return_dtype: str | None = hints.get("<return>")
        self.returns_value: bool | None = None

    # ----- errors, output ---------------------------------------------------------------------------
    def syntax_error(self, node: ast.AST, msg: str):
        return self.src.syntax_error(node, msg)

    def type_error(self, node: ast.AST, msg: str):
        return self.src.type_error(node, msg)

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def need(self, feature: str, node: ast.AST, what: str) -> None:
        """Record that the kernel needs a device feature; fail early when the device lacks it."""
        if self.features is not None and feature not in self.features:
            raise self.type_error(node, f"{what} needs the device feature '{feature}', which this device lacks")
        self.program.features.add(feature)

    def temp(self, dtype: str) -> str:
        self.temp_count += 1
        name = f"t{self.temp_count}_"
        self.locals[name] = dtype
        return name

    # ----- statements -------------------------------------------------------------------------------
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
        from .kernel_intrinsics import array_constructor
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
        op = _BINOPS.get(type(node.op))
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
            name = self.temp(v.dtype if not v.weak else _weak_dtype(v))
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
            dtype = self.hints.get(name) or (_weak_dtype(value) if value.weak else value.dtype)
            self.locals[name] = dtype
            self.env[name] = ("var", dtype, fixed)
        dtype = self.locals[name]
        if not fixed and not value.weak and value.dtype != dtype:
            wider = promote(dtype, value.dtype) if dtype != "bool" else value.dtype
            if wider != dtype and not (is_int(dtype) and is_int(wider) and _same_width(dtype, wider)):
                self.hints[name] = wider
                raise _Widened(name)
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
        dtype = _weak_dtype(value) if value.weak else value.dtype
        if self.return_dtype is None:
            self.return_dtype = dtype
            self.hints["<return>"] = dtype
        elif not value.weak and promote(self.return_dtype, dtype) != self.return_dtype \
                and self.return_dtype != "bool":
            self.hints["<return>"] = promote(self.return_dtype, dtype)
            raise _Widened("<return>")
        self.emit(f"return {cast(value, self.return_dtype).code};")

    # ----- expressions ------------------------------------------------------------------------------
    def expr(self, node: ast.expr, allow_void: bool = False) -> Expr:
        kind = type(node).__name__
        method = getattr(self, f"expr_{kind}", None)
        if method is None:
            what = UNSUPPORTED.get(kind, f"'{kind}' expressions")
            raise self.syntax_error(node, f"{what} are not supported in kernels")
        e = method(node)
        if e.dtype == "void" and not allow_void:
            raise self.type_error(node, "this call returns no value")
        return e

    def expr_Constant(self, node: ast.Constant) -> Expr:
        v = node.value
        if isinstance(v, bool):
            return Expr(literal(v, "bool"), "bool", True, v)
        if isinstance(v, int):
            dtype = "int32" if -(2 ** 31) <= v < 2 ** 31 else "int64"
            return Expr(literal(v, dtype), dtype, True, v)
        if isinstance(v, float):
            return Expr(literal(v, "float32"), "float32", True, v)
        if isinstance(v, str):
            raise self.syntax_error(node, "strings are not supported in kernels")
        raise self.syntax_error(node, f"constants of type {type(v).__name__} are not supported in kernels")

    def expr_Name(self, node: ast.Name) -> Expr:
        name = node.id
        if name in self.locals:
            return Expr(f"v_{name}", self.locals[name])
        symbol = self.env.get(name)
        if symbol is not None:
            if symbol[0] == "var":
                return Expr(f"v_{name}", symbol[1])
            if symbol[0] == "const":
                return self.constant(symbol[1], node)
            raise self.type_error(node, f"array '{name}' cannot be used as a value; index it: {name}[i]")
        if name in self.hints and not name.startswith("<"):
            raise self.type_error(node, f"variable '{name}' is used before it is assigned")
        value = self.py_lookup(name, node)
        return self.constant(value, node)

    def constant(self, value, node: ast.AST) -> Expr:
        """A Python value frozen into the kernel (a constexpr argument or a global number)."""
        import numpy as np
        if isinstance(value, (bool, np.bool_)):
            return Expr(literal(bool(value), "bool"), "bool", True, bool(value))
        if isinstance(value, np.generic) and value.dtype.name in ("float64", "float32", "int64", "uint64",
                                                                 "int32", "uint32"):
            d = value.dtype.name
            return Expr(literal(value.item(), d), d, False, value.item())
        if isinstance(value, (int, float)):
            return self.expr_Constant(ast.Constant(value=value))
        if isinstance(value, np.ndarray):
            raise self.type_error(node, f"global array '{ast.unparse(node)}' cannot be used in a kernel; "
                                        "pass it as an argument")
        raise self.type_error(node, f"'{ast.unparse(node)}' is a {type(value).__name__}, which kernels cannot "
                                    "use as a value")

    def py_lookup(self, name: str, node: ast.AST | None = None):
        try:
            return self.src.lookup(name)
        except KeyError:
            if node is None:
                return None
            raise self.type_error(node, f"name '{name}' is not defined") from None

    def py_value(self, node: ast.expr):
        """The Python object a ``Name`` / ``Attribute`` chain denotes (``kd``, ``kd.f32``, ``math.pi``)."""
        if isinstance(node, ast.Name):
            if node.id in self.locals or node.id in self.env:
                raise self.type_error(node, f"'{node.id}' is a kernel value, not a Python object")
            return self.py_lookup(node.id, node)
        if isinstance(node, ast.Attribute):
            base = self.py_value(node.value)
            try:
                return getattr(base, node.attr)
            except AttributeError:
                raise self.type_error(node, f"'{ast.unparse(node.value)}' has no attribute '{node.attr}'") \
                    from None
        raise self.syntax_error(node, f"'{ast.unparse(node)}' is not a name")

    def expr_Attribute(self, node: ast.Attribute) -> Expr:
        array = self.array_of(node.value) if isinstance(node.value, ast.Name) else None
        if array is not None:
            if node.attr == "ndim":
                return Expr(str(array.ndim), "int32", True, array.ndim)
            if node.attr == "size":
                dims = [self.dim(array, k) for k in range(array.ndim)] or ["1"]
                return Expr("(" + " * ".join(dims) + ")", "int32")
            if node.attr == "shape":
                raise self.syntax_error(node, f"index the shape: {ast.unparse(node)}[0]")
            raise self.syntax_error(node, f"arrays in kernels have .shape, .ndim and .size, not .{node.attr}")
        return self.constant(self.py_value(node), node)

    def expr_Subscript(self, node: ast.Subscript) -> Expr:
        value = node.value
        if isinstance(value, ast.Attribute) and value.attr == "shape":
            array = self.array_of(value.value)
            if array is not None:
                axis = self.const_int(node.slice)
                if not -array.ndim <= axis < array.ndim:
                    raise self.type_error(node.slice, f"'{ast.unparse(value.value)}' has {array.ndim} "
                                                      f"dimension(s); shape[{axis}] does not exist")
                return Expr(self.dim(array, axis % array.ndim), "int32")
        array = self.array_of(value)
        if array is None:
            raise self.type_error(value, f"'{ast.unparse(value)}' is not an array; only arrays can be indexed")
        index = self.index(array, node.slice)
        array.read = True
        return load(array, index)

    def array_of(self, node: ast.expr) -> ArrayRef | None:
        if isinstance(node, ast.Name):
            symbol = self.env.get(node.id)
            if symbol is not None and symbol[0] == "array":
                return symbol[1]
        return None

    def dim(self, array: ArrayRef, axis: int) -> str:
        """The extent of ``axis``; registers the push-constant field that carries it."""
        if array.kind == "buffer":
            field = PushField(f"{array.name}_shape{axis}", "int32", ("shape", array.name, axis))
            if field not in self.program.push:
                self.program.push.append(field)
        return array.dim(axis)

    def const_int(self, node: ast.expr) -> int:
        e = self.expr(node)
        if e.const is None or not isinstance(e.const, int) or isinstance(e.const, bool):
            raise self.type_error(node, f"'{ast.unparse(node)}' must be a constant integer here")
        return e.const

    def index(self, array: ArrayRef, slice_node: ast.expr) -> str:
        items = slice_node.elts if isinstance(slice_node, ast.Tuple) else [slice_node]
        if len(items) != array.ndim:
            raise self.type_error(slice_node, f"'{array.name}' has {array.ndim} dimension(s) but "
                                              f"{len(items)} index(es) were given")
        parts = []
        for axis, item in enumerate(items):
            if isinstance(item, ast.Slice):
                raise self.syntax_error(item, "slices are not supported in kernels (index one element at a time)")
            e = self.expr(item)
            if not is_int(e.dtype):
                raise self.type_error(item, f"array indices must be integers, got {e.dtype}")
            if e.const is not None and e.const < 0:  # a literal negative index counts from the end
                parts.append(f"({self.dim(array, axis)} - {-e.const})")
            else:
                parts.append(cast(e, "int32").code)
        linear = parts[0] if parts else "0"
        for axis in range(1, len(parts)):
            linear = f"({linear} * {self.dim(array, axis)} + {parts[axis]})"
        return linear

    def expr_Tuple(self, node: ast.Tuple) -> Expr:
        raise self.syntax_error(node, "tuples are only allowed in indices, shapes and unpacking assignments")

    def expr_UnaryOp(self, node: ast.UnaryOp) -> Expr:
        e = self.expr(node.operand)
        if isinstance(node.op, ast.Not):
            b = cast(e, "bool")
            return Expr(f"(!{b.code})", "bool", const=None if b.const is None else not b.const)
        if isinstance(node.op, ast.UAdd):
            return e
        if isinstance(node.op, ast.USub):
            if e.const is not None:
                return Expr(literal(-e.const, e.dtype if e.dtype != "bool" else "int32"),
                            e.dtype if e.dtype != "bool" else "int32", e.weak, -e.const)
            e = cast(e, "int32") if e.dtype == "bool" else e
            return Expr(f"(-{e.code})", e.dtype)
        if not is_int(e.dtype) and e.dtype != "bool":
            raise self.type_error(node, f"~ needs an integer or bool operand, got {e.dtype}")
        if e.dtype == "bool":
            return Expr(f"(!{e.code})", "bool")
        return Expr(f"(~{e.code})", e.dtype)

    def expr_BinOp(self, node: ast.BinOp) -> Expr:
        op = _BINOPS.get(type(node.op))
        return self.binary(op, self.expr(node.left), self.expr(node.right), node)

    def operand_dtype(self, a: Expr, b: Expr) -> str:
        """Python literals are weak: ``x * 2`` keeps x's dtype, ``i * 0.5`` with int i gives float32."""
        if a.weak and not b.weak:
            a, b = b, a
        if b.weak and not a.weak:
            if is_float(b.dtype) and not is_float(a.dtype):
                return "float32"
            return "int32" if a.dtype == "bool" and b.dtype != "bool" else a.dtype
        if a.weak and b.weak:
            return promote(_weak_dtype(a), _weak_dtype(b))
        return promote(a.dtype, b.dtype)

    def binary(self, op: str, a: Expr, b: Expr, node: ast.AST) -> Expr:
        if op == "@":
            raise self.syntax_error(node, "the @ operator is not supported in kernels; write the loops")
        if op in ("&", "|", "^") and a.dtype == "bool" and b.dtype == "bool":
            glsl = {"&": "&&", "|": "||", "^": "^^"}[op]
            return Expr(f"({a.code} {glsl} {b.code})", "bool")
        dtype = self.operand_dtype(a, b)
        if op == "/":
            dtype = dtype if is_float(dtype) else "float32"
        if op == "**":
            return self.power(a, b, dtype, node)
        if op in ("&", "|", "^", "<<", ">>") and not is_int(dtype):
            raise self.type_error(node, f"'{op}' needs integer operands, got {a.dtype} and {b.dtype}")
        x, y = cast(a, dtype), cast(b, dtype)
        if x.const is not None and y.const is not None and op in _FOLD and is_int(dtype) and a.weak and b.weak:
            value = _FOLD[op](x.const, y.const)
            return Expr(literal(value, dtype), dtype, True, value)
        if op == "//":
            if is_float(dtype):
                return Expr(f"floor({x.code} / {y.code})", dtype)
            if is_signed(dtype):
                return self.call_helper("floordiv", dtype, x, y)
            op = "/"
        if op == "%":
            if is_float(dtype):
                return Expr(f"mod({x.code}, {y.code})", dtype)
            if is_signed(dtype):
                return self.call_helper("pymod", dtype, x, y)
        return Expr(f"({x.code} {op} {y.code})", dtype)

    def call_helper(self, kind: str, dtype: str, x: Expr, y: Expr) -> Expr:
        name, text = helper(kind, dtype)
        self.program.helpers.add((name, text))
        return Expr(f"{name}({x.code}, {y.code})", dtype)

    def power(self, a: Expr, b: Expr, dtype: str, node: ast.AST) -> Expr:
        if b.const is not None and isinstance(b.const, int) and 0 <= b.const <= 8 and not is_float(b.dtype):
            if b.const == 0:
                return Expr(literal(1, dtype), dtype)
            x = cast(a, dtype)
            if "(" in x.code or " " in x.code:  # evaluate once
                t = self.temp(dtype)
                self.emit(f"v_{t} = {x.code};")
                x = Expr(f"v_{t}", dtype)
            return Expr("(" + " * ".join([x.code] * b.const) + ")", dtype)
        ftype = dtype if is_float(dtype) else "float32"
        from .kernel_intrinsics import float_call
        return float_call("pow", [cast(a, ftype), cast(b, ftype)], ftype)

    def expr_BoolOp(self, node: ast.BoolOp) -> Expr:
        glsl = " && " if isinstance(node.op, ast.And) else " || "
        parts = [cast(self.expr(v), "bool").code for v in node.values]
        return Expr("(" + glsl.join(parts) + ")", "bool")

    def expr_Compare(self, node: ast.Compare) -> Expr:
        parts, left = [], self.expr(node.left)
        for op_node, right_node in zip(node.ops, node.comparators, strict=False):
            op = _COMPARE.get(type(op_node))
            if op is None:
                raise self.syntax_error(node, f"the '{type(op_node).__name__}' comparison is not supported in "
                                              "kernels (use ==, !=, <, <=, >, >=)")
            right = self.expr(right_node)
            dtype = self.operand_dtype(left, right)
            parts.append(f"({cast(left, dtype).code} {op} {cast(right, dtype).code})")
            left = right
        return Expr(parts[0] if len(parts) == 1 else "(" + " && ".join(parts) + ")", "bool")

    def expr_IfExp(self, node: ast.IfExp) -> Expr:
        cond = cast(self.expr(node.test), "bool")
        a, b = self.expr(node.body), self.expr(node.orelse)
        dtype = self.operand_dtype(a, b)
        return Expr(f"({cond.code} ? {cast(a, dtype).code} : {cast(b, dtype).code})", dtype)

    def expr_Call(self, node: ast.Call) -> Expr:
        from .kernel_intrinsics import lower_call
        return lower_call(self, node)


def _same_width(a: str, b: str) -> bool:
    """int32 and uint32 (etc.) do not widen each other: a variable keeps its first integer type."""
    from .kernel_types import bits
    return bits(a) == bits(b)


def lower(src: FunctionSource, program: KernelProgram, env: dict, features: set[str] | None,
          mode: str = "kernel", stack: tuple = ()) -> Lowerer:
    """Translate ``src``'s body until no variable needs widening; returns the final :class:`Lowerer`."""
    hints: dict[str, str] = {}
    for _ in range(32):
        snapshot = (list(program.arrays), list(program.push), set(program.helpers), list(program.functions),
                    dict(program.func_specs), set(program.features), program.uses_barrier)
        lw = Lowerer(src, program, env, hints, features, mode, stack)
        try:
            lw.body(src.tree.body)
            return lw
        except _Widened:
            hints = lw.hints
            (program.arrays, program.push, program.helpers, program.functions, program.func_specs,
             program.features, program.uses_barrier) = snapshot
    raise src.type_error(src.tree, "variable dtypes did not settle; annotate the variables (x: kd.f32 = 0)")


def weak_value_dtype(e: Expr) -> str:
    return _weak_dtype(e) if e.weak else e.dtype


__all__ = ["Lowerer", "lower", "UNSUPPORTED", "KType"]
