"""``kd.random.default_rng``: NumPy's ``Generator`` API on kdsl's counter-based Philox4x32-10 generator.

Every draw is lazy and computed on the device: element ``i`` of a call's draw is
``philox(counter=(i, stream), key=seed key)``, and each call (each raw draw inside a call) takes the next stream,
so two calls differ and the same seed replays the same sequence. Nothing is read back to the host except the
parameters NumPy validates (``p`` of :meth:`Generator.choice`).

Methods (what differs from NumPy is said in each docstring):

* ``random``: float32 from 24 random bits, float64 from 53 (two 32-bit words), in [0, 1).
* ``integers``: unbiased bounded integers by *modulo rejection with a bounded number of tries*: a candidate of
  W = 32 or 64 random bits is accepted when it is below the largest multiple of the span ``s`` that fits in
  ``2**W``; the first accepted of ``k`` candidates is used, ``k`` chosen on the host so that all ``k`` being
  rejected has probability at most ``2**-64`` per element (then the last candidate's remainder is used: the only
  bias left). Powers of two need one candidate and are exact.
* ``normal``/``standard_normal``: Box-Muller; ``exponential``/``standard_exponential``: ``-log(1 - u)``.
* ``poisson``, ``negative_binomial``: :mod:`poisson_sampling` (exact: a host table or PTRS rejection).
* ``permutation``/``shuffle``: a random 64-bit key per element (32-bit where the device has no int64), then a
  stable ``kd.argsort`` of the keys.
* ``choice``: ``p`` given: inverse CDF (host cumsum, device ``searchsorted``); without replacement: the prefix of
  a random permutation, or with ``p`` the ``size`` smallest ``Exp(1)/p_i`` keys (Efraimidis-Spirakis: the same law
  as drawing one at a time proportionally to the remaining ``p``).

The other distributions (``gamma``, ``beta``, ``binomial``, ``lognormal``, ...) come from
:mod:`gamma_sampling`, :mod:`binomial_sampling`, :mod:`poisson_sampling`, :mod:`noncentral`,
:mod:`vonmises_sampling`, :mod:`zipf_logseries`, :mod:`hypergeometric_sampling` and :mod:`distributions`;
``permuted``, ``bytes`` and ``spawn`` are here. ``size=None`` gives a 0-d kdsl array (NumPy gives a Python
scalar: reading it would be a host round trip).

Example:
    >>> import kdsl as kd
    >>> rng = kd.random.default_rng(42)
    >>> a = rng.integers(0, 10, size=5)
    >>> a.dtype in (kd.int64, kd.int32), a.shape
    (True, (5,))
    >>> bool(((a.numpy() >= 0) & (a.numpy() < 10)).all())
    True
    >>> (kd.random.default_rng(42).random(3).numpy() == kd.random.default_rng(42).random(3).numpy()).all()
    np.True_
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.device import device as current_device
from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.array_bound_integers import ArrayBoundIntegers, is_array_bound
from kdsl.frontend.array.binomial_sampling import BinomialDistributions
from kdsl.frontend.array.creation import asarray, full, host_length
from kdsl.frontend.array.distributions import TransformDistributions
from kdsl.frontend.array.hypergeometric_sampling import HypergeometricDistributions
from kdsl.frontend.array.noncentral import NoncentralDistributions
from kdsl.frontend.array.ops import where
from kdsl.frontend.array.philox_bit_generator import PhiloxCounter
from kdsl.frontend.array.random_draws import (
    Size,
    draw_float_dtype,
    draw_shape,
    host_check,
    out_request,
    param_dtype,
    param_value,
    store_out,
)
from kdsl.frontend.array.sorting import argsort, searchsorted, take, take_along_axis
from kdsl.frontend.array.vonmises_sampling import VonMisesDistribution
from kdsl.frontend.array.zipf_logseries import ZipfLogseriesDistributions


def _seed_key(seed: Any) -> int:
    """A 64-bit Philox key from ``seed`` through NumPy's SeedSequence (nearby seeds give unrelated keys)."""
    if isinstance(seed, np.random.BitGenerator):
        ss = seed.seed_seq  # a NumPy bit generator: kdsl keeps its seed, not its algorithm
    elif isinstance(seed, np.random.SeedSequence):
        ss = seed
    elif isinstance(seed, (bool, np.bool_)) or isinstance(seed, float):
        raise TypeError(f"seed must be None, an int >= 0, a sequence of them or a SeedSequence, not {seed!r}")
    else:
        ss = np.random.SeedSequence(seed)  # raises NumPy's errors for negative or non-integer seeds
    lo, hi = (int(w) for w in ss.generate_state(2, np.uint32))
    return lo | hi << 32


class Generator(NoncentralDistributions, TransformDistributions, BinomialDistributions, VonMisesDistribution,
                ZipfLogseriesDistributions, HypergeometricDistributions, ArrayBoundIntegers):
    """Random numbers with NumPy's ``Generator`` methods, drawn lazily on the device (see the module docstring).

    Example:
        >>> import kdsl as kd
        >>> rng = kd.random.default_rng(0)
        >>> sorted(rng.permutation(5).tolist())
        [0, 1, 2, 3, 4]
    """

    def __init__(self, seed: Any = None, device: Any = None) -> None:
        if isinstance(seed, np.random.Generator):
            seed = seed.bit_generator  # a NumPy Generator as the seed: its bit generator's seed
        if isinstance(seed, np.random.BitGenerator):
            seed = seed.seed_seq  # NumPy's Generator(bit_generator): kdsl keeps its seed, drawing from Philox
        self._seed_seq = seed if isinstance(seed, np.random.SeedSequence) else None
        if self._seed_seq is None and not isinstance(seed, (bool, np.bool_, float)):
            self._seed_seq = np.random.SeedSequence(seed)
        self._key = _seed_key(self._seed_seq if self._seed_seq is not None else seed)
        self._stream = 0
        self._dev = current_device(device)
        self._tables: dict[tuple, Array] = {}  # CDF tables (poisson, binomial) already on the device

    def __repr__(self) -> str:
        return f"Generator(PhiloxCounter, key={self._key:#x}, stream={self._stream})"

    @property
    def device(self):
        return self._device

    @property
    def bit_generator(self) -> PhiloxCounter:
        """The generator's Philox counter state in the shape of NumPy's bit generators (its ``state`` dict can be
        saved and assigned back; :mod:`philox_bit_generator`)."""
        return PhiloxCounter(self)

    # ----- floats
    def random(self, size: Size = None, dtype: Any = None, out: Any = None) -> Array:
        """Floats uniform in [0, 1) (``dtype`` float32, the default, or float64; ``out``: an array to fill, whose
        dtype is then the draw's).

        >>> import kdsl as kd
        >>> x = kd.random.default_rng(1).random((2, 3), dtype=kd.float64)
        >>> x.shape, x.dtype
        ((2, 3), kdsl.float64)
        """
        size, dtype = out_request(out, size, dtype)
        return store_out(out, self._unit(draw_shape(size), draw_float_dtype(dtype, self._device))[0])

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Size = None) -> Array:
        """Floats uniform in [low, high) (``low``/``high`` broadcast; scalars and NumPy arrays give float32, a
        float64 kdsl array parameter float64 with 53 random bits)."""
        for v in (low, high):
            host_check(v, "low/high", np.isfinite, "must be finite")
        host_check(np.asarray(high, float) - np.asarray(low, float) if not isinstance(low, Array)
                    and not isinstance(high, Array) else low, "high - low", np.isfinite,
                    "overflows: range exceeds valid bounds")
        shape = draw_shape(size, low, high)
        u = self._unit(shape, param_dtype(low, high))[0]
        lo, hi = param_value(low, self._device), param_value(high, self._device)
        return u * (hi - lo) + lo

    def standard_normal(self, size: Size = None, dtype: Any = None, out: Any = None) -> Array:
        """Standard normal floats (Box-Muller; ``out``: an array to fill).

        >>> import kdsl as kd
        >>> kd.random.default_rng(2).standard_normal(4).shape
        (4,)
        """
        size, dtype = out_request(out, size, dtype)
        return store_out(out, self._std_normal(draw_shape(size), draw_float_dtype(dtype, self._device)))

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Size = None) -> Array:
        """Normal floats with mean ``loc`` and standard deviation ``scale`` (``scale < 0``: ValueError)."""
        host_check(scale, "scale", lambda s: s >= 0, "< 0")
        z = self._std_normal(draw_shape(size, loc, scale), param_dtype(loc, scale))
        return z * param_value(scale, self._device) + param_value(loc, self._device)

    def standard_exponential(self, size: Size = None, dtype: Any = None, method: str = "zig",
                             out: Any = None) -> Array:
        """Exponential floats with scale 1, as ``-log(1 - u)`` (finite: ``u < 1``) for either ``method`` (NumPy's
        ``'zig'`` and ``'inv'`` name its algorithms; the law is the same); ``out``: an array to fill."""
        size, dtype = out_request(out, size, dtype)
        d = draw_float_dtype(dtype, self._device)
        return store_out(out, -km.log1p(-self._unit(draw_shape(size), d)[0]))

    def exponential(self, scale: Any = 1.0, size: Size = None) -> Array:
        """Exponential floats with mean ``scale`` (``scale < 0``: ValueError)."""
        host_check(scale, "scale", lambda s: s >= 0, "< 0")
        e = -km.log1p(-self._unit(draw_shape(size, scale), param_dtype(scale))[0])
        return e * param_value(scale, self._device)

    # ----- integers
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
        ValueError: high <= low: integers needs low < high (got low=5, high=5); pass endpoint=True for [low, high]
        """
        d = self._device.check(self._index_dtype() if dtype is None else dt.as_dtype(dtype))
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
        if not is_array_bound(lo) and not is_array_bound(hi):
            if lo < 0:
                raise ValueError("low is out of bounds for bool")
            if int(hi) - (0 if endpoint else 1) > 1:
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

    # ----- permutations and sampling
    def _perm(self, n: int) -> Array:
        """A uniformly random permutation of range(n): stable argsort of random keys (64-bit where possible)."""
        return argsort(self._bits((n,), wide=self._device.supports(dt.uint64))[0])

    def permutation(self, x: Any, axis: int = 0) -> Array:
        """``x`` an int: a random permutation of ``range(x)``; an array: a copy shuffled along ``axis``.

        >>> import kdsl as kd
        >>> sorted(kd.random.default_rng(5).permutation(kd.asarray([3.0, 1.0, 2.0])).tolist())
        [1.0, 2.0, 3.0]
        """
        if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
            if x < 0:
                raise ValueError(f"negative dimensions are not allowed (permutation({x}))")
            return self._perm(int(x)).astype(self._index_dtype())
        a = x if isinstance(x, Array) else asarray(x, device=self._device)
        if a.ndim == 0:
            raise np.exceptions.AxisError("x must be an integer or at least 1-dimensional")
        ax = axis + a.ndim if axis < 0 else axis
        if not 0 <= ax < a.ndim:
            raise np.exceptions.AxisError(axis, a.ndim)
        return take(a, self._perm(a.shape[ax]), axis=ax)

    def shuffle(self, x: Any, axis: int = 0) -> None:
        """Shuffle ``x`` in place along ``axis``: a kdsl array lazily (the write is a graph update); a NumPy array
        or a list, the host containers NumPy also shuffles, by a permutation drawn on the device and read back.

        >>> import kdsl as kd
        >>> a = kd.arange(6)
        >>> kd.random.default_rng(6).shuffle(a)
        >>> sorted(a.tolist())
        [0, 1, 2, 3, 4, 5]
        """
        if isinstance(x, Array):
            if x.ndim == 0:
                raise TypeError("shuffle needs an array of at least 1 dimension, not a 0-d array")
            x[...] = self.permutation(x, axis)
        elif isinstance(x, np.ndarray):
            if x.ndim == 0:
                raise TypeError("shuffle needs an array of at least 1 dimension, not a 0-d array")
            ax = np.lib.array_utils.normalize_axis_index(axis, x.ndim)
            x[...] = np.take(x, self._perm(x.shape[ax]).numpy(), axis=ax)
        elif isinstance(x, list):
            if axis != 0:
                raise np.exceptions.AxisError(axis, 1)
            x[:] = [x[i] for i in self._perm(len(x)).numpy().tolist()]
        else:
            raise TypeError(f"shuffle works in place on a kdsl array, a NumPy array or a list, not "
                            f"{type(x).__name__}; use permutation(x) for a shuffled copy")

    def permuted(self, x: Any, axis: int | None = None, out: Array | None = None) -> Array:
        """``x`` with each slice along ``axis`` shuffled independently (``axis=None``: all elements, as one flat
        array); ``out`` (a kdsl array, may be ``x``) receives the result in place.

        >>> import kdsl as kd
        >>> y = kd.random.default_rng(8).permuted(kd.arange(6).reshape(2, 3), axis=1)
        >>> sorted(y.tolist()[0]), sorted(y.tolist()[1])
        ([0, 1, 2], [3, 4, 5])
        """
        a = x if isinstance(x, Array) else asarray(x, device=self._device)
        if axis is None:
            flat = a.reshape(-1)
            result = take(flat, self._perm(flat.shape[0])).reshape(a.shape)
        else:
            ax = axis + a.ndim if axis < 0 else axis
            if not 0 <= ax < a.ndim:
                raise np.exceptions.AxisError(axis, a.ndim)
            keys = self._bits(a.shape, wide=self._device.supports(dt.uint64))[0]
            result = take_along_axis(a, argsort(keys, axis=ax), axis=ax)
        if out is None:
            return result
        if not isinstance(out, Array) or out.shape != a.shape:
            raise ValueError("out must be a kdsl array of the same shape as x")
        out[...] = result
        return out

    def bytes(self, length: int) -> bytes:
        """``length`` random bytes (a Python ``bytes``: the words are read back to the host).

        >>> import kdsl as kd
        >>> len(kd.random.default_rng(9).bytes(10))
        10
        """
        if length < 0:
            raise ValueError(f"negative dimensions are not allowed (bytes({length}))")
        words = self._bits(((length + 3) // 4,))[0]
        return words.numpy().astype("<u4").tobytes()[:length]

    def spawn(self, n_children: int) -> list[Generator]:
        """``n_children`` independent child generators (through the seed's ``SeedSequence.spawn``).

        >>> import kdsl as kd
        >>> a, b = kd.random.default_rng(10).spawn(2)
        >>> bool((a.random(4).numpy() != b.random(4).numpy()).any())
        True
        """
        if self._seed_seq is None:
            raise TypeError("this generator was not seeded through a SeedSequence and cannot spawn; "
                            "use kd.random.default_rng(seed).spawn(n)")
        return [Generator(child, self._device) for child in self._seed_seq.spawn(n_children)]

    def choice(self, a: Any, size: Size = None, replace: bool = True, p: Any = None, axis: int = 0,
               shuffle: bool = True) -> Array:
        """Samples of ``a`` (an int n: ``range(n)``; an array: its slices along ``axis``).

        ``p`` (read on the host to check it, as NumPy does) gives each entry's probability; zero-probability
        entries are never drawn. Without replacement the samples are distinct entries.

        >>> import kdsl as kd
        >>> kd.random.default_rng(7).choice(3, size=4, p=[0.0, 1.0, 0.0]).tolist()
        [1, 1, 1, 1]
        """
        pop, n, axis = _population(a, self._device, axis)
        shape = draw_shape(size)
        k = math.prod(shape)
        if n == 0 and k > 0:
            raise ValueError("a cannot be empty unless no samples are taken")
        probs = None if p is None else _check_p(p, n)
        if not replace:
            if k > n:
                raise ValueError("Cannot take a larger sample than population when replace=False")
            if probs is not None and np.count_nonzero(probs) < k:
                raise ValueError("Fewer non-zero entries in p than size")
        idx = self._choice_indices(n, k, replace, probs).reshape(shape)
        return idx.astype(self._index_dtype()) if pop is None else take(pop, idx, axis=axis)

    def _choice_indices(self, n: int, k: int, replace: bool, probs: np.ndarray | None) -> Array:
        fd = dt.float64 if self._device.supports(dt.float64) else dt.float32
        if replace and probs is None:
            return self.integers(0, n, size=k) if k else full((0,), 0, self._index_dtype(), device=self._device)
        if replace:
            assert probs is not None
            cdf = np.cumsum(probs)
            cdf /= cdf[-1]
            cdf[np.flatnonzero(probs)[-1]:] = 1.0  # u < 1: rounding can never select a trailing zero entry
            table = asarray(cdf, dtype=fd, device=self._device)
            return searchsorted(table, self._unit((k,), fd)[0], side="right")
        if probs is None:
            return self._perm(n)[:k]
        keys = -km.log1p(-self._unit((n,), fd)[0]) / asarray(probs, dtype=fd, device=self._device)  # p=0: inf
        return argsort(keys)[:k]


def _int_bounds(low: Any, high: Any, endpoint: bool) -> tuple[int, int]:
    """(low, exclusive high) as Python ints, with NumPy's checks."""
    for v in (low, high):
        if v is not None and (isinstance(v, (Array, bool, np.bool_)) or not isinstance(v, (int, np.integer))):
            raise TypeError(f"integers takes ints or arrays of ints for low and high, not {v!r}")
    if high is None:
        low, high = 0, low
    low, high = int(low), int(high) + (1 if endpoint else 0)
    if high <= low:
        shown = high - 1 if endpoint else high
        raise ValueError(f"high <= low: integers needs low < high (got low={low}, high={shown}); "
                         "pass endpoint=True for [low, high]")
    return low, high


def _tries(span: int, bits: int) -> int:
    """Candidates needed so that all being rejected has probability <= 2**-64 (1 for powers of two)."""
    rejected = ((1 << bits) % span) / (1 << bits)
    if rejected == 0.0:
        return 1
    return min(64, max(1, math.ceil(64 / -math.log2(rejected))))


def _population(a: Any, device, axis: int) -> tuple[Array | None, int, int]:
    """(the population array or None for ``range(a)``, its length along ``axis``, ``axis`` normalised)."""
    a = host_length(a)  # choice(k) with k = y.max() + 1: a count, as NumPy's scalar
    if isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_)):
        if a < 0:
            raise ValueError(f"a must be a positive integer unless no samples are taken (got {a})")
        return None, int(a), 0
    pop = a if isinstance(a, Array) else asarray(a, device=device)
    if pop.ndim == 0:
        raise ValueError("a must be a positive integer or an array of at least 1 dimension")
    ax = np.lib.array_utils.normalize_axis_index(axis, pop.ndim)
    return pop, pop.shape[ax], ax


def _check_p(p: Any, n: int) -> np.ndarray:
    probs = np.asarray(p.numpy() if isinstance(p, Array) else p, dtype=np.float64)
    if probs.ndim != 1:
        raise ValueError("p must be 1-dimensional")
    if probs.shape[0] != n:
        raise ValueError(f"a and p must have same size (a has {n} entries, p {probs.shape[0]})")
    if not np.isfinite(probs).all() or (probs < 0).any():
        raise ValueError("probabilities are not non-negative (or not finite)")
    if abs(probs.sum() - 1.0) > math.sqrt(np.finfo(np.float64).eps):
        raise ValueError(f"probabilities do not sum to 1 (they sum to {probs.sum()!r})")
    return probs


def default_rng(seed: Any = None, device: Any = None) -> Generator:
    """A new :class:`Generator` (``seed``: None for fresh OS entropy, an int >= 0, a sequence of ints, a
    ``numpy.random.SeedSequence``, or a Generator, returned as is).

    >>> import kdsl as kd
    >>> rng = kd.random.default_rng(0)
    >>> kd.random.default_rng(rng) is rng
    True
    """
    if isinstance(seed, Generator):
        return seed
    return Generator(seed, device)
