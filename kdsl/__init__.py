"""kdsl: NumPy-like lazy arrays that fuse into Vulkan compute kernels, on any vendor's GPU.

Expressions build a graph; ``.numpy()``, ``print``, ``float()`` or :func:`realize` run it as few kernels as
possible, and results stay on the device. The Kompute-style runtime lives in :mod:`kdsl.kp`.

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.linspace(0, 1, 5, dtype=np.float32))
    >>> y = (kd.sin(a) * 2 + a).sum()       # one fused kernel
    >>> f"{float(y):.4f}"
    '6.9999'
"""

from kdsl import dtype
from kdsl import dtype as _dtype_module
from kdsl.autodiff import (
    grad,
    jvp,
    stop_gradient,
    tree_flatten,
    tree_leaves,
    tree_map,
    tree_structure,
    tree_unflatten,
    value_and_grad,
    vjp,
)
from kdsl.device import Device, device, devices
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
from kdsl.engine.explain import explain, stats
from kdsl.engine.profile import profile, profiling
from kdsl.engine.state import cache_limits, set_cache_limits
from kdsl.frontend import kernels as _kernels
from kdsl.frontend import lang as _lang
from kdsl.frontend.array import missing as _missing
from kdsl.frontend.array import random
from kdsl.frontend.array.api_info import (
    API_VERSION as __array_api_version__,
)
from kdsl.frontend.array.api_info import (
    __array_namespace_info__,
    astype,
    broadcast_shapes,
    can_cast,
    finfo,
    iinfo,
    isdtype,
    result_type,
)
from kdsl.frontend.array.array import Array, realize
from kdsl.frontend.array.attention import fused_attention as _fused_attention  # noqa: F401  (kd.nn's; not public)
from kdsl.frontend.array.constructors import diag, diagonal, geomspace, identity, logspace, trace, tril, triu
from kdsl.frontend.array.contractions import corrcoef, cov, inner, kron, matrix_transpose, tensordot, vecdot
from kdsl.frontend.array.creation import (
    arange,
    array,
    asarray,
    empty,
    empty_like,
    eye,
    full,
    full_like,
    linspace,
    ones,
    ones_like,
    zeros,
    zeros_like,
)
from kdsl.frontend.array.einsum import einsum, einsum_path
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
from kdsl.frontend.array.jit import jit
from kdsl.frontend.array.joining import (
    array_split,
    atleast_1d,
    atleast_2d,
    atleast_3d,
    column_stack,
    diff,
    dsplit,
    dstack,
    hsplit,
    hstack,
    meshgrid,
    pad,
    repeat,
    roll,
    split,
    tile,
    unstack,
    vsplit,
    vstack,
)
from kdsl.frontend.array.linalg import dot, matmul, outer
from kdsl.frontend.array.masks import argwhere, compress, extract, flatnonzero, nonzero
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
from kdsl.frontend.array.nan_functions import nanmax, nanmean, nanmin, nanprod, nanstd, nansum, nanvar
from kdsl.frontend.array.quantiles import median, percentile, quantile
from kdsl.frontend.array.reductions import (
    all,
    amax,
    amin,
    any,
    argmax,
    argmin,
    cumsum,
    max,
    mean,
    min,
    prod,
    std,
    sum,
    var,
)
from kdsl.frontend.array.scatter import add, bincount, histogram, maximum, minimum, subtract  # these four have .at
from kdsl.frontend.array.shape_ops import (
    broadcast_arrays,
    broadcast_to,
    concatenate,
    expand_dims,
    flip,
    moveaxis,
    ravel,
    reshape,
    squeeze,
    stack,
    swapaxes,
    transpose,
)
from kdsl.frontend.array.sharing import may_share_memory
from kdsl.frontend.array.sorting import (
    argpartition,
    argsort,
    partition,
    searchsorted,
    sort,
    take,
    take_along_axis,
    topk,
)
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
from kdsl.frontend.array.unique import (
    unique,
    unique_all,
    unique_counts,
    unique_inverse,
    unique_values,
)
from kdsl.frontend.kernels import *  # noqa: F403 - @kd.kernel, kd.raw_kernel, intrinsics, ... (its __all__)
from kdsl.frontend.lang import *  # noqa: F403 - kd.compute, kd.elementwise, kd.reduction (its __all__)
from kdsl.runtime.compiler import ShaderCompileError, compile_source

bool = bool_  # noqa: A001  (NumPy spells it np.bool too)
newaxis = None
pi = 3.141592653589793
e = 2.718281828459045
inf = float("inf")
nan = float("nan")
dtypes = _dtype_module.ALL

__all__ = [
    "set_cache_limits", "cache_limits",
    "ShaderCompileError", "compile_source", "Device", "device", "DType", "bool_", "float16", "float32",
    "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "random", "Array",
    "arange", "array", "asarray", "empty", "empty_like", "eye", "full", "full_like", "linspace", "ones",
    "ones_like", "zeros", "zeros_like", "explain", "profile", "profiling", "stats", "jit", "dot", "matmul",
    "outer", "abs", "absolute", "add", "arccos", "arccosh",
    "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "around", "bitwise_and", "bitwise_not", "bitwise_or",
    "bitwise_xor", "ceil", "clip", "cos", "cosh", "divide", "equal", "exp", "exp2", "expm1", "floor",
    "floor_divide", "greater", "greater_equal", "invert", "isfinite", "isinf", "isnan", "left_shift", "less",
    "less_equal", "log", "log1p", "log2", "log10", "logical_and", "logical_not", "logical_or", "logical_xor",
    "maximum", "minimum", "mod", "multiply", "negative", "not_equal", "positive", "power", "reciprocal",
    "relu", "remainder", "right_shift", "rint", "round", "rsqrt", "sigmoid", "sign", "sin", "sinh", "sqrt",
    "square", "subtract", "tan", "tanh", "true_divide", "trunc", "where", "realize", "all", "amax", "amin",
    "any", "argmax", "argmin", "cumsum", "max", "mean", "min", "prod", "std", "sum", "var",
    "broadcast_arrays", "broadcast_to", "concatenate", "expand_dims", "flip", "moveaxis", "ravel", "reshape",
    "squeeze", "stack", "swapaxes", "transpose", "bool", "newaxis", "pi", "e", "inf", "nan", "dtypes",
    "dtype",
    "argpartition", "argsort", "median", "partition", "percentile", "quantile", "searchsorted", "sort", "take",
    "argwhere", "compress", "extract", "flatnonzero", "nonzero", "may_share_memory",
    "take_along_axis", "topk",
    *_kernels.__all__,
    *_lang.__all__,
]
__all__ += [  # the array API standard and more of NumPy (kdsl/frontend/array/{api_info,joining,...}.py)
    "__array_api_version__", "__array_namespace_info__", "astype", "broadcast_shapes", "can_cast", "finfo",
    "iinfo", "isdtype", "result_type", "diag", "diagonal", "geomspace", "identity", "logspace", "trace", "tril",
    "triu", "cov", "corrcoef", "inner", "kron", "matrix_transpose", "tensordot", "vecdot", "allclose",
    "array_equal", "copysign", "count_nonzero", "hypot", "isclose", "isin", "logaddexp", "nan_to_num",
    "nextafter", "signbit", "array_split", "atleast_1d", "atleast_2d", "atleast_3d", "column_stack", "diff",
    "dsplit", "dstack", "hsplit", "hstack", "meshgrid", "pad", "repeat", "roll", "split", "tile", "unstack",
    "vsplit", "vstack", "nanmax", "nanmean", "nanmin", "nanprod", "nanstd", "nansum", "nanvar",
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "bitwise_invert", "bitwise_left_shift",
    "bitwise_right_shift", "concat", "permute_dims", "pow",
]

__all__ += ["einsum", "einsum_path"]  # kdsl/frontend/array/einsum.py
__all__ += ["grad", "value_and_grad", "vjp", "jvp", "stop_gradient", "tree_map", "tree_flatten",  # kdsl/autodiff
            "tree_unflatten", "tree_leaves", "tree_structure"]
__all__ += ["bincount", "histogram"]  # kdsl/frontend/array/scatter.py (add, subtract, maximum, minimum gain .at)
__all__ += ["unique", "unique_all", "unique_counts", "unique_inverse", "unique_values"]  # frontend/array/unique.py

from kdsl.frontend.array.dlpack import from_dlpack  # noqa: E402

__all__ += ["from_dlpack"]  # kdsl/frontend/array/dlpack.py (host copies both ways)

from kdsl.frontend.array.cumulative import (  # noqa: E402  (kept beside its __all__ line: append-only)
    cumulative_prod,
    cumulative_sum,
    nancumprod,
    nancumsum,
)
from kdsl.frontend.array.reductions import cumprod  # noqa: E402

__all__ += ["cumprod", "cumulative_prod", "cumulative_sum", "nancumprod", "nancumsum"]  # scans (issue 9)

from kdsl.frontend.array.complex_math import (  # noqa: E402  (kept beside its __all__ line: append-only)
    angle,
    complex_from_parts,
    conj,
    conjugate,
    imag,
    iscomplex,
    iscomplexobj,
    isreal,
    isrealobj,
    real,
    vdot,
)

__all__ += ["complex64", "complex128", "angle", "complex_from_parts", "conj", "conjugate", "imag", "iscomplex",
            "iscomplexobj", "isreal", "isrealobj", "real", "vdot"]  # complex numbers (docs/complex.md)


__all__ += ["devices"]  # several devices in one process (kdsl/device.py, issue 14)

from kdsl.frontend.array.choose import choose, select  # noqa: E402  (kept beside its __all__ line: append-only)
from kdsl.frontend.array.diagonals import diag_indices, diag_indices_from, fill_diagonal  # noqa: E402
from kdsl.frontend.array.index_tricks import indices, ix_, ravel_multi_index, unravel_index  # noqa: E402
from kdsl.frontend.array.put import place, put, put_along_axis, putmask  # noqa: E402
from kdsl.frontend.array.triangle_indices import (  # noqa: E402
    tril_indices,
    tril_indices_from,
    triu_indices,
    triu_indices_from,
)

__all__ += ["choose", "select", "diag_indices", "diag_indices_from", "fill_diagonal", "indices", "ix_",
            "ravel_multi_index", "unravel_index", "place", "put", "put_along_axis", "putmask", "tril_indices",
            "tril_indices_from", "triu_indices", "triu_indices_from"]  # in-place puts and index tricks

from kdsl.frontend.array.binning import digitize, histogram_bin_edges  # noqa: E402  (append-only, beside __all__)
from kdsl.frontend.array.interpolation import interp  # noqa: E402
from kdsl.frontend.array.lexicographic import lexsort, sort_complex  # noqa: E402
from kdsl.frontend.array.nan_argextremes import nanargmax, nanargmin  # noqa: E402
from kdsl.frontend.array.nan_quantiles import nanmedian, nanpercentile, nanquantile  # noqa: E402
from kdsl.frontend.array.set_routines import intersect1d, setdiff1d, setxor1d, union1d  # noqa: E402
from kdsl.frontend.array.trimming import trim_zeros  # noqa: E402

__all__ += ["digitize", "histogram_bin_edges", "interp", "intersect1d", "lexsort", "nanargmax", "nanargmin",
            "nanmedian", "nanpercentile", "nanquantile", "setdiff1d", "setxor1d", "sort_complex", "trim_zeros",
            "union1d"]  # binning, interpolation, lexicographic, nan_argextremes, nan_quantiles, set_routines, trimming

from kdsl.frontend.array.bessel import i0  # noqa: E402  (kept beside its __all__ line: append-only)
from kdsl.frontend.array.bit_count import bitwise_count  # noqa: E402
from kdsl.frontend.array.elementwise_numpy import (  # noqa: E402
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
from kdsl.frontend.array.float_bits import frexp, ldexp, spacing  # noqa: E402
from kdsl.frontend.array.gcd import gcd, lcm  # noqa: E402
from kdsl.frontend.array.unwrap import unwrap  # noqa: E402

__all__ += ["fabs", "fmod", "fmax", "fmin", "deg2rad", "rad2deg", "degrees", "radians", "cbrt", "heaviside",
            "isposinf", "isneginf", "float_power", "logaddexp2", "divmod", "modf", "fix", "sinc", "ldexp", "frexp",
            "spacing", "bitwise_count", "gcd", "lcm", "unwrap", "real_if_close", "i0"]  # NumPy's other ufuncs

from kdsl.frontend.array.conversion import (  # noqa: E402  (kept beside its __all__ line: append-only)
    asanyarray,
    asarray_chkfinite,
    ascontiguousarray,
    copy,
    copyto,
)
from kdsl.frontend.array.introspection import (  # noqa: E402
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

__all__ += ["asanyarray", "asarray_chkfinite", "ascontiguousarray", "copy", "copyto",  # conversion.py
            "array_equiv", "isscalar", "issubdtype", "ndim", "promote_types", "shape", "size",  # introspection.py
            "generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
            "complexfloating"]  # NumPy's abstract scalar types, for issubdtype

from kdsl.frontend.array.edit import append, delete, ediff1d, insert, resize  # noqa: E402
from kdsl.frontend.array.functional import apply_along_axis, fromfunction  # noqa: E402
from kdsl.frontend.array.joining import row_stack  # noqa: E402  (NumPy 2 deprecates it; so does kdsl)
from kdsl.frontend.array.matrices import block, diagflat, tri, vander  # noqa: E402
from kdsl.frontend.array.orientation import fliplr, flipud, rollaxis, rot90  # noqa: E402

__all__ += ["append", "delete", "ediff1d", "insert", "resize",  # edit.py
            "apply_along_axis", "fromfunction",  # functional.py
            "block", "diagflat", "tri", "vander",  # matrices.py
            "fliplr", "flipud", "rollaxis", "rot90", "row_stack"]  # orientation.py, joining.py

from kdsl.frontend.array.averages import average, ptp  # noqa: E402  (kept beside its __all__ line: append-only)
from kdsl.frontend.array.bits import packbits, unpackbits  # noqa: E402
from kdsl.frontend.array.calculus import gradient, trapezoid  # noqa: E402
from kdsl.frontend.array.gufuncs import matvec, vecmat  # noqa: E402
from kdsl.frontend.array.histogramdd import histogram2d, histogramdd  # noqa: E402
from kdsl.frontend.array.polynomials import polyadd, polyder, polyint, polymul, polysub, polyval  # noqa: E402
from kdsl.frontend.array.windows import bartlett, blackman, hamming, hanning, kaiser  # noqa: E402

__all__ += ["average", "ptp", "packbits", "unpackbits", "matvec", "vecmat", "bartlett", "blackman", "hamming",
            "hanning", "kaiser", "gradient", "trapezoid", "polyadd", "polyder", "polyint", "polymul", "polysub",
            "polyval", "histogram2d", "histogramdd"]  # more of NumPy (averages, bits, calculus, gufuncs, histogramdd,
            # polynomials, windows .py)

from kdsl.frontend.array.dtype_aliases import (  # noqa: E402  (kept beside its __all__ line: append-only)
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
from kdsl.frontend.array.errstate import errstate, geterr, geterrcall, seterr, seterrcall  # noqa: E402
from kdsl.frontend.array.printing import (  # noqa: E402
    array2string,
    array_repr,
    array_str,
    get_printoptions,
    printoptions,
    set_printoptions,
)

__all__ += ["ndarray", "half", "single", "double", "csingle", "cdouble", "byte", "ubyte", "short", "ushort",
            "intc", "uintc", "longlong", "ulonglong", "int_", "intp", "long", "uint", "uintp", "ulong",  # aliases
            "errstate", "geterr", "geterrcall", "seterr", "seterrcall",  # errstate.py
            "array2string", "array_repr", "array_str", "get_printoptions", "printoptions", "set_printoptions"]

from kdsl.frontend.array.index_helpers import c_, index_exp, mgrid, ogrid, r_, s_  # noqa: E402  (append-only)

__all__ += ["mgrid", "ogrid", "r_", "c_", "s_", "index_exp"]  # index_helpers.py

from kdsl.frontend.array.io import (  # noqa: E402  (kept beside its __all__ line: append-only)
    frombuffer,
    fromfile,
    fromiter,
    fromstring,
    genfromtxt,
    load,
    loadtxt,
    save,
    savetxt,
    savez,
    savez_compressed,
)

__all__ += ["save", "load", "savez", "savez_compressed", "savetxt", "loadtxt", "genfromtxt", "frombuffer",
            "fromiter", "fromstring", "fromfile"]  # io.py (host files: explicit transfers)

from kdsl.frontend.array.functional import apply_over_axes  # noqa: E402  (kept beside its __all__ line)
from kdsl.frontend.array.iteration import iterable, ndenumerate, ndindex  # noqa: E402
from kdsl.frontend.array.layout import asfortranarray, isfortran, require  # noqa: E402
from kdsl.frontend.array.mask_indices import mask_indices  # noqa: E402
from kdsl.frontend.array.number_strings import base_repr, binary_repr  # noqa: E402
from kdsl.frontend.array.piecewise import piecewise  # noqa: E402
from kdsl.frontend.array.sharing import shares_memory  # noqa: E402
from kdsl.frontend.array.type_codes import common_type, min_scalar_type, mintypecode, typename  # noqa: E402
from kdsl.frontend.array.vectorize import frompyfunc, vectorize  # noqa: E402

euler_gamma = 0.5772156649015329

__all__ += ["apply_over_axes", "iterable", "ndenumerate", "ndindex", "asfortranarray", "isfortran", "require",
            "mask_indices", "base_repr", "binary_repr", "piecewise", "shares_memory", "common_type",
            "min_scalar_type", "mintypecode", "typename", "frompyfunc", "vectorize", "euler_gamma"]  # small helpers


def __getattr__(name: str):
    """A missing name: say that kdsl lacks it and, where there is one, the kdsl way to do it."""
    raise AttributeError(_missing.missing_name(name))


# Packages built on the public API above (their kernels are kd.raw_kernels): they must come last.
from kdsl import fft, linalg  # noqa: E402
from kdsl.fft.convolve import convolve, correlate  # noqa: E402

__all__ += ["fft", "linalg", "convolve", "correlate"]  # kdsl/fft/, kdsl/linalg/ (issue 11)

from kdsl.frontend.array.polydiv import polydiv  # noqa: E402
from kdsl.linalg.numpy_cross import cross  # noqa: E402  (NumPy's np.cross, on kd.linalg.cross)
from kdsl.linalg.poly1d import poly1d  # noqa: E402
from kdsl.linalg.poly_roots import poly, roots  # noqa: E402  (companion matrices: kd.linalg.eigvals)
from kdsl.linalg.polyfit import polyfit  # noqa: E402  (least squares: kd.linalg.lstsq)

__all__ += ["cross", "polyfit", "polydiv", "poly", "poly1d", "roots"]

from kdsl import polynomial  # noqa: E402  (kd.polynomial: NumPy's np.polynomial, on kd.linalg)

__all__ += ["polynomial"]

from kdsl.frontend.array import emath  # noqa: E402  (kd.emath: NumPy's np.emath, complex out of the domain)

__all__ += ["emath"]

from kdsl.frontend.array.broadcast_object import broadcast  # noqa: E402  (append-only, beside its __all__ line)
from kdsl.frontend.array.flat_iter import FlatIter as flatiter  # noqa: E402  (the type of a.flat)
from kdsl.frontend.array.float_formatting import format_float_positional, format_float_scientific  # noqa: E402
from kdsl.frontend.array.host_scalar_types import (  # noqa: E402
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
from kdsl.frontend.array.nditer import nditer  # noqa: E402
from kdsl.frontend.array.numpy_constants import (  # noqa: E402
    False_,
    ScalarType,
    True_,
    little_endian,
    sctypeDict,
    typecodes,
)
from kdsl.frontend.array.ufunc_methods import Ufunc as ufunc  # noqa: E402  (isinstance(kd.add, kd.ufunc))

__all__ += ["broadcast", "flatiter", "format_float_positional", "format_float_scientific", "bytes_", "character",
            "clongdouble", "complex256", "datetime64", "flexible", "float128", "isnat", "longdouble", "object_",
            "str_", "timedelta64", "void", "nditer", "False_", "ScalarType", "True_", "little_endian",
            "sctypeDict", "typecodes", "ufunc"]  # NumPy's remaining names (docs/numpy-api.md)

# kd.nn and kd.optim are built on this public API (`import kdsl as kd` inside them), so they come last.
from kdsl import nn, optim  # noqa: E402

__all__ += ["nn", "optim"]

from kdsl import testing  # noqa: E402  (kd.testing: NumPy's assertions on host copies; built on the public API)

__all__ += ["testing"]

from kdsl import exceptions  # noqa: E402  (kd.exceptions: numpy.exceptions' classes, which kdsl raises)

__all__ += ["exceptions"]

from kdsl.frontend.array import ufunc_methods as _ufunc_methods  # noqa: E402

_ufunc_methods.wrap(globals())  # binary functions gain NumPy's .outer/.reduce/.accumulate (kd.add.outer(a, b))

from kdsl.frontend.array.sliding_window import lib  # noqa: E402  (kd.lib.stride_tricks.sliding_window_view)

__all__ += ["lib"]
lib.scimath = emath  # type: ignore[attr-defined]  # NumPy's np.lib.scimath is np.emath (kdsl/frontend/array/emath.py)

from kdsl.frontend.array.show_config import package_version as _package_version  # noqa: E402
from kdsl.frontend.array.show_config import show_config  # noqa: E402

__version__ = _package_version()  # NumPy's np.__version__
__all__ += ["show_config"]
from kdsl.frontend.array.info import info  # noqa: E402

__all__ += ["info"]
