"""kd's reductions and what is built on them: sums, extremes, statistics, the nan* functions, quantiles,
cumulative scans, histograms and binning, contractions (dot, matmul, einsum...), calculus, polynomials.

Only kdsl/__init__.py imports this module (``from kdsl.namespace_reductions import *``): ``kd.<name>`` is
the public spelling, and the names are listed in kdsl's ``__all__``.
"""

# ruff: noqa: F401 - every import here is a re-export

from kdsl.frontend.array.averages import average, ptp
from kdsl.frontend.array.binning import digitize, histogram_bin_edges
from kdsl.frontend.array.calculus import gradient, trapezoid
from kdsl.frontend.array.contractions import corrcoef, cov, inner, kron, matrix_transpose, tensordot, vecdot
from kdsl.frontend.array.cumulative import (
    cumprod,
    cumsum,
    cumulative_prod,
    cumulative_sum,
    nancumprod,
    nancumsum,
)
from kdsl.frontend.array.einsum import einsum, einsum_path
from kdsl.frontend.array.gufuncs import matvec, vecmat
from kdsl.frontend.array.histogramdd import histogram2d, histogramdd
from kdsl.frontend.array.linalg import dot, matmul, outer
from kdsl.frontend.array.nan_argextremes import nanargmax, nanargmin
from kdsl.frontend.array.nan_functions import nanmax, nanmean, nanmin, nanprod, nanstd, nansum, nanvar
from kdsl.frontend.array.nan_quantiles import nanmedian, nanpercentile, nanquantile
from kdsl.frontend.array.polynomials import polyadd, polyder, polyint, polymul, polysub, polyval
from kdsl.frontend.array.quantiles import median, percentile, quantile
from kdsl.frontend.array.reductions import (
    all,
    amax,
    amin,
    any,
    argmax,
    argmin,
    max,
    mean,
    min,
    prod,
    std,
    sum,
    var,
)
