"""How a length is transformed: radices, local size limits, twiddle tables and compiled kernels (all cached).

* A length whose prime factors are 2, 3, 5 and 7 is done by Stockham stages in shared memory when it fits
  (:func:`local_limit`), else by the four-step method (columns, twiddles, rows), recursively.
* Any other length goes through Bluestein's chirp-z convolution of a power-of-two length.

Example:
    >>> radices(360)
    (4, 2, 3, 3, 5)
    >>> radices(11) is None
    True
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.fft.stockham import kernel_source

_CACHE_LIMIT = 64
_lock = threading.Lock()
_kernels: OrderedDict[tuple, Any] = OrderedDict()
_tables: OrderedDict[tuple, Any] = OrderedDict()
TABLE_BLOCK = 2048
"""Fine entries of a two-level twiddle table: ``W_N^e = fine[e % B] * coarse[e // B]``."""


def radices(n: int) -> tuple[int, ...] | None:
    """Radices (4s first, then 2, 3, 5, 7) whose product is ``n``; None if ``n`` has another prime factor."""
    out: list[int] = []
    while n % 4 == 0:
        out.append(4)
        n //= 4
    for p in (2, 3, 5, 7):
        while n % p == 0:
            out.append(p)
            n //= p
    return tuple(out) if n == 1 else None


def local_limit(double: bool) -> int:
    """Longest power of two done in one workgroup: the shared buffer of this device, at most 4096 elements
    (each invocation then holds at most 16 of them in registers)."""
    shared = int(kd.device().info.get("max_shared_memory_size", 16384))
    size = 16 if double else 8
    limit = 1
    while limit * 2 * size <= shared and limit < 4096:
        limit *= 2
    return limit


def split(n: int, limit: int) -> tuple[int, int]:
    """``n = n1 * n2`` for the four-step method: ``n2 <= limit`` done in shared memory after the columns of
    length ``n1``; ``n1`` as small as possible, so many columns share a workgroup (coalesced loads)."""
    divisors = [d for d in range(2, limit + 1) if n % d == 0]
    fits = [d for d in divisors if n // d <= limit]
    if fits:
        return fits[0], n // fits[0]
    n1 = max(divisors)  # n > limit**2: the rows (n2 > limit) are split again
    return n1, n // n1


def group_shape(m: int, limit: int) -> tuple[int, int]:
    """(sequences per workgroup, invocations): about 16 elements per invocation, at most 256 invocations."""
    seqs = max(1, limit // m) if m <= limit else 1
    seqs = min(seqs, 64)
    invocations = max(1, min(256, -(-seqs * m // 16)))
    return seqs, invocations


def kernel(m: int, double: bool, seq_fast_load: bool, seq_fast_store: bool) -> tuple[Any, int]:
    """The compiled local FFT of length ``m`` and its sequences per workgroup."""
    limit = local_limit(double)
    seqs, group = group_shape(m, limit)
    key = (m, double, seq_fast_load, seq_fast_store, seqs, group, kd.device().index)
    with _lock:
        hit = _kernels.get(key)
        if hit is not None:
            _kernels.move_to_end(key)
            return hit, seqs
    parts = radices(m)
    assert parts is not None
    source = kernel_source(m, parts, seqs, group, "double" if double else "float", seq_fast_load, seq_fast_store)
    compiled = kd.raw_kernel(source, name=f"fft{m}")
    with _lock:
        _kernels[key] = compiled
        while len(_kernels) > _CACHE_LIMIT:
            _kernels.popitem(last=False)
    return compiled, seqs


def twiddles(m: int, n: int, double: bool) -> tuple[Any, int, int]:
    """The table for a local length ``m`` (``W_m^k``, ``k < m``) followed, when ``n`` is not 0, by the
    two-level table of ``W_n``; returns (table, offset of the fine part, offset of the coarse part)."""
    key = (m, n, double, kd.device().index)
    with _lock:
        hit = _tables.get(key)
        if hit is not None:
            _tables.move_to_end(key)
            return hit
    parts = [np.exp(-2j * np.pi * np.arange(m) / m)]
    lo = hi = 0
    if n:
        lo, hi = m, m + TABLE_BLOCK
        parts.append(np.exp(-2j * np.pi * np.arange(TABLE_BLOCK) / n))
        parts.append(np.exp(-2j * np.pi * (np.arange(-(-n // TABLE_BLOCK)) * TABLE_BLOCK) / n))
    entry = (_complex(np.concatenate(parts), double), lo, hi)
    with _lock:
        _tables[key] = entry
        while len(_tables) > _CACHE_LIMIT:
            _tables.popitem(last=False)
    return entry


def chirp(n: int, m: int, double: bool) -> tuple[Any, Any]:
    """Bluestein's chirp ``w_k = exp(-i pi k^2 / n)`` (``k < n``) and the DFT of length ``m`` of its
    conjugate wrapped around (the convolution kernel), both as device arrays. Computed on the host in float64
    (``k^2`` reduced modulo ``2n`` first, so the angle stays exact for long inputs)."""
    key = ("chirp", n, m, double, kd.device().index)
    with _lock:
        hit = _tables.get(key)
        if hit is not None:
            _tables.move_to_end(key)
            return hit
    k = np.arange(n, dtype=np.int64)
    w = np.exp(-1j * np.pi * ((k * k) % (2 * n)) / n)
    b = np.zeros(m, dtype=np.complex128)
    b[:n] = np.conj(w)
    b[m - n + 1:] = np.conj(w[1:][::-1])
    entry = (_complex(w, double), _complex(np.fft.fft(b), double))
    with _lock:
        _tables[key] = entry
        while len(_tables) > _CACHE_LIMIT:
            _tables.popitem(last=False)
    return entry


def _complex(z: np.ndarray, double: bool) -> Any:
    return kd.asarray(z.astype(np.complex128 if double else np.complex64))
