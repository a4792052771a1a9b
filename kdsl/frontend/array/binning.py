"""Binning: ``digitize`` (which bin each value falls in) and ``histogram_bin_edges`` (the edges
``histogram`` would use), NumPy 2's semantics.

``digitize`` is one device ``searchsorted`` (of the reversed bins when they decrease); deciding whether the
bins increase or decrease reads back two bools when the bins are a kdsl array (host bins are checked on the
host). ``histogram_bin_edges`` computes equal-width edges on the host from the range, as NumPy does (without
``range`` it reads back the data's minimum and maximum); bin edge arrays come back as given once checked; the
estimators (``'auto'``, ``'fd'``, ``'sturges'``, ...) read back the few statistics they need (size, extremes,
standard deviation, quartiles; for ``'stone'`` the candidate histograms' counts), computed on the device.

Example:
    >>> import kdsl as kd
    >>> kd.digitize(kd.asarray([0.2, 6.4, 3.0, 1.6]), kd.asarray([0.0, 1.0, 2.5, 4.0, 10.0])).tolist()
    [1, 4, 3, 2]
    >>> kd.histogram_bin_edges(kd.asarray([1.0, 2.0, 5.0]), bins=2).tolist()
    [1.0, 3.0, 5.0]
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array, realize
from kdsl.frontend.array.creation import as_array, asarray
from kdsl.frontend.array.histogram import data_outer_edges, equal_edges, in_range, sample_values
from kdsl.frontend.array.histogram_stone import stone_width
from kdsl.frontend.array.masks import compress
from kdsl.frontend.array.quantiles import percentile
from kdsl.frontend.array.reductions import any as reduce_any
from kdsl.frontend.array.reductions import argmax, mean, std
from kdsl.frontend.array.reductions import max as amax
from kdsl.frontend.array.reductions import min as amin
from kdsl.frontend.array.shape_arguments import host_length
from kdsl.frontend.array.sorting import searchsorted

_ESTIMATORS = ("stone", "auto", "doane", "fd", "rice", "scott", "sqrt", "sturges")


def _monotonicity(bins: Array) -> int:
    """1 if ``bins`` never decreases, -1 if it never increases (and is not constant), 0 otherwise, as NumPy's
    check: the direction is set by the first value unequal to ``bins[0]`` (a NaN there, or a NaN first, reads as
    decreasing, so ``[nan, 0, 2]`` is not monotonic, as NumPy's ValueError says), then no step may go the other
    way. Reads back four bools (one synchronisation).

    >>> import kdsl as kd
    >>> [_monotonicity(kd.asarray(b)) for b in ([1.0, 2, 2], [3.0, 1], [1.0, 1], [float("nan"), 0, 2])]
    [1, -1, 1, 0]
    """
    if bins.shape[0] < 2:
        return 1
    up = reduce_any(bins[1:] < bins[:-1])
    down = reduce_any(bins[1:] > bins[:-1])
    unequal = bins != bins[0]
    differs = reduce_any(unequal)
    increasing = bins[0] < bins[argmax(unequal)]
    realize(up, down, differs, increasing)
    if not bool(differs):
        return 1
    if bool(increasing):
        return 0 if bool(up) else 1
    return 0 if bool(down) else -1


def digitize(x: Any, bins: Any, right: bool = False) -> Array:
    """The index of the bin each element of ``x`` falls in, for 1-D ``bins`` that increase or decrease
    (NumPy's ``digitize``): with increasing bins ``bins[i-1] <= x < bins[i]`` (``right=True``:
    ``bins[i-1] < x <= bins[i]``), 0 below and ``len(bins)`` above; decreasing bins mirror it. Synchronises
    once for kdsl-array bins (their monotonicity); the indices are computed lazily on the device.

    Example:
        >>> import kdsl as kd
        >>> kd.digitize(kd.asarray([1.0, 2.0, 3.5]), [3.0, 2.0, 1.0], right=True).tolist()
        [3, 2, 0]
    """
    dev = x.device if isinstance(x, Array) else bins.device if isinstance(bins, Array) else None
    xa = as_array(x, dev)
    if xa.dtype.kind == "c":
        raise TypeError("x may not be complex")
    b = bins if isinstance(bins, Array) else _host_bins(bins, xa.device)
    if b.ndim != 1:
        raise ValueError(f"digitize's bins must be 1-D, not of shape {b.shape} (object too deep or too small "
                         "for desired array)")
    if b.dtype.kind == "c":
        raise TypeError("bins may not be complex")
    mono = _monotonicity(b)
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"  # searchsorted's sides are the other way round
    if mono == -1:
        return b.shape[0] - searchsorted(b[::-1], xa, side=side)
    return searchsorted(b, xa, side=side)


def _equal_edges(x: Array, nbins: int, rng: Any) -> Array:
    """``nbins + 1`` equal-width edges over ``rng`` (default: the data's extremes, read back), NumPy's dtype."""
    first, last = data_outer_edges(x, rng)
    return equal_edges(first, last, nbins, x)


def _host_bins(bins: Any, device: Any) -> Array:
    """Host bins uploaded in NumPy's dtype (a list of floats is float64, as NumPy's), float32 on a device without
    float64 (MoltenVK), where the upload of float64 bins raised TypeError."""
    host = np.asarray(bins)
    fits = host.dtype != np.float64 or device.supports(dt.float64)
    return asarray(host, dtype=None if fits else dt.float32, device=device)


def _edge_array(bins: Any, device: Any) -> Array:
    """Explicit bin edges, checked to increase (host edges on the host; kdsl ones read one bool back)."""
    if isinstance(bins, Array):
        if bins.ndim != 1:
            raise ValueError("`bins` must be 1d, when an array")
        if bins.shape[0] > 1 and bool(reduce_any(bins[:-1] > bins[1:])):
            raise ValueError("`bins` must increase monotonically, when an array")
        return bins
    host = np.asarray(bins)
    if host.ndim != 1:
        raise ValueError("`bins` must be 1d, when an array")
    if np.any(host[:-1] > host[1:]):
        raise ValueError("`bins` must increase monotonically, when an array")
    return _host_bins(host, device)


def _stats(x: Array, need: set[str]) -> dict[str, Any]:
    """The statistics the estimators need, computed on the device and read back in one go."""
    lazy: dict[str, Array] = {"min": amin(x), "max": amax(x)}
    if need & {"scott", "doane"}:
        lazy["std"] = std(x)
    if "doane" in need:
        lazy["mean"] = mean(x)
    if need & {"fd", "auto"}:
        lazy["q75"], lazy["q25"] = percentile(x, 75), percentile(x, 25)
    realize(*lazy.values())
    out = {k: v.numpy()[()] for k, v in lazy.items()}
    if "doane" in need and out["std"] > 0:
        z = (x - float(out["mean"])) / float(out["std"])
        out["g1"] = mean(z * z * z).numpy()[()]
    return out


def _ptp(s: dict[str, Any]) -> Any:
    """max - min without overflow for signed integers (unsigned result), as NumPy's ``_unsigned_subtract``."""
    return _unsigned_subtract(s["max"], s["min"])


def _unsigned_subtract(a: Any, b: Any) -> Any:
    d = np.result_type(a, b)
    if d.kind == "i":
        return np.subtract(np.asarray(a, d), np.asarray(b, d), casting="unsafe", dtype=f"u{d.itemsize}")
    return np.subtract(a, b, dtype=d)


def _width(name: str, n: int, s: dict[str, Any]) -> Any:
    """NumPy's bin width estimate ``name`` for ``n`` values with statistics ``s``."""
    sturges = _ptp(s) / (np.log2(n) + 1.0)
    sqrt = _ptp(s) / np.sqrt(n)
    if name == "sturges":
        return sturges
    if name == "sqrt":
        return sqrt
    if name == "rice":
        return _ptp(s) / (2.0 * n ** (1.0 / 3))
    if name == "scott":
        return (24.0 * np.pi ** 0.5 / n) ** (1.0 / 3.0) * s["std"]
    fd = 2.0 * np.subtract(s["q75"], s["q25"]) * n ** (-1.0 / 3.0) if "q75" in s else 0.0
    if name == "fd":
        return fd
    if name == "auto":
        return min(max(fd, sqrt / 2), sturges)
    if n > 2 and s["std"] > 0.0:  # doane
        sg1 = np.sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)))
        return _ptp(s) / (1.0 + np.log2(n) + np.log2(1.0 + np.absolute(s["g1"]) / sg1))
    return 0.0


def _estimated_edges(x: Array, name: str, rng: Any, weights: Any) -> Array:
    first, last, nbins = estimated_bins(x, name, rng, weights)
    return _equal_edges(x, nbins, (first, last))  # the range found there (no second read-back)


def estimated_bins(x: Array, name: str, rng: Any, weights: Any) -> tuple[Any, Any, int]:
    """``(first, last, nbins)``: the outer edges (NumPy scalars of the data's dtype when read from the data, as
    NumPy's) and the number of equal bins the estimator ``name`` gives; :func:`histogram` bins with them."""
    if name not in _ESTIMATORS:
        raise ValueError(f"{name!r} is not a valid estimator for `bins`")
    if weights is not None:
        raise TypeError("Automated estimation of the number of bins is not supported for weighted data")
    first, last = data_outer_edges(x, rng)
    if rng is not None:  # NumPy estimates from the values inside the range only
        x = compress(in_range(x, first, last), x)  # synchronises: the kept count
    nbins = 1
    if x.size:
        s = _stats(x, {name})
        width = stone_width(x, (first, last), _ptp(s)) if name == "stone" else _width(name, x.size, s)
        if width:
            if x.dtype.kind in "iu" and width < 1:
                width = 1
            nbins = int(np.ceil(_unsigned_subtract(last, first) / width))
    return first, last, nbins


def histogram_bin_edges(a: Any, bins: Any = 10, range: tuple[float, float] | None = None,  # noqa: A002
                        weights: Any = None) -> Array:
    """The bin edges :func:`histogram` uses (NumPy's ``histogram_bin_edges``): ``bins`` equal bins over
    ``range`` (default: the data's minimum and maximum, read back), the given 1-D increasing edges, or a
    NumPy estimator name (``'auto' 'fd' 'doane' 'scott' 'rice' 'sturges' 'sqrt' 'stone'``), whose statistics
    are computed on the device and read back (``'stone'``: the counts of 100 candidate histograms,
    ``histogram_stone.py``).

    Example:
        >>> import kdsl as kd
        >>> kd.histogram_bin_edges(kd.asarray([0.0, 1.0, 2.0, 3.0]), bins=3, range=(0, 6)).tolist()
        [0.0, 2.0, 4.0, 6.0]
        >>> kd.histogram_bin_edges(kd.asarray([0.0, 1.0, 2.0, 3.0]), bins="sturges").tolist()
        [0.0, 1.0, 2.0, 3.0]
    """
    x = sample_values(as_array(a))
    if weights is not None:
        w = as_array(weights, x.device)
        if w.shape != np.shape(a) and w.size != x.size:
            raise ValueError("weights should have the same shape as a.")
    if isinstance(bins, str):
        return _estimated_edges(x, bins, range, weights)
    bins = host_length(bins)  # a 0-d kdsl integer is a count, as NumPy's scalar
    if np.ndim(bins) == 0 and not isinstance(bins, Array):
        try:
            nbins = operator.index(bins)
        except TypeError as e:
            raise TypeError("`bins` must be an integer, a string, or an array") from e
        if nbins < 1:
            raise ValueError("`bins` must be positive, when an integer")
        return _equal_edges(x, nbins, range)
    return _edge_array(bins, x.device)


__all__ = ["digitize", "histogram_bin_edges"]
