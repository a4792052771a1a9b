"""kd's dtype names: the DTypes (kd.float32...) and the kd.dtype module, NumPy's dtype aliases, abstract
scalar types and type codes, dtype introspection, the array API's dtype functions, NumPy's host-only scalar
types and constants.

Only kdsl/__init__.py imports this module (``from kdsl.namespace_dtypes import *``): ``kd.<name>`` is
the public spelling, and the names are listed in kdsl's ``__all__``.
"""

# ruff: noqa: F401 - every import here is a re-export

from kdsl import dtype
from kdsl.dtype import (
    DType,
    bool_,
    complex64,
    complex128,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
)
from kdsl.frontend.array.api_info import astype, broadcast_shapes, can_cast, finfo, iinfo, isdtype, result_type
from kdsl.frontend.array.dtype_aliases import (
    byte,
    cdouble,
    csingle,
    double,
    half,
    int_,
    intc,
    intp,
    long,
    longlong,
    ndarray,
    short,
    single,
    ubyte,
    uint,
    uintc,
    uintp,
    ulong,
    ulonglong,
    ushort,
)
from kdsl.frontend.array.host_scalar_types import (
    bytes_,
    character,
    clongdouble,
    complex256,
    datetime64,
    flexible,
    float128,
    isnat,
    longdouble,
    object_,
    str_,
    timedelta64,
    void,
)
from kdsl.frontend.array.introspection import (
    array_equiv,
    complexfloating,
    floating,
    generic,
    inexact,
    integer,
    isscalar,
    issubdtype,
    ndim,
    number,
    promote_types,
    shape,
    signedinteger,
    size,
    unsignedinteger,
)
from kdsl.frontend.array.numpy_constants import (
    False_,
    ScalarType,
    True_,
    little_endian,
    sctypeDict,
    typecodes,
)
from kdsl.frontend.array.type_codes import common_type, min_scalar_type, mintypecode, typename
