"""Errors raised while translating a ``@kd.kernel`` function, located in the user's own source file.

Example:
    >>> err = KernelSyntaxError("lambda expressions are not supported in kernels", "k.py", 3, 8,
    ...                         "    f = lambda t: t")
    >>> print(err)
    k.py:3:9: lambda expressions are not supported in kernels
        f = lambda t: t
            ^
"""

from __future__ import annotations

from kdsl.errors import caret_block


class _Located:
    """Mixin: a message with a file, a 1-based line, a 0-based column and the source line."""

    filename: str | None  # as SyntaxError declares them
    lineno: int | None

    def _locate(self, msg: str, filename: str, lineno: int, col: int, line: str) -> None:
        self.msg, self.filename, self.lineno, self.col, self.line = msg, filename, lineno, col, line

    def __str__(self) -> str:
        head = f"{self.filename}:{self.lineno}:{self.col + 1}: {self.msg}"
        return f"{head}\n{caret_block(self.line, self.col)}" if self.line else head


class KernelSyntaxError(_Located, SyntaxError):
    """Python the kernel translator does not support (a class, a lambda, ``try``, an unknown function...).

    ``filename``, ``lineno`` (1-based) and ``col`` (0-based) point into the user's source file; ``offset`` is
    the 1-based column, so Python's own traceback printer shows the same caret.
    """

    def __init__(self, msg: str, filename: str, lineno: int, col: int, line: str = ""):
        SyntaxError.__init__(self, msg, (filename, lineno, col + 1, line))
        self._locate(msg, filename, lineno, col, line)


class KernelTypeError(_Located, TypeError):
    """A kernel that is valid Python but ill-typed: a float index, a store into a scalar, a dtype mismatch."""

    def __init__(self, msg: str, filename: str, lineno: int, col: int, line: str = ""):
        TypeError.__init__(self, msg)
        self._locate(msg, filename, lineno, col, line)
