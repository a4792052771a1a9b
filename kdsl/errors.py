"""Error-message helpers shared by every layer (no kdsl imports: any module may use them).

Example:
    >>> print(caret_block("x = a +", 7))
    x = a +
           ^
    >>> shape_text((3, 4)), shape_text((2,)), shape_text(())
    ('(3,4)', '(2,)', '()')
"""

from __future__ import annotations


def caret_block(text: str, column: int) -> str:
    """``text`` followed by a caret under 0-based ``column`` (tabs kept so the caret lines up)."""
    pad = "".join(c if c == "\t" else " " for c in text[:column])
    return f"{text}\n{pad}^"


def shape_text(shape: tuple[int, ...]) -> str:
    """``shape`` as NumPy's indexing errors print it, without spaces: ``(3,4)``, ``(2,)``, ``()``."""
    return str(tuple(shape)).replace(" ", "")
