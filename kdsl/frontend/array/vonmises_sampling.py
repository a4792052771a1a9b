"""The von Mises (circular normal) distribution on the device: Best and Fisher's rejection (1979), no kernel loop.

For concentration ``kappa`` Best and Fisher's wrapped-Cauchy envelope has ``rho = 2 kappa / (tau + sqrt(2 tau))``
with ``tau = 1 + sqrt(1 + 4 kappa**2)`` (this form has no cancellation for tiny ``kappa``). A candidate is a uniform
``u`` in (-1, 1) and a uniform ``v``: its angle is ``2 atan(q tan(pi u / 2))`` with ``q = (1 - rho) / (1 + rho)``
(the usual ``acos`` of ``(1 + s z) / (s + z)``, rewritten so that angles near 0 keep their precision even for
large ``kappa``), and it is accepted when ``y (2 - y) >= v`` or ``log(y / v) + 1 - y >= 0``, with ``y`` the usual
``kappa (s - w)`` in the same cancellation-free form. 36 candidates are drawn, in 4 rounds of 9 (one small
kernel per round, compiled once: ``_first_accepted``), and the first accepted is kept: each is accepted with
probability at least 0.657 (the large-``kappa`` limit), so all fail with probability below
``0.343**36 < 2e-17``; then the result is ``mu``, the mode. ``kappa = 0`` accepts every
candidate (the uniform law); the angle is ``mu`` plus the candidate, wrapped to [-pi, pi].

Example:
    >>> import kdsl as kd
    >>> x = kd.random.default_rng(0).vonmises(1.0, 4.0, size=1000).numpy()
    >>> bool(((x >= -3.1416) & (x <= 3.1416)).all())
    True
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.binomial_sampling import SharedConsts
from kdsl.frontend.array.ops import where
from kdsl.frontend.array.random_draws import (
    PhiloxDraws,
    Size,
    draw_shape,
    host_nonnegative,
    param_dtype,
    param_operand,
)

PER_ROUND, ROUNDS = 9, 4  # 36 candidates: all rejected with probability < 0.343**36 < 2e-17


class VonMisesDistribution(PhiloxDraws):
    """``vonmises`` (mixed into :class:`kdsl.random.Generator` and ``RandomState``)."""

    def vonmises(self, mu: Any, kappa: Any, size: Size = None) -> Array:
        """Angles in (-pi, pi] (as NumPy's; in float32, at most its largest value below pi) from the von Mises
        distribution with mode ``mu`` and concentration ``kappa >= 0``
        (broadcast against ``size``; float32 unless a parameter is a float64 kdsl array).

        >>> import kdsl as kd
        >>> kd.random.default_rng(1).vonmises([0.0, 1.0], 2.0, size=(3, 2)).shape
        (3, 2)
        >>> kd.random.default_rng(1).vonmises(0.0, -1.0)
        Traceback (most recent call last):
        ...
        ValueError: kappa < 0
        """
        host_nonnegative(kappa, "kappa")
        d = param_dtype(mu, kappa)
        shape = draw_shape(size, mu, kappa)
        c = SharedConsts(self, d)
        k = param_operand(kappa, d, self._device)
        root = km.sqrt(c(1.0) + c(4.0) * k * k)
        tau = c(1.0) + root
        st = km.sqrt(c(2.0) * tau)
        rho = c(2.0) * k / (tau + st)
        one_minus_rho = (c(1.0) + c(1.0) / (root + c(2.0) * k) + st) / (tau + st)  # 1 - rho without cancellation
        q = one_minus_rho / (c(1.0) + rho)
        top = (tau + st) * c(0.25) * (c(1.0) - rho * rho) * (c(1.0) - rho * rho)  # y = top / (...) below
        nan = c(math.nan)

        def one_round() -> Array:
            us = self._open_unit(shape, d, 2 * PER_ROUND)
            pick = nan
            for i in reversed(range(PER_ROUND)):
                half_angle = (us[2 * i] - c(0.5)) * c(math.pi)  # pi u / 2 for u in (-1, 1)
                cos_half = km.cos(half_angle)
                y = top / (one_minus_rho * one_minus_rho + c(4.0) * rho * cos_half * cos_half)
                v = us[2 * i + 1]
                pick = where((y * (c(2.0) - y) >= v) | (km.log(y / v) + c(1.0) - y >= c(0.0)), half_angle, pick)
            return pick

        half = self._first_accepted(shape, d, ROUNDS, one_round, c(0.0))  # fallback: the mode
        out = c(2.0) * km.arctan(q * km.tan(half))
        turn, pi = c(2.0 * math.pi), c(math.pi)
        angle = km.mod(out + param_operand(mu, d, self._device) + pi, turn) - pi
        top = c(_largest_at_most_pi(d.np.type))
        return where(angle < -top, top, where(angle > top, top, angle))  # NumPy's (-pi, pi]: -pi is pi


def _largest_at_most_pi(np_type: Any) -> float:
    """The largest ``np_type`` value <= pi (float32's nearest, 3.14159274, is above pi: one step below it).

    >>> import numpy as np
    >>> float(_largest_at_most_pi(np.float32)) <= math.pi < float(np.float32(math.pi))
    True
    """
    near = np_type(math.pi)
    return float(near if float(near) <= math.pi else np.nextafter(near, np_type(0)))
