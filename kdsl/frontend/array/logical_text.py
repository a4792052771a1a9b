"""Text operands of NumPy's binary logical ufuncs: ``np.logical_and(a, "a")`` takes a string as its truth value
(NumPy 2 casts text to bool as Python does: non-empty is True), where every other ufunc has no loop for text.
kdsl arrays hold numbers, so the text is turned into booleans on the host before the call.

Example:
    >>> import kdsl as kd
    >>> kd.logical_and(kd.arange(3), "a").tolist(), kd.logical_or(kd.zeros(2), ["", "b"]).tolist()
    ([False, True, True], [False, True])
"""

from __future__ import annotations

from typing import Any

import numpy as np

LOGICAL = ("logical_and", "logical_or", "logical_xor")


def _is_text(x: Any) -> bool:
    return isinstance(x, (str, bytes, np.str_, np.bytes_))


def truth_of_text(x: Any) -> Any:
    """``x`` with text replaced by its truth: a string as a bool, host text data (a list or NumPy array of
    strings) as a NumPy bool array; anything else as it is."""
    if _is_text(x):
        return bool(x)
    if isinstance(x, np.ndarray) and x.dtype.kind in "US":
        return x.astype(bool)
    if isinstance(x, (list, tuple)) and any(_is_text(e) for e in np.ravel(np.asarray(x, dtype=object))):
        return np.asarray(x).astype(bool)
    return x


def logical_operands(name: str, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """The operands of ufunc ``name``: a logical ufunc's text as truth values, others unchanged."""
    if name not in LOGICAL:
        return args
    return tuple(truth_of_text(a) for a in args)


__all__ = ["logical_operands", "truth_of_text"]
