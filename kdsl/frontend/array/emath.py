"""``kd.emath``: NumPy's ``np.emath`` (``numpy.lib.scimath``): ``sqrt log log2 log10 logn power arccos arcsin
arctanh`` that return complex results where a real input is outside the real function's domain
(``kd.emath.sqrt(-4.0)`` is ``2j``, not NaN).

As in NumPy the result's dtype depends on the values: a real input is converted to complex only if some
element is out of the domain (negative for ``sqrt``/the logarithms/``power``'s base, ``|x| > 1`` for
``arccos``/``arcsin``/``arctanh``). kdsl decides it with ONE read back of a boolean (``any`` of the test, one
fused reduction); the computation itself stays lazy on the device. Complex inputs go straight to the complex
functions. The complex dtype follows NumPy's: complex64 for float32 and the 8- and 16-bit integers, else
complex128 (complex64 on a device without 64-bit floats).

Example:
    >>> import kdsl as kd
    >>> kd.emath.sqrt(kd.asarray([-4.0, 4.0])).tolist()
    [2j, (2+0j)]
    >>> kd.emath.sqrt(kd.asarray([1.0, 4.0])).tolist(), kd.emath.logn(2, kd.asarray(8.0, dtype=kd.float64)).tolist()
    ([1.0, 2.0], 3.0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kdsl import dtype as dt
from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.reductions import any as kany

_SINGLE = (dt.float32, dt.int8, dt.int16, dt.uint8, dt.uint16, dt.complex64)  # NumPy's complex64 cases


def _complex(a: Array) -> dt.DType:
    wide = dt.complex64 if a.dtype in _SINGLE else dt.complex128
    return wide if a.device.supports(wide) else dt.complex64


def _fixed(x: Any, outside: Callable[[Array], Array]) -> Array:
    """``x`` as an array, converted to complex when a real element is ``outside`` the domain (one read back)."""
    a = x if isinstance(x, Array) else asarray(x)
    if a.dtype.kind == "c" or a.dtype.kind == "b" or a.size == 0:
        return a
    if bool(kany(outside(a))):
        return a.astype(_complex(a))
    return a


def _negative(a: Array) -> Array:
    return a < 0


def _beyond_one(a: Array) -> Array:
    return km.abs(a) > 1


def _exponent(a: Any) -> Any:
    """The exponent as NumPy uses it: a Python number as a 0-d array, negative integers as float64 (1 read back)."""
    p = a if isinstance(a, Array) else asarray(a)
    # NumPy makes a Python exponent a 0-d int64/float64/complex128 array, which then takes part in promotion
    wide = {int: dt.int64, float: dt.float64, complex: dt.complex128}.get(type(a))
    if wide is not None and p.device.supports(wide):
        p = asarray(a, dtype=wide, device=p.device)
    if p.dtype.kind == "i" and p.size and bool(kany(p < 0)):
        return p.astype(dt.float64 if p.device.supports(dt.float64) else dt.float32)
    return p


def _scimath(name: str, outside: Callable[[Array], Array], doc: str) -> Callable[[Any], Array]:
    """``kd.emath.<name>``: kdsl's real function ``name`` of ``x``, made complex first where a real element is
    ``outside`` the real domain (every one-argument function of this module is this, with its own docstring)."""
    real = getattr(km, name)

    def scimath(x: Any) -> Array:
        return real(_fixed(x, outside))

    scimath.__name__ = scimath.__qualname__ = name
    scimath.__doc__ = doc
    return scimath


sqrt = _scimath("sqrt", _negative, """The square root; complex for negative reals (``sqrt(-4.0)`` is ``2j``).

    >>> import kdsl as kd
    >>> kd.emath.sqrt(-1.0).tolist()
    1j
    """)


log = _scimath("log", _negative, """The natural logarithm; complex for negative reals (``log(-1.0)`` is ``pi*1j``).

    >>> import kdsl as kd
    >>> round(kd.emath.log(-1.0).tolist().imag, 6)
    3.141593
    """)


log2 = _scimath("log2", _negative, """The base-2 logarithm; complex for negative reals.

    >>> import kdsl as kd
    >>> kd.emath.log2(8.0).tolist()
    3.0
    """)


log10 = _scimath("log10", _negative, """The base-10 logarithm; complex for negative reals.

    >>> import kdsl as kd
    >>> kd.emath.log10(kd.asarray([10.0, 100.0])).tolist()
    [1.0, 2.0]
    """)


def logn(n: Any, x: Any) -> Array:
    """The base-``n`` logarithm of ``x``, ``log(x) / log(n)``; complex where either is a negative real.

    >>> import kdsl as kd
    >>> kd.emath.logn(2, kd.asarray([4.0, 8.0], dtype=kd.float64)).tolist()
    [2.0, 3.0]
    """
    return km.log(_fixed(x, _negative)) / km.log(_fixed(n, _negative))


def power(x: Any, p: Any) -> Array:
    """``x ** p``; complex for a negative real base, float for a negative integer exponent.

    >>> import kdsl as kd
    >>> kd.emath.power(kd.asarray([2, 4]), -1).tolist()
    [0.5, 0.25]
    """
    return km.power(_fixed(x, _negative), _exponent(p))


arccos = _scimath("arccos", _beyond_one, """The inverse cosine; complex for real ``|x| > 1``.

    >>> import kdsl as kd
    >>> kd.emath.arccos(1.0).tolist()
    0.0
    """)


arcsin = _scimath("arcsin", _beyond_one, """The inverse sine; complex for real ``|x| > 1``.

    >>> import kdsl as kd
    >>> kd.emath.arcsin(0.0).tolist()
    0.0
    """)


arctanh = _scimath("arctanh", _beyond_one, """The inverse hyperbolic tangent; complex for real ``|x| > 1``.

    >>> import kdsl as kd
    >>> kd.emath.arctanh(0.0).tolist()
    0.0
    """)


__all__ = ["arccos", "arcsin", "arctanh", "log", "log2", "log10", "logn", "power", "sqrt"]
