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

from kdsl.errors import numpy_exception_class
from kdsl.frontend.array.ufunc_errors import input_casting_error, no_matching_loop_error

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
    if casting == "equiv" and _PYTHON_DEFAULT[type(value)] != dtype:
        raise TypeError(f"cannot cast Python {type(value).__name__} to {dtype} under the casting rule "
                        f"'{casting}'; pass casting='same_kind', or a NumPy scalar of {dtype}")
    if casting == "no" and not _weak_fits_kind(value, dtype):  # NumPy's UFuncTypeError names the default dtype
        raise input_casting_error(name, i, _PYTHON_DEFAULT[type(value)], dtype, casting,
                                  f"pass casting='same_kind', or a NumPy scalar of {dtype}")
    if casting in ("safe", "same_kind"):
        source = np.result_type(dtype, value)  # the weak scalar's dtype next to the loop's
        if not np.can_cast(source, dtype, casting):  # type: ignore[arg-type]
            raise input_casting_error(name, i, source, dtype, casting,
                                      "pass casting='unsafe' or cast the input with astype")
    if isinstance(value, (bool, int)):
        return np.asarray(value, dtype=dtype)[()]  # NumPy's OverflowError for 300 as int8
    return np.asarray(value).astype(dtype)[()]  # unsafe float -> int truncates, as NumPy's loop cast


def signature_scalar(name: str, i: int, value: int | float | complex, dtype: np.dtype, casting: str) -> Any:
    """A weak Python scalar input ``i`` in a loop that ``signature=`` named: NumPy converts it as Python does,
    with no casting check (``np.fmod(0.5, -5, signature='ii->i')`` truncates 0.5 to 0, where ``dtype=`` raises),
    so NaN into integers is Python's ValueError, a complex into reals its TypeError and an int out of range
    NumPy's OverflowError; only ``'equiv'`` refuses another dtype than the scalar's own, as with ``dtype=``.

    >>> signature_scalar("fmod", 0, 2.7, np.dtype(np.int8), "same_kind")
    np.int8(2)
    """
    if casting == "equiv" and _PYTHON_DEFAULT[type(value)] != dtype:
        return scalar_operand(name, i, value, dtype, casting)  # its TypeError
    if dtype.kind in "iu":
        return np.asarray(int(value), dtype=dtype)[()]  # type: ignore[arg-type]  # int(1j): Python's TypeError
    python = {"b": bool, "f": float, "c": complex}[dtype.kind]
    return np.asarray(python(value), dtype=dtype)[()]


def fixed_inputs(nin: int, signature: Any) -> tuple[bool, ...]:
    """For each input, whether ``signature=`` names its loop dtype (a type string names all; a tuple those
    entries that are not None).

    >>> fixed_inputs(2, "dd->d"), fixed_inputs(2, (None, "i", "i")), fixed_inputs(2, None)
    ((True, True), (False, True), (False, False))
    """
    if isinstance(signature, tuple):
        return tuple(e is not None for e in signature[:nin])
    return (signature is not None,) * nin


def bool_out_inputs(name: str, nin: int, signature: Any) -> np.dtype | None:
    """The inputs' loop dtype that ``signature=`` names for a ufunc whose output is bool (comparisons,
    ``isnan``..., ``logical_*``): ``'dd->?'``, ``(np.float32, np.float32, None)``; None where it names none.
    An output other than bool, inputs of different dtypes or a loop NumPy lacks is NumPy's TypeError.

    >>> bool_out_inputs("less", 2, "dd->?"), bool_out_inputs("less", 2, (None, None, "?"))
    (dtype('float64'), None)
    """
    if isinstance(signature, str):
        before, _, after = signature.partition("->")
        entries: list[Any] = [c for c in before if c not in ", "] + [c for c in after if c not in ", "]
    else:
        entries = list(signature) if isinstance(signature, tuple) else [signature] * (nin + 1)
    given = [_numpy_dtype(e) for e in entries]
    found = {d for d in given[:nin] if d is not None}
    if any(d is not None and d != np.dtype(bool) for d in given[nin:]) or len(found) > 1:
        raise no_matching_loop_error(name)
    if not found:
        return None
    dtype = found.pop()
    if not any(t.split("->")[0] == dtype.char * nin for t in getattr(np, name).types):
        raise no_matching_loop_error(name)
    return dtype


def _numpy_dtype(entry: Any) -> np.dtype | None:
    """A signature entry as NumPy's dtype (a kdsl DType, a type code, a scalar type or a DType class)."""
    if entry is None:
        return None
    entry = getattr(entry, "np", entry)
    if isinstance(entry, type) and issubclass(entry, np.dtype):
        return np.dtype(getattr(entry, "type"))  # noqa: B009 - the class attribute
    return np.dtype(entry)


_KIND_RANK = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}


def _weak_fits_kind(value: bool | int | float | complex, dtype: np.dtype) -> bool:
    """Whether NumPy's ``casting='no'`` lets a Python scalar into a loop of ``dtype``: a bool only into bool, an
    int into any number, a float into floats and complex numbers, a complex into complex numbers (the size does
    not matter: ``np.add(2.5, f4_array, dtype=np.float32, casting='no')`` computes)."""
    rank, want = _KIND_RANK[_PYTHON_DEFAULT[type(value)].kind], _KIND_RANK[dtype.kind]
    return want == 0 if rank == 0 else 0 < rank <= want


def check_input_casting(name: str, args: tuple, casting: str) -> None:
    """NumPy's input casting check of a call without ``dtype=``: under ``casting='no'``/``'equiv'``/``'safe'``
    each input must cast to the loop NumPy resolves for the inputs' dtypes (``np.add(int32, float32,
    casting='no')`` raises: its loop is float64). NumPy's own ufunc decides, called on empty arrays of the
    inputs' dtypes with the Python scalars themselves: its rules for weak scalars have no public form (a Python
    int into a float loop passes ``'no'`` next to a float32 array, ``np.add(f4, 2, casting='no')``, but not alone,
    ``np.cos(4, casting='no')``; under ``'equiv'`` any Python scalar into another dtype is a TypeError). Ufuncs
    NumPy lacks, inputs it has no loop for and Python ints out of range are left to kdsl's function.

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
    try:
        with np.errstate(all="ignore"):
            npf(*(_placeholder(a) for a in args), casting=casting)
    except _NUMPY_INPUT_CASTING as e:
        raise input_casting_error(name, getattr(e, "in_i", 0), getattr(e, "from_", None), getattr(e, "to", None),
                                  casting, "pass casting='same_kind' or cast the input with astype") from None
    except _NUMPY_NO_LOOP:  # no NumPy loop for these dtypes: kdsl's function decides (and names the way)
        return
    except TypeError as e:  # a Python scalar under 'equiv' ("cannot cast Python int to int8 ...")
        raise TypeError(f"{name}: {e} (NumPy's rule under casting={casting!r}); pass casting='same_kind', or cast "
                        "the operands with astype (a Python scalar: a NumPy scalar of the array's dtype)") from None
    except (ValueError, OverflowError):  # a Python int out of range: kdsl's own error, as without casting=
        return


_NUMPY_INPUT_CASTING = numpy_exception_class("_UFuncInputCastingError")
_NUMPY_NO_LOOP = numpy_exception_class("_UFuncNoLoopError")


def _placeholder(a: Any) -> Any:
    """An input as NumPy's type resolution sees it: a Python scalar itself (weak, NEP 50; a bool is not weak
    but NumPy reads it so too), anything else an empty array of its dtype."""
    if type(a) in (bool, int, float, complex):
        return a
    dtype = getattr(a, "dtype", None)
    return np.empty(0, np.dtype(getattr(dtype, "np", dtype)) if dtype is not None else np.asarray(a).dtype)


def checked_signature(name: str, nin: int, nout: int, signature: Any) -> Any:
    """``signature=`` checked as NumPy checks it, before kdsl reads its dtypes: a type string with ``nin``
    codes before ``->`` and ``nout`` after (ValueError otherwise; bytes are decoded first, as NumPy's), a tuple
    of ``nin + nout`` entries (ValueError); anything else is NumPy 2's TypeError, a bare dtype (``np.float64``) or
    one type code (``"d"``) included: those are ``dtype=``'s spelling.

    >>> checked_signature("add", 2, 1, "dd->d")
    'dd->d'
    >>> checked_signature("add", 2, 1, np.float64)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: the signature object to ufunc must be a string or a tuple. (pass dtype=... for one loop dtype)
    """
    if isinstance(signature, bytes):
        signature = signature.decode()  # NumPy's UnicodeDecodeError for bytes that are not text
    if isinstance(signature, str) and len(signature) == 1:  # one type code: NumPy 2 refuses it as dtype= spelt
        raise TypeError(f"Use `dtype` or  fill the tuple with more than one 'None'. (signature={signature!r}: "
                        f"pass dtype={signature!r} for one loop dtype)")
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
    if signature is None:
        return signature
    # a bare dtype (np.float64, kd.float32): NumPy 2 refuses it, dtype= is that spelling
    hint = f" (pass dtype={signature!r} for one loop dtype)" if isinstance(signature, (type, np.dtype)) or \
        hasattr(signature, "np") else ""
    raise TypeError(f"the signature object to ufunc must be a string or a tuple.{hint}")
