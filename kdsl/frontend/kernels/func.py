"""``@kd.func``: helper functions that kernels call, emitted as GLSL functions.

A helper is specialised for each combination of argument dtypes at its call sites. Scalar arguments are
passed by value; an array argument is bound at compile time to the caller's array (GLSL buffers are global),
so a helper may read and write arrays too. Called from ordinary Python code, a helper runs as Python.

Example:
    >>> @func
    ... def lerp(a, b, t):
    ...     return a + (b - a) * t
    >>> lerp(0.0, 10.0, 0.25)  # plain Python outside kernels
    2.5
"""

from __future__ import annotations

import ast
import functools
import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kdsl.dtype import DType
from kdsl.frontend.kernels.glsl import cast, glsl_type, literal
from kdsl.frontend.kernels.ir import VOID, Expr
from kdsl.frontend.kernels.source import FunctionSource, function_from_state, function_state

if TYPE_CHECKING:  # ast imports this module (through the intrinsics)
    from kdsl.frontend.kernels.ast import Lowerer


class Func:
    """A ``@kd.func`` helper: callable from kernels (inlined as a GLSL function) and from Python."""

    def __init__(self, fn: Callable[..., Any]):
        if not inspect.isfunction(fn):
            raise TypeError(f"@kd.func decorates a Python function, not {type(fn).__name__}")
        self.fn = fn
        functools.update_wrapper(self, fn)

    @functools.cached_property
    def src(self) -> FunctionSource:
        """The function's source and AST, read on first use (decorating stays cheap)."""
        return FunctionSource(self.fn)

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        """Pickled by source, as :class:`~kdsl.frontend.kernels.kernel.Kernel` is."""
        return _unpickle_func, (function_state(self.fn),)

    def annotations(self) -> dict[str, Any]:
        return inspect.get_annotations(self.fn, eval_str=True)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<kd.func {self.fn.__qualname__}>"


def _unpickle_func(state: dict[str, Any]) -> Func:
    return Func(function_from_state(state))


def func(fn: Callable[..., Any]) -> Func:
    """Decorator: make ``fn`` a helper that ``@kd.kernel`` functions (and other helpers) can call."""
    return Func(fn)


def _bind(lw: Lowerer, f: Func, node: ast.Call) -> inspect.BoundArguments:
    sig = inspect.signature(f.fn)
    try:
        bound = sig.bind(*node.args, **{k.arg: k.value for k in node.keywords if k.arg})
    except TypeError as exc:
        raise lw.type_error(node, f"{f.fn.__name__}(): {exc}") from None
    if any(k.arg is None for k in node.keywords):
        raise lw.syntax_error(node, "**kwargs are not supported in kernels")
    bound.apply_defaults()
    return bound


def call_func(lw: Lowerer, f: Func, node: ast.Call) -> Expr:
    """Translate a call of helper ``f``: specialise it (once per argument types) and call it."""
    from kdsl.frontend.kernels.ast import lower, weak_value_dtype  # ast -> intrinsics -> this module
    if f in lw.stack:
        raise lw.syntax_error(node, f"{f.fn.__name__}() calls itself; recursion is not supported in kernels")
    annotations = f.annotations()
    env: dict[str, tuple] = {}
    key: list[tuple] = []
    values: list[tuple[str, Expr]] = []
    for name, value in _bind(lw, f, node).arguments.items():
        if not isinstance(value, ast.expr):  # a Python default value
            env[name] = ("const", value)
            key.append((name, "const", value))
            continue
        array = lw.array_of(value)
        if array is not None:
            env[name] = ("array", array)
            key.append((name, "array", id(array)))
            continue
        e = lw.expr(value)
        ann = annotations.get(name)
        dtype = ann.value if isinstance(ann, DType) else weak_value_dtype(e)
        env[name] = ("var", dtype)
        key.append((name, "var", dtype))
        values.append((name, e))
    spec_key = (id(f), tuple(key))
    program = lw.program
    if spec_key not in program.func_specs:
        sub = lower(f.src, program, env, lw.features, mode="func", stack=lw.stack + (f,))
        glsl_name = f"f_{f.fn.__name__}_{len(program.func_specs)}"
        ret = sub.return_dtype if sub.returns_value and sub.return_dtype is not None else VOID
        params = [n for n, s in env.items() if s[0] == "var"]
        head = ", ".join(f"{glsl_type(sub.locals[p])} v_{p}" for p in params)
        lines = [f"{glsl_type(ret)} {glsl_name}({head}) {{"]
        lines += [f"    {glsl_type(t)} v_{n} = {literal(0, t)};" for n, t in sub.locals.items() if n not in params]
        lines += ["    " + line for line in sub.lines]
        program.functions.append("\n".join(lines + ["}"]))
        program.func_specs[spec_key] = (glsl_name, ret, [sub.locals[p] for p in params])
    glsl_name, ret, types = program.func_specs[spec_key]
    args = ", ".join(cast(e, t).code for (_, e), t in zip(values, types, strict=False))
    return Expr(f"{glsl_name}({args})", ret)
