"""kd's names for indexing, sorting and searching: sorts and partitions, masks and nonzero, unique and set
routines, choose/select, index tricks, puts into arrays, triangle and diagonal indices, piecewise, interp.

Only kdsl/__init__.py imports this module (``from kdsl.namespace_indexing import *``): ``kd.<name>`` is
the public spelling, and the names are listed in kdsl's ``__all__``.
"""

# ruff: noqa: F401 - every import here is a re-export

from kdsl.frontend.array.choose import choose, select
from kdsl.frontend.array.diagonals import diag_indices, diag_indices_from, fill_diagonal
from kdsl.frontend.array.index_tricks import indices, ix_, ravel_multi_index, unravel_index
from kdsl.frontend.array.interpolation import interp
from kdsl.frontend.array.lexicographic import lexsort, sort_complex
from kdsl.frontend.array.mask_indices import mask_indices
from kdsl.frontend.array.masks import argwhere, compress, extract, flatnonzero, nonzero
from kdsl.frontend.array.piecewise import piecewise
from kdsl.frontend.array.put import place, put, put_along_axis, putmask
from kdsl.frontend.array.set_routines import intersect1d, setdiff1d, setxor1d, union1d
from kdsl.frontend.array.sorting import (
    argpartition,
    argsort,
    partition,
    searchsorted,
    sort,
    topk,
)
from kdsl.frontend.array.take import take, take_along_axis
from kdsl.frontend.array.triangle_indices import (
    tril_indices,
    tril_indices_from,
    triu_indices,
    triu_indices_from,
)
from kdsl.frontend.array.trimming import trim_zeros
from kdsl.frontend.array.unique import (
    unique,
    unique_all,
    unique_counts,
    unique_inverse,
    unique_values,
)
