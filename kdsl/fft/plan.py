"""How a length is transformed: radices, local size limits, twiddle tables and compiled kernels (all cached).

* A length whose prime factors are 2, 3, 5 and 7 is done in one workgroup when it fits (:func:`local_limit`):
  a few Stockham stages of radix up to 16 (:func:`stages`), butterflies in registers; else by the four-step
  method (columns, twiddles, rows: two launches, or more, recursively, past ``local_limit ** 2``).
* Any other length goes through Bluestein's chirp-z convolution of a power-of-two length, fused into the
  loads and stores of two such transforms (:func:`bluestein_table`).

Example:
    >>> radices(360)
    (4, 2, 3, 3, 5)
    >>> radices(11) is None
    True
    >>> stages(4096), stages(2048), stages(360)
    ((16, 16, 16), (16, 16, 8), (8, 9, 5))
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.fft.stage import TABLE_BLOCK, shared_stride
from kdsl.fft.stockham import kernel_source, stage_table

_CACHE_LIMIT = 64
_lock = threading.RLock()  # re-entrant: a collection inside may run a finaliser that uses the caches
_kernels: OrderedDict[tuple, Any] = OrderedDict()
_tables: OrderedDict[tuple, Any] = OrderedDict()
_caches: list[OrderedDict[tuple, Any]] = [_kernels, _tables]  # emptied in a forked child (transform's too)
_orphans: list[Any] = []  # a forked child's copies of its parent's entries: kept alive, never used
MAX_RADIX = 16
"""Largest power-of-two butterfly held in registers (16 complex values per invocation)."""
MAX_SEQUENCES, MAX_INVOCATIONS = 32, 256
"""Most sequences and invocations in one workgroup of a local transform (:func:`group_shape`). 32 sequences, not
64: a 64-point launch then does one radix-8 butterfly an invocation, not two (H100: 7-21% faster)."""


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


def stages(n: int) -> tuple[int, ...]:
    """The radices of the Stockham stages of a 7-smooth ``n``: as few stages as radix 16 allows, the powers
    of two spread evenly (2048 is 16 x 16 x 8, not 16 x 16 x 4 x 2), then 9s (pairs of 3s), 3, 5, 7."""
    bits = 0
    while n % 2 == 0:
        bits += 1
        n //= 2
    count = -(-bits // (MAX_RADIX.bit_length() - 1))
    out = [1 << (bits // count + (i < bits % count)) for i in range(count)] if count else []
    while n % 9 == 0:
        out.append(9)
        n //= 9
    for p in (3, 5, 7):
        while n % p == 0:
            out.append(p)
            n //= p
    return tuple(out)


def local_limit(double: bool) -> int:
    """Longest power of two done in one workgroup: its padded shared buffer fits this device's shared memory,
    at most 4096 elements (three radix-16 stages)."""
    key = (double, kd.device().index)
    limit = _limits.get(key)
    if limit is None:
        shared = int(kd.device().info.get("max_shared_memory_size", 16384))
        size = 16 if double else 8
        limit = 1
        while shared_stride(limit * 2) * size <= shared and limit < 4096:
            limit *= 2
        _limits[key] = limit
    return limit


_limits: dict[tuple[bool, int], int] = {}


def half_in_one_launch(m: int, double: bool) -> bool:
    """Whether the transform of length ``m``, half of real rows' length, is one launch (``real_half`` and
    ``half_in`` kernels): at least 2, 7-smooth, within the local limit."""
    return m >= 2 and radices(m) is not None and \
        passes(m, local_limit(double), coalesced()) == (m,)


def max_groups_x() -> int:
    """The device's most workgroups along x (launches past it continue along y)."""
    return int(kd.device().info["max_work_group_count"][0])


def split(n: int, limit: int) -> tuple[int, int]:
    """``n = n1 * n2`` for the four-step method: ``n2 <= limit`` done in shared memory after the columns of
    length ``n1``; ``n1`` as small as possible, so many columns share a workgroup (coalesced loads)."""
    divisors = [d for d in range(2, limit + 1) if n % d == 0]
    fits = [d for d in divisors if n // d <= limit]
    if fits:
        return fits[0], n // fits[0]
    n1 = max(divisors)  # n > limit**2: the rows (n2 > limit) are split again
    return n1, n // n1


COALESCED = 16
"""Sequences a workgroup must hold for the strided loads and stores of a multi-launch transform to coalesce:
16 neighbouring complex64 sequences are 128 contiguous bytes (1 gives the fewest launches, long ones)."""


def coalesced() -> int:
    """The ``group`` of :func:`passes` on this device: ``COALESCED`` on GPUs, 1 on CPU devices (their caches
    take strided rows; each extra launch is a pass of arithmetic over the data); the environment variable
    ``KDSL_FFT_COALESCED`` (read at import) sets it for every device, to compare the plans."""
    if _COALESCED_ENV:
        return _COALESCED_ENV
    return 1 if kd.device().info.get("device_type") == "cpu" else COALESCED


def _env_group() -> int:
    text = os.environ.get("KDSL_FFT_COALESCED", "")
    if not text:
        return 0
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"KDSL_FFT_COALESCED must be a whole number >= 1, got {text!r}")
    return int(text)


_COALESCED_ENV = _env_group()


def passes(n: int, limit: int, group: int = COALESCED) -> tuple[int, ...] | None:
    """The lengths of the launches of a transform of a 7-smooth length ``n``: ``(n,)`` up to ``limit``; else two
    or three four-step launches (:func:`kdsl.fft.transform.transform`), preferring lengths of at most
    ``limit // group`` (their workgroups hold ``group`` sequences, so every strided access reads whole
    128-byte segments) even at the price of a third launch: a length-4096 launch holds one sequence, so the
    column it reads or the transposed row it writes is 8 bytes per 32-byte sector. None past three launches.

    >>> passes(2 ** 24, 4096), passes(8192, 4096), passes(2 ** 24, 4096, group=1)
    ((256, 256, 256), (64, 128), (4096, 4096))
    """
    if n <= limit:
        return (n,)
    for cap in (max(2, limit // group), limit):
        for count in (2, 3):
            found = _factor(n, count, cap)
            if found is not None:
                return found
    return None


def strided_passes(n: int, limit: int, inner: int, group: int = COALESCED) -> tuple[int, ...] | None:
    """The lengths of the launches of a transform along an axis of stride ``inner`` (neighbouring sequences
    are neighbours in memory): one launch when it holds ``group`` sequences per workgroup (or cannot be
    coalesced anyway: ``inner`` too small), else two launches that do (four-step along the axis), else one
    launch of a sequence per workgroup; None past ``limit``.

    >>> strided_passes(4096, 4096, inner=2049), strided_passes(4096, 4096, inner=4), strided_passes(256, 4096, 9)
    ((64, 64), (4096,), (256,))
    """
    small = max(2, limit // group)
    if n > small and inner >= group > 1:
        two = _factor(n, 2, small)
        if two is not None:
            return two
    return (n,) if n <= limit else None


def _factor(n: int, count: int, cap: int) -> tuple[int, ...] | None:
    """``count`` factors of ``n`` in ``[2, cap]``, as even as possible (the smallest largest factor), shorter
    ones first."""
    if count == 1:
        return (n,) if 2 <= n <= cap else None
    best: tuple[int, ...] | None = None
    for d in range(2, min(cap, n) + 1):
        if n % d:
            continue
        rest = _factor(n // d, count - 1, cap)
        if rest is not None and (best is None or max(d, *rest) < max(best)):
            best = tuple(sorted((d, *rest)))
    return best


def group_shape(m: int, limit: int, double: bool, real_half: bool = False) -> tuple[int, int]:
    """(sequences per workgroup, invocations): sequences while the padded shared buffer fits, one radix-16
    butterfly (or so) per invocation, at most 256 invocations (or the device's limit). A ``real_half`` kernel
    (real rows of ``2 m``) holds the sequences of its rows' length, ``2 m``, and enough invocations for the pairs
    of butterflies of its last stage (:class:`kdsl.fft.paired_stage.PairedStage`), whole subgroups (H100, rows of
    4096: 160 invocations 0.0640 ms, 192 0.0639, 256 0.0657, 128 0.0672: the 129th pair then takes a round)."""
    shared = int(kd.device().info.get("max_shared_memory_size", 16384))
    size = 16 if double else 8
    seqs = max(1, min(MAX_SEQUENCES, limit // (2 * m if real_half else m)))
    while seqs > 1 and seqs * shared_stride(m) * size > shared:
        seqs //= 2
    most = min(MAX_INVOCATIONS, int(kd.device().info.get("max_work_group_invocations", 128)))
    radices = stages(m)
    wanted = seqs * m // max(radices)
    if real_half:
        lane = max(1, int(kd.device().info.get("subgroup_size", 32)))
        pairs = seqs * (m // radices[-1] // 2 + 1)
        wanted = -(-max(wanted, pairs) // lane) * lane
    return seqs, max(1, min(most, wanted))


def kernel(m: int, double: bool, seq_fast_load: bool, seq_fast_store: bool, real_input: bool = False,
           real_half: bool = False, part: str = "", half_in: bool = False) -> tuple[Any, int]:
    """The compiled local FFT of length ``m`` (a ``kd.raw_kernel``) and its sequences per workgroup (``part``:
    one of the variants of :func:`kdsl.fft.stockham.kernel_source` that isolate its costs; ``real_half``: the
    transform of real rows of ``2 m``; ``half_in``: its inverse)."""
    limit = local_limit(double)
    seqs, group = group_shape(m, limit, double, real_half)
    key = (m, double, seq_fast_load, seq_fast_store, real_input, seqs, group, part, real_half, half_in)

    def build() -> Any:
        source = kernel_source(m, stages(m), seqs, group, "double" if double else "float", seq_fast_load,
                               seq_fast_store, real_input, part, real_half, half_in)
        name = f"fft{m}" + (f" ({part})" if part else "") + (" real" if real_half else "") + \
            (" half in" if half_in else "")
        return kd.raw_kernel(source, name=name)
    return _cached(_kernels, key, build), seqs


def twiddles(m: int, n: int, double: bool) -> tuple[Any, int, int]:
    """The table of a local length ``m``: its stages' twiddles (:func:`kdsl.fft.stockham.stage_table`)
    followed, when ``n`` is not 0, by the two-level table of ``W_n`` (the four-step twiddles); returns (table,
    offset of the fine part, of the coarse part)."""
    def build() -> tuple[Any, int, int]:
        parts = _stage_twiddles(m)
        lo = hi = 0
        if n:
            lo = sum(p.size for p in parts)
            hi = lo + TABLE_BLOCK
            parts.append(np.exp(-2j * np.pi * np.arange(TABLE_BLOCK) / n))
            parts.append(np.exp(-2j * np.pi * (np.arange(-(-n // TABLE_BLOCK)) * TABLE_BLOCK) / n))
        table = np.concatenate(parts) if parts else np.ones(1)  # never empty: Vulkan has no empty buffers
        return _complex(table, double), lo, hi
    return _cached(_tables, (m, n, double, kd.device().index), build)


def real_half_twiddles(m: int, double: bool) -> tuple[Any, int]:
    """The table of a ``real_half`` kernel of length ``m`` (:func:`kdsl.fft.stockham.kernel_source`): its stages'
    twiddles, then ``W_2m^k`` for ``k <= m``; returns (table, offset of the latter)."""
    def build() -> tuple[Any, int]:
        parts = _stage_twiddles(m)
        at = sum(p.size for p in parts)
        parts.append(np.exp(-1j * np.pi * np.arange(m + 1) / m))
        return _complex(np.concatenate(parts), double), at
    return _cached(_tables, ("real_half", m, double, kd.device().index), build)


def half_factors(m: int, double: bool) -> tuple[Any, Any]:
    """``P = (1 + i W_2m^-k) / 2`` and ``Q = (1 - i W_2m^-k) / 2`` for ``k < m`` as device arrays: the spectrum
    ``Z = X[k] P + conj(X[m - k]) Q`` of the pairs of real rows of ``2 m`` from their half spectrum ``X``
    (:func:`kdsl.fft.real._half_length`)."""
    def build() -> tuple[Any, Any]:
        turn = 1j * np.exp(1j * np.pi * np.arange(m) / m)
        return _complex((1 + turn) / 2, double), _complex((1 - turn) / 2, double)
    return _cached(_tables, ("half", m, double, kd.device().index), build)


def _stage_twiddles(m: int) -> list[np.ndarray]:
    """The stage twiddles of a local length ``m`` (:func:`kdsl.fft.stockham.stage_table`), in float64."""
    parts = []
    for radix, ns, _ in stage_table(stages(m)):
        r, t = np.arange(1, radix)[:, None], np.arange(ns)[None, :]
        parts.append(np.exp(-2j * np.pi * (r * t) / (ns * radix)).ravel())
    return parts


def chirp(n: int, m: int, double: bool) -> tuple[Any, Any]:
    """Bluestein's chirp ``w_k = exp(-i pi k^2 / n)`` (``k < n``) and the DFT of length ``m`` of its
    conjugate wrapped around (the convolution kernel), both as device arrays. Computed on the host in float64
    (``k^2`` reduced modulo ``2n`` first, so the angle stays exact for long inputs)."""
    def build() -> tuple[Any, Any]:
        w, kernel_hat = _chirp_host(n, m)
        return _complex(w, double), _complex(kernel_hat, double)
    return _cached(_tables, ("chirp", n, m, double, kd.device().index), build)


def bluestein_table(n: int, m: int, double: bool, inverse: bool) -> tuple[Any, int, int]:
    """One device table for the fused Bluestein transform of length ``n`` by FFTs of length ``m``: the chirp
    ``w`` (multiplied on load), ``conj(K)`` (the conjugated kernel, on the first store) and ``w / m``
    (``conj(w) / m`` for the inverse, on the last store); returns (table, offset of conj(K), offset of the
    last part)."""
    def build() -> tuple[Any, int, int]:
        w, kernel_hat = _chirp_host(n, m)
        last = (np.conj(w) if inverse else w) / m
        return _complex(np.concatenate([w, np.conj(kernel_hat), last]), double), n, n + m
    return _cached(_tables, ("bluestein", n, m, double, inverse, kd.device().index), build)


def _cached(cache: OrderedDict[tuple, Any], key: tuple, build: Callable[[], Any]) -> Any:
    """``cache[key]``, made by ``build()`` on a miss (outside the lock: building compiles or uploads)."""
    hit = lookup(cache, key)
    if hit is not None:
        return hit
    entry = build()
    remember(cache, key, entry)
    return entry


def lookup(cache: OrderedDict[tuple, Any], key: tuple) -> Any:
    """``cache[key]`` (now the most recently used) or None."""
    with _lock:
        hit = cache.get(key)
        if hit is not None:
            cache.move_to_end(key)
        return hit


def remember(cache: OrderedDict[tuple, Any], key: tuple, entry: Any, limit: int = _CACHE_LIMIT) -> None:
    """Store ``entry``; the least recently used entries past ``limit`` are dropped."""
    with _lock:
        cache[key] = entry
        while len(cache) > limit:
            cache.popitem(last=False)


def forget_in_child(cache: OrderedDict[tuple, Any]) -> OrderedDict[tuple, Any]:
    """Register ``cache`` (keyed by device index, holding arrays or programs of that device) to be emptied in
    a forked child; returns it."""
    _caches.append(cache)
    return cache


def _forget_after_fork() -> None:
    """A forked child's device has the parent's index but none of its buffers or pipelines: a cached table or
    program would raise "created in the parent process before fork()" at the child's first kd.fft call. The
    child builds its own; the parent's entries are kept alive and unused, so no destructor touches them. The
    lock is new: a parent thread may have held it at fork time."""
    global _lock
    _lock = threading.RLock()
    for cache in _caches:
        _orphans.append(list(cache.values()))
        cache.clear()


os.register_at_fork(after_in_child=_forget_after_fork)


def _chirp_host(n: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """``w_k = exp(-i pi k^2 / n)`` (``k^2`` reduced modulo ``2n`` first, so the angle stays exact for long
    inputs) and the length-``m`` DFT of its conjugate wrapped around, in float64."""
    k = np.arange(n, dtype=np.int64)
    w = np.exp(-1j * np.pi * ((k * k) % (2 * n)) / n)
    b = np.zeros(m, dtype=np.complex128)
    b[:n] = np.conj(w)
    b[m - n + 1:] = np.conj(w[1:][::-1])
    return w, np.fft.fft(b)


def _complex(z: np.ndarray, double: bool) -> Any:
    return kd.asarray(z.astype(np.complex128 if double else np.complex64))
