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


def c2c(x: Any, inverse: bool, keep: int | None = None) -> Any:
    """Unnormalised DFT (``inverse``: conjugate DFT) of each row of ``x``, shape ``(rows, n)``; ``x`` may be
    real (float32/float64: read as complex with zero imaginary parts, no conversion pass). ``keep``: only the
    first ``keep`` outputs of each row (``rfft``'s half spectrum), shape ``(rows, keep)``."""
    count, n = int(x.shape[0]), int(x.shape[1])
    keep = n if keep is None else keep
    real = x.dtype in (kd.float32, kd.float64)
    if count == 0 or n <= 1 or plan.radices(n) is None:
        full = x.astype(_COMPLEX[x.dtype]) if real else x
        full = full.copy() if count == 0 or n <= 1 else _bluestein(full, inverse)
        return full[:, :keep] if keep < n else full
    double = x.dtype in (kd.complex128, kd.float64)
    flags = CONJ_LOAD | CONJ_STORE if inverse else 0
    if n <= plan.local_limit(double):
        out = output((count, keep), double)
        _launch(x, out, n, count, rows(n), rows(keep), double, flags=flags, keep=keep)
        return out
    out = output((count, n), double)
    _four_step(x, out, count, n, double, flags)
    return out[:, :keep] if keep < n else out


def output(shape: tuple[int, ...], double: bool) -> Any:
    """A complex array every element of which a kernel is about to write (no fill pass first)."""
    return kd.Array._uninitialized(shape, kd.complex128 if double else kd.complex64)


def c2c_inner(x: Any, inverse: bool) -> Any | None:
    """The transform along the middle axis of a contiguous ``(outer, n, inner)`` array, in one launch that
    reads the columns where they are (no transposes); None when ``n`` needs more than one launch."""
    outer, n, inner = (int(d) for d in x.shape)
    double = x.dtype in (kd.complex128, kd.float64)
    if n <= 1 or plan.radices(n) is None or n > plan.local_limit(double) or outer * inner == 0:
        return None
    out = output(x.shape, double)
    columns = Layout(inner, n * inner, 1, inner)
    _launch(x, out, n, outer * inner, columns, columns, double, flags=CONJ_LOAD | CONJ_STORE if inverse else 0)
    return out


def _four_step(x: Any, out: Any, count: int, n: int, double: bool, flags: int) -> None:
    """A 7-smooth length past one workgroup: columns, twiddles, then rows (recursively when still too long)."""
    limit = plan.local_limit(double)
    n1, n2 = plan.split(n, limit)
    columns = Layout(n2, n, 1, n2)  # sequence (row, i2): elements i1 * n2 + i2 of the row
    temp = output((count, n), double)
    _launch(x, temp, n1, count * n2, columns, columns, double, twiddle=n, flags=flags & CONJ_LOAD)
    if n2 <= limit:  # the rows of length n2, written transposed: X[k1 + n1 * k2]
        _launch(temp, out, n2, count * n1, rows(n2), Layout(n1, n, 1, n1), double, flags=flags & CONJ_STORE)
        return
    inner = c2c(temp.reshape(count * n1, n2), inverse=False)
    result = inner.reshape(count, n1, n2).transpose((0, 2, 1)).reshape(count, n)
    out[...] = kd.conj(result) if flags & CONJ_STORE else result


def _launch(src: Any, dst: Any, m: int, nseq: int, load: Layout, store: Layout, double: bool,
            twiddle: int = 0, flags: int = 0, keep: int | None = None) -> None:
    real = src.dtype in (kd.float32, kd.float64)
    kernel, seqs = plan.kernel(m, double, seq_fast_load=load.e != 1, seq_fast_store=store.e != 1, real_input=real)
    table, lo, hi = plan.twiddles(m, twiddle, double)
    groups = -(-nseq // seqs)
    gx = min(groups, plan.max_groups_x())
    gy = -(-groups // gx)
    kernel(src, dst, table, nseq, *load, m, *store, m if keep is None else keep, twiddle, lo, hi, flags, gx,
           groups=(gx, gy))


_COMPLEX = {kd.float32: kd.complex64, kd.float64: kd.complex128}


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
