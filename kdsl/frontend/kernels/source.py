"""The Python source of a kernel or helper function: its AST, where each node sits in the user's file, and
the names it can see (closure, module globals, builtins).

Example:
    >>> src = FunctionSource(FunctionSource.lookup)  # any function defined in a file
    >>> src.tree.name, src.tree.args.args[1].arg, src.locate(src.tree)[2]
    ('lookup', 'name', 4)
"""

from __future__ import annotations
import __future__

import ast
import builtins
import importlib
import inspect
import linecache
import textwrap
from types import FunctionType, ModuleType
from typing import Any

from kdsl.frontend.kernels.errors import KernelSyntaxError, KernelTypeError


class FunctionSource:
    """Parses ``fn``'s source once; maps AST positions back to the file; resolves free names."""

    def __init__(self, fn):
        self.fn = fn
        try:
            lines, first = inspect.getsourcelines(fn)
        except (OSError, TypeError) as exc:
            raise TypeError(f"cannot read the source of {getattr(fn, '__name__', fn)!r}: kernels must be defined "
                            "in a .py file (not typed at the interactive prompt or built with exec)") from exc
        self.filename = inspect.getsourcefile(fn) or "<unknown>"
        self.first_line = first
        self.lines = [line.rstrip("\n") for line in lines]
        text = "".join(lines)
        dedented = textwrap.dedent(text)
        self.indent = _first_indent(text) - _first_indent(dedented)
        module = ast.parse(dedented)
        self.tree = next(n for n in module.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
        self.name = fn.__name__

    def locate(self, node: ast.AST) -> tuple[str, int, int, str]:
        """(filename, 1-based line in the file, 0-based column in the file, that line's text)."""
        lineno = getattr(node, "lineno", self.tree.lineno)
        col = getattr(node, "col_offset", 0) + self.indent
        line = self.lines[lineno - 1] if 0 < lineno <= len(self.lines) else ""
        return self.filename, self.first_line + lineno - 1, col, line

    def syntax_error(self, node: ast.AST, msg: str) -> KernelSyntaxError:
        return KernelSyntaxError(msg, *self.locate(node))

    def type_error(self, node: ast.AST, msg: str) -> KernelTypeError:
        return KernelTypeError(msg, *self.locate(node))

    def lookup(self, name: str):
        """The Python object ``name`` refers to in the function's closure, module or builtins; KeyError."""
        code, closure = self.fn.__code__, self.fn.__closure__ or ()
        for var, cell in zip(code.co_freevars, closure, strict=False):
            if var == name:
                try:
                    return cell.cell_contents
                except ValueError:
                    break
        if name in self.fn.__globals__:
            return self.fn.__globals__[name]
        if hasattr(builtins, name):
            return getattr(builtins, name)
        raise KeyError(name)


def function_state(fn: FunctionType) -> dict[str, Any]:
    """What rebuilds ``fn`` in another process (pickling a kernel *by source*): its source text, where it
    came from, and the values of the free names it reads (modules by name, helpers and constants by value).

    >>> from kdsl.frontend.kernels.source import function_state, function_from_state
    >>> function_from_state(function_state(_first_indent))("  x")
    2
    """
    src = FunctionSource(fn)
    tree = src.tree
    used = {n.id for part in (*tree.body, tree.args, tree.returns) if part is not None
            for n in ast.walk(part) if isinstance(n, ast.Name)}
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or (), strict=False))
    values: dict[str, Any] = {}
    modules: dict[str, str] = {}
    for name in sorted(used):
        if name in cells:
            try:
                value = cells[name].cell_contents
            except ValueError:  # an unassigned closure cell
                continue
        elif name in fn.__globals__:
            value = fn.__globals__[name]
        else:
            continue  # a builtin or a local of the function
        if isinstance(value, ModuleType):
            modules[name] = value.__name__
        else:
            values[name] = value
    return {"name": fn.__name__, "qualname": fn.__qualname__, "module": fn.__module__, "filename": src.filename,
            "first_line": src.first_line, "text": textwrap.dedent("".join(line + "\n" for line in src.lines)),
            "future": fn.__code__.co_flags & __future__.annotations.compiler_flag,
            "values": values, "modules": modules}


def function_from_state(state: dict[str, Any]) -> FunctionType:
    """The function :func:`function_state` described, defined again (without its decorators) from its source,
    which is registered with ``linecache`` so kernels can read it; line numbers are the original file's."""
    filename = f"<kdsl: {state['name']} from {state['filename']}>"
    lines = ["\n"] * (state["first_line"] - 1) + state["text"].splitlines(keepends=True)
    linecache.cache[filename] = (len(state["text"]), None, lines, filename)  # mtime None: never evicted
    module = ast.parse(state["text"])
    for node in module.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            node.decorator_list = []
    ast.increment_lineno(module, state["first_line"] - 1)
    namespace: dict[str, Any] = {"__builtins__": builtins, "__name__": state["module"]}
    namespace.update({k: importlib.import_module(m) for k, m in state["modules"].items()})
    namespace.update(state["values"])
    exec(compile(module, filename, "exec", flags=state["future"], dont_inherit=True), namespace)  # noqa: S102
    fn = namespace[state["name"]]
    fn.__qualname__ = state["qualname"]
    return fn


def _first_indent(text: str) -> int:
    for line in text.splitlines():
        if line.strip():
            return len(line) - len(line.lstrip())
    return 0
