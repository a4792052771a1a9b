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

# kd's names are gathered by concept in kdsl/namespace_*.py (each star import below brings that module's imports)
# and listed in __all__ below. The private names here are kdsl's own, not public API.
# ruff: noqa: F405 - __all__ and the lines below name what the star imports bring
import sys as _sys

from kdsl import dtype as _dtype_module
from kdsl.frontend import kernels as _kernels
from kdsl.frontend import lang as _lang
from kdsl.frontend.array import dtype_calls as _dtype_calls  # noqa: F401  (kd.float32(array) casts: the hook)
from kdsl.frontend.array import missing as _missing
from kdsl.frontend.array.api_info import (
    API_VERSION as __array_api_version__,
)
from kdsl.frontend.array.api_info import __array_namespace_info__
from kdsl.frontend.array.attention import fused_attention as _fused_attention  # noqa: F401  (kd.nn's; not public)
from kdsl.frontend.kernels import *  # noqa: F403 - @kd.kernel, kd.raw_kernel, intrinsics, ... (its __all__)
from kdsl.frontend.lang import *  # noqa: F403 - kd.compute, kd.elementwise, kd.reduction (its __all__)
from kdsl.namespace_creation import *  # noqa: F403 - Array, creation functions, conversions, io
from kdsl.namespace_dtypes import *  # noqa: F403 - DTypes, NumPy's dtype aliases and abstract types
from kdsl.namespace_indexing import *  # noqa: F403 - sorting, searching, masks, index tricks, puts
from kdsl.namespace_reductions import *  # noqa: F403 - reductions, statistics, scans, contractions
from kdsl.namespace_shapes import *  # noqa: F403 - reshapes, joining and splitting, flips, edits
from kdsl.namespace_tools import *  # noqa: F403 - devices, explain/profile, jit, autodiff, random, printing
from kdsl.namespace_ufuncs import *  # noqa: F403 - NumPy's ufuncs, kd.emath, kd.ufunc, errstate

# `import kdsl.random` / `from kdsl.random import default_rng` as with numpy.random: kd.random is a module of the
# array frontend, so its dotted name is registered here (the same module object, no copy of its state)
_sys.modules.setdefault(__name__ + ".random", random)

bool = bool_  # noqa: A001  (NumPy spells it np.bool too)
newaxis = None
pi = 3.141592653589793
e = 2.718281828459045
inf = float("inf")
nan = float("nan")
dtypes = _dtype_module.ALL
euler_gamma = 0.5772156649015329

__all__ = [
    "set_cache_limits", "cache_limits", "empty_cache",
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
    "relu", "remainder", "right_shift", "rint", "round", "rsqrt", "sigmoid", "erf", "sign", "sin", "sinh", "sqrt",
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
__all__ += ["grad", "value_and_grad", "vjp", "jvp", "stop_gradient", "custom_vjp", "tree_map",  # kdsl/autodiff
            "tree_flatten", "tree_unflatten", "tree_leaves", "tree_structure"]
__all__ += ["bincount", "histogram"]  # kdsl/frontend/array/scatter.py (add, subtract, maximum, minimum gain .at)
__all__ += ["unique", "unique_all", "unique_counts", "unique_inverse", "unique_values"]  # frontend/array/unique.py
__all__ += ["from_dlpack"]  # kdsl/frontend/array/dlpack.py (host copies both ways)
__all__ += ["cumprod", "cumulative_prod", "cumulative_sum", "nancumprod", "nancumsum"]  # scans (issue 9)
__all__ += ["complex64", "complex128", "angle", "complex_from_parts", "conj", "conjugate", "imag", "iscomplex",
            "iscomplexobj", "isreal", "isrealobj", "real", "vdot"]  # complex numbers (docs/complex.md)
__all__ += ["devices"]  # several devices in one process (kdsl/device.py, issue 14)
__all__ += ["choose", "select", "diag_indices", "diag_indices_from", "fill_diagonal", "indices", "ix_",
            "ravel_multi_index", "unravel_index", "place", "put", "put_along_axis", "putmask", "tril_indices",
            "tril_indices_from", "triu_indices", "triu_indices_from"]  # in-place puts and index tricks
__all__ += ["digitize", "histogram_bin_edges", "interp", "intersect1d", "lexsort", "nanargmax", "nanargmin",
            "nanmedian", "nanpercentile", "nanquantile", "setdiff1d", "setxor1d", "sort_complex", "trim_zeros",
            "union1d"]  # binning, interpolation, lexicographic, nan_argextremes, nan_quantiles, set_routines, trimming
__all__ += ["fabs", "fmod", "fmax", "fmin", "deg2rad", "rad2deg", "degrees", "radians", "cbrt", "heaviside",
            "isposinf", "isneginf", "float_power", "logaddexp2", "divmod", "modf", "fix", "sinc", "ldexp", "frexp",
            "spacing", "bitwise_count", "gcd", "lcm", "unwrap", "real_if_close", "i0"]  # NumPy's other ufuncs
__all__ += ["asanyarray", "asarray_chkfinite", "ascontiguousarray", "copy", "copyto",  # conversion.py
            "array_equiv", "isscalar", "issubdtype", "ndim", "promote_types", "shape", "size",  # introspection.py
            "generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
            "complexfloating"]  # NumPy's abstract scalar types, for issubdtype
__all__ += ["append", "delete", "ediff1d", "insert", "resize",  # edit.py
            "apply_along_axis", "fromfunction",  # functional.py
            "block", "diagflat", "tri", "vander",  # matrices.py
            "fliplr", "flipud", "rollaxis", "rot90", "row_stack"]  # orientation.py, joining.py
__all__ += ["average", "ptp", "packbits", "unpackbits", "matvec", "vecmat", "bartlett", "blackman", "hamming",
            "hanning", "kaiser", "gradient", "trapezoid", "polyadd", "polyder", "polyint", "polymul", "polysub",
            "polyval", "histogram2d", "histogramdd"]  # more of NumPy (averages, bits, calculus, gufuncs, histogramdd,
            # polynomials, windows .py)
__all__ += ["ndarray", "half", "single", "double", "csingle", "cdouble", "byte", "ubyte", "short", "ushort",
            "intc", "uintc", "longlong", "ulonglong", "int_", "intp", "long", "uint", "uintp", "ulong",  # aliases
            "errstate", "geterr", "geterrcall", "seterr", "seterrcall",  # errstate.py
            "array2string", "array_repr", "array_str", "get_printoptions", "printoptions", "set_printoptions"]
__all__ += ["mgrid", "ogrid", "r_", "c_", "s_", "index_exp"]  # index_helpers.py
__all__ += ["save", "load", "savez", "savez_compressed", "savetxt", "loadtxt", "genfromtxt", "frombuffer",
            "fromiter", "fromstring", "fromfile"]  # io.py (host files: explicit transfers)
__all__ += ["apply_over_axes", "iterable", "ndenumerate", "ndindex", "asfortranarray", "isfortran", "require",
            "mask_indices", "base_repr", "binary_repr", "piecewise", "shares_memory", "common_type",
            "min_scalar_type", "mintypecode", "typename", "frompyfunc", "vectorize", "euler_gamma"]  # small helpers
__all__ += ["PerformanceWarning"]  # the host fallbacks (kd.vectorize of Python control flow)


def __getattr__(name: str):
    """A missing name: say that kdsl lacks it and, where there is one, the kdsl way to do it."""
    raise AttributeError(_missing.missing_name(name))


# Packages built on the public API above (their kernels are kd.raw_kernels): they must come last.
from kdsl.namespace_packages import *  # noqa: E402, F403 - kd.fft, kd.linalg, kd.polynomial, kd.nn, ...

__all__ += ["fft", "linalg", "convolve", "correlate"]  # kdsl/fft/, kdsl/linalg/ (issue 11)
__all__ += ["cross", "polyfit", "polydiv", "poly", "poly1d", "roots"]
__all__ += ["polynomial"]
__all__ += ["emath"]
__all__ += ["broadcast", "flatiter", "format_float_positional", "format_float_scientific", "bytes_", "character",
            "clongdouble", "complex256", "datetime64", "flexible", "float128", "isnat", "longdouble", "object_",
            "str_", "timedelta64", "void", "nditer", "False_", "ScalarType", "True_", "little_endian",
            "sctypeDict", "typecodes", "ufunc"]  # NumPy's remaining names (docs/numpy-api.md)
__all__ += ["nn", "optim"]
__all__ += ["testing"]
__all__ += ["typing"]
__all__ += ["exceptions"]
__all__ += ["ma"]

from kdsl.frontend.array import ufunc_methods as _ufunc_methods  # noqa: E402
from kdsl.ma import dispatch as _ma_dispatch  # noqa: E402

_ma_dispatch.install(globals())  # kd.sum(x), kd.where(c, x, y)... of kd.ma masked arrays run kd.ma's functions
from kdsl.frontend.array import bitcast as _bitcast  # noqa: E402
from kdsl.ma import numpy_ma_results as _numpy_ma_results  # noqa: E402

# numpy.ma's comparisons (np.ma.masked < x) wrap their kdsl result as a kd.ma array (kd.ma is above the array layer)
_bitcast.numpy_ma_view = _numpy_ma_results.wrap

_ufunc_methods.wrap(globals())  # binary functions gain NumPy's .outer/.reduce/.accumulate (kd.add.outer(a, b))
from kdsl.frontend.array import ufunc_overrides as _ufunc_overrides  # noqa: E402

_ufunc_overrides.install(globals())  # kd.sum(q) of a type with __array_ufunc__: q.sum or kd.add.reduce(q), as NumPy

from kdsl.frontend.array.sliding_window import lib  # noqa: E402  (kd.lib.stride_tricks.sliding_window_view)

__all__ += ["lib"]
lib.scimath = emath  # type: ignore[attr-defined]  # NumPy's np.lib.scimath is np.emath (kdsl/frontend/array/emath.py)
from kdsl.frontend.array import lib_namespace as _lib_namespace  # noqa: E402

_lib_namespace.add_to(lib)  # kd.lib.array_utils, kd.lib.NumpyVersion

from kdsl.frontend.array.show_config import getbufsize, setbufsize, show_config, show_runtime  # noqa: E402
from kdsl.frontend.array.show_config import package_version as _package_version  # noqa: E402

__version__ = _package_version()  # NumPy's np.__version__
__all__ += ["getbufsize", "setbufsize", "show_config", "show_runtime"]
from kdsl.frontend.array.info import info  # noqa: E402

__all__ += ["info"]

# The namespace_* modules only gather kd's names: they are not names of kd themselves.
for _module in [name for name in globals() if name.startswith("namespace_")]:
    del globals()[_module]
del _module
