"""NumPy's other names for the fixed-width dtypes (``np.double``, ``np.intc``, ``np.int_`` ...) and
``ndarray``, so code written for NumPy runs with ``np`` replaced by ``kd``.

The widths are NumPy 2's on 64-bit Linux: ``int_``, ``intp`` and ``long`` are int64, ``uint``, ``uintp`` and
``ulong`` uint64, ``intc`` int32, ``longlong`` int64. Each name is the kdsl DType itself, so it works wherever a
dtype does (``kd.zeros(3, dtype=kd.double)``, ``a.astype(kd.intc)``). Note kdsl's *default* int and float
(``kd.asarray([1])``, ``kd.asarray([1.0])``) stay int32 and float32; ``int_`` is only a name for int64.
``ndarray`` is :class:`kdsl.Array`, for ``isinstance(x, kd.ndarray)`` checks.

Example:
    >>> import kdsl as kd
    >>> kd.zeros(3, dtype=kd.double).dtype, kd.intc, kd.int_, isinstance(kd.ones(2), kd.ndarray)
    (kdsl.float64, kdsl.int32, kdsl.int64, True)
"""

from __future__ import annotations

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array

ndarray = Array

half = dt.float16
single = dt.float32
double = dt.float64
csingle = dt.complex64
cdouble = dt.complex128

byte = dt.int8
ubyte = dt.uint8
short = dt.int16
ushort = dt.uint16
intc = dt.int32
uintc = dt.uint32
longlong = dt.int64
ulonglong = dt.uint64

# NumPy 2 on 64-bit Linux: the C long and the pointer-sized integer are 64 bits wide.
int_ = dt.int64
intp = dt.int64
long = dt.int64
uint = dt.uint64
uintp = dt.uint64
ulong = dt.uint64

ALIASES = ("ndarray", "half", "single", "double", "csingle", "cdouble", "byte", "ubyte", "short", "ushort",
           "intc", "uintc", "longlong", "ulonglong", "int_", "intp", "long", "uint", "uintp", "ulong")
