"""``kd.broadcast_to`` and ``kd.broadcast_arrays`` as NumPy's views: the result reads its input's current values,
so a write into the input shows in it (``b = kd.broadcast_to(a, (2, 3)); a[0] = 5`` changes both rows of ``b``).

Unlike NumPy's, the result stays writeable (kdsl's documented choice, :func:`shape_ops.broadcast_to`): a write
into it changes that result only, which from then on holds its own values. kdsl's own functions build on
:func:`shape_ops.broadcast_to`, which makes no link (``kd.tile(a, 2)`` is a copy, as NumPy's).

Example:
    >>> import kdsl as kd
    >>> a = kd.asarray([1, 2, 3])
    >>> b = kd.broadcast_to(a, (2, 3))
    >>> a[0] = 5
    >>> b.tolist()
    [[5, 2, 3], [5, 2, 3]]
"""

from __future__ import annotations

from typing import Any

from kdsl.frontend.array import shape_ops
from kdsl.frontend.array.array import Array


def broadcast_to(array: Any, shape: Any, subok: bool = False) -> Array:
    """``array`` broadcast to ``shape`` (NumPy's ``broadcast_to``): a view that follows writes into ``array``."""
    out = shape_ops.broadcast_to(array, shape, subok)
    return following(out, array)


def broadcast_arrays(*args: Any, subok: bool = False) -> tuple[Array, ...]:
    """``args`` broadcast to their common shape (NumPy's ``broadcast_arrays``, a tuple): views that follow writes
    into the arrays given (an array of that shape already comes back as itself)."""
    outs = shape_ops.broadcast_arrays(*args, subok=subok)
    return tuple(following(out, x) for out, x in zip(outs, args, strict=True))


def following(out: Array, source: Any) -> Array:
    """``out`` (a broadcast of ``source``) rebuilt from ``source`` whenever ``source`` is written; nothing to
    follow when ``source`` is host data (``out`` holds the only copy)."""
    if isinstance(source, Array) and out is not source:
        shape = out.shape
        # (a rebuild keeps only the node: the strides ``out`` reports were fixed when it was made)
        out._follow(lambda: source, lambda base: shape_ops.broadcast_values_to(base, shape), source)  # noqa: SLF001
    return out
