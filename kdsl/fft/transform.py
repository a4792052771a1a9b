"""The complex-to-complex transform of contiguous rows.

``c2c(x, inverse)`` takes a complex64 or complex128 array of shape ``(rows, n)`` and returns the
unnormalised DFT of every row (``inverse``: the conjugate transform, still without the ``1/n``). The kernels
read complex arrays as ``vec2``/``dvec2`` pairs. The public functions in :mod:`kdsl.fft` move axes, pad,
normalise and convert around it.

Example:
    >>> import numpy as np, kdsl as kd
    >>> x = np.random.default_rng(0).standard_normal((3, 12)).astype(np.complex64)
    >>> bool(np.allclose(c2c(kd.asarray(x), inverse=False).numpy(), np.fft.fft(x), atol=1e-4))
    True
"""

from __future__ import annotations

from typing import Any, NamedTuple

import kdsl as kd
from kdsl.fft import plan

CONJ_LOAD, CONJ_STORE = 1, 2


class Layout(NamedTuple):
    """Where element ``k`` of sequence ``b`` lives: ``(b // d) * p + (b % d) * q + k * e``."""

    d: int
    p: int
    q: int
    e: int


def rows(length: int) -> Layout:
    """Contiguous sequences of ``length`` elements."""
    return Layout(1, length, 0, 1)


def c2c(x: Any, inverse: bool) -> Any:
    """Unnormalised DFT (``inverse``: conjugate DFT) of each row of ``x``, shape ``(rows, n)``."""
    count, n = int(x.shape[0]), int(x.shape[1])
    if count == 0 or n <= 1:
        return x.copy()
    double = x.dtype == kd.complex128
    flags = CONJ_LOAD | CONJ_STORE if inverse else 0
    if plan.radices(n) is None:
        return _bluestein(x, inverse)
    out = kd.empty(x.shape, dtype=x.dtype)
    _smooth(x, out, count, n, double, flags)
    return out


def c2c_inner(x: Any, inverse: bool) -> Any | None:
    """The transform along the middle axis of a contiguous ``(outer, n, inner)`` array, in one launch that
    reads the columns where they are (no transposes); None when ``n`` needs more than one launch."""
    outer, n, inner = (int(d) for d in x.shape)
    double = x.dtype == kd.complex128
    if plan.radices(n) is None or n > plan.local_limit(double) or outer * inner == 0:
        return None
    out = kd.empty(x.shape, dtype=x.dtype)
    columns = Layout(inner, n * inner, 1, inner)
    _launch(x, out, n, outer * inner, columns, columns, double, flags=CONJ_LOAD | CONJ_STORE if inverse else 0)
    return out


def _smooth(x: Any, out: Any, count: int, n: int, double: bool, flags: int) -> None:
    """A 7-smooth length: one local pass, or the four-step method (columns, twiddles, rows)."""
    limit = plan.local_limit(double)
    if n <= limit:
        _launch(x, out, n, count, rows(n), rows(n), double, flags=flags)
        return
    n1, n2 = plan.split(n, limit)
    columns = Layout(n2, n, 1, n2)  # sequence (row, i2): elements i1 * n2 + i2 of the row
    temp = kd.empty(x.shape, dtype=x.dtype)
    _launch(x, temp, n1, count * n2, columns, columns, double, twiddle=n, flags=flags & CONJ_LOAD)
    if n2 <= limit:  # the rows of length n2, written transposed: X[k1 + n1 * k2]
        _launch(temp, out, n2, count * n1, rows(n2), Layout(n1, n, 1, n1), double, flags=flags & CONJ_STORE)
        return
    inner = c2c(temp.reshape(count * n1, n2), inverse=False)
    result = inner.reshape(count, n1, n2).transpose((0, 2, 1)).reshape(count, n)
    out[...] = kd.conj(result) if flags & CONJ_STORE else result


def _launch(src: Any, dst: Any, m: int, nseq: int, load: Layout, store: Layout, double: bool,
            twiddle: int = 0, flags: int = 0) -> None:
    kernel, seqs = plan.kernel(m, double, seq_fast_load=load.e != 1, seq_fast_store=store.e != 1)
    table, lo, hi = plan.twiddles(m, twiddle, double)
    groups = -(-nseq // seqs)
    limit = int(kd.device().info["max_work_group_count"][0])
    gx = min(groups, limit)
    gy = -(-groups // gx)
    kernel(src, dst, table, nseq, *load, *store, twiddle, plan.TABLE_BLOCK, lo, hi, flags, gx, groups=(gx, gy))


def _bluestein(x: Any, inverse: bool) -> Any:
    """Any length as a convolution with a chirp, done by FFTs of a power-of-two length ``m >= 2n - 1``."""
    count, n = int(x.shape[0]), int(x.shape[1])
    m = 1 << (2 * n - 2).bit_length()
    chirp, kernel_hat = plan.chirp(n, m, x.dtype == kd.complex128)
    if inverse:
        x = kd.conj(x)
    padded = kd.concatenate([x * chirp, kd.zeros((count, m - n), dtype=x.dtype)], axis=1)
    conv = c2c(c2c(padded, inverse=False) * kernel_hat, inverse=True)
    result = conv[:, :n] * chirp * (1.0 / m)
    return kd.conj(result) if inverse else result
