"""kd's names that change shapes: reshapes and transposes, joining and splitting, orientation (flips,
rotations), editing (append, delete, insert, resize), broadcasting.

Only kdsl/__init__.py imports this module (``from kdsl.namespace_shapes import *``): ``kd.<name>`` is
the public spelling, and the names are listed in kdsl's ``__all__``.
"""

# ruff: noqa: F401 - every import here is a re-export

from kdsl.frontend.array.broadcast_object import broadcast
from kdsl.frontend.array.broadcast_views import broadcast_arrays, broadcast_to
from kdsl.frontend.array.edit import append, delete, ediff1d, insert, resize
from kdsl.frontend.array.joining import (
    atleast_1d,
    atleast_2d,
    atleast_3d,
    column_stack,
    diff,
    dstack,
    hstack,
    meshgrid,
    repeat,
    roll,
    row_stack,
    tile,
    vstack,
)
from kdsl.frontend.array.orientation import fliplr, flipud, rollaxis, rot90
from kdsl.frontend.array.padding import pad
from kdsl.frontend.array.shape_ops import (
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
from kdsl.frontend.array.splitting import array_split, dsplit, hsplit, split, unstack, vsplit
