"""NumPy's ``polydiv``: polynomial long division on coefficient arrays (highest power first), as fused
arithmetic on the device: one lazy update of the remainder per quotient coefficient, in a frame that moves
with the division (each step the same kernel).

Synchronisation: the remainder's leading near-zeros are dropped as NumPy drops them (``|r[0]| <= 1e-8``,
NumPy's ``allclose(r[0], 0)``): one read back of how many there are (the result's length).

Example:
    >>> import kdsl as kd
    >>> q, r = kd.polydiv(kd.asarray([1.0, -3.0, 2.0]), kd.asarray([1.0, -1.0]))
    >>> q.tolist(), r.tolist()
    ([1.0, -2.0], [0.0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array, realize
from kdsl.frontend.array.creation import as_arrays, zeros
from kdsl.frontend.array.joining import atleast_1d
from kdsl.frontend.array.math import abs as kabs
from kdsl.frontend.array.polynomials import rewrap
from kdsl.frontend.array.reductions import any as kany
from kdsl.frontend.array.reductions import argmax
from kdsl.frontend.array.shape_ops import concatenate, stack

REALIZE_EVERY = 16  # quotient steps between realisations, so no fused expression grows with the degree
_SMALL = 1e-8  # NumPy's allclose(r[0], 0): atol 1e-8 (rtol times 0 adds nothing)


def _floating(a: Array) -> dt.DType:
    """``a + 0.0``'s dtype as NumPy computes it: integers and booleans become float64 (float32 without it)."""
    if a.dtype.kind in "fc":
        return a.dtype
    return dt.float64 if a.device.supports(dt.float64) else dt.float32


def _operands(u: Any, v: Any) -> tuple[Array, Array, dt.DType]:
    dev = ops.device_of((u, v))
    a, b = (atleast_1d(x) for x in as_arrays(u, v, device=dev))  # together: float lists beside float64 at float64
    for name, x in (("u", a), ("v", b)):
        if x.ndim != 1 or x.shape[0] == 0:
            raise ValueError(f"polydiv: {name} must be non-empty 1-D coefficients (highest power first), "
                             f"not of shape {x.shape}")
    wide = dt.as_dtype(np.result_type(_floating(a).np, _floating(b).np))
    return a, b, wide if a.device.supports(wide) else dt.float32


def _trim_leading(r: Array) -> Array:
    """``r`` without the leading entries of magnitude <= 1e-8 (keeping at least one), one read back."""
    big = ~(kabs(r) <= _SMALL)
    found, first = kany(big), argmax(big)
    realize(found, first)
    start = int(first) if bool(found) else r.shape[0] - 1
    return r[min(start, r.shape[0] - 1):]


def polydiv(u: Any, v: Any) -> tuple[Any, Any]:
    """Quotient and remainder of dividing the polynomial ``u`` by ``v`` (coefficients, highest power first),
    in floating point (integers as float64). The remainder's leading entries within 1e-8 of zero are
    dropped, as NumPy drops them (one read back); dividing by a polynomial with a zero leading coefficient
    gives inf/NaN, as NumPy (with its warning) does.

    >>> import kdsl as kd
    >>> q, r = kd.polydiv(kd.asarray([3.0, 5.0, 2.0]), kd.asarray([2.0, 1.0]))
    >>> q.tolist(), r.tolist()
    ([1.5, 1.75], [0.25])
    """
    a, b, dtype = _operands(u, v)
    m, n = a.shape[0] - 1, b.shape[0] - 1
    frame, divisor = a.astype(dtype), b.astype(dtype)
    scale = 1.0 / divisor[0]  # NumPy multiplies by the reciprocal: the same rounding
    quotient, leading = [], []
    for k in range(m - n + 1):
        # frame[j] is NumPy's r[k + j]: every step is the same graph (one program, however long `u` is; the
        # window moving along r compiled one per step), and only the window changes, as NumPy's (an inf d
        # times padding zeros would make NaN elsewhere)
        d = scale * frame[0]
        window = frame[:n + 1] - d * divisor
        quotient.append(d)
        leading.append(window[0])  # NumPy's r[k], about 0: kept for the remainder's trim, as NumPy keeps it
        frame = concatenate([window[1:], frame[n + 1:], zeros(1, dtype=dtype, device=a.device)])
        if (k + 1) % REALIZE_EVERY == 0:
            realize(frame)
    q = stack(quotient) if quotient else zeros(1, dtype=dtype, device=a.device)
    r = concatenate([stack(leading), frame[:n]]) if leading else frame
    return rewrap((u, v), (q.astype(dtype), _trim_leading(r)))  # poly1d in, poly1d out, as NumPy's


__all__ = ["polydiv"]
