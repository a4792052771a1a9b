"""Binomial and multinomial counts on the device, with no kernel loop.

``binomial(n, p)`` takes one of two exact routes:

* **Host scalars** ``n``, ``p`` whose standard deviation ``sqrt(n p (1-p))`` is at most ``TABLE_SD``: the CDF is
  tabulated on the host in float64 over ``mode +- (40 sd + 60)`` (the mass outside is below ``2**-60``), and each
  element binary-searches it with a 53-bit uniform (``kd.searchsorted``: ~17 loop trips). Exact as the poisson
  draw is; the table stays on the device for the next call with the same ``(n, p)``.
* **Otherwise** (``n``/``p`` arrays, or a larger spread): a per-element fused expression in float32, with
  ``p' = min(p, 1 - p)`` (the count is reflected when ``p > 1/2``):

  - ``n p' < 10``: inversion of the CDF by sequential search unrolled to ``INVERSION_STEPS = 48`` terms (a fixed
    expression: P(X > 48) < 1e-16 for such means, by the Chernoff bound);
  - ``n p' >= 10``: Hörmann's BTRS transformed rejection (1993) with 24 candidate pairs, in 3 rounds of 8 (one
    small kernel per round that compiles once: ``_first_accepted``), and the first accepted one kept. A
    candidate is accepted with probability above 0.70 for every such ``(n, p)`` (measured: ~0.71 at
    ``n p' = 10``, rising to ~0.88 for large ``n p'``), so all 24 fail with probability below
    ``0.3**24 < 3e-13``; then the result is the mode, a fixed well-defined fallback. The acceptance test
    compares log-densities relative to the mode through ``log1p`` of small ratios and Stirling's tail series,
    so float32 keeps it accurate; the counts themselves are exact integers below ``2**24`` (above, float32
    cannot hold every count: larger ``n`` on this route is approximate at that scale).

``multinomial`` draws the categories one after another as conditional binomials (``X_i ~ B(n - sum of the
earlier counts, p_i / (1 - sum of the earlier p))``), one binomial kernel per category, each run when
``multinomial`` is called (on the device; chained lazily, each would inline all the earlier ones).

Example:
    >>> import kdsl as kd
    >>> x = kd.random.default_rng(0).binomial(10, 0.3, size=20_000).numpy()
    >>> bool(abs(x.mean() - 3.0) < 0.1), int(x.min()) >= 0, int(x.max()) <= 10
    (True, True, True)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray, full
from kdsl.frontend.array.ops import where
from kdsl.frontend.array.random_draws import PhiloxDraws, Size, draw_shape, host_param, param_operand
from kdsl.frontend.array.shape_ops import stack
from kdsl.frontend.array.sorting import searchsorted

TABLE_SD = 2_000.0  # host-scalar (n, p) up to this standard deviation use the exact table (<= 160k entries)
INVERSION_STEPS = 48  # sequential-search terms for n p' < 10
PER_ROUND, ROUNDS = 8, 3  # 24 BTRS candidates per output: all rejected with probability < 0.3**24 < 3e-13
_SMALL_MEAN = 10.0  # below: inversion; above: BTRS (its constants are fitted for n p' >= 10)


class SharedConsts:
    """One shared 0-d constant node per value, so a big expression spends one push word per distinct value."""

    def __init__(self, owner: PhiloxDraws, d: dt.DType) -> None:
        self._owner, self._d = owner, d
        self._made: dict[float, Array] = {}

    def __call__(self, value: float) -> Array:
        if value not in self._made:
            self._made[value] = self._owner._const(value, self._d)
        return self._made[value]


class BinomialDistributions(PhiloxDraws):
    """Binomial and multinomial counts (mixed into :class:`kdsl.random.Generator` and ``RandomState``)."""

    _tables: dict

    def binomial(self, n: Any, p: Any, size: Size = None) -> Array:
        """Counts of successes in ``n`` trials of probability ``p`` (int64; int32 without 64-bit ints).

        >>> import kdsl as kd
        >>> kd.random.default_rng(1).binomial([5, 50], 0.5, size=(3, 2)).shape
        (3, 2)
        """
        _check_binomial(n, p)
        shape = draw_shape(size, n, p)
        out = self._index_dtype()
        if not isinstance(n, Array) and not isinstance(p, Array) and np.ndim(n) == 0 and np.ndim(p) == 0:
            nn, pp = int(n), float(p)
            if nn == 0 or pp == 0.0:
                return full(shape, 0, dtype=out, device=self._device)
            if pp == 1.0:
                return full(shape, nn, dtype=out, device=self._device)
            if math.sqrt(nn * pp * (1.0 - pp)) <= TABLE_SD:
                return self._binomial_table(nn, pp, shape).astype(out)
        d = dt.float32
        nv = km.floor(param_operand(n, d, self._device))
        return self._binomial_device(nv, param_operand(p, d, self._device), shape).astype(out)

    def _binomial_table(self, n: int, p: float, shape: tuple[int, ...]) -> Array:
        fd = self._float_work()
        key = ("binomial", n, p, fd.name)
        if key not in self._tables:
            if len(self._tables) > 8:
                self._tables.pop(next(iter(self._tables)))
            lo, cdf = _binomial_cdf(n, p)
            self._tables[key] = (lo, asarray(cdf, dtype=fd, device=self._device))
        lo, table = self._tables[key]
        k = searchsorted(table, self._unit(shape, fd)[0], side="right")
        return k + lo if lo else k

    def _binomial_device(self, n: Array, p: Array, shape: tuple[int, ...]) -> Array:
        """The fused float32 route (module docstring): inversion for small means, BTRS above."""
        c = SharedConsts(self, dt.float32)
        n, p = n.realize(), p.realize()  # computed once, not again in every rejection round
        flip = p > c(0.5)
        q0 = where(flip, p, c(1.0) - p)  # 1 - p'
        p0 = c(1.0) - q0
        small = n * p0 < c(_SMALL_MEAN)
        u = self._unit(shape, dt.float32)[0]
        inv = _inversion(n, p0, q0, u, c)
        rej = self._btrs(n, where(small, c(0.5), p0), shape, c)  # a dummy p' keeps BTRS's constants finite
        k = km.minimum(where(small, inv, rej), n)
        return where(flip, n - k, k)

    def _btrs(self, n: Array, p: Array, shape: tuple[int, ...], c: SharedConsts) -> Array:
        q = c(1.0) - p
        spq = km.sqrt(n * p * q)
        b = c(2.53) * spq + c(1.15)
        a = c(0.0248) * b + c(0.01) * p - c(0.0873)
        mid = n * p + c(0.5)
        vr = c(0.92) - c(4.2) / b
        alpha = (c(5.1) / b + c(2.83)) * spq
        m = km.floor((n + c(1.0)) * p)
        tilt = km.log(p * (n - m + c(1.0)) / (q * (m + c(1.0))))  # log(r (n-m+1)/(m+1)), close to 0
        base = stirling_tail(m, c) + stirling_tail(n - m, c)
        nan = c(float("nan"))

        def one_round() -> Array:
            us = self._unit(shape, dt.float32, 2 * PER_ROUND)
            pick = nan
            for i in reversed(range(PER_ROUND)):
                x, v = us[2 * i] - c(0.5), us[2 * i + 1]
                xs = c(0.5) - km.abs(x)
                k = km.floor((c(2.0) * a / xs + b) * x + mid)
                fast = (xs >= c(0.07)) & (v <= vr)
                lv = km.log(v * alpha / (a / (xs * xs) + b))
                delta = k - m
                bound = (base - stirling_tail(k, c) - stirling_tail(n - k, c) + delta * tilt
                         - (k + c(0.5)) * km.log1p(delta / (m + c(1.0)))
                         - (n - k + c(0.5)) * km.log1p(-delta / (n - m + c(1.0))))
                pick = where((k >= c(0.0)) & (k <= n) & (fast | (lv <= bound)), k, pick)
            return pick

        return self._first_accepted(shape, dt.float32, ROUNDS, one_round, m)  # fallback (p < 3e-13): the mode

    _EMPTY_PVALS_OK = False  # NumPy's Generator refuses zero categories; the legacy RandomState draws none

    def multinomial(self, n: Any, pvals: Any, size: Size = None) -> Array:
        """Counts of ``n`` trials over ``pvals.shape[-1]`` categories: shape ``size + (k,)`` (``pvals`` read on
        the host and checked as NumPy does; its last entry takes the remaining probability). ``pvals`` of more
        than one dimension are rows of probabilities that broadcast with ``n`` and ``size``, as NumPy's.

        >>> import kdsl as kd
        >>> x = kd.random.default_rng(2).multinomial(20, [0.2, 0.3, 0.5], size=4)
        >>> x.shape, x.numpy().sum(-1).tolist()
        ((4, 3), [20, 20, 20, 20])
        >>> kd.random.default_rng(2).multinomial([5, 9], [[0.5, 0.5], [0.1, 0.9]]).numpy().sum(-1).tolist()
        [5, 9]
        """
        probs = np.asarray(pvals.numpy() if isinstance(pvals, Array) else pvals, dtype=np.float64)
        if probs.ndim == 0 or (probs.shape[-1] == 0 and not self._EMPTY_PVALS_OK):
            raise ValueError("pvals must have at least 1 dimension and the last dimension of pvals must be "
                             "greater than 0.")
        if (np.asarray(host_param(n)) < 0).any():
            raise ValueError("n < 0")
        if not np.isfinite(probs).all() or (probs < 0).any() or (probs > 1).any():
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
        if (probs[..., :-1].sum(-1) > 1.0 + 1e-12).any():
            raise ValueError("sum(pvals[:-1]) > 1.0")
        shape = draw_shape(size, n, np.empty(probs.shape[:-1]))  # the rows' shape, even with no categories
        out = self._index_dtype()
        if probs.shape[-1] == 0:
            return full(shape + (0,), 0, dtype=out, device=self._device)
        left = km.floor(param_operand(n, dt.float32, self._device)) + full(shape, 0.0, device=self._device)
        counts, mass = [], np.ones(probs.shape[:-1])
        for i in range(probs.shape[-1] - 1):
            with np.errstate(divide="ignore", invalid="ignore"):
                share = np.where(mass > 0, np.minimum(1.0, probs[..., i] / mass), 0.0)
            # each count is computed now: lazily, every later category would inline all the earlier ones' kernels
            x = self._binomial_device(left, asarray(share, dtype=dt.float32, device=self._device), shape).realize()
            counts.append(x)
            left, mass = left - x, mass - probs[..., i]
        counts.append(left)
        return stack(counts, axis=-1).astype(out)


def _check_binomial(n: Any, p: Any) -> None:
    host = np.asarray(host_param(n))  # kdsl arrays read back: NumPy raises for bad values
    if host.dtype.kind not in "biuf":
        raise TypeError(f"binomial's n must be integers, not {host.dtype}")
    if (host < 0).any():
        raise ValueError("n < 0")
    hp = np.asarray(host_param(p), dtype=float)
    if not ((hp >= 0) & (hp <= 1)).all():
        raise ValueError("p < 0, p > 1 or p is NaN")


def _inversion(n: Array, p: Array, q: Array, u: Array, c: SharedConsts) -> Array:
    """The smallest k with u < F(k), by summing the pmf ``f(k+1) = f(k) (n-k)/(k+1) p/q`` for 48 terms."""
    r = p / q
    f = km.exp(n * km.log1p(-p))  # f(0) = q**n
    cdf, k, j = f, c(0.0), c(0.0)
    for _ in range(INVERSION_STEPS):  # j counts up as an expression: constants j would use 48 push words
        k = k + where(u >= cdf, c(1.0), c(0.0))
        f = f * km.maximum(n - j, c(0.0)) * r / (j + c(1.0))
        cdf = cdf + f
        j = j + c(1.0)
    return k


def stirling_tail(k: Array, c: SharedConsts) -> Array:
    """``log(k!) - ((k + 1/2) log(k + 1) - (k + 1) + log(2 pi) / 2)`` for integer-valued ``k >= 0``.

    For ``k >= 9`` the series ``1/(12x) - 1/(360x^3) + 1/(1260x^5)`` at ``x = k + 1`` (error < 1e-9); below,
    ``log(k!)`` comes from the series at ``x + 5`` less ``log(x (x+1) ... (x+4))``."""
    x = k + c(1.0)
    low = x < c(10.0)
    y = where(low, x + c(5.0), x)
    iy = c(1.0) / y
    iy2 = iy * iy
    series = iy * (c(1.0 / 12.0) - iy2 * (c(1.0 / 360.0) - iy2 * c(1.0 / 1260.0)))
    half_log_tau = c(0.5 * math.log(2.0 * math.pi))
    lgamma_y = (y - c(0.5)) * km.log(y) - y + half_log_tau + series
    shifted = (lgamma_y - km.log(x * (x + c(1.0)) * (x + c(2.0)) * (x + c(3.0)) * (x + c(4.0)))
               - ((x - c(0.5)) * km.log(x) - x + half_log_tau))
    return where(low, shifted, series)


def _binomial_cdf(n: int, p: float) -> tuple[int, np.ndarray]:
    """(lo, P(X <= k) for k = lo..hi) over the mode +- (40 sd + 60), built in log space from the mode."""
    sd = math.sqrt(n * p * (1.0 - p))
    mode = min(n, int((n + 1) * p))
    lo, hi = max(0, int(mode - 40 * sd - 60)), min(n, int(mode + 40 * sd + 60))
    k = np.arange(lo, hi, dtype=np.float64)  # steps k -> k + 1
    step = np.log((n - k) / (k + 1.0)) + math.log(p / (1.0 - p))
    logf = np.concatenate([[0.0], np.cumsum(step)])
    logf -= logf[mode - lo]
    logf += math.lgamma(n + 1.0) - math.lgamma(mode + 1.0) - math.lgamma(n - mode + 1.0) \
        + mode * math.log(p) + (n - mode) * math.log1p(-p)
    cdf = np.cumsum(np.exp(logf))
    return lo, np.minimum(cdf / cdf[-1], 1.0)
