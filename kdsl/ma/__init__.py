"""``kd.ma``: NumPy's masked arrays (``numpy.ma``) on kdsl arrays. A :class:`MaskedArray` holds a lazy kdsl
data array and a lazy kdsl bool mask (``True`` = invalid, ``nomask`` while nothing is masked); arithmetic,
ufuncs (``kd.sqrt(x)``, ``np.sqrt(x)``) and reductions follow ``numpy.ma``'s rules and fuse on the device.
Only what must be known on the host reads back: printing, ``tolist``, ``compressed``'s length, and whether a
scalar result is ``masked``. Built on the public API.

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.masked_invalid(kd.asarray([1.0, float("nan"), 3.0]))
    >>> print(x * 2)
    [2.0 -- 6.0]
    >>> float(x.mean()), x.tolist()
    (2.0, [1.0, None, 3.0])
"""

from kdsl.ma import (
    array_methods,  # noqa: F401 - binds put, choose, conj, the shape setter
    dispatch,  # noqa: F401 - binds MaskedArray.__array_function__
    mask_methods,  # noqa: F401 - binds shrink_mask, unshare_mask, get_real, get_imag, ids, iscontiguous
    masked_flat,  # noqa: F401 - binds MaskedArray.flat
    numpy_ma_results,  # noqa: F401 - binds _update_from and __setattr__ (numpy.ma's comparisons' results)
    ufunc_reduce,  # noqa: F401 - binds kd.ma.add.reduce, kd.ma.maximum.reduce...
)
from kdsl.ma.along_axis import apply_along_axis, apply_over_axes
from kdsl.ma.anomalies import anom, anomalies
from kdsl.ma.average import average
from kdsl.ma.constants import (
    MAError,
    MaskError,
    MaskType,
    bool_,
    default_fill_value,
    masked,
    masked_print_option,
    masked_singleton,
    maximum_fill_value,
    minimum_fill_value,
    nomask,
)
from kdsl.ma.constructors import (
    arange,
    array,
    empty,
    empty_like,
    fix_invalid,
    frombuffer,
    identity,
    masked_all,
    masked_all_like,
    masked_array,
    masked_equal,
    masked_greater,
    masked_greater_equal,
    masked_inside,
    masked_invalid,
    masked_less,
    masked_less_equal,
    masked_not_equal,
    masked_object,
    masked_outside,
    masked_values,
    masked_where,
    ones,
    ones_like,
    zeros,
    zeros_like,
)
from kdsl.ma.convolution import convolve, correlate
from kdsl.ma.covariance import corrcoef, cov
from kdsl.ma.fitting import polyfit, vander
from kdsl.ma.functions import (
    allclose,
    allequal,
    asanyarray,
    asarray,
    compressed,
    concatenate,
    count_masked,
    expand_dims,
    filled,
    flatten_mask,
    getdata,
    getmask,
    getmaskarray,
    hstack,
    ids,
    is_masked,
    isarray,
    isMA,
    isMaskedArray,
    make_mask,
    make_mask_none,
    mask_or,
    ravel,
    reshape,
    squeeze,
    stack,
    swapaxes,
    transpose,
    vstack,
    where,
)
from kdsl.ma.index_tricks import fromfunction, indices, mr_, ndenumerate
from kdsl.ma.masked_array import MaskedArray
from kdsl.ma.operators import FUNCTIONS as _FUNCTIONS
from kdsl.ma.operators import power
from kdsl.ma.ordering import argsort, sort
from kdsl.ma.products import (
    dot,
    inner,
    innerproduct,
    kron,  # noqa: F401 - what kd.kron / np.kron run (numpy.ma has no kron name)
    outer,
    outerproduct,
)
from kdsl.ma.putmask import putmask
from kdsl.ma.reductions import (
    all,
    alltrue,
    amax,
    amin,
    any,
    argmax,
    argmin,
    count,
    cumprod,
    cumsum,
    max,
    mean,
    median,
    min,
    prod,
    product,
    ptp,
    sometrue,
    std,
    sum,
    var,
)
from kdsl.ma.rows_cols import (
    compress_cols,
    compress_nd,
    compress_rowcols,
    compress_rows,
    mask_cols,
    mask_rowcols,
    mask_rows,
)
from kdsl.ma.runs import (
    clump_masked,
    clump_unmasked,
    flatnotmasked_contiguous,
    flatnotmasked_edges,
    notmasked_contiguous,
    notmasked_edges,
)
from kdsl.ma.selection import (
    choose,
    clip,
    compress,
    copy,
    diagonal,
    diff,
    ediff1d,
    nonzero,
    put,
    repeat,
    take,
    trace,
    trapezoid,
)
from kdsl.ma.sets import in1d, intersect1d, isin, setdiff1d, setxor1d, union1d, unique
from kdsl.ma.shape_functions import (
    append,
    atleast_1d,
    atleast_2d,
    atleast_3d,
    column_stack,
    diag,
    diagflat,
    dstack,
    hsplit,
    ndim,
    resize,
    shape,
    size,
)
from kdsl.ma.value_parts import common_fill_value, harden_mask, is_mask, set_fill_value, soften_mask

row_stack = vstack
globals().update(_FUNCTIONS)  # the masked ufuncs: kd.ma.sqrt, kd.ma.log, kd.ma.add, kd.ma.divide...
globals().update(ufunc_reduce.EXTREMA)  # numpy.ma's maximum/minimum: where(greater(a, b), a, b)

__all__ = ["MaskError", "MaskType", "MaskedArray", "all", "allclose", "allequal", "amax", "amin", "anom",
           "anomalies", "any", "arange", "argmax", "argmin", "argsort", "array", "asanyarray", "asarray",
           "atleast_1d", "atleast_2d", "average", "clip", "clump_masked", "clump_unmasked", "compress",
           "compress_cols", "compress_nd", "compress_rowcols", "compress_rows", "compressed", "concatenate", "copy",
           "count", "count_masked", "cumprod", "cumsum", "default_fill_value", "diagonal", "diff", "dot", "empty",
           "empty_like", "expand_dims", "filled", "fix_invalid", "flatnotmasked_contiguous", "flatnotmasked_edges",
           "getdata", "getmask", "getmaskarray", "hstack", "is_masked", "isarray", "isMA", "isMaskedArray",
           "make_mask", "make_mask_none", "mask_cols", "mask_or", "mask_rowcols", "mask_rows", "masked",
           "masked_all", "masked_all_like", "masked_array", "masked_equal", "masked_greater", "masked_greater_equal",
           "masked_inside", "masked_invalid", "masked_less", "masked_less_equal", "masked_not_equal",
           "masked_object", "masked_outside", "masked_values", "masked_where", "max", "mean", "median", "min",
           "nomask", "nonzero",
           "notmasked_contiguous", "notmasked_edges", "ones", "ones_like", "power", "prod", "product", "ptp",
           "ravel", "repeat", "reshape", "row_stack", "set_fill_value", "sort", "squeeze", "stack", "std", "sum",
           "swapaxes", "take", "trace", "transpose", "trapezoid", "var", "vstack", "where", "zeros", "zeros_like"]
__all__ += ["MAError", "common_fill_value", "harden_mask", "is_mask", "soften_mask"]
__all__ += ["apply_along_axis", "corrcoef", "cov"]
__all__ += ["convolve", "correlate", "polyfit", "vander"]
__all__ += ["in1d", "intersect1d", "isin", "setdiff1d", "setxor1d", "union1d", "unique"]
__all__ += ["putmask", "ediff1d", "identity", "maximum_fill_value", "minimum_fill_value"]
__all__ += ["alltrue", "append", "atleast_3d", "column_stack", "diag", "diagflat", "dstack", "hsplit", "inner",
            "innerproduct", "ndim", "outer", "outerproduct", "resize", "shape", "size", "sometrue"]
__all__ += ["apply_over_axes", "bool_", "choose", "flatten_mask", "frombuffer", "fromfunction", "ids", "indices",
            "masked_print_option", "masked_singleton", "mr_", "ndenumerate", "put"]
__all__ += sorted(_FUNCTIONS)
