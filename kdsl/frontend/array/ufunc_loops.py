"""The loop a ufunc's ``dtype=`` names, as NumPy resolves it: the check that the loop exists, and the Python
scalar operands converted into it.

NumPy reads ``np.divide(a, b, dtype=X)`` as "the loop whose operands are all X" (``comparison(dtype=bool)`` is
the one exception: there ``dtype`` is the output's, and the inputs keep their loop). Where the ufunc has no such
loop (``np.sqrt(x, dtype=np.int8)``, ``np.divide(i, j, dtype=np.int32)``, ``np.equal(a, b, dtype=float)``) it
raises ``TypeError``; otherwise every operand is cast to X under ``casting``, Python scalars included
(``np.add(3, 4, dtype=np.int8)`` is int8, ``np.add(3.5, 4.0, dtype=np.int32)`` a ``same_kind`` error).
``signature=`` is checked first as NumPy checks it (operand counts of a type string or tuple).

    >>> import numpy as np
    >>> has_loop("sqrt", np.dtype("float32")), has_loop("sqrt", np.dtype("int8"))
    (True, False)
    >>> scalar_operand("add", 0, 3, np.dtype("int8"), "same_kind")
    np.int8(3)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl.frontend.array.ufunc_errors import input_casting_error

# the dtype NumPy gives a Python scalar where its exact type matters ('no' / 'equiv' casting)
_PYTHON_DEFAULT = {bool: np.dtype(bool), int: np.dtype(np.int64), float: np.dtype(np.float64),
                   complex: np.dtype(np.complex128)}


def has_loop(name: str, dtype: np.dtype, bool_out: bool = False) -> bool:
    """Whether NumPy's ufunc ``name`` has a loop whose operands are all ``dtype`` (for a comparison,
    ``bool_out``: whether ``dtype`` is bool, its only output). True for a name NumPy has no ufunc for."""
    npf = getattr(np, name, None)
    if not isinstance(npf, np.ufunc):
        return True
    if bool_out:
        return dtype == np.dtype(bool)
    return any(all(np.dtype(c) == dtype for c in t.replace("->", "")) for t in npf.types if "O" not in t)


def scalar_operand(name: str, i: int, value: bool | int | float | complex, dtype: np.dtype, casting: str) -> Any:
    """Python scalar input ``i`` as a NumPy scalar of the loop's ``dtype``, after NumPy's ``casting`` check.

    A Python scalar is weak: under ``safe``/``same_kind`` it may become any dtype of its kind or a wider
    kind (``3`` as int8, ``3.0`` as float16), and NumPy names the dtype it would promote to in the error
    (``3.5`` to int32: float64). Under ``no``/``equiv`` only its own default dtype (int64, float64...) will
    do. A NumPy scalar of the dtype is strong, so the kdsl function computes in ``dtype`` even when every
    operand was a Python scalar."""
    if casting in ("no", "equiv") and _PYTHON_DEFAULT[type(value)] != dtype:
        raise TypeError(f"cannot cast Python {type(value).__name__} to {dtype} under the casting rule "
                        f"'{casting}'")
    if casting in ("safe", "same_kind"):
        source = np.result_type(dtype, value)  # the weak scalar's dtype next to the loop's
        if not np.can_cast(source, dtype, casting):  # type: ignore[arg-type]
            raise input_casting_error(name, i, source, dtype, casting,
                                      "pass casting='unsafe' or cast the input with astype")
    if isinstance(value, (bool, int)):
        return np.asarray(value, dtype=dtype)[()]  # NumPy's OverflowError for 300 as int8
    return np.asarray(value).astype(dtype)[()]  # unsafe float -> int truncates, as NumPy's loop cast


def check_input_casting(name: str, args: tuple, casting: str) -> None:
    """NumPy's input casting check of a call without ``dtype=``: under ``casting='no'``/``'equiv'``/``'safe'``
    each input must cast to the loop NumPy resolves for the inputs' dtypes (``np.add(int32, float32,
    casting='no')`` raises: its loop is float64). Python scalars count as weak, as in NumPy; ufuncs NumPy lacks,
    and inputs NumPy has no loop for, are left to kdsl's function.

    >>> check_input_casting("add", (np.ones(2, np.float32), 1.0), "no")
    >>> try:
    ...     check_input_casting("add", (np.ones(2, np.int32), np.ones(2, np.float32)), "no")
    ... except TypeError as e:
    ...     print(str(e).split(";")[0])
    Cannot cast ufunc 'add' input 0 from dtype('int32') to dtype('float64') with casting rule 'no'
    """
    npf = getattr(np, name, None)
    if casting in ("same_kind", "unsafe") or not isinstance(npf, np.ufunc) or len(args) != npf.nin:
        return
    spec = tuple(_loop_input(a) for a in args) + (None,) * npf.nout
    try:
        loop = npf.resolve_dtypes(spec, casting="unsafe")
    except (TypeError, ValueError):  # no NumPy loop (or a dtype it does not take): kdsl's function decides
        return
    for i, (given, want) in enumerate(zip(spec[:npf.nin], loop[:npf.nin], strict=True)):
        # a weak Python scalar takes the loop's dtype (np.add(f4, 2.5, casting='no') is float32)
        if not isinstance(given, type) and not np.can_cast(given, want, casting):  # type: ignore[arg-type]
            raise input_casting_error(name, i, given, want, casting, "pass casting='same_kind' or cast the input "
                                      "with astype")


def _loop_input(a: Any) -> Any:
    """An input as ``ufunc.resolve_dtypes`` takes it: Python scalars as their (weak) type, others' dtype."""
    if type(a) is bool:  # Python's bools are not weak in NEP 50: np.multiply(u8, True, casting='no') raises
        return np.dtype(bool)
    if type(a) in (int, float, complex):
        return type(a)
    dtype = getattr(a, "dtype", None)
    return np.dtype(getattr(dtype, "np", dtype)) if dtype is not None else np.asarray(a).dtype


def checked_signature(name: str, nin: int, nout: int, signature: Any) -> Any:
    """``signature=`` checked as NumPy checks it, before kdsl reads its dtypes: a type string with ``nin``
    codes before ``->`` and ``nout`` after (ValueError otherwise; bytes are decoded first, as NumPy's), a tuple
    of ``nin + nout`` entries (ValueError), or one dtype; anything else is NumPy's TypeError."""
    if isinstance(signature, bytes):
        signature = signature.decode()  # NumPy's UnicodeDecodeError for bytes that are not text
    if isinstance(signature, str):
        before, arrow, after = signature.partition("->")
        codes = [c for c in before if c not in ", "], [c for c in after if c not in ", "]
        if not arrow or len(codes[0]) != nin or len(codes[1]) != nout:
            raise ValueError(f"a type-string for {name}, {nin} typecode(s) before and {nout} after the -> sign")
        for c in codes[0] + codes[1]:
            try:
                np.dtype(c)
            except TypeError:
                raise ValueError(f"Invalid data-type for array: {c!r} in signature {signature!r}") from None
        return signature
    if isinstance(signature, tuple) and len(signature) == 1:  # NumPy 2 refuses one-entry tuples (dtype= is that)
        if signature[0] is None:
            raise TypeError("a single item type tuple cannot contain None.")
        raise TypeError("Use `dtype` or  fill the tuple with more than one 'None'.")
    if isinstance(signature, tuple):
        if len(signature) != nin + nout:
            raise ValueError(f"a type-tuple must be specified of length {nin + nout} for ufunc '{name}'")
        return signature
    if signature is None or isinstance(signature, (type, np.dtype)) or hasattr(signature, "np"):
        return signature  # one dtype for every operand (a kdsl DType has .np)
    raise TypeError("the signature object to ufunc must be a string or a tuple.")
