"""kd's names that make arrays: Array itself, the creation functions, the matrix constructors, conversions
and layouts, host files and buffers (io, DLPack), arrays made from functions, index grids, window functions.

Only kdsl/__init__.py imports this module (``from kdsl.namespace_creation import *``): ``kd.<name>`` is
the public spelling, and the names are listed in kdsl's ``__all__``.
"""

# ruff: noqa: F401 - every import here is a re-export

from kdsl.frontend.array.array import Array, realize
from kdsl.frontend.array.constructors import diag, diagonal, eye, geomspace, identity, logspace, trace, tril, triu
from kdsl.frontend.array.conversion import (
    asanyarray,
    asarray_chkfinite,
    ascontiguousarray,
    copy,
    copyto,
)
from kdsl.frontend.array.creation import (
    arange,
    array,
    asarray,
    empty,
    empty_like,
    full,
    full_like,
    ones,
    ones_like,
    zeros,
    zeros_like,
)
from kdsl.frontend.array.dlpack import from_dlpack
from kdsl.frontend.array.functional import apply_along_axis, apply_over_axes, fromfunction
from kdsl.frontend.array.index_helpers import c_, index_exp, mgrid, ogrid, r_, s_
from kdsl.frontend.array.io import (
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
from kdsl.frontend.array.layout import asfortranarray, isfortran, require
from kdsl.frontend.array.linspace import linspace
from kdsl.frontend.array.matrices import block, diagflat, tri, vander
from kdsl.frontend.array.windows import bartlett, blackman, hamming, hanning, kaiser
