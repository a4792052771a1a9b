"""Poisson and negative binomial counts on the device, with no kernel loop.

``poisson(lam)`` takes one of two exact routes:

* **A host scalar** ``lam <= 10_000``: the CDF is tabulated on the host in float64 and each element
  binary-searches it (``kd.searchsorted``, about ``log2(lam)`` loop trips, far below the shader loop budget);
  the table stays on the device for the next call with the same ``lam``.
* **Otherwise** (``lam`` an array, a larger scalar, or a random mean such as ``negative_binomial``'s): per
  element, on the device:

  - ``lam < 10``: inversion of the CDF by sequential search unrolled to ``INVERSION_STEPS = 48`` terms (a fixed
    expression; P(X > 48) < 1e-17 for such means);
  - ``lam >= 10``: Hörmann's PTRS transformed rejection (1993) with 24 candidates, drawn in 3 rounds of 8
    (one small kernel per round, compiled once: ``_first_accepted``), and the first accepted one kept. A
    candidate is accepted with probability above 0.75 for every ``lam >= 10`` (measured: ~0.75 at 10, ~0.89
    for large ``lam``), so all 24 fail with probability below ``0.25**24 < 4e-15``; then the result is
    ``floor(lam)``, a fixed well-defined fallback. The log-density is taken relative to the mode
    ``m = floor(lam)`` through ``log1p`` of small ratios and Stirling's tail series, so float32 keeps it
    accurate; counts are exact below ``2**24`` in float32, and the route runs in float64 (where the device has
    it) when a host ``lam`` passes ``2**22``.

``negative_binomial(n, p)`` is the gamma-Poisson mixture ``Poisson(Gamma(n, (1 - p) / p))``: a gamma draw
(:mod:`gamma_sampling`), computed once, feeds the device route above.

Example:
    >>> import kdsl as kd
    >>> x = kd.random.default_rng(0).poisson([2.0, 50.0], size=(20_000, 2)).numpy()
    >>> x.dtype.name, bool(abs(x[:, 1].mean() - 50.0) < 0.5)
    ('int64', True)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.binomial_sampling import SharedConsts, stirling_tail
from kdsl.frontend.array.creation import asarray, full
from kdsl.frontend.array.gamma_sampling import GammaDistributions
from kdsl.frontend.array.ops import where
from kdsl.frontend.array.random_draws import Size, draw_shape, host_param, param_operand
from kdsl.frontend.array.sorting import searchsorted

INVERSION_STEPS = 48  # sequential-search terms for lam < 10
PER_ROUND, ROUNDS = 8, 3  # 24 PTRS candidates per output: all rejected with probability < 0.25**24
TABLE_MAX = 10_000.0  # host-scalar lam up to this use the exact table (~14 000 entries at most)
LAM_MAX = 9.2e18  # NumPy's bound (larger lam overflows int64)
_SMALL_MEAN = 10.0  # below: inversion; above: PTRS (its constants are fitted for lam >= 10)
_FLOAT32_EXACT = float(1 << 22)  # host lam above this: the device route runs in float64


class PoissonDistributions(GammaDistributions):
    """``poisson`` and ``negative_binomial`` (mixed into :class:`kdsl.random.Generator` and ``RandomState``)."""

    _tables: dict

    def poisson(self, lam: Any = 1.0, size: Size = None) -> Array:
        """Poisson counts with mean ``lam`` (broadcast against ``size``), int64 (int32 without 64-bit ints).

        >>> import kdsl as kd
        >>> kd.random.default_rng(4).poisson(0.0, size=3).tolist()
        [0, 0, 0]
        >>> kd.random.default_rng(4).poisson(-1.0)
        Traceback (most recent call last):
        ...
        ValueError: lam < 0 or lam is NaN
        """
        _check_lam(lam)
        shape, out = draw_shape(size, lam), self._index_dtype()
        if not isinstance(lam, Array) and np.ndim(lam) == 0:
            value = float(lam)
            if value == 0.0:
                return full(shape, 0, dtype=out, device=self._device)
            if value <= TABLE_MAX:
                return self._poisson_table(value, shape).astype(out)
        d = self._count_dtype(lam)
        return self._poisson_device(param_operand(lam, d, self._device), shape, d).astype(out)

    def _count_dtype(self, mean: Any) -> dt.DType:
        """float32, or float64 (where the device has it) for float64 arrays and host means past ``2**22``."""
        if isinstance(mean, Array):
            return self._float_work() if mean.dtype is dt.float64 else dt.float32
        big = np.size(mean) and float(np.max(mean)) > _FLOAT32_EXACT
        return self._float_work() if big else dt.float32

    def _poisson_table(self, lam: float, shape: tuple[int, ...]) -> Array:
        fd = self._float_work()
        key = ("poisson", lam, fd.name)
        if key not in self._tables:
            if len(self._tables) > 8:  # a few recent lams stay on the device
                self._tables.pop(next(iter(self._tables)))
            self._tables[key] = asarray(_poisson_cdf(lam), dtype=fd, device=self._device)
        return searchsorted(self._tables[key], self._unit(shape, fd)[0], side="right")

    def _poisson_device(self, lam: Array, shape: tuple[int, ...], d: dt.DType) -> Array:
        """Poisson counts of the (lazy) means ``lam`` as floats of dtype ``d`` (module docstring)."""
        c = SharedConsts(self, d)
        lam = lam.realize()  # a random mean (negative_binomial's gamma) is computed once, not in every round
        small = lam < c(_SMALL_MEAN)
        inv = self._poisson_inversion(where(small, lam, c(0.0)), shape, c)
        rej = self._ptrs(where(small, c(_SMALL_MEAN), lam), shape, c)  # a dummy lam keeps PTRS's constants finite
        return where(small, inv, rej)

    def _poisson_inversion(self, lam: Array, shape: tuple[int, ...], c: SharedConsts) -> Array:
        """The smallest k with u < F(k), summing the pmf ``f(j+1) = f(j) lam / (j+1)`` for 48 terms."""
        u = self._unit(shape, c._d)[0]
        f = km.exp(-lam)
        cdf, k, j = f, c(0.0), c(0.0)
        for _ in range(INVERSION_STEPS):  # j counts up as an expression: 48 constants would use 48 push words
            k = k + where(u >= cdf, c(1.0), c(0.0))
            j = j + c(1.0)
            f = f * lam / j
            cdf = cdf + f
        return k

    def _ptrs(self, lam: Array, shape: tuple[int, ...], c: SharedConsts) -> Array:
        """Hörmann's PTRS, 24 candidates in 3 rounds; the log-density is relative to the mode."""
        slam = km.sqrt(lam)
        b = c(2.53) * slam + c(0.931)
        a = c(0.02483) * b - c(0.059)
        log_inv_alpha = km.log(c(1.1328) / (b - c(3.4)) + c(1.1239))
        vr = c(0.9277) - c(3.6224) / (b - c(2.0))
        m = km.floor(lam)
        m1 = m + c(1.0)
        t = km.log1p((lam - m1) / m1)  # log(lam / (m + 1)), small
        # log f(k) = k t - log(m+1)/2 + (k + 1 - lam) - log(2 pi)/2 - tail(k) - (k + 1/2) log1p((k - m)/(m + 1))
        base = c(-0.5) * km.log(m1) + c(1.0) - lam - c(0.5 * math.log(2.0 * math.pi))
        nan = c(math.nan)

        def one_round() -> Array:
            us = self._unit(shape, c._d, 2 * PER_ROUND)
            pick = nan
            for i in reversed(range(PER_ROUND)):
                x, v = us[2 * i] - c(0.5), us[2 * i + 1]
                xs = c(0.5) - km.abs(x)
                k = km.floor((c(2.0) * a / xs + b) * x + lam + c(0.43))
                fast = (xs >= c(0.07)) & (v <= vr)
                logf = k * t + k + base - stirling_tail(k, c) - (k + c(0.5)) * km.log1p((k - m) / m1)
                slow = ((~((xs < c(0.013)) & (v > xs)))
                        & (km.log(v) + log_inv_alpha - km.log(a / (xs * xs) + b) <= logf))
                pick = where((k >= c(0.0)) & (fast | slow), k, pick)
            return pick

        return self._first_accepted(shape, c._d, ROUNDS, one_round, m)  # fallback (p < 4e-15): the mode

    def negative_binomial(self, n: Any, p: Any, size: Size = None) -> Array:
        """Failures before the ``n``-th success in trials of probability ``p`` (``n > 0`` may be fractional), as
        int64: ``Poisson(Gamma(n, (1 - p) / p))`` on the device (module docstring).

        >>> import kdsl as kd
        >>> x = kd.random.default_rng(5).negative_binomial(3, 0.25, size=20_000).numpy()
        >>> bool(abs(x.mean() - 9.0) < 0.3)
        True
        """
        self._check_negative_binomial(n, p)
        shape = draw_shape(size, n, p)
        host_mean = None
        if not isinstance(n, Array) and not isinstance(p, Array):
            hp = np.asarray(p, dtype=float)
            with np.errstate(divide="ignore", invalid="ignore"):
                host_mean = np.asarray(n, dtype=float) * (1.0 - hp) / hp
        d = self._count_dtype(host_mean if host_mean is not None else (n if isinstance(n, Array) else p))
        pv = param_operand(p, d, self._device)
        lam = self._gamma_values(param_operand(n, d, self._device), shape, d) * ((1.0 - pv) / pv)
        return self._poisson_device(lam, shape, d).astype(self._index_dtype())

    def _check_negative_binomial(self, n: Any, p: Any) -> None:
        """NumPy's Generator checks (``RandomState`` overrides it: its ``p`` may be 0)."""
        _host_positive(n, "n <= 0")
        hp = np.asarray(host_param(p), dtype=float)  # kdsl arrays read back: NumPy raises for bad values
        if not ((hp > 0) & (hp <= 1)).all():
            raise ValueError("p <= 0, p > 1 or p contains NaNs")
        _check_negative_binomial_lam(host_param(n), hp)


def _check_negative_binomial_lam(n: Any, p: np.ndarray) -> None:
    """NumPy's Generator bound: the Poisson mean ``(1 - p) / p`` times ``n`` plus ten of its standard deviations
    must stay below int64's range (larger draws would overflow the counts)."""
    top = np.iinfo(np.int64).max
    hn = np.asarray(n, dtype=float)
    with np.errstate(over="ignore"):
        lam_max = (1.0 - p) / p * (hn + 10.0 * np.sqrt(hn))
    if (lam_max > top - 10.0 * math.sqrt(top)).any():
        raise ValueError("n too large or p too small, see Generator.negative_binomial Notes")


def _host_positive(value: Any, message: str) -> None:
    if not (np.asarray(host_param(value), dtype=float) > 0).all():
        raise ValueError(message)


def _check_lam(lam: Any) -> None:
    host = np.asarray(host_param(lam), dtype=float)  # kdsl arrays read back: NumPy raises for bad values
    if not (host >= 0).all():
        raise ValueError("lam < 0 or lam is NaN")
    if (host > LAM_MAX).any():
        raise ValueError(f"lam value too large (at most {LAM_MAX})")


def _poisson_cdf(lam: float) -> np.ndarray:
    """P(X <= k) for k = 0..K, K far enough in the tail that 1 - P(X <= K) is below 2**-60."""
    top = int(lam + 40.0 * math.sqrt(lam) + 60)
    k = np.arange(top + 1, dtype=np.float64)
    logp = k * math.log(lam) - lam - np.array([math.lgamma(i + 1.0) for i in range(top + 1)])
    cdf = np.cumsum(np.exp(logp))
    return np.minimum(cdf, 1.0)
