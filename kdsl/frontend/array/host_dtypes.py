"""The dtype kdsl gives host data (Python numbers and sequences, NumPy arrays) when it becomes an array: NumPy
arrays keep theirs; Python floats and ints get kdsl's defaults (float32, int32), and Python ints that int32 cannot
hold never change value (NumPy 2's int64 or uint64, or an OverflowError).

Example:
    >>> import numpy as np
    >>> host_dtype([1.5], np.asarray([1.5])).name, host_dtype([2**40], np.asarray([2**40])).name
    ('float32', 'int64')
"""

from __future__ import annotations

import array
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.dtype import promotion


def python_int_dtype(low: int, high: int) -> dt.DType:
    """The dtype for Python ints in [low, high]: kdsl's default int32 when it holds them, else NumPy 2's choice
    (int64; uint64 when all are non-negative and some pass int64), else OverflowError - never a changed value.

    >>> python_int_dtype(-5, 7).name, python_int_dtype(0, 2**40).name, python_int_dtype(1, 2**63).name
    ('int32', 'int64', 'uint64')
    >>> python_int_dtype(-1, 2**63)
    Traceback (most recent call last):
    ...
    OverflowError: Python integers from -1 to 9223372036854775808 fit no integer dtype (int64 stops at \
9223372036854775807, uint64 at 0); pass dtype=kd.float64 (or float32) for a float array
    """
    if -(1 << 31) <= low and high < 1 << 31:
        return dt.default_int
    if -(1 << 63) <= low and high < 1 << 63:
        return dt.int64
    if low >= 0 and high < 1 << 64:
        return dt.uint64
    if low >= -(1 << 63) and high < 1 << 64:
        raise OverflowError(f"Python integers from {low} to {high} fit no integer dtype (int64 stops at "
                            f"{(1 << 63) - 1}, uint64 at 0); pass dtype=kd.float64 (or float32) for a float array")
    bad = high if high >= 1 << 64 else low
    raise OverflowError(f"Python integer {bad} out of bounds for int64 and uint64 (kdsl has no object arrays); "
                        "pass dtype=kd.float64 (or float32) for a float array")



_PYTHON_NUMBER_DTYPES = (np.dtype(np.float64), np.dtype(np.complex128), np.dtype(np.int64), np.dtype(np.uint64))


def host_dtype(x, arr: np.ndarray) -> dt.DType:
    """kdsl's dtype for host data: NumPy arrays keep theirs, and so does other typed data (see :func:`typed`);
    Python floats/ints get the defaults (ints that int32 cannot hold: see :func:`python_int_dtype`)."""
    if isinstance(x, (np.ndarray, np.generic)) or (typed(x) and arr.dtype.kind in "biufc"):
        return dt.as_dtype(arr.dtype)
    if isinstance(x, (list, tuple)) and arr.dtype in _PYTHON_NUMBER_DTYPES:  # maybe Python numbers: check the items
        mixed = typed_items_dtype(x)  # [np_f64_row, np_f64_row]: NumPy's float64, not kdsl's Python default
        if mixed is not None:
            return mixed
    if arr.dtype == np.float64:
        if arr.size and np.abs(arr).max() >= 2.0**63:  # maybe ints NumPy could not type: 1 and 2**64 - 1
            return _mixed_ints_dtype(x) or dt.default_float
        return dt.default_float
    if arr.dtype == np.complex128:  # Python complex numbers: kdsl's default complex64, as floats get float32
        return dt.default_complex
    if arr.dtype == np.int64 or arr.dtype == np.uint64:  # NumPy's dtype for Python ints: narrow to int32 if it fits
        return python_int_dtype(int(arr.min()), int(arr.max())) if arr.size else dt.default_int
    if arr.dtype == object:  # NumPy keeps ints beyond 64 bits as Python objects
        ints = [v for v in arr.ravel().tolist() if isinstance(v, int) and not isinstance(v, bool)]
        if ints:
            python_int_dtype(min(ints), max(ints))  # raises OverflowError naming the value
    if arr.dtype.kind not in "biufc":
        raise unsupported_data(x, arr)
    return dt.as_dtype(arr.dtype)


def unsupported_data(x: Any, arr: np.ndarray) -> TypeError:
    """The TypeError for host data NumPy holds in a dtype kdsl has not (objects, strings); a generator or other
    iterator is one such object to NumPy (``np.array(gen)`` is a 0-d object array), so the error names
    ``kd.fromiter``.

    >>> unsupported_data(iter([1]), np.asarray(iter([1]))).args[0].split(";")[1].strip()
    'an iterator is one object to NumPy (np.array(it) is a 0-d object array): use kd.fromiter(it, dtype) or \
kd.asarray(list(it))'
    """
    if hasattr(x, "__next__") and hasattr(x, "__iter__"):
        return TypeError(f"cannot make a kdsl array from a {type(x).__name__}; an iterator is one object to NumPy "
                         "(np.array(it) is a 0-d object array): use kd.fromiter(it, dtype) or kd.asarray(list(it))")
    if arr.dtype.kind in "mMV":  # datetimes, durations, records: the dtype's error names the kdsl way
        try:
            dt.as_dtype(arr.dtype)
        except TypeError as err:
            return TypeError(str(err))
    message = f"cannot make a kdsl array from data of dtype {arr.dtype}; use numbers or booleans"
    if arr.dtype.kind in "US":  # text: what NumPy's functions raise for it (no loop, no common dtype), a TypeError
        from kdsl.frontend.array.ufunc_errors import TEXT_LABELS_HINT, text_data_error  # (only NumPy below: no cycle)

        if arr.dtype.kind == "U":  # labels, as np.select(conds, ["low", "high"], "mid"): name the kdsl way
            message += f" (kdsl arrays hold no text: {TEXT_LABELS_HINT})"

        return text_data_error(message)
    return TypeError(message)



_PYTHON_NUMBERS = frozenset((int, float, complex, bool))


def _holds_other_than_numbers(x) -> bool:
    """Whether nested lists/tuples ``x`` hold anything but Python numbers: each list's item types are collected in
    C (``set(map(type, ...))``), and only lists of lists are walked in Python (a million floats: ~20 ms, where
    the item-by-item walk of :func:`typed_items_dtype` took seconds)."""
    kinds = set(map(type, x))
    if kinds <= _PYTHON_NUMBERS:
        return False
    if kinds - _PYTHON_NUMBERS - {list, tuple}:
        return True
    return any(_holds_other_than_numbers(v) for v in x if isinstance(v, (list, tuple)))


def typed_items_dtype(x) -> dt.DType | None:
    """The dtype of nested lists that hold typed items (NumPy arrays and scalars, typed buffers) among Python
    numbers: NumPy's promotion of the items' own dtypes, a Python number counting as kdsl's default of its kind
    (as a list holding kdsl arrays does). None when no item is typed (Python numbers only: kdsl's defaults).

    >>> import numpy as np
    >>> typed_items_dtype([np.ones(2), np.zeros(2)]).name, typed_items_dtype([np.int64(1), 2.5]).name
    ('float64', 'float64')
    >>> typed_items_dtype([np.float32(1), 2.5]).name, typed_items_dtype([[1.5, 2.0]]) is None
    ('float32', True)
    >>> typed_items_dtype([range(3), range(4, 7)]) is None, typed_items_dtype([np.int8(1), range(300)]).name
    (True, 'int32')
    """
    if not _holds_other_than_numbers(x):  # the common case, Python numbers only: no walk item by item
        return None
    found: list[dt.DType] = []
    ints: list[int] = []
    others: list[dt.DType] = []
    stack = [x]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, (np.ndarray, np.generic)) or typed(item):
            found.append(dt.as_dtype(np.asarray(item).dtype))
        elif isinstance(item, int) and not isinstance(item, bool):
            ints.append(item)
        elif isinstance(item, range):  # ints (NumPy reads a range as a sequence)
            ints.extend((item[0], item[-1]) if len(item) else ())
        else:
            try:
                others.append(dt.scalar_dtype(item))
            except TypeError:  # another sequence NumPy reads (a deque, a string): kdsl's own rules decide
                return None
    if not found:
        return None
    if ints:
        others.append(python_int_dtype(min(ints), max(ints)))
    return promotion.promote_in_order(*found, *others)


def typed(x) -> bool:
    """Whether ``x`` carries its own element type, as a NumPy array does: a typed buffer (``array.array('d')``,
    a ``memoryview``) or an array-like with ``__array__``/``__array_interface__`` (pandas, xarray, h5py). Its
    float64 stays float64, as ``kd.asarray(np_array)`` does; only Python numbers take kdsl's defaults.

    >>> import array
    >>> typed(array.array("d", [1.5])), typed([1.5]), typed(1.5)
    (True, False, False)
    """
    if isinstance(x, (memoryview, array.array)):
        return True
    return hasattr(type(x), "__array__") or hasattr(x, "__array_interface__")


def typed_range_dtype(values: np.ndarray, endpoints: tuple, device: Any = None) -> dt.DType | None:
    """The dtype of a range that NumPy computed on the host (``values``: ``np.linspace``/``logspace``/``geomspace``
    of ``endpoints``) where an endpoint is typed host data (``np.float64(x)``, a NumPy array): NumPy's own, as
    ``kd.asarray`` keeps a typed array's (``np.linspace(np.float64(0), 1, 5)`` is float64, of ``np.float32(0)``
    float32). None where every endpoint is a Python number (kdsl's default float then) or the device lacks it.

    >>> typed_range_dtype(np.linspace(np.float64(0), 1, 3), (np.float64(0), 1)).name
    'float64'
    >>> typed_range_dtype(np.linspace(0, 1.5, 3), (0, 1.5)) is None
    True
    """
    from kdsl.device import device as find_device  # cycle: kdsl.device imports the frontend

    if not any(typed(e) for e in endpoints):
        return None
    d = dt.as_dtype(values.dtype)
    return d if find_device(device).supports(d) else None


def _mixed_ints_dtype(x) -> dt.DType | None:
    """NumPy makes float64 of Python ints that need int64 and uint64 together ([1, 2**64 - 1]); kdsl keeps their
    values: all-int data gets :func:`python_int_dtype`'s dtype (or its OverflowError). None: not all ints."""
    items = np.asarray(x, dtype=object).ravel().tolist()
    if all(isinstance(v, int) and not isinstance(v, bool) for v in items):
        return python_int_dtype(min(items), max(items))
    return None



def host_array(x, dtype: dt.DType | None) -> Any:
    """``x`` as a NumPy array; Python data converts straight to ``dtype`` so that NumPy refuses values the dtype
    cannot hold (OverflowError for ints, ValueError for NaN to int), while NumPy arrays cast as ``astype`` does.
    An ``__array__`` that returns a kdsl array (a ported class: ``np.eye`` in it is ``kd.eye``) gives that array,
    which NumPy refuses as "not producing an array"."""
    direct = dtype is not None and not isinstance(x, (np.ndarray, np.generic))
    try:
        return np.asarray(x, dtype=dtype.np) if direct and dtype is not None else np.asarray(x)
    except (ValueError, TypeError) as exc:
        made = _kdsl_array_method(x)
        if made is not None:
            return made
        raise type(exc)(f"cannot make an array from {type(x).__name__}: {exc}") from None


def _kdsl_array_method(x) -> Any:
    """What ``x.__array__()`` returns when that is a kdsl array (None otherwise, or when it raises); of a list or
    tuple, the same sequence with each such item replaced by its kdsl array (None when there is none)."""
    if isinstance(x, (list, tuple)):
        items = [_kdsl_array_method(v) for v in x]
        if all(v is None for v in items):
            return None
        return [v if m is None else m for v, m in zip(x, items, strict=True)]
    if getattr(type(x), "__array__", None) is None:
        return None
    from kdsl.frontend.array.ops import array_class  # cycle: ops imports this module

    try:
        made = x.__array__()
    except Exception:  # noqa: BLE001 - NumPy's own error (raised by the caller) says what went wrong
        return None
    return made if isinstance(made, array_class()) else None
