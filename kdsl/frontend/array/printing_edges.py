"""What printing downloads: a summarised array (more elements than ``threshold``) reads back only its edges.

NumPy shows ``edgeitems`` entries at each end of every axis longer than ``2 * edgeitems`` once an array has more
than ``threshold`` elements; the rest is ``...``. kdsl cuts each such axis on the device to its first
``edgeitems + 1`` and last ``edgeitems`` entries (lazy slices joined in one kernel), so printing a 2**28-element
array downloads a few corner blocks, not the array. The cut array still has ``2 * edgeitems + 1`` entries on each
of those axes, so NumPy's formatter, told to summarise it (``threshold=0``), drops the middle one and lays out the
same edges as it would for the whole array; its number formats are worked out from those edges alone in NumPy too.

Example:
    >>> import kdsl as kd
    >>> host, threshold = edge_host(kd.arange(100).reshape(10, 10), threshold=10, edgeitems=2)
    >>> host.shape, threshold
    ((5, 5), 0)
"""

from __future__ import annotations

import numpy as np

from kdsl.frontend.array.array import Array


def edge_host(a: Array, threshold: int, edgeitems: int) -> tuple[np.ndarray, int]:
    """The host array to format and the ``threshold`` to format it with: the whole array and ``threshold`` when
    it prints in full (or no axis can be cut), else its edges and 0 (so NumPy summarises the cut axes)."""
    if a.size <= threshold or a.ndim == 0 or edgeitems == 0:
        # edgeitems=0: NumPy sizes its number formats from the whole array (its a[-0:] is all of it)
        return a.numpy(), threshold
    cut = a
    for axis, length in enumerate(a.shape):
        if length > 2 * edgeitems + 1:
            cut = _edges_along(cut, axis, edgeitems)
    if cut is a:  # every axis is short: nothing to leave out (the array is small)
        return a.numpy(), threshold
    return cut.numpy(), 0


def _edges_along(a: Array, axis: int, edgeitems: int) -> Array:
    """``a``'s first ``edgeitems + 1`` and last ``edgeitems`` entries along ``axis`` (one lazy join of two
    slices; the extra leading entry is the one NumPy's summary hides, so the axis stays summarised)."""
    from kdsl.frontend.array.shape_ops import concatenate  # cycle: shape_ops builds arrays printing shows

    length = a.shape[axis]
    head = a[(slice(None),) * axis + (slice(0, edgeitems + 1),)]
    tail = a[(slice(None),) * axis + (slice(length - edgeitems, length),)]
    return concatenate([head, tail], axis=axis)
