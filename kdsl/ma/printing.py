"""``repr``/``str`` of a kd.ma array as numpy.ma's, downloading only what is shown.

numpy.ma prints a summarised array (more elements than the ``threshold`` print option) from its edges:
``edgeitems`` entries at each end of every long axis. Before that, when a mask is set, it keeps only the
first and last 50 entries of every axis longer than 100 (750 of 1500 for 1-d arrays: its "print width") and
formats that smaller array, summarised if it still holds more than ``threshold`` elements. The ``mask=`` part of
``repr`` is the whole mask's, summarised by the whole size.

kd.ma prints with kdsl's print options (``kd.set_printoptions``, ``kd.printoptions``), as kdsl's arrays do, and
reproduces that output from small host stand-ins, as kdsl's own printing does (``printing_edges.py``):
each long axis is cut on the device to its first ``edgeitems + 1`` and last ``edgeitems`` entries and NumPy
formats the result told to summarise (``threshold=0``), which hides the extra entry. That hidden entry also
carries, in its mask, whether the whole mask is all True (numpy.ma's ``repr`` adds ``dtype=`` then). When the
print-width cut leaves the data short enough to print in full while the whole mask is summarised, the ``repr`` is
joined from the two stand-ins' texts at the ``mask=`` line.

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.masked_greater(kd.arange(2000.0), 1997.5)
    >>> print(x)
    [0.0 1.0 2.0 ... 1997.0 -- --]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.ma.constants import nomask


def masked_text(x: Any, fmt: Callable[[Any], str]) -> str:
    """``fmt`` (``repr`` or ``str``) of the kd.ma array ``x``, as ``fmt(x.to_numpy())`` gives it under kdsl's
    print options (``kd.set_printoptions``: a port's ``np.set_printoptions``), as kdsl's arrays print."""
    options = kd.get_printoptions()
    # NumPy's formatter with kdsl's options (override_repr is ndarray's repr hook, which numpy.ma's never calls)
    with np.printoptions(**{k: v for k, v in options.items() if k != "override_repr"}):
        return _text(x, fmt, options["threshold"], options["edgeitems"])


def _text(x: Any, fmt: Callable[[Any], str], threshold: int, edgeitems: int) -> str:
    """``masked_text`` inside NumPy's formatter set to kdsl's options."""
    if np.get_printoptions()["legacy"] is not False or x.size <= threshold or x.ndim == 0 or edgeitems <= 0 \
            or all(n <= 2 * edgeitems + 1 for n in x.shape):
        return fmt(x.to_numpy())  # printed in full (or a legacy layout): everything is shown
    data, mask = x._data, x._mask
    if mask is nomask:  # the data's own summary
        return _summarised(fmt, x, data, None, edgeitems)
    shown_data, shown_mask = _print_width_cut(data, mask)
    if shown_data.shape != data.shape and not _edges_survive(data.shape, edgeitems):
        return fmt(x.to_numpy())  # edgeitems past the print width: numpy.ma's own corner case, read it all
    if shown_data.size > threshold or fmt is str:
        if shown_data.size > threshold:
            return _summarised(fmt, x, data, mask, edgeitems)
        return fmt(_host(x, shown_data, shown_mask))  # str: the cut data, short enough to print in full
    # repr: the cut data in full, the whole mask summarised; one stand-in for each part
    data_text = repr(_host(x, shown_data, shown_mask))
    mask_text = _summarised(repr, x, data, mask, edgeitems)
    return data_text[:_mask_line(data_text)] + mask_text[_mask_line(mask_text):]


def _print_width_cut(data: kd.Array, mask: kd.Array) -> tuple[kd.Array, kd.Array]:
    """numpy.ma's corners before formatting: the first and last half print width of each longer axis."""
    width = 100 if data.ndim > 1 else 1500
    for axis, n in enumerate(data.shape):
        if n > width:
            data, mask = _ends(data, axis, width // 2, width // 2), _ends(mask, axis, width // 2, width // 2)
    return data, mask


def _edges_survive(shape: tuple[int, ...], edgeitems: int) -> bool:
    """Whether the print-width cut keeps every edge entry (and the hidden one) of the axes it cuts."""
    width = 100 if len(shape) > 1 else 1500
    return edgeitems + 1 <= width // 2


def _summarised(fmt: Callable[[Any], str], x: Any, data: kd.Array, mask: Any, edgeitems: int) -> str:
    """``fmt`` of a stand-in holding the edges of ``data`` (and ``mask``), formatted with ``threshold=0``."""
    cut_data, cut_mask = data, mask
    hidden: tuple[Any, ...] | None = None
    for axis, n in enumerate(data.shape):
        if n > 2 * edgeitems + 1:
            cut_data = _ends(cut_data, axis, edgeitems + 1, edgeitems)
            if mask is not None:
                cut_mask = _ends(cut_mask, axis, edgeitems + 1, edgeitems)
            if hidden is None:  # the slab NumPy's summary leaves out
                hidden = (slice(None),) * axis + (edgeitems,)
    host_mask = None
    if mask is not None:
        host_mask = cut_mask.numpy()
        # the hidden slab says whether the whole mask is all True (numpy.ma's repr then shows dtype=)
        host_mask[hidden] = bool(kd.all(mask))
    with np.printoptions(threshold=0):
        return fmt(_host(x, cut_data, host_mask))


def _ends(a: kd.Array, axis: int, head: int, tail: int) -> kd.Array:
    """The first ``head`` and last ``tail`` entries of ``a`` along ``axis`` (one lazy join)."""
    n = a.shape[axis]
    lead = (slice(None),) * axis
    return kd.concatenate([a[lead + (slice(0, head),)], a[lead + (slice(n - tail, n),)]], axis=axis)


def _host(x: Any, data: kd.Array, mask: Any) -> np.ma.MaskedArray:
    """A host np.ma array of ``data`` and ``mask`` (kdsl or host; None: nomask) with ``x``'s fill value."""
    if isinstance(mask, kd.Array):
        mask = mask.numpy()
    out = np.ma.MaskedArray(data.numpy(), mask=nomask if mask is None else mask)
    if x._fill_value is not None:
        out.fill_value = x._fill_value
    return out


def _mask_line(text: str) -> int:
    """Where the ``mask=`` line of a numpy.ma repr starts (the data part holds no ``mask=``)."""
    return text.rindex("\n", 0, text.index("mask=")) + 1
