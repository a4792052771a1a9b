"""Which axis of a matmul operand runs along memory, so its tile loads can be coalesced.

A tile loader maps neighbouring invocations to neighbouring elements of one axis of the tile. When that axis
is the one the operand's memory is contiguous along, a subgroup reads a few cache lines per load; when it is
not (``x @ W.T``, ``X.T @ G``: the weights of a linear layer, the input of a weight gradient), every lane
reads a different line. Measured on an H200 before this existed, such a transposed operand cost 1.5x (float32)
to 2.3x (float16) the time of the contiguous one.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.expr import load
    >>> from kdsl.ir.view import View
    >>> w = load(1, dt.float32, View.contiguous((1, 30, 20)).permute((0, 2, 1)))  # (1, 20, 30) = W.T
    >>> middle_is_contiguous(w, (1, 20, 30))
    True
    >>> middle_is_contiguous(load(1, dt.float32, View.contiguous((1, 20, 30))), (1, 20, 30))
    False
    >>> groups_along(w.arg[1], (1, 20, 30), 1, 4), groups_along(w.arg[1], (1, 20, 30), 2, 4)
    (True, False)
"""

from __future__ import annotations

from kdsl.ir.expr import Expr
from kdsl.ir.view import View


def groups_along(view: object, shape: tuple[int, ...], axis: int, width: int) -> bool:
    """Whether ``view`` is a :class:`View` of ``shape`` (int-indexed) that runs contiguously along ``axis`` in
    groups of ``width`` elements on ``width``-element boundaries of its buffer (the axis length and the other
    strides multiples of ``width``), so that one wide load reads each group; the offset's alignment is the
    caller's to check (a pushed offset is tested in the kernel)."""
    if not isinstance(view, View) or view.wide or tuple(view.shape) != tuple(shape):
        return False
    strides = view.canonical().strides
    others = [s for i, s in enumerate(strides) if i != axis]
    return strides[axis] == 1 and not shape[axis] % width and not any(s % width for s in others)


def middle_is_contiguous(e: Expr, shape: tuple[int, int, int]) -> bool:
    """Whether the operand ``e`` of shape ``(batch, rows, cols)`` reads memory contiguously along ``rows``
    rather than ``cols``, judged by its widest direct load (the bulk of its bytes; fused scalars and broadcast
    vectors do not decide)."""
    best = None
    for node in e.find("load"):
        view = node.arg[1]
        if not isinstance(view, View) or tuple(view.shape) != tuple(shape):
            continue
        strides = view.canonical().strides
        if best is None or strides.count(0) < best.count(0):
            best = strides
    return best is not None and best[1] == 1 and best[2] != 1
