"""``Generator.integers``: unbiased bounded integers by *modulo rejection with a bounded number of tries*.

A candidate of W = 32 or 64 random bits is accepted when it is below the largest multiple of the span ``s`` that
fits in ``2**W``; the first accepted of ``k`` candidates is used, ``k`` chosen on the host so that all ``k`` being
rejected has probability at most ``2**-64`` per element (then the last candidate's remainder is used: the only
bias left). Powers of two need one candidate and are exact. Bounds given as arrays take
:mod:`array_bound_integers`' route.

Example:
    >>> import kdsl as kd
    >>> x = kd.random.default_rng(4).integers(-3, 3, size=100, endpoint=True).numpy()
    >>> int(x.min()) >= -3, int(x.max()) <= 3
    (True, True)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.array_bound_integers import ArrayBoundIntegers, is_array_bound
from kdsl.frontend.array.creation import full
from kdsl.frontend.array.ops import where
from kdsl.frontend.array.random_draws import Size, draw_shape, host_param


class BoundedIntegers(ArrayBoundIntegers):
    """``integers`` with scalar or array bounds (mixed into :class:`kdsl.random.Generator`)."""

    def integers(self, low: int, high: int | None = None, size: Size = None, dtype: Any = None,
                 endpoint: bool = False) -> Array:
        """Random integers in [low, high) (``endpoint=True``: [low, high]; ``integers(n)``: [0, n)).

        ``dtype`` defaults to int64 (int32 on devices without 64-bit integers). ``low``/``high`` are ints or
        arrays of them (broadcast against ``size``: :mod:`array_bound_integers`). Unbiased up to a probability of
        at most ``2**-64`` per element (see the module docstring).

        >>> import kdsl as kd
        >>> sorted(set(kd.random.default_rng(3).integers(1, 4, size=200).tolist()))
        [1, 2, 3]
        >>> kd.random.default_rng(3).integers(5, 5)
        Traceback (most recent call last):
        ...
        ValueError: low >= high (integers draws from [low, high): got low=5, high=5; pass endpoint=True for [low, high])
        """
        d = self._device.check(self._index_dtype() if dtype is None else dt.as_dtype(native_dtype(dtype)))
        shape = draw_shape(size, *(b for b in (low, high) if b is not None))
        if math.prod(shape) == 0:  # NumPy checks no bounds when nothing is drawn
            return full(shape, 0, dtype=d, device=self._device)
        if d is dt.bool_:  # NumPy allows bool: bounds inside [0, 1]
            return self._integers_bool(low, high, size, endpoint)
        if not d.is_int:
            raise TypeError(f"Unsupported dtype {d.name!r} for integers: pass an integer dtype (or bool)")
        if is_array_bound(low) or is_array_bound(high):
            return self._integers_arrays(low, high, size, d, endpoint)
        low, high = _int_bounds(low, high, endpoint)
        info = np.iinfo(d.np)
        if low < info.min:
            raise ValueError(f"low is out of bounds for {d.name} (low={low} < {info.min})")
        if high - 1 > info.max:
            raise ValueError(f"high is out of bounds for {d.name} (high - 1 = {high - 1} > {info.max})")
        shape = draw_shape(size)
        span = high - low
        wide = d.itemsize == 8 or span > 1 << 32 or _tries(span, 32) > 4
        if wide and not self._device.supports(dt.uint64):
            wide = False  # no 64-bit ints: 32-bit candidates, more tries (span <= 2**32 here: d is 32-bit)
        unsigned = dt.uint64 if wide else dt.uint32
        offset = self._bounded(shape, span, wide)
        value = offset + unsigned.np.type(low % (1 << (64 if wide else 32)))  # wraps mod 2**W to low + offset
        signed = dt.int64 if wide else dt.int32
        return (value.astype(signed) if info.min < 0 else value).astype(d)

    def _integers_bool(self, low: Any, high: Any, size: Size, endpoint: bool) -> Array:
        lo, hi = (0, low) if high is None else (low, high)
        if np.any(np.asarray(host_param(lo)) < 0):  # NumPy's checks (kdsl arrays read back)
            raise ValueError("low is out of bounds for bool")
        if np.any(np.asarray(host_param(hi)) - (0 if endpoint else 1) > 1):
            raise ValueError("high is out of bounds for bool")
        return self.integers(lo, hi, size, dt.int32, endpoint) != 0

    def _bounded(self, shape: tuple[int, ...], span: int, wide: bool) -> Array:
        """Uniform integers in [0, span) as uint32/uint64 by bounded modulo rejection."""
        bits = 64 if wide else 32
        unsigned = dt.uint64 if wide else dt.uint32
        if span == 1:
            return full(shape, 0, dtype=unsigned, device=self._device)
        if span & (span - 1) == 0:  # a power of two: the low bits are exact
            return self._bits(shape, wide)[0] & unsigned.np.type(span - 1)
        limit = unsigned.np.type((1 << bits) - (1 << bits) % span)  # candidates below it: each remainder equally
        s = unsigned.np.type(span)
        cands = self._bits(shape, wide, _tries(span, bits))
        out = cands[-1] % s
        for c in reversed(cands[:-1]):
            out = where(c < limit, c % s, out)
        return out


def native_dtype(dtype: Any) -> Any:
    """``dtype`` unchanged, after NumPy's refusal of a non-native byte order (kdsl holds native words only).

    >>> native_dtype(">i4" if __import__("sys").byteorder == "little" else "<i4")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Providing a dtype with a non-native byteorder is not supported. ...
    """
    if isinstance(dtype, (str, np.dtype)) and not np.dtype(dtype).isnative:
        raise ValueError("Providing a dtype with a non-native byteorder is not supported. If you require "
                         "platform-independent byteorder, call byteswap when required.")
    return dtype


def _int_bounds(low: Any, high: Any, endpoint: bool) -> tuple[int, int]:
    """(low, exclusive high) as Python ints, with NumPy's checks."""
    for v in (low, high):
        if v is not None and (isinstance(v, (Array, bool, np.bool_)) or not isinstance(v, (int, np.integer))):
            raise TypeError(f"integers takes ints or arrays of ints for low and high, not {v!r}")
    if high is None:
        if (low < 0) if endpoint else (low <= 0):
            raise ValueError("high < 0" if endpoint else "high <= 0")  # NumPy's message for integers(high)
        low, high = 0, low
    low, high = int(low), int(high) + (1 if endpoint else 0)
    if high <= low:  # NumPy's words first, then what was passed
        if endpoint:
            raise ValueError(f"low > high (got low={low}, high={high - 1})")
        raise ValueError(f"low >= high (integers draws from [low, high): got low={low}, high={high}; "
                         "pass endpoint=True for [low, high])")
    return low, high


def _tries(span: int, bits: int) -> int:
    """Candidates needed so that all being rejected has probability <= 2**-64 (1 for powers of two)."""
    rejected = ((1 << bits) % span) / (1 << bits)
    if rejected == 0.0:
        return 1
    return min(64, max(1, math.ceil(64 / -math.log2(rejected))))

