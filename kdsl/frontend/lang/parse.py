"""The kdsl language's syntax: the lark parser for ``kdsl.lark`` and the errors that point into the text.

:func:`parse` turns one or more ``target = expr`` statements into a lark tree; text that does not parse raises
:class:`KdslSyntaxError`, whose message names what was expected and puts a caret under the column.
:func:`column_of` gives the position of a tree or token, for errors found later (:class:`KdslError`).

Example:
    >>> target, assign, value = parse("y = x + 1").children[0].children
    >>> str(target.children[0]), str(value.data), column_of(value)
    ('y', 'binop', (5, 1))
    >>> parse("y = x +")
    Traceback (most recent call last):
    ...
    kdsl.frontend.lang.compute.KdslSyntaxError: syntax error: unexpected end of text
        y = x +
               ^
"""

from __future__ import annotations

import functools
from pathlib import Path

from lark import Lark, Token, Tree, UnexpectedInput

from kdsl.errors import caret_block

_TERMINAL_WORDS = {"ASSIGN": "'='", "NAME": "a name", "INT": "an integer", "NUMBER": "a number",
                   "_SEP": "';' or a new line"}


class KdslError(ValueError):
    """An error in kdsl-language text; ``column`` is 1-based, ``text`` the full source."""

    def __init__(self, msg: str, text: str, column: int, line: int = 1):
        self.msg, self.text, self.column, self.line = msg, text, column, line
        src_line = text.splitlines()[line - 1] if text.splitlines() else ""
        super().__init__(f"{msg}\n{_indent(caret_block(src_line, column - 1))}")


class KdslSyntaxError(KdslError):
    """Text that does not parse."""


# Both errors are imported from kdsl.frontend.lang.compute (and re-exported as kd.KdslError): tracebacks keep naming
# them after that module.
KdslError.__module__ = KdslSyntaxError.__module__ = "kdsl.frontend.lang.compute"


def _indent(block: str) -> str:
    return "\n".join("    " + line for line in block.splitlines())


@functools.cache
def parser() -> Lark:
    grammar = (Path(__file__).with_name("kdsl.lark")).read_text()
    return Lark(grammar, start="program", parser="lalr", propagate_positions=True)


def parse(text: str) -> Tree:
    """Parse kdsl-language text (one or more ``target = expr`` statements) into a lark tree."""
    if not isinstance(text, str):
        raise TypeError(f"kdsl expressions are strings, got {type(text).__name__}")
    if not text.strip():
        raise KdslSyntaxError("empty text: write a statement like 'y = x + 1'", text, 1)
    try:
        return parser().parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text) from None


def _syntax_error(exc: UnexpectedInput, text: str) -> KdslSyntaxError:
    token = getattr(exc, "token", None)
    lines = text.splitlines() or [""]
    line = max(getattr(exc, "line", 1) or 1, 1)
    if token is not None and token.type == "$END":
        what, line = "unexpected end of text", len(lines)
        column = len(lines[-1]) + 1
    elif token is not None:
        what, column = f"unexpected {str(token)!r}", exc.column
    else:
        column = exc.column
        what = f"unexpected character {text[exc.pos_in_stream or 0]!r}"
    expected = sorted(_friendly(t) for t in (getattr(exc, "expected", None) or getattr(exc, "allowed", None)
                                              or ()))
    if 0 < len(expected) <= 4:
        what += f"; expected {' or '.join(expected)}"
    return KdslSyntaxError(f"syntax error: {what}", text, column, line)


def _friendly(terminal: str) -> str:
    if terminal in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[terminal]
    try:
        pattern = parser().get_terminal(terminal).pattern
    except KeyError:
        return terminal
    return repr(pattern.value) if pattern.type == "str" else terminal.lower()


def column_of(node) -> tuple[int, int]:
    """(column, line) of a token or tree (1-based)."""
    if isinstance(node, Token):
        return node.column or 1, node.line or 1
    meta = node.meta
    return (meta.column, meta.line) if not meta.empty else (1, 1)
