"""Hypergeometric and multivariate hypergeometric counts on the device, with no kernel loop.

``hypergeometric(ngood, nbad, nsample)`` is exact inversion of the CDF. The parameters are integers that NumPy
validates, so they are read on the host (a kdsl array parameter is read back, as ``choice``'s ``p`` is), and each
distinct ``(ngood, nbad, nsample)`` gets a float64 CDF table over its mode +- (40 sd + 60), where the mass outside
is below ``2**-60``. The tables are laid end to end, table ``j`` shifted up by ``j``, so one ``kd.searchsorted``
of ``j + u`` (``u`` uniform in [0, 1), ``j`` the element's table) finds every element's count in its own table
(about ``log2`` of the total length in loop trips). At most ``TABLE_MAX`` entries in all.

``multivariate_hypergeometric(colors, nsample)`` draws ``nsample`` of the ``sum(colors)`` balls without
replacement for each output row: a random 64-bit key per ball, the ``nsample`` smallest keys are the chosen balls
(their rank: two ``kd.argsort`` passes), and a cumulative sum over the balls counts the chosen ones of each colour.
It works on ``rows x sum(colors)`` keys, so it suits populations up to a few million balls per call (NumPy's
``method='count'`` has the same cost; ``'marginals'`` is accepted and draws the same law this way).

Example:
    >>> import kdsl as kd
    >>> x = kd.random.default_rng(0).hypergeometric(10, 5, 6, size=10_000).numpy()
    >>> x.dtype.name, int(x.min()) >= 1, int(x.max()) <= 6, bool(abs(x.mean() - 4.0) < 0.05)
    ('int64', True, True, True)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray, full
from kdsl.frontend.array.cumulative import cumsum
from kdsl.frontend.array.random_draws import PhiloxDraws, Size, draw_shape
from kdsl.frontend.array.shape_ops import concatenate
from kdsl.frontend.array.sorting import argsort, searchsorted
from kdsl.frontend.array.take import take

TABLE_MAX = 1 << 23  # CDF entries over all distinct parameter triples of one call
_MARGINALS_LIMIT = 1_000_000_000  # NumPy's bound on sum(colors) for method="marginals"
_INT64_MAX = int(np.iinfo(np.int64).max)


class HypergeometricDistributions(PhiloxDraws):
    """``hypergeometric`` and ``multivariate_hypergeometric`` (mixed into :class:`kdsl.random.Generator`)."""

    _tables: dict
    _LEGACY_HYPERGEOMETRIC = False  # RandomState: nsample >= 1 and no 10**9 bound, as NumPy's legacy API

    def hypergeometric(self, ngood: Any, nbad: Any, nsample: Any, size: Size = None) -> Array:
        """Good items among ``nsample`` drawn without replacement from ``ngood`` good and ``nbad`` bad ones
        (int64; parameters broadcast against ``size`` and are read on the host: module docstring).

        >>> import kdsl as kd
        >>> kd.random.default_rng(1).hypergeometric([5, 50], 5, 5, size=(3, 2)).shape
        (3, 2)
        >>> kd.random.default_rng(1).hypergeometric(2, 2, 5)
        Traceback (most recent call last):
        ...
        ValueError: ngood + nbad < nsample
        """
        g, b, s = (_host_ints(v) for v in (ngood, nbad, nsample))
        self._check_hypergeometric(g, b, s)
        shape = draw_shape(size, g, b, s)
        pshape = np.broadcast_shapes(g.shape, b.shape, s.shape)
        triples = np.stack(np.broadcast_arrays(g, b, s), axis=-1).reshape(-1, 3)
        uniq, inverse = np.unique(triples, axis=0, return_inverse=True)
        table, shift = self._hypergeometric_tables(uniq)
        fd = self._float_work()
        u = self._unit(shape, fd)[0]
        out = self._index_dtype()
        if uniq.shape[0] == 1:
            return (searchsorted(table, u, side="right") + int(shift[0])).astype(out)
        seg = inverse.reshape(pshape)
        k = searchsorted(table, u + asarray(seg.astype(np.float64), dtype=fd, device=self._device), side="right")
        return (k + asarray(shift[seg], dtype=out, device=self._device)).astype(out)

    def _check_hypergeometric(self, g: np.ndarray, b: np.ndarray, s: np.ndarray) -> None:
        """NumPy's checks, in NumPy's order."""
        if (g.astype(object) + b < s).any():
            raise ValueError("ngood + nbad < nsample")
        if (g < 0).any():
            raise ValueError("ngood < 0")
        if (b < 0).any():
            raise ValueError("nbad < 0")
        if self._LEGACY_HYPERGEOMETRIC:
            if (s < 1).any():
                raise ValueError("nsample < 1 or nsample is NaN")
            return
        if (s < 0).any():
            raise ValueError("nsample < 0")
        if (g >= 10**9).any() or (b >= 10**9).any():
            raise ValueError("both ngood and nbad must be less than 1000000000")

    def _hypergeometric_tables(self, uniq: np.ndarray) -> tuple[Array, np.ndarray]:
        """The shifted tables end to end on the device, and per triple ``lo - start`` (count = index + it)."""
        fd = self._float_work()
        key = ("hypergeometric", uniq.tobytes(), fd.name)
        if key in self._tables:
            return self._tables[key]
        parts, shift, start = [], [], 0
        for j, (g, b, s) in enumerate(uniq.tolist()):
            lo, cdf = _hypergeometric_cdf(g, b, s)
            parts.append(cdf + j)
            shift.append(lo - start)
            start += cdf.shape[0]
            if start > TABLE_MAX:
                raise ValueError(f"hypergeometric needs CDF tables of more than {TABLE_MAX} entries for these "
                                 "parameters (many distinct or very large ones): draw in smaller calls")
        entry = (asarray(np.concatenate(parts), dtype=fd, device=self._device), np.asarray(shift, np.int64))
        if uniq.shape[0] == 1:  # one triple: keep its table for the next call
            if len(self._tables) > 8:
                self._tables.pop(next(iter(self._tables)))
            self._tables[key] = entry
        return entry

    def multivariate_hypergeometric(self, colors: Any, nsample: int, size: Size = None,
                                    method: str = "marginals") -> Array:
        """Counts of each colour among ``nsample`` balls drawn without replacement from ``colors[i]`` balls of
        colour ``i``: shape ``size + (len(colors),)``, int64 (module docstring: one key per ball and row).

        >>> import kdsl as kd
        >>> x = kd.random.default_rng(3).multivariate_hypergeometric([4, 0, 6], 5, size=3)
        >>> x.shape, x.numpy().sum(-1).tolist(), x.numpy()[:, 1].tolist()
        ((3, 3), [5, 5, 5], [0, 0, 0])
        """
        if method not in ("count", "marginals"):
            raise ValueError('method must be "count" or "marginals".')
        host = np.asarray(colors.numpy() if isinstance(colors, Array) else colors)
        if host.ndim == 1 and host.size == 0:
            host = host.astype(np.int64)  # [] reads as float64: no colours is valid, as in NumPy
        if host.ndim != 1 or host.dtype.kind not in "iu" or (host < 0).any():
            raise ValueError("colors must be a one-dimensional sequence of nonnegative integers not exceeding "
                             f"{_INT64_MAX}.")
        if not isinstance(nsample, (int, np.integer)) or isinstance(nsample, (bool, np.bool_)):
            raise TypeError(f"nsample must be an integer, not {type(nsample).__name__}")
        if nsample < 0:
            raise ValueError("nsample must be nonnegative.")
        total = int(host.sum())
        if method == "marginals" and total >= _MARGINALS_LIMIT:
            raise ValueError(f'When method is "marginals", sum(colors) must be less than {_MARGINALS_LIMIT}.')
        if nsample > total:
            raise ValueError("nsample > sum(colors)")
        rows = draw_shape(size)
        out = self._index_dtype()
        if total == 0 or nsample == 0 or host.shape[0] == 0:
            return full(rows + host.shape, 0, dtype=out, device=self._device)
        wide = self._device.supports(dt.uint64)
        keys = self._bits(rows + (total,), wide=wide)[0]
        ranks = argsort(argsort(keys, axis=-1), axis=-1)  # each ball's place in the random order
        chosen = cumsum((ranks < nsample).astype(out), axis=-1)
        chosen = concatenate([full(rows + (1,), 0, dtype=out, device=self._device), chosen], axis=-1)
        ends = take(chosen, asarray(np.concatenate([[0], np.cumsum(host)]), dtype=out, device=self._device),
                    axis=-1)
        return ends[..., 1:] - ends[..., :-1]


def _host_ints(value: Any) -> np.ndarray:
    """A hypergeometric parameter as host int64 (a float is truncated as NumPy does; NaN is NumPy's error)."""
    host = np.asarray(value.numpy() if isinstance(value, Array) else value)
    if host.dtype.kind == "f" and not np.isfinite(host).all():
        raise ValueError("cannot convert float NaN to integer")
    return host.astype(np.int64)


def _hypergeometric_cdf(g: int, b: int, s: int) -> tuple[int, np.ndarray]:
    """(lo, P(X <= k) for k = lo..hi) over the mode +- (40 sd + 60), built from the pmf's ratios at the mode."""
    n = g + b
    lo_support, hi_support = max(0, s - b), min(s, g)
    if lo_support == hi_support:
        return lo_support, np.ones(1)
    sd = math.sqrt(s * (g / n) * (b / n) * (n - s) / max(n - 1, 1))
    mode = min(max((s + 1) * (g + 1) // (n + 2), lo_support), hi_support)
    lo = max(lo_support, int(mode - 40 * sd - 60))
    hi = min(hi_support, int(mode + 40 * sd + 60))
    k = np.arange(lo, hi, dtype=np.float64)  # steps k -> k + 1
    step = np.log((g - k) * (s - k)) - np.log((k + 1.0) * (b - s + k + 1.0))
    logf = np.concatenate([[0.0], np.cumsum(step)])
    logf -= logf[mode - lo]
    cdf = np.cumsum(np.exp(logf))
    return lo, np.minimum(cdf / cdf[-1], 1.0)
