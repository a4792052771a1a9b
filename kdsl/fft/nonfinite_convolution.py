"""A long convolution of arrays holding inf or NaN, as NumPy's direct sum gives it: an inf or a NaN reaches only
the outputs whose window covers it (an inf times 0 is NaN there, +inf and -inf in one window make NaN). An FFT
would spread it to every output, so the finite part comes from the convolution of the inputs with their
non-finite entries zeroed, and the non-finite pattern from convolutions of 0/1 indicators (counts of the NaN,
+inf and -inf products each output sums; exact integers, read with a threshold of one half).

Example:
    >>> import kdsl as kd
    >>> a = kd.asarray([1.0, float("inf"), 2.0, 3.0, 4.0])
    >>> full_convolution(a, kd.asarray([1.0, 0.0]), kd.convolve).tolist()
    [1.0, inf, nan, 3.0, 4.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import kdsl as kd

Convolution = Callable[[Any, Any], Any]


def full_convolution(a: Any, v: Any, conv: Convolution) -> Any:
    """The full convolution of 1-D float or complex ``a`` and ``v`` (the same dtype) with NumPy's inf and NaN,
    ``conv`` convolving finite arrays (kdsl's FFT route). A complex one is four real ones, as the elementwise
    product ``(ar*vr - ai*vi) + (ar*vi + ai*vr)j`` gives them (a sum of differences has the inf/NaN of the
    difference of the sums), as kdsl's short convolutions do; NumPy's complex convolve runs its BLAS dot, whose
    inf/NaN can differ from the product's."""
    if a.dtype not in (kd.complex64, kd.complex128):
        return _real(a, v, conv)
    ar, ai, vr, vi = kd.real(a), kd.imag(a), kd.real(v), kd.imag(v)
    real = _real(ar, vr, conv) - _real(ai, vi, conv)
    imag = _real(ar, vi, conv) + _real(ai, vr, conv)
    out = kd.zeros(real.shape, dtype=a.dtype)  # set by parts: 1j * inf would be NaN + inf j
    out.real, out.imag = real, imag
    return out


def _real(a: Any, v: Any, conv: Convolution) -> Any:
    base = conv(kd.where(kd.isfinite(a), a, 0), kd.where(kd.isfinite(v), v, 0))
    wide = kd.float64 if kd.device().supports(kd.float64) else kd.float32
    ia, iv = _indicators(a, wide), _indicators(v, wide)

    def count(pairs: tuple[tuple[str, str], ...]) -> Any:  # whether some product of each output is of a kind
        total = conv(ia[pairs[0][0]], iv[pairs[0][1]])
        for x, y in pairs[1:]:
            total = total + conv(ia[x], iv[y])
        return total > 0.5

    nan = count((("nan", "all"), ("all", "nan"), ("inf", "zero"), ("zero", "inf")))
    plus = count((("+inf", "pos"), ("-inf", "neg"), ("pos", "+inf"), ("neg", "-inf")))
    minus = count((("+inf", "neg"), ("-inf", "pos"), ("pos", "-inf"), ("neg", "+inf")))
    out = kd.where(minus, -kd.inf, base)
    out = kd.where(plus, kd.inf, out)
    return kd.where(nan | (plus & minus), kd.nan, out).astype(a.dtype)


def _indicators(x: Any, wide: Any) -> dict[str, Any]:
    """0/1 arrays (``wide`` floats) of ``x``'s entries by kind: NaN, infinite, +inf, -inf, zero, above zero
    (+inf included), below zero, and all of them."""
    kinds = {"nan": kd.isnan(x), "inf": kd.isinf(x), "+inf": x == kd.inf, "-inf": x == -kd.inf, "zero": x == 0,
             "pos": x > 0, "neg": x < 0}
    out = {k: m.astype(wide) for k, m in kinds.items()}
    out["all"] = kd.ones(x.shape, dtype=wide)
    return out
