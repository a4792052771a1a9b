"""``histogram_bin_edges(a, bins='stone')``: Stone's cross-validated bin width, NumPy's estimator.

For every candidate count ``k = 1 .. max(100, sqrt(n))`` NumPy histograms the data into ``k`` equal bins over
the range and keeps the ``k`` that minimises the estimated integrated squared error
``(2 - (n + 1) * sum(p**2)) / h`` (``p`` the bins' shares, ``h = ptp / k``). kdsl bins every value for every
candidate in one kernel (against NumPy's own edges, corrected as ``histogram`` corrects them) and counts all
candidates with one ``bincount``, reads the counts back once (about ``k_max**2 / 2`` integers: a statistic, as
the other estimators read theirs) and minimises on the host in float64, exactly as NumPy does.

Example:
    >>> import kdsl as kd
    >>> edges = kd.histogram_bin_edges(kd.asarray([0.0, 0.1, 0.2, 5.0, 5.1, 5.2, 9.9, 10.0]), bins="stone")
    >>> edges.size - 1, round(float(edges[1]), 4)  # NumPy's: 48 bins of width 10 / 48
    (48, 0.2083)
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.clip_modes import index_dtype
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.histogram import bounded_bincount
from kdsl.frontend.array.scatter_sorted import at


def stone_width(x: Array, edges: tuple[Any, Any], ptp: Any) -> Any:
    """The bin width Stone's rule picks for the values ``x`` (already trimmed to the range ``edges``) whose
    extremes differ by ``ptp``; 0 (one bin) for fewer than two values or constant data, as NumPy's."""
    n = x.size
    if n <= 1 or ptp == 0:
        return 0
    upper = max(100, int(np.sqrt(n)))
    counts = _all_counts(x, edges, upper).numpy()

    def jhat(nbins: int) -> Any:
        start = nbins * (nbins - 1) // 2  # the counts of k bins follow those of 1 .. k - 1
        p_k = counts[start : start + nbins] / n
        return (2 - (n + 1) * p_k.dot(p_k)) / (ptp / nbins)

    nbins = min(range(1, upper + 1), key=jhat)
    if nbins == upper:
        warnings.warn("The number of bins estimated may be suboptimal.", RuntimeWarning, stacklevel=4)
    return ptp / nbins


def _all_counts(x: Array, edges: tuple[Any, Any], upper: int) -> Array:
    """The counts of the histograms of ``x`` in ``k = 1 .. upper`` equal bins over ``edges``, one after the
    other (``k``'s start at ``k * (k - 1) / 2``); every value of ``x`` lies within ``edges``."""
    first, last = edges
    edge_type = np.result_type(first, last, np.empty(0, x.dtype.np))
    if edge_type.kind in "biu":  # NumPy widens integer edges to float; complex ones keep their dtype
        edge_type = np.result_type(edge_type, float)
    ks = np.arange(1, upper + 1)
    starts = ks * (ks - 1) // 2
    # NumPy's edges of every candidate (k + 1 each, so k's begin at starts + k - 1), laid end to end
    host_edges = np.concatenate([np.linspace(first, last, k + 1, endpoint=True, dtype=edge_type) for k in ks])
    all_edges = asarray(host_edges, device=x.device)
    idt = index_dtype(x.device)
    k = asarray(ks.astype(idt.np), device=x.device)[:, None]
    lead = asarray((starts + ks - 1).astype(idt.np), device=x.device)[:, None]
    xe = x.astype(all_edges.dtype)[None, :]
    width = (last.item() if isinstance(last, np.generic) else last) - (
        first.item() if isinstance(first, np.generic) else first)
    i = ((xe - float(first)) / width * k).astype(idt)  # a first guess, then NumPy's corrections
    i = km.minimum(km.maximum(i, 0), k - 1)
    i = km.where(xe < at(all_edges, (lead + i).reshape(-1)).reshape(i.shape), i - 1, i)
    above = xe >= at(all_edges, (lead + km.minimum(i + 1, k)).reshape(-1)).reshape(i.shape)
    i = km.where(above & (i != k - 1), i + 1, i)
    bins = asarray(starts.astype(idt.np), device=x.device)[:, None] + i
    return bounded_bincount(bins.reshape(-1), None, int(upper * (upper + 1) // 2))
