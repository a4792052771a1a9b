"""``integers``/``randint`` with arrays of bounds: each element uniform in its own [low, high), on the device.

A candidate is 64 random bits ``c``; with the element's span ``s = high - low`` (as uint64) it is accepted when
``c - c % s <= 2**64 - s``, i.e. it lies in the last whole block of ``s`` values below ``2**64`` (every remainder
then equally likely), and the first accepted candidate's ``c % s`` is added to ``low``. A candidate is rejected
with probability ``(2**64 mod s) / 2**64 < s / 2**64``; the number of candidates comes from the largest span,
read from the bounds on the host (kdsl arrays are read back: NumPy's checks need them too), so all being
rejected has probability at most ``2**-64``, the scalar bounds' guarantee.
If all are rejected the last one's remainder is used (the only bias left).

Example:
    >>> import kdsl as kd
    >>> x = kd.random.default_rng(0).integers([0, 10], [2, 20], size=(1000, 2)).numpy()
    >>> sorted(set(x[:, 0].tolist())), int(x[:, 1].min()) >= 10, int(x[:, 1].max()) <= 19
    ([0, 1], True, True)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.ops import where
from kdsl.frontend.array.random_draws import PhiloxDraws, Size, draw_shape, host_param


def is_array_bound(value: Any) -> bool:
    """Whether an ``integers`` bound is an array (kdsl, NumPy or a sequence) rather than a scalar."""
    return isinstance(value, Array) or (value is not None and np.ndim(value) > 0)


class ArrayBoundIntegers(PhiloxDraws):
    """The array-bound route of ``integers`` (mixed into :class:`kdsl.random.Generator`)."""

    def _integers_arrays(self, low: Any, high: Any, size: Size, d: dt.DType, endpoint: bool) -> Array:
        if high is None:
            if np.any(np.asarray(host_param(low)) < (0 if endpoint else 1)):
                raise ValueError("high < 0" if endpoint else "high <= 0")  # NumPy's message for integers(high)
            low, high = 0, low
        tries = self._check_array_bounds(low, high, d, endpoint)
        shape = draw_shape(size, low, high)
        lo = self._bound_operand(low)
        hi = self._bound_operand(high)
        if endpoint:
            hi = hi + np.int64(1)
        lo_u = lo.astype(dt.uint64)
        span = hi.astype(dt.uint64) - lo_u
        full = span == np.uint64(0)  # the whole 2**64 range (int64 or uint64 bounds): every candidate is exact
        divisor = where(full, np.uint64(1), span)  # no remainder by 0
        top = np.uint64(0) - span  # 2**64 - s (wraps)
        cands = self._bits(shape, wide=True, count=tries)
        out = where(full, cands[-1], cands[-1] % divisor)
        for c in reversed(cands[:-1]):
            r = where(full, c, c % divisor)
            out = where(full | (c - r <= top), r, out)
        return (lo_u + out).astype(dt.int64).astype(d)

    def _bound_operand(self, value: Any) -> Array:
        if isinstance(value, Array):
            return value.astype(dt.int64)
        # Two's complement mod 2**64: uint64 bounds above 2**63 and the exclusive 2**64 keep their bits
        wrapped = np.asarray(np.asarray(value).astype(object) % (1 << 64), dtype=np.uint64).view(np.int64)
        return asarray(wrapped, device=self._device)

    def _check_array_bounds(self, low: Any, high: Any, d: dt.DType, endpoint: bool) -> int:
        """NumPy's checks on host bounds; the number of candidates (module docstring)."""
        lo = np.asarray(host_param(low)).astype(object)  # Python ints: no overflow in high - low
        hi = np.asarray(host_param(high)).astype(object) + (1 if endpoint else 0)
        info = np.iinfo(d.np)
        if np.any(lo < info.min):
            raise ValueError(f"low is out of bounds for {d.name}")
        if np.any(hi - 1 > info.max):
            raise ValueError(f"high is out of bounds for {d.name}")
        if np.any(lo >= hi):
            raise ValueError("low > high" if endpoint else "low >= high")
        span = int(np.max(hi - lo)) if np.size(hi - lo) else 1
        if np.all((hi - lo == 1 << 64) | (hi - lo == 1)):
            return 1  # whole 2**64 ranges and single values accept the first candidate
        rejected = min(span / 2.0**64, 0.5)  # 2**64 mod s is below s, and below 2**64 - s for s > 2**63
        return 1 if rejected <= 2.0**-64 else math.ceil(64 / -math.log2(rejected))
