"""The errors of a ufunc whose operand or result cannot be cast: NumPy's classes and messages.

NumPy raises ``UFuncTypeError`` subclasses (private, in ``numpy._core._exceptions``) that print as
``numpy._core._exceptions._UFuncOutputCastingError: Cannot cast ufunc 'divide' output from dtype('float64') to
dtype('int64') with casting rule 'same_kind'``. kdsl's errors subclass them, so an ``except`` clause written
for NumPy's class (or for ``TypeError``) catches kdsl's, and their message starts with NumPy's, followed by
kdsl's hint on the fix.

Example:
    >>> import numpy as np
    >>> err = output_casting_error("divide", np.dtype("float64"), np.dtype("int64"), "same_kind", "the fix")
    >>> print(err)
    Cannot cast ufunc 'divide' output from dtype('float64') to dtype('int64') with casting rule 'same_kind'; the fix
    >>> isinstance(err, TypeError), type(err).__name__
    (True, 'UFuncTypeError')
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl.errors import numpy_exception_class


class UFuncTypeError(numpy_exception_class("UFuncTypeError")):  # type: ignore[misc]
    """A ufunc whose operands or result cannot be cast under its casting rule (NumPy's class of that name, a
    TypeError); the message is the one given, not built from a NumPy ufunc object as NumPy's is."""

    def __init__(self, message: str, ufunc: Any = None) -> None:
        TypeError.__init__(self, message)
        self.ufunc = ufunc

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class _OutputCastingError(UFuncTypeError, numpy_exception_class("_UFuncOutputCastingError")):  # type: ignore[misc]
    __str__ = UFuncTypeError.__str__


class _InputCastingError(UFuncTypeError, numpy_exception_class("_UFuncInputCastingError")):  # type: ignore[misc]
    __str__ = UFuncTypeError.__str__


class _NoLoopError(UFuncTypeError, numpy_exception_class("_UFuncNoLoopError")):  # type: ignore[misc]
    __str__ = UFuncTypeError.__str__


class _StringOperandError(_NoLoopError, np.exceptions.DTypePromotionError):
    __str__ = UFuncTypeError.__str__


# tracebacks name the public base, as NumPy's do
for _cls in (_OutputCastingError, _InputCastingError, _NoLoopError, _StringOperandError):
    _cls.__name__ = _cls.__qualname__ = "UFuncTypeError"


def _np_dtype(d: Any) -> np.dtype:
    return np.dtype(getattr(d, "np", d))


def output_casting_error(name: str, from_: Any, to: Any, casting: str, hint: str = "") -> UFuncTypeError:
    """NumPy's error for ufunc ``name`` (NumPy's name: ``'divide'``, not an operator) whose result of dtype
    ``from_`` cannot be cast to the output's ``to``; ``hint`` (the fix) follows NumPy's message."""
    f, t = _np_dtype(from_), _np_dtype(to)
    err = _OutputCastingError(f"Cannot cast ufunc {name!r} output from {f!r} to {t!r} with casting rule "
                              f"{casting!r}" + (f"; {hint}" if hint else ""))
    err.casting, err.from_, err.to, err.out_i = casting, f, t, 0
    return err


def input_casting_error(name: str, i: int, from_: Any, to: Any, casting: str, hint: str = "") -> UFuncTypeError:
    """NumPy's error for input ``i`` of ufunc ``name`` that cannot be cast from ``from_`` to the loop's ``to``."""
    f, t = _np_dtype(from_), _np_dtype(to)
    err = _InputCastingError(f"Cannot cast ufunc {name!r} input {i} from {f!r} to {t!r} with casting rule "
                             f"{casting!r}" + (f"; {hint}" if hint else ""))
    err.casting, err.from_, err.to, err.in_i = casting, f, t, i
    return err


def no_loop_error(name: str, *dtypes: Any) -> UFuncTypeError:
    """NumPy's error for ufunc ``name`` that has no loop for its inputs' ``dtypes`` (``np.positive`` of bools)."""
    types = ", ".join(f"<class 'numpy.dtypes.{type(_np_dtype(d)).__name__}'>" for d in dtypes)
    return _NoLoopError(f"ufunc {name!r} did not contain a loop with signature matching types {types} -> None")


def no_matching_loop_error(name: str) -> UFuncTypeError:
    """NumPy's error for a ``dtype=``/``signature=`` (or a fold's operand) that names no loop of ufunc ``name``.
    NumPy raises a plain TypeError or its UFuncTypeError for the same call depending on its dispatch cache
    (``np.equal.reduce`` of ints), so kdsl's is the subclass: ``except`` clauses for either catch it."""
    return _NoLoopError(f"No loop matching the specified signature and casting was found for ufunc {name}")


TEXT_LABELS_HINT = ("compute integer codes on the device, e.g. codes = kd.select(conds, [0, 1], 2), and pick the "
                    "labels on the host: [labels[i] for i in codes.tolist()]")
"""What to do instead of text choices in ``where``/``select``/``choose`` (docs/numpy-api.md, "Not there yet")."""


def text_data_error(message: str) -> UFuncTypeError:
    """The error for host text data made into a kdsl array (``kd.sinc(["a"])``): the class of
    :func:`string_operand_error`, so ``except`` clauses written for NumPy's errors on text catch it."""
    return _StringOperandError(message)


def string_operand_error(x: Any) -> UFuncTypeError:
    """The error for a ``str``/``bytes`` operand (``a + "1"``, ``kd.clip(a, "0", 1)``): NumPy has no numeric loop
    for it (its UFuncTypeError; ``where`` fails promoting it: DTypePromotionError), so the error is both.

    >>> isinstance(string_operand_error("1"), np.exceptions.DTypePromotionError)
    True
    """
    return _StringOperandError(f"unsupported operand of type {type(x).__name__} ({x!r:.20}): kdsl arrays hold "
                               f"numbers; convert a number's string first (float(s), int(s)); for labels, "
                               f"{TEXT_LABELS_HINT}")


__all__ = ["UFuncTypeError", "input_casting_error", "no_loop_error", "no_matching_loop_error", "output_casting_error",
           "string_operand_error", "text_data_error"]
