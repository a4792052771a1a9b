"""kd's elementwise functions: NumPy's ufuncs (math, comparisons, bits, complex parts...), the array API's
names for them (every binary and unary ufunc has .at: ufunc_methods.py), kd.emath, kd.ufunc, the error state.

Only kdsl/__init__.py imports this module (``from kdsl.namespace_ufuncs import *``): ``kd.<name>`` is
the public spelling, and the names are listed in kdsl's ``__all__``.
"""

# ruff: noqa: F401 - every import here is a re-export

from kdsl.frontend.array import emath
from kdsl.frontend.array.bessel import i0
from kdsl.frontend.array.bit_count import bitwise_count
from kdsl.frontend.array.bits import packbits, unpackbits
from kdsl.frontend.array.complex_math import (
    angle,
    complex_from_parts,
    conj,
    conjugate,
    iscomplex,
    iscomplexobj,
    isreal,
    isrealobj,
    vdot,
)
from kdsl.frontend.array.complex_parts import imag_of as imag
from kdsl.frontend.array.complex_parts import real_of as real
from kdsl.frontend.array.elementwise_extra import (
    allclose,
    array_equal,
    copysign,
    count_nonzero,
    hypot,
    isclose,
    isin,
    logaddexp,
    nan_to_num,
    nextafter,
    signbit,
)
from kdsl.frontend.array.elementwise_numpy import (
    cbrt,
    deg2rad,
    degrees,
    divmod,
    fabs,
    fix,
    float_power,
    fmax,
    fmin,
    fmod,
    heaviside,
    isneginf,
    isposinf,
    logaddexp2,
    modf,
    rad2deg,
    radians,
    real_if_close,
    sinc,
)
from kdsl.frontend.array.errstate import errstate, geterr, geterrcall, seterr, seterrcall
from kdsl.frontend.array.float_bits import frexp, ldexp, spacing
from kdsl.frontend.array.gcd import gcd, lcm
from kdsl.frontend.array.math import (
    abs,
    absolute,
    arccos,
    arccosh,
    arcsin,
    arcsinh,
    arctan,
    arctan2,
    arctanh,
    around,
    bitwise_and,
    bitwise_not,
    bitwise_or,
    bitwise_xor,
    ceil,
    clip,
    cos,
    cosh,
    divide,
    equal,
    erf,
    exp,
    exp2,
    expm1,
    floor,
    floor_divide,
    greater,
    greater_equal,
    invert,
    isfinite,
    isinf,
    isnan,
    left_shift,
    less,
    less_equal,
    log,
    log1p,
    log2,
    log10,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    mod,
    multiply,
    negative,
    not_equal,
    positive,
    power,
    reciprocal,
    relu,
    remainder,
    right_shift,
    rint,
    round,
    rsqrt,
    sigmoid,
    sign,
    sin,
    sinh,
    sqrt,
    square,
    tan,
    tanh,
    true_divide,
    trunc,
    where,
)
from kdsl.frontend.array.scatter import add, bincount, histogram, maximum, minimum, subtract  # these four have .at
from kdsl.frontend.array.standard_names import (
    acos,
    acosh,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    bitwise_invert,
    bitwise_left_shift,
    bitwise_right_shift,
    concat,
    permute_dims,
    pow,  # noqa: A004 - the standard's name
)
from kdsl.frontend.array.ufunc_methods import Ufunc as ufunc
from kdsl.frontend.array.unwrap import unwrap
