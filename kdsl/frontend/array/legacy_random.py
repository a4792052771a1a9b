"""NumPy's legacy random API: ``kd.random.RandomState`` and the module functions ``kd.random.rand`` etc.

``RandomState(seed)`` has NumPy's ``RandomState`` methods (``rand``, ``randn``, ``randint``, ``random_sample``,
``seed``, ``get_state``/``set_state`` and every distribution) on kdsl's counter-based Philox generator; the module
functions all draw from one global ``RandomState`` that ``kd.random.seed(s)`` resets, so the same seed replays the
same sequence. The streams are not NumPy's (NumPy's legacy generator is a Mersenne Twister): the same seed gives
the same numbers on every kdsl device, different numbers from NumPy's.

The seed is the Philox key itself (an int in [0, 2**64); a sequence of ints goes through ``SeedSequence``; None
takes OS entropy), so ``kd.random.seed(s)`` and ``RandomState(s)`` give the same sequence.
``get_state()`` returns a :class:`PhiloxState` ``(key, stream)``, not NumPy's Mersenne Twister tuple, and
``set_state`` takes one back.

The global generator follows the current default device (``kd.set_device``) at each call; a ``RandomState`` made
with ``device=`` stays on that device.

Example:
    >>> import kdsl as kd
    >>> kd.random.seed(3); a = kd.random.rand(2, 3).numpy()
    >>> kd.random.seed(3); b = kd.random.rand(2, 3).numpy()
    >>> bool((a == b).all()), a.shape
    (True, (2, 3))
    >>> state = kd.random.get_state(); x = kd.random.randn(4).numpy()
    >>> kd.random.set_state(state); bool((kd.random.randn(4).numpy() == x).all())
    True
"""

from __future__ import annotations

import sys
import warnings
from contextlib import contextmanager
from typing import Any, NamedTuple

import numpy as np

from kdsl import dtype as dt
from kdsl.device import device as current_device
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.generator import Generator
from kdsl.frontend.array.random_draws import Size, host_param, host_span


class PhiloxState(NamedTuple):
    """The whole state of a kdsl random generator: the Philox key and the next stream (not NumPy's Mersenne
    Twister state, which kdsl does not have)."""

    key: int
    stream: int


def _legacy_key(seed: Any) -> int:
    """The Philox key of a legacy seed: an int is the key itself; None is OS entropy; a sequence of ints goes
    through ``SeedSequence``."""
    if seed is None:
        return int(np.random.SeedSequence().generate_state(2, np.uint64)[0])
    if isinstance(seed, np.random.BitGenerator):  # RandomState(PCG64(s)): its seed, kdsl's Philox
        seed = seed.seed_seq
    if isinstance(seed, np.random.SeedSequence):
        return int(seed.generate_state(2, np.uint64)[0])
    if isinstance(seed, (bool, np.bool_, float, np.floating)):
        raise TypeError(f"Cannot cast scalar {seed!r} to an integer seed: pass an int in [0, 2**64)")
    if isinstance(seed, (int, np.integer)):
        if not 0 <= int(seed) < 1 << 64:
            raise ValueError(f"Seed must be between 0 and 2**64 - 1 (got {seed})")
        return int(seed)
    return _words_key(np.asarray(seed))


def _words_key(words: np.ndarray) -> int:
    """The Philox key of a legacy seed array, checked as NumPy's RandomState checks it: 32-bit words, 1-d.

    >>> _words_key(np.array([1, 2**32]))
    Traceback (most recent call last):
    ...
    ValueError: Seed must be between 0 and 2**32 - 1
    """
    if words.size == 0:
        raise ValueError("Seed must be non-empty")
    if words.dtype.kind not in "biu":  # NumPy casts the words to int64 under 'safe': floats, strings, objects fail
        raise TypeError(f"Cannot cast array data from {words.dtype!r} to dtype('int64') according to the rule "
                        "'safe'")
    if words.ndim != 1:
        raise ValueError("Seed array must be 1-d")
    if (words < 0).any() or (words > 0xFFFFFFFF).any():
        raise ValueError("Seed must be between 0 and 2**32 - 1")
    state = np.random.SeedSequence([int(w) for w in words]).generate_state(2, np.uint32)
    return int(state[0]) | int(state[1]) << 32


class RandomState(Generator):
    """NumPy's legacy ``RandomState`` on kdsl's Philox generator (module docstring); it also has every
    :class:`Generator` method.

    Example:
        >>> import kdsl as kd
        >>> rs = kd.random.RandomState(5)
        >>> rs.randint(0, 3, size=6).dtype.name, rs.rand(2).shape
        ('int64', (2,))
    """

    def __init__(self, seed: Any = None, device: Any = None) -> None:
        self._fixed = None if device is None else current_device(device)
        self._override: Any = None
        self._tables: dict[tuple, Any] = {}
        self._seed_seq = None
        self.seed(seed)

    @property
    def _device(self):
        return current_device(self._override if self._override is not None else self._fixed)

    @contextmanager
    def _on(self, device: Any):
        """Draws inside go to ``device`` (the module functions' ``device=`` argument)."""
        saved, self._override = self._override, device
        try:
            yield self
        finally:
            self._override = saved

    def __repr__(self) -> str:
        return f"RandomState(PhiloxCounter, key={self._key:#x}, stream={self._stream})"

    def seed(self, seed: Any = None) -> None:
        """Restart from ``seed`` (an int in [0, 2**64) is the key; None: OS entropy; a sequence of ints)."""
        self._key, self._stream = _legacy_key(seed), 0

    def get_state(self, legacy: bool = True) -> PhiloxState:
        """The generator's :class:`PhiloxState` ``(key, stream)`` (not NumPy's Mersenne Twister tuple)."""
        return PhiloxState(self._key, self._stream)

    def set_state(self, state: PhiloxState) -> None:
        """Restore a state from :meth:`get_state`."""
        if not isinstance(state, PhiloxState):
            raise TypeError("set_state takes the kd.random.PhiloxState that get_state returned; kdsl draws from "
                            "Philox, so NumPy's Mersenne Twister states do not apply")
        self._key, self._stream = int(state.key), int(state.stream)

    def _check_uniform_range(self, low: Any, high: Any) -> None:
        """NumPy's legacy ``uniform`` takes ``high < low`` (it draws in (high, low]); a range that is not finite
        is its OverflowError."""
        span = host_span(low, high)
        if span is not None and not np.isfinite(span).all():
            raise OverflowError("Range exceeds valid bounds")

    def random_sample(self, size: Size = None) -> Array:
        """Floats uniform in [0, 1) (float32, kdsl's default float)."""
        return self.random(size)

    def rand(self, *dims: int) -> Array:
        """Floats uniform in [0, 1) of shape ``dims`` (``rand()``: a 0-d array)."""
        return self.random(dims if dims else None)

    def randn(self, *dims: int) -> Array:
        """Standard normal floats of shape ``dims``."""
        return self.standard_normal(dims if dims else None)

    def randint(self, low: int, high: int | None = None, size: Size = None, dtype: Any = None) -> Array:
        """Integers in [low, high) (``randint(n)``: [0, n)); int64 by default, as NumPy's.

        >>> import kdsl as kd
        >>> kd.random.RandomState(0).randint(5, 5)
        Traceback (most recent call last):
        ...
        ValueError: low >= high (got low=5, high=5)
        """
        lo, hi = (0, low) if high is None else (low, high)
        if isinstance(lo, (int, np.integer)) and isinstance(hi, (int, np.integer)) and lo >= hi:
            raise ValueError(f"low >= high (got low={lo}, high={hi})")
        return self.integers(low, high, size, dtype)

    # NumPy's legacy signature: narrower than the Generator's (no axis, shuffle)
    def choice(self, a: Any, size: Size = None, replace: bool = True,  # type: ignore[override]
               p: Any = None) -> Array:
        """Samples of ``a`` (an int n: ``range(n)``; a 1-d array), NumPy's legacy signature: no ``axis`` or
        ``shuffle``, and an ``a`` of more dimensions is NumPy's ValueError (the Generator's takes its rows)."""
        if _ndim(a) > 1:
            raise ValueError("a must be 1-dimensional")
        return super().choice(a, size, replace, p)

    def multinomial(self, n: Any, pvals: Any, size: Size = None) -> Array:
        """Counts of ``n`` trials over ``len(pvals)`` categories; the legacy ``pvals`` is one 1-d sequence
        (NumPy's TypeError for a scalar, ValueError for more dimensions: rows are the Generator's)."""
        if _ndim(pvals) == 0:
            raise TypeError("pvals must be a 1-d sequence")
        if _ndim(pvals) > 1:
            raise ValueError("pvals must be a 1-d sequence: the legacy multinomial takes one set of "
                             "probabilities (Generator.multinomial broadcasts rows of them)")
        return super().multinomial(n, pvals, size)

    _EMPTY_PVALS_OK = True  # multinomial(n, []): shape size + (0,), as NumPy's RandomState

    _LEGACY_HYPERGEOMETRIC = True  # nsample >= 1 and no 10**9 bound on ngood, nbad

    def _check_negative_binomial(self, n: Any, p: Any) -> None:
        """The legacy API's checks: ``p`` in [0, 1] (the Generator's excludes 0)."""
        if not (np.asarray(host_param(n), dtype=float) > 0).all():
            raise ValueError("n <= 0")
        hp = np.asarray(host_param(p), dtype=float)
        if not ((hp >= 0) & (hp <= 1)).all():
            raise ValueError("p < 0, p > 1 or p is NaN")

    def random_integers(self, low: int, high: int | None = None, size: Size = None) -> Array:
        """Integers in the closed interval [low, high] (``high=None``: [1, low]), int64; deprecated in NumPy
        (a ``DeprecationWarning`` says to use ``randint(low, high + 1)``, as NumPy's does).

        >>> import kdsl as kd, warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     sorted(set(kd.random.RandomState(0).random_integers(3, size=100).tolist()))
        [1, 2, 3]
        """
        lo, hi = (1, low) if high is None else (low, high)
        warnings.warn("This function is deprecated. Please call randint("
                      f"{lo}, {hi} + 1) instead", DeprecationWarning, stacklevel=2)
        return self.randint(lo, int(hi) + 1, size)

    def tomaxint(self, size: Size = None) -> Array:
        """Integers uniform in [0, sys.maxsize], int64.

        >>> import kdsl as kd
        >>> kd.random.RandomState(0).tomaxint(4).dtype.name
        'int64'
        """
        return self.randint(0, sys.maxsize + 1, size, dt.int64)

    def dirichlet(self, alpha: Any, size: Size = None) -> Array:
        """Dirichlet floats; the legacy API rejects ``alpha <= 0`` (the Generator allows zeros)."""
        if (np.asarray(host_param(alpha), dtype=float) <= 0).any():
            raise ValueError("alpha <= 0")
        return super().dirichlet(alpha, size)


_GLOBAL = RandomState(None)  # seeded from OS entropy at import, as NumPy's global generator


def _ndim(x: Any) -> int:
    """Dimensions of an array argument without reading a kdsl array back."""
    return x.ndim if isinstance(x, Array) else np.ndim(x)


def global_state() -> RandomState:
    """The ``RandomState`` behind the module functions (``kd.random.rand`` ...)."""
    return _GLOBAL


def float_dtype(dtype: Any) -> dt.DType:
    """The module functions' ``dtype=`` (float32 for Python's ``float``, kdsl's default float)."""
    d = dt.as_dtype(dtype)
    if not d.is_float:
        raise TypeError(f"this draws floats; got dtype {d.name} (use integers() or randint() for ints)")
    return d
