"""``einsum``'s ``dtype=``, ``casting=``, ``order=`` and ``out=`` checks, as NumPy's C einsum makes them: the
operands are cast to one computation dtype (``dtype``, else the result type of the operands and ``out``) under
the ``casting`` rule, and the result into ``out`` under the same rule.

Example:
    >>> import numpy as np
    >>> computation_dtype([np.dtype("int32"), np.dtype("float32")], None, None, "safe")
    dtype('float64')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from kdsl.frontend.array.ufunc_arguments import check_keywords


def check_einsum_keywords(casting: Any, order: Any) -> None:
    """NumPy's ValueErrors for a ``casting`` or ``order`` it does not know (``casting='same_value'`` is not
    one einsum takes)."""
    check_keywords("einsum", casting, order)


def computation_dtype(operands: Sequence[np.dtype], dtype: Any, out: np.dtype | None, casting: str) -> np.dtype:
    """The dtype einsum computes in: ``dtype`` if given, else the operands' (and ``out``'s) result type; each
    operand must cast to it under ``casting`` (NumPy's TypeError: ``einsum('i', f8, dtype='f4')`` needs
    ``casting='same_kind'``), and it must cast to ``out``."""
    if dtype is not None:
        want = np.dtype(dtype)
    else:
        want = np.result_type(*operands, *([out] if out is not None else []))
    for i, d in enumerate(operands):
        if not np.can_cast(d, want, casting):  # type: ignore[arg-type]
            raise TypeError(f"Iterator operand {i} dtype could not be cast from dtype('{d}') to dtype('{want}') "
                            f"according to the rule '{casting}'")
    if out is not None and not np.can_cast(want, out, casting):  # type: ignore[arg-type]
        hint = _narrow_out_hint(want, out)
        raise TypeError(f"Iterator requested dtype could not be cast from dtype('{want}') to dtype('{out}'), the "
                        f"operand {len(operands)} dtype, according to the rule '{casting}'{hint}")
    return want


def _narrow_out_hint(want: np.dtype, out: np.dtype) -> str:
    """What to do where ``out`` is one of kdsl's narrower defaults (``np.empty(shape)`` is float32 in kdsl,
    float64 in NumPy: a port's ``out=`` of float64 operands then fails where NumPy's ran)."""
    if want.kind == out.kind and out.itemsize < want.itemsize and out in (np.dtype("float32"), np.dtype("int32"),
                                                                          np.dtype("complex64")):
        return (f" (kdsl's default {out.name} is narrower than NumPy's: make out with dtype=np.{want.name}, "
                "or pass casting='same_kind')")
    return ""



__all__ = ["check_einsum_keywords", "computation_dtype"]
