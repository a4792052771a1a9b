"""An Array's values on the host: NumPy copies (``a.numpy()``, ``np.asarray(a)``), Python scalars (``a.item()``,
``float(a)``, ``bool(a)``, ``hash(a)``), ``len``/``in``/iteration, printing and formatting, bytes and files. Each
reads the array back (computing it first where it is lazy). These functions are :class:`Array`'s methods.

Example:
    >>> import kdsl as kd
    >>> a = kd.asarray([1.5, 2.5])
    >>> a.tolist(), float(a[1]), len(a), 2.5 in a
    ([1.5, 2.5], 2.5, 2, True)
"""

from __future__ import annotations

import operator
import os
import pickle
import warnings
from typing import Any, Literal

import numpy as np

from kdsl.engine import transfers


def numpy(self) -> np.ndarray:
    """Compute (if needed) and copy to a new NumPy array."""
    if hasattr(self, "_read_warnings"):  # e.g. nanmax's "All-NaN slice encountered" (read_warnings.py)
        from kdsl.frontend.array import read_warnings
        read_warnings.give(self)
    return transfers.to_numpy(self._n)


def __array__(self, dtype=None, copy=None) -> np.ndarray:
    """NumPy's array protocol (``np.asarray(a)``): a new host copy, in ``dtype`` if given. NumPy 2 passes
    ``copy=False`` when the caller must not get a copy (``np.asarray(a, copy=False)``, often to write through
    it): a kdsl array lives in device memory, so that is the protocol's ValueError, not a silent copy.

    >>> import kdsl as kd, numpy as np
    >>> np.asarray(kd.asarray([1, 2]), dtype=np.float64).tolist()
    [1.0, 2.0]
    >>> np.asarray(kd.asarray([1, 2]), copy=False)
    Traceback (most recent call last):
    ValueError: Unable to avoid copy while creating an array as requested: a kdsl array lives in device memory, \
so NumPy gets a copy (a download); use np.asarray(a) (copy=None) or a.numpy()
    """
    if copy is False:
        raise ValueError("Unable to avoid copy while creating an array as requested: a kdsl array lives in device "
                         "memory, so NumPy gets a copy (a download); use np.asarray(a) (copy=None) or a.numpy()")
    out = _in_own_order(self, self.numpy())
    return out if dtype is None else out.astype(dtype, copy=False)  # out is already this call's own copy


def _in_own_order(a: Any, host: np.ndarray) -> np.ndarray:
    """``host`` (``a`` read back) laid out in Fortran order where ``a``'s ``flags`` say it is (a transposed view
    written to comes back C-ordered from its written node), as NumPy's copy of it would be."""
    if host.ndim >= 2 and not host.flags.f_contiguous and a.flags.fnc:
        return np.asfortranarray(host)
    return host


def item(self, *args):
    """One element as a Python scalar: the only one, ``a.item(flat_index)`` or ``a.item(i, j)`` /
    ``a.item((i, j))`` (NumPy's; reads that element back). NumPy's errors: a flat index out of range is an
    IndexError "for size n" ("for axis 0" on 1-d arrays), a multi-index names its axis, a multi-index of
    another length than ``ndim`` is a ValueError, a non-integer a TypeError.

    >>> import kdsl as kd
    >>> a = kd.arange(6).reshape(2, 3)
    >>> a.item(4), a.item((1, -1)), a.item((2,))
    (4, 5, 2)
    >>> a.item(6)
    Traceback (most recent call last):
    IndexError: index 6 is out of bounds for size 6
    >>> a.item(0, 1, 2)
    Traceback (most recent call last):
    ValueError: incorrect number of indices for array
    """
    key = args[0] if len(args) == 1 else args
    if isinstance(key, tuple) and len(key) == 1:
        key = key[0]  # NumPy's 1-tuple is a flat index
    if isinstance(key, tuple) and key:
        if len(key) != self.ndim:
            raise ValueError("incorrect number of indices for array")
        return self[tuple(_c_long(k) for k in key)].item()  # the indexing names the axis out of range
    if isinstance(key, tuple):  # no index: the only element
        if self.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return self.numpy().reshape(()).item()
    i, n = _c_long(key), self.size
    if not -n <= i < n:
        where = "axis 0 with size" if self.ndim == 1 else "size"
        raise IndexError(f"index {i} is out of bounds for {where} {n}")
    return self.reshape(-1)[i].item()


def _c_long(k) -> int:
    """An index of item() as NumPy converts it: an integer (TypeError otherwise) within a C long."""
    i = operator.index(k)
    if not -2**63 <= i < 2**63:
        raise OverflowError("Python int too large to convert to C long")
    return i


def tolist(self):
    return self.numpy().tolist()


def __float__(self) -> float:
    self._scalar_check()
    return float(_real_item(self))


def __int__(self) -> int:
    self._scalar_check()
    return int(_real_item(self))


def _real_item(self) -> Any:
    """The value ``float()``/``int()`` convert: a complex 0-d result (``z[0]``, ``z.sum()``) stands for NumPy's
    complex scalar, which converts its real part with NumPy's ComplexWarning (so do ``math.isnan``,
    ``math.floor``, which call ``__float__``); a complex 0-d array made as an array (``kd.array(1j)``) or a 0-d
    view (``z[0, ...]``) keeps Python's TypeError, as NumPy's 0-d arrays do.

    >>> import warnings, kdsl as kd
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     float(kd.asarray([1.5 + 2j]).sum()), int(kd.asarray([-2.5 - 1j])[0])
    (1.5, -2)
    """
    from kdsl.frontend.array.scalar_like import stands_for_scalar  # cycle: scalar_like builds arrays

    value = self.item()
    if isinstance(value, complex) and stands_for_scalar(self):
        warnings.warn("Casting complex values to real discards the imaginary part", np.exceptions.ComplexWarning,
                      stacklevel=3)
        return value.real
    return value


def scalar_check(self) -> None:
    if self.ndim:  # NumPy 2.4 raises TypeError here for any array that is not 0-d (size 1 included)
        raise TypeError(f"only 0-dimensional arrays can be converted to Python scalars; this one has shape "
                        f"{self.shape}: use a.item() (size 1) or index it (a[0])")


def __index__(self) -> int:
    if self.ndim or not self.dtype.is_int:
        raise TypeError(f"only integer scalar arrays can be converted to a scalar index; got shape {self.shape} "
                        f"and dtype {self.dtype.name}")
    return int(self.item())


def __bool__(self) -> bool:
    if self.size == 0:
        raise ValueError("The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an "
                         "array is not empty.")
    if self.size != 1:
        raise ValueError("The truth value of an array with more than one element is ambiguous. "
                         "Use a.any() or a.all()")
    return bool(self.item())


def __len__(self) -> int:
    if not self.shape:
        raise TypeError("len() of unsized object")
    return self.shape[0]


def __contains__(self, value: Any) -> bool:
    """``value in a``: NumPy's ``(a == value).any()`` (``value`` broadcasts, so a row is found in a matrix only
    as elementwise matches; one bool read back). Without it Python iterated and compared whole rows."""
    return bool((self == value).any())


def __delitem__(self, key: Any) -> None:
    """``del a[i]``: NumPy's ValueError (Python's fallback was a TypeError); an array's size is fixed, and
    ``np.delete(a, i)`` makes the smaller copy."""
    raise ValueError("cannot delete array elements")


def __iter__(self):
    if not self.shape:
        raise TypeError("iteration over a 0-d array")
    return (self[i] for i in range(self.shape[0]))


def __repr__(self) -> str:  # kd.set_printoptions decides the layout (printing.py)
    from kdsl.frontend.array import printing
    return printing.array_repr_of(self)


def __str__(self) -> str:  # a 0-d result prints as the NumPy scalar it stands for (printing.py)
    from kdsl.frontend.array import printing
    return printing.array_str_of(self)


def __format__(self, spec: str) -> str:
    """``f"{a:.3f}"``: a 0-d array formats as its NumPy scalar (a download); others only with an empty spec."""
    if self.ndim == 0:
        return format(self.numpy()[()], spec)
    if spec:
        raise TypeError(f"unsupported format string {spec!r} passed to kdsl.Array.__format__ (an array of shape "
                        f"{self.shape}); format its elements, or use kd.array2string")
    return str(self)


def tofile(self, fid, sep: str = "", format: str = "%s") -> None:  # noqa: A002 - NumPy's name
    """Write the values to a file (NumPy's ``ndarray.tofile``: raw bytes in C order, or text with ``sep``);
    a download, then NumPy writes."""
    self.numpy().tofile(fid, sep=sep, format=format)


def dumps(self) -> bytes:
    """The array pickled (NumPy's ``ndarray.dumps``); ``pickle.loads`` gives a kdsl array back (the values are
    downloaded into the pickle and uploaded again).

    >>> import pickle, kdsl as kd
    >>> pickle.loads(kd.arange(3).dumps()).tolist()
    [0, 1, 2]
    """
    return pickle.dumps(self, protocol=2)


def dump(self, file) -> None:
    """Pickle the array to ``file``, a path or a file open for binary writing (NumPy's ``ndarray.dump``);
    ``pickle.load`` (or ``np.load(file, allow_pickle=True)``, where kdsl is importable) reads it back."""
    if hasattr(file, "write"):
        pickle.dump(self, file, protocol=2)
        return
    with open(os.fspath(file), "wb") as f:
        pickle.dump(self, f, protocol=2)


def __hash__(self):
    """A 0-d array hashes as the Python scalar it holds (reads it back), so the 0-d arrays kdsl gives where
    NumPy gives scalars (``a[i]``, ``for v in a``, ``a.max()``) work as dict keys and set members, as NumPy's
    scalars do; other arrays are unhashable, as NumPy's."""
    if self.ndim == 0:
        return hash(self.item())
    raise TypeError("unhashable type: 'kdsl.Array'")


def __bytes__(self) -> bytes:
    """``bytes(a)``: the elements' bytes in C order, as ``bytes()`` of an ndarray (its buffer) gives, except that
    a 0-d integer array is ``bytes(n)`` (``n`` zero bytes), as NumPy's (Python's ``bytes`` takes ``__index__``
    first). Without it Python iterated the array (``bytes(kd.asarray([1, 2]))`` gave two bytes, not eight).

    >>> import kdsl as kd
    >>> bytes(kd.asarray([1, 2], dtype=kd.int16)), bytes(kd.asarray(3))
    (b'\\x01\\x00\\x02\\x00', b'\\x00\\x00\\x00')
    """
    if self.ndim == 0 and self.dtype.kind in "iu":
        return bytes(operator.index(self))
    return tobytes(self)


def tobytes(self, order: Literal["C", "F", "A", "K"] = "C") -> bytes:
    """The elements' bytes (an explicit download), as ``ndarray.tobytes`` ('A': Fortran order for an array whose
    ``flags`` say it is Fortran-ordered)."""
    if isinstance(order, str) and order.upper() == "A":  # Fortran order exactly when NumPy's flags say so: the
        order = "F" if self.flags.f_contiguous else "C"  # host copy of a transposed view comes Fortran-ordered
    return _in_own_order(self, self.numpy()).tobytes(order)


def __complex__(self) -> complex:
    """``complex(a)`` of a 0-d array."""
    self._scalar_check()
    return complex(self.item())
