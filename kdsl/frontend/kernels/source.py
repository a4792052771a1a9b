"""The Python source of a kernel or helper function: its AST, where each node sits in the user's file, and
the names it can see (closure, module globals, builtins).

Example:
    >>> src = FunctionSource(FunctionSource.lookup)  # any function defined in a file
    >>> src.tree.name, src.tree.args.args[1].arg, src.locate(src.tree)[2]
    ('lookup', 'name', 4)
"""

from __future__ import annotations

import ast
import builtins
import inspect
import textwrap

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


def _first_indent(text: str) -> int:
    for line in text.splitlines():
        if line.strip():
            return len(line) - len(line.lstrip())
    return 0
