"""The Zipf and logarithmic series counts on the device, with no kernel loop.

* ``zipf(a)``: Devroye's rejection from the continuous Pareto envelope (1986, X.6): a candidate is
  ``X = floor(U**(-1/(a-1)))`` and a uniform ``V``, accepted when ``V X (1 - (1 + 1/X)**(1-a)) <= 1 - 2**(1-a)``
  (the usual test divided through, so large ``a`` cannot overflow). NumPy discards candidates above the int64
  range; here ``U`` is drawn on the part of (0, 1] whose ``X`` lies in that range instead (the same law, as the
  range condition depends on ``U`` alone), which keeps the acceptance probability above 0.69 for every ``a > 1``
  (measured). 32 candidates are drawn, in 4 rounds of 8 (one small kernel per round, compiled once:
  ``_first_accepted``), and the first accepted is kept: all fail with probability
  below ``0.31**32 < 6e-17``, and then the result is 1, the mode.
* ``logseries(p)``: Kemp's accelerated inversion (1981, algorithm LK): with ``V``, ``U`` uniform and
  ``q = 1 - (1 - p)**U``, the count is 1 when ``V >= p`` or ``q <= V < p``, ``floor(1 + log V / log q)`` when
  ``V <= q**2``, and 2 otherwise. Exact, no rejection.

Both run in float64 where the device has it (53-bit uniforms: the far tails are not cut at ``2**-24``).

Example:
    >>> import kdsl as kd
    >>> x = kd.random.default_rng(0).zipf(3.0, size=1000).numpy()
    >>> x.dtype.name, int(x.min())
    ('int64', 1)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.binomial_sampling import SharedConsts
from kdsl.frontend.array.ops import where
from kdsl.frontend.array.random_draws import PhiloxDraws, Size, draw_shape, host_param, param_operand

PER_ROUND, ROUNDS = 8, 4  # 32 zipf candidates per output: all rejected with probability < 0.31**32
_TOP = float(np.nextafter(2.0**63, 0.0))  # the largest float64 below 2**63: counts stay inside int64


class ZipfLogseriesDistributions(PhiloxDraws):
    """``zipf`` and ``logseries`` (mixed into :class:`kdsl.random.Generator` and ``RandomState``)."""

    def zipf(self, a: Any, size: Size = None) -> Array:
        """Zipf counts >= 1 with exponent ``a > 1`` (P(k) proportional to ``k**-a``), int64.

        >>> import kdsl as kd
        >>> kd.random.default_rng(1).zipf([1.5, 4.0], size=(3, 2)).shape
        (3, 2)
        >>> kd.random.default_rng(1).zipf(1.0)
        Traceback (most recent call last):
        ...
        ValueError: a <= 1 or a is NaN
        """
        if not (np.asarray(host_param(a), dtype=float) > 1).all():  # kdsl arrays read back, as NumPy raises
            raise ValueError("a <= 1 or a is NaN")
        d = self._float_work()
        c = SharedConsts(self, d)
        shape = draw_shape(size, a)
        am1 = param_operand(a, d, self._device) - c(1.0)
        span = -km.expm1(-am1 * c(math.log(_TOP + 1.0)))  # 1 - umin: U in (umin, 1] keeps X <= _TOP
        bound = -km.expm1(-am1 * c(math.log(2.0)))  # 1 - 2**(1-a)
        nan = c(math.nan)

        def one_round() -> Array:
            us = self._unit(shape, d, 2 * PER_ROUND)
            pick = nan
            for i in reversed(range(PER_ROUND)):
                x = km.floor(km.exp(-km.log1p(-span * us[2 * i]) / am1))
                x = km.minimum(km.maximum(x, c(1.0)), c(_TOP))  # rounding at the ends of the range
                pick = where(us[2 * i + 1] * x * -km.expm1(-am1 * km.log1p(c(1.0) / x)) <= bound, x, pick)
            return pick

        # the fallback (probability < 6e-17): 1, the mode
        return self._first_accepted(shape, d, ROUNDS, one_round, c(1.0)).astype(self._index_dtype())

    def logseries(self, p: Any, size: Size = None) -> Array:
        """Logarithmic series counts >= 1 with ``0 <= p < 1`` (P(k) proportional to ``p**k / k``), int64.

        >>> import kdsl as kd
        >>> kd.random.default_rng(2).logseries(0.0, size=3).tolist()
        [1, 1, 1]
        """
        hp = np.asarray(host_param(p), dtype=float)
        if not ((hp >= 0) & (hp < 1)).all():
            raise ValueError("p < 0, p >= 1 or p is NaN")
        d = self._float_work()
        c = SharedConsts(self, d)
        shape = draw_shape(size, p)
        pv = param_operand(p, d, self._device)
        v, u = self._open_unit(shape, d, 2)
        q = -km.expm1(km.log1p(-pv) * u)
        many = km.floor(c(1.0) + km.log(v) / km.log(q))
        k = where(v <= q * q, km.minimum(many, c(_TOP)), where(v >= q, c(1.0), c(2.0)))
        return where(v >= pv, c(1.0), k).astype(self._index_dtype())
