"""``kd.random.default_rng``: NumPy's ``Generator`` API on kdsl's counter-based Philox4x32-10 generator.

Every draw is lazy and computed on the device: element ``i`` of a call's draw is
``philox(counter=(i, stream), key=seed key)``, and each call (each raw draw inside a call) takes the next stream,
so two calls differ and the same seed replays the same sequence. Nothing is read back to the host except the
parameters NumPy validates (``p`` of :meth:`Generator.choice`, a kdsl array ``scale`` of ``normal``...: NumPy
raises ValueError for invalid values).

Methods (what differs from NumPy is said in each docstring):

* ``random``: float32 from 24 random bits, float64 from 53 (two 32-bit words), in [0, 1).
* ``normal``/``standard_normal``: Box-Muller; ``exponential``/``standard_exponential``: ``-log(1 - u)``.
* ``integers``: unbiased bounded integers by modulo rejection with a bounded number of tries
  (:mod:`bounded_integers`; array bounds: :mod:`array_bound_integers`).
* ``permutation``, ``shuffle``, ``permuted``, ``choice``: random keys sorted by a stable ``kd.argsort``, inverse
  CDFs (:mod:`permutation_sampling`).
* ``poisson``, ``negative_binomial``: :mod:`poisson_sampling` (exact: a host table or PTRS rejection).

The other distributions (``gamma``, ``beta``, ``binomial``, ``lognormal``, ...) come from
:mod:`gamma_sampling`, :mod:`binomial_sampling`, :mod:`poisson_sampling`, :mod:`noncentral`,
:mod:`vonmises_sampling`, :mod:`zipf_logseries`, :mod:`hypergeometric_sampling` and :mod:`distributions`;
``random``, ``uniform``, ``normal``, ``exponential``, ``bytes`` and ``spawn`` are here. ``size=None`` gives a
0-d kdsl array (NumPy gives a Python scalar: reading it would be a host round trip).

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

from typing import Any

import numpy as np

from kdsl.device import device as current_device
from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.binomial_sampling import BinomialDistributions
from kdsl.frontend.array.distributions import TransformDistributions
from kdsl.frontend.array.hypergeometric_sampling import HypergeometricDistributions
from kdsl.frontend.array.noncentral import NoncentralDistributions
from kdsl.frontend.array.permutation_sampling import PermutationSampling
from kdsl.frontend.array.philox_bit_generator import PhiloxCounter
from kdsl.frontend.array.random_draws import (
    Size,
    draw_float_dtype,
    draw_shape,
    host_nonnegative,
    host_span,
    out_request,
    param_dtype,
    param_value,
    store_out,
)
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
                ZipfLogseriesDistributions, HypergeometricDistributions, PermutationSampling):
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
        self._check_uniform_range(low, high)
        shape = draw_shape(size, low, high)
        u = self._unit(shape, param_dtype(low, high))[0]
        lo, hi = param_value(low, self._device), param_value(high, self._device)
        return u * (hi - lo) + lo

    def _check_uniform_range(self, low: Any, high: Any) -> None:
        """NumPy's checks of ``high - low`` on host values: negative (-0.0 too): ValueError; not finite (an
        infinite bound, NaN, an overflowing difference): OverflowError. kdsl array bounds are read back for it."""
        span = host_span(low, high)
        if span is not None:
            host_nonnegative(span, "high - low")
            if not np.isfinite(span).all():
                raise OverflowError("high - low range exceeds valid bounds")

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
        host_nonnegative(scale, "scale")
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
        host_nonnegative(scale, "scale")
        e = -km.log1p(-self._unit(draw_shape(size, scale), param_dtype(scale))[0])
        return e * param_value(scale, self._device)

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

