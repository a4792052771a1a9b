"""The loop of a ufunc call, as NumPy resolves it: the casting checks of a call without ``dtype=``, and the loop
``dtype=``/``signature=`` name, decided by NumPy's own ufunc on empty arrays of the inputs' dtypes (with the
Python scalars themselves, whose NEP 50 rules have no public form), then the inputs converted into it.

``dtype=`` names the outputs' dtype and the loop follows, as in NumPy: ``np.divide(a, b, dtype=X)`` runs the
loop whose operands are all X, ``np.absolute(complex64, dtype=np.float64)`` runs ``'D->d'``, a comparison's
``dtype=bool`` keeps its inputs' loop. No such loop (``np.sqrt(x, dtype=np.int8)``) is TypeError; a Python scalar
converts into its loop dtype under ``casting`` (``np.add(3.5, 4.0, dtype=np.int32)`` is a ``same_kind`` error),
except at an input ``signature=`` names, where NumPy converts it as Python does (``np.fmod(0.5, -5,
signature='ii->i')`` is 0). ``signature=`` itself is checked first as NumPy checks it (operand counts of a type
string or tuple; NumPy 2 refuses a bare dtype).

    >>> import numpy as np
    >>> has_loop("sqrt", np.dtype("float32")), has_loop("sqrt", np.dtype("int8"))
    (True, False)
    >>> numpy_loop("add", (np.ones(2, np.int8), 3), np.int16, None, "same_kind")
    (dtype('int16'), dtype('int16'), dtype('int16'))
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from kdsl.errors import numpy_exception_class
from kdsl.frontend.array.ufunc_errors import input_casting_error, no_matching_loop_error, output_casting_error


def has_loop(name: str, dtype: np.dtype, bool_out: bool = False) -> bool:
    """Whether NumPy's ufunc ``name`` has a loop whose operands are all ``dtype`` (for a comparison,
    ``bool_out``: whether ``dtype`` is bool, its only output). True for a name NumPy has no ufunc for."""
    npf = getattr(np, name, None)
    if not isinstance(npf, np.ufunc):
        return True
    if bool_out:
        return dtype == np.dtype(bool)
    return any(all(np.dtype(c) == dtype for c in t.replace("->", "")) for t in npf.types if "O" not in t)


def fixed_inputs(nin: int, signature: Any) -> tuple[bool, ...]:
    """For each input, whether ``signature=`` names its loop dtype (a type string names all; a tuple those
    entries that are not None).

    >>> fixed_inputs(2, "dd->d"), fixed_inputs(2, (None, "i", "i")), fixed_inputs(2, None)
    ((True, True), (False, True), (False, False))
    """
    if isinstance(signature, tuple):
        return tuple(e is not None for e in signature[:nin])
    return (signature is not None,) * nin


def _numpy_dtype(entry: Any) -> np.dtype | None:
    """A signature entry as NumPy's dtype (a kdsl DType, a type code, a scalar type or a DType class)."""
    if entry is None:
        return None
    entry = getattr(entry, "np", entry)
    if isinstance(entry, type) and issubclass(entry, np.dtype):
        return np.dtype(getattr(entry, "type"))  # noqa: B009 - the class attribute
    return np.dtype(entry)


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
        _numpy_decides(npf, args, casting, {})
    except (ValueError, OverflowError, _NoLoop):  # kdsl's function decides (and names the way)
        return


class _NoLoop(Exception):
    """NumPy has no loop for the call (kdsl's own function, or ``no_matching_loop_error``, says so)."""


def _numpy_decides(npf: np.ufunc, args: tuple, casting: str, loop: dict[str, Any]) -> None:
    """NumPy's ufunc called on empty arrays of the inputs' dtypes (Python scalars as themselves) with
    ``casting`` and ``loop`` (``dtype=``/``signature=``): its casting and conversion errors as kdsl's (NumPy's
    class and message, then what to do); no loop at all is :class:`_NoLoop`."""
    name = npf.__name__
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            npf(*(_placeholder(a) for a in args), casting=casting, **loop)
    except _NUMPY_INPUT_CASTING as e:
        raise input_casting_error(name, getattr(e, "in_i", 0), getattr(e, "from_", None), getattr(e, "to", None),
                                  casting, "pass casting='same_kind' (or 'unsafe') or cast the input with astype") \
            from None
    except _NUMPY_OUTPUT_CASTING as e:
        raise output_casting_error(name, getattr(e, "from_", None), getattr(e, "to", None), casting,
                                   "pass another dtype= (or casting='unsafe')") from None
    except _NUMPY_NO_LOOP:
        raise _NoLoop from None
    except TypeError as e:  # a Python scalar under 'equiv' ("cannot cast Python int to int8 ..."), no loop
        if str(e).startswith("No loop matching"):
            raise _NoLoop from None
        raise TypeError(f"{e}; pass casting='same_kind', or cast the operands with astype (a Python scalar: a NumPy "
                        f"scalar of the array's dtype) ({name})") from None
    except OverflowError as e:  # a Python int the loop cannot hold (NumPy converts Python scalars first)
        raise OverflowError(f"{e}; pass it as a NumPy scalar of a wider dtype, or another dtype= ({name})") from None
    except ValueError as e:  # NaN into an integer signature loop ("cannot convert float NaN to integer")
        raise ValueError(f"{e}; pass a finite number ({name})") from None


def numpy_loop(name: str, args: tuple, dtype: Any, signature: Any, casting: str) -> tuple[np.dtype, ...] | None:
    """The loop NumPy's ufunc ``name`` runs for a call with ``dtype=`` or ``signature=``: the dtypes of its
    inputs then outputs, after NumPy's own checks (its errors, as kdsl's). ``dtype=`` names the outputs' dtype
    and the loop follows, as in NumPy (``np.absolute(complex64, dtype=np.float64)`` runs ``'D->d'``, a
    comparison's ``dtype=bool`` keeps its inputs' loop). None for a ufunc NumPy lacks.

    >>> numpy_loop("absolute", (np.ones(1, np.complex64),), np.float64, None, "same_kind")
    (dtype('complex128'), dtype('float64'))
    >>> numpy_loop("less", (np.ones(1, np.int8), 2.5), None, "dd->?", "same_kind")
    (dtype('float64'), dtype('float64'), dtype('bool'))
    """
    npf = getattr(np, name, None)
    if not isinstance(npf, np.ufunc) or len(args) != npf.nin:
        return None
    if dtype is not None:
        fixed: Any = (None,) * npf.nin + (_numpy_dtype(dtype),) * npf.nout
        loop: dict[str, Any] = {"dtype": _numpy_dtype(dtype)}
    else:
        fixed = signature if isinstance(signature, str) else tuple(_numpy_dtype(e) for e in signature)
        loop = {"signature": fixed}
    try:
        _numpy_decides(npf, args, casting, loop)
        spec = tuple(_loop_input(a) for a in args) + (None,) * npf.nout
        return tuple(npf.resolve_dtypes(spec, signature=fixed, casting="unsafe"))
    except _NoLoop:
        raise no_matching_loop_error(name, f"ufunc.types lists {name}'s loops: name one of them (dtype= for one "
                                     "dtype throughout), or cast the inputs with astype") from None


def loop_operand(a: Any, dtype: np.dtype, fixed: bool) -> Any:
    """Input ``a`` in its loop's ``dtype`` once NumPy has accepted the call (its checks are done): a NumPy scalar
    cast, a Python scalar converted as NumPy converts it: as Python does where ``signature=`` names its dtype
    (``np.fmod(0.5, -5, signature='ii->i')`` is 0), else as a weak value (its exact value, or, a lone operand,
    an int64 cast: ``np.square(-5, dtype=np.uint16, casting='unsafe')`` wraps); an array is left to the caller
    (cast on the device).

    >>> loop_operand(np.float32(2.5), np.dtype(np.int64), False), loop_operand(2.7, np.dtype(np.int8), True)
    (np.int64(2), np.int8(2))
    """
    if isinstance(a, np.generic):  # a NumPy scalar: strong, cast as an array is (np.float32(nan) into int64)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return np.asarray(a).astype(dtype)[()]
    if type(a) not in (bool, int, float, complex):
        return a
    if fixed and type(a) is not bool:
        python: Any = int if dtype.kind in "iu" else {"b": bool, "f": float, "c": complex}[dtype.kind]
        return np.asarray(python(a), dtype=dtype)[()]
    if type(a) is int:
        try:
            return np.asarray(a, dtype=dtype)[()]
        except OverflowError:
            pass
    with warnings.catch_warnings():  # NumPy's unsafe casts of Python scalars say nothing
        warnings.simplefilter("ignore")
        return np.asarray(a).astype(dtype)[()]


def _loop_input(a: Any) -> Any:
    """An input as ``ufunc.resolve_dtypes`` takes it: Python scalars as their (weak) type, others' dtype."""
    if type(a) is bool:  # Python's bools are not weak in NEP 50
        return np.dtype(bool)
    if type(a) in (int, float, complex):
        return type(a)
    dtype = getattr(a, "dtype", None)
    return np.dtype(getattr(dtype, "np", dtype)) if dtype is not None else np.asarray(a).dtype


_NUMPY_INPUT_CASTING = numpy_exception_class("_UFuncInputCastingError")
_NUMPY_NO_LOOP = numpy_exception_class("_UFuncNoLoopError")
_NUMPY_OUTPUT_CASTING = numpy_exception_class("_UFuncOutputCastingError")


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
