"""``kd.random``: NumPy's ``numpy.random`` on a counter-based generator (Philox4x32-10) evaluated in the kernels.

Element ``i`` of a draw is ``philox(counter=(i, stream), key=seed)``: no state lives on the device, the same seed
gives the same arrays on every kdsl device and run (not NumPy's numbers: NumPy's legacy generator is a Mersenne
Twister), and a draw fuses into its consumer like any elementwise op. Each call takes the next stream, so
successive calls differ; :func:`seed` restarts the sequence.

* the legacy module functions (``rand``, ``randn``, ``randint``, ``random_sample``, ``choice``, ``shuffle``,
  the distributions, ``get_state``/``set_state``) draw from one global :class:`RandomState`
  (:mod:`legacy_random`); ``uniform``, ``random``, ``normal``, ``standard_normal`` and ``integers`` also take
  kdsl's ``dtype=`` and ``device=``;
* ``default_rng(seed)`` gives a :class:`Generator` (:mod:`generator`), NumPy's newer API.

Example:
    >>> import kdsl as kd
    >>> kd.random.seed(7); a = kd.random.uniform(size=3).numpy()
    >>> kd.random.seed(7); b = kd.random.uniform(size=3).numpy()
    >>> bool((a == b).all()) and bool(((a >= 0) & (a < 1)).all())
    True
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.generator import Generator, default_rng
from kdsl.frontend.array.legacy_random import PhiloxState, RandomState, float_dtype, global_state
from kdsl.frontend.array.random_draws import draw_shape, host_nonnegative, param_operand

__all__ = [
    "BitGenerator", "Generator", "MT19937", "PCG64", "PCG64DXSM", "Philox", "PhiloxState", "RandomState", "SFC64",
    "SeedSequence", "beta", "binomial", "bytes", "chisquare", "choice", "default_rng",
    "dirichlet", "exponential", "f", "gamma", "geometric", "get_state", "gumbel", "hypergeometric", "integers",
    "laplace", "logistic", "lognormal", "logseries", "multinomial", "multivariate_normal", "negative_binomial",
    "noncentral_chisquare", "noncentral_f", "normal", "pareto", "permutation", "poisson", "power", "rand",
    "randint", "randn", "random", "random_integers", "random_sample", "ranf", "rayleigh", "sample", "seed",
    "set_state", "shuffle", "standard_cauchy", "standard_exponential", "standard_gamma", "standard_normal",
    "standard_t", "triangular", "uniform", "vonmises", "wald", "weibull", "zipf",
]

# NumPy's seeding classes, accepted as seeds (``default_rng(PCG64(1))``): kdsl keeps their SeedSequence and draws
# from its own Philox counter generator, so a bit generator's algorithm and state are not used.
SeedSequence = np.random.SeedSequence
BitGenerator, MT19937, PCG64, PCG64DXSM, Philox, SFC64 = (
    np.random.BitGenerator, np.random.MT19937, np.random.PCG64, np.random.PCG64DXSM, np.random.Philox,
    np.random.SFC64)

_STATE = global_state()


def seed(seed: Any = None) -> None:
    """Restart the global sequence from ``seed`` (an int in [0, 2**64); None, the default: fresh OS entropy, as
    NumPy's ``seed()``; a sequence of ints).

    >>> import kdsl as kd
    >>> kd.random.seed(-1)
    Traceback (most recent call last):
    ...
    ValueError: Seed must be between 0 and 2**64 - 1 (got -1)
    """
    _STATE.seed(seed)


def get_state(legacy: bool = True) -> PhiloxState:
    """The global generator's :class:`PhiloxState` (not NumPy's Mersenne Twister tuple)."""
    return _STATE.get_state(legacy)


def set_state(state: PhiloxState) -> None:
    """Restore the global generator from :func:`get_state`."""
    _STATE.set_state(state)


def uniform(low: Any = 0.0, high: Any = 1.0, size: Any = None, dtype: Any = float, device: Any = None) -> Array:
    """Uniform floats in [low, high) (float32 unless ``dtype``; ``low``/``high`` broadcast).

    >>> import kdsl as kd
    >>> kd.random.uniform([0.0, 10.0], 11.0).shape
    (2,)
    """
    d = float_dtype(dtype)
    with _STATE._on(device) as s:
        s._check_uniform_range(low, high)  # NumPy's legacy OverflowError for a range that is not finite
        u = s._unit(draw_shape(size, low, high), s._device.check(d))[0]
        if (not isinstance(low, Array) and not isinstance(high, Array)) and (low, high) == (0.0, 1.0):
            return u
        lo, hi = param_operand(low, d, s._device), param_operand(high, d, s._device)
        return u * (hi - lo) + lo


def random(size: Any = None, dtype: Any = float, device: Any = None) -> Array:
    """Uniform floats in [0, 1)."""
    return uniform(0.0, 1.0, size, dtype, device)


def random_sample(size: Any = None) -> Array:
    """Uniform floats in [0, 1) (NumPy's legacy name; also ``ranf`` and ``sample``)."""
    return _STATE.random_sample(size)


ranf = sample = random_sample


def normal(loc: Any = 0.0, scale: Any = 1.0, size: Any = None, dtype: Any = float, device: Any = None) -> Array:
    """Normally distributed floats (Box-Muller on Philox output); ``scale < 0`` raises ValueError."""
    d = float_dtype(dtype)
    with _STATE._on(device) as s:
        if isinstance(scale, (int, float)) and scale < 0:
            raise ValueError(f"scale < 0: normal's scale is a standard deviation, got {scale}")
        host_nonnegative(scale, "scale")  # NumPy's check, a kdsl array's values included (read back)
        z = s._std_normal(draw_shape(size, loc, scale), s._device.check(d))
        if not isinstance(loc, Array) and not isinstance(scale, Array) and (loc, scale) == (0.0, 1.0):
            return z
        return z * param_operand(scale, d, s._device) + param_operand(loc, d, s._device)


def standard_normal(size: Any = None, dtype: Any = float, device: Any = None) -> Array:
    """Standard normal floats."""
    return normal(0.0, 1.0, size, dtype, device)


def integers(low: int, high: int | None = None, size: Any = None, dtype: Any = int, device: Any = None) -> Array:
    """Random ints in [low, high) (``integers(n)``: [0, n)); int32 (kdsl's default int) unless ``dtype``."""
    with _STATE._on(device) as s:
        return s.integers(low, high, size, dt.as_dtype(dtype))


def rand(*dims: int) -> Array:
    """Floats uniform in [0, 1) of shape ``dims``."""
    return _STATE.rand(*dims)


def randn(*dims: int) -> Array:
    """Standard normal floats of shape ``dims``."""
    return _STATE.randn(*dims)


def randint(low: int, high: int | None = None, size: Any = None, dtype: Any = None) -> Array:
    """Integers in [low, high) (int64 by default, as NumPy's)."""
    return _STATE.randint(low, high, size, dtype)


def _bound(name: str) -> Any:
    """The global generator's method ``name`` as a module function (looked up at each call)."""
    method = getattr(RandomState, name)

    def fn(*args: Any, **kwargs: Any) -> Any:
        return getattr(_STATE, name)(*args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"{(method.__doc__ or '').strip().splitlines()[0]} (from the global generator)"
    fn.__module__ = __name__
    sig = inspect.signature(method)  # the method's parameters, less self: what a call may pass
    fn.__signature__ = sig.replace(parameters=list(sig.parameters.values())[1:])  # type: ignore[attr-defined]
    return fn


choice = _bound("choice")
permutation = _bound("permutation")
shuffle = _bound("shuffle")
bytes = _bound("bytes")  # noqa: A001 - NumPy's name
exponential = _bound("exponential")
standard_exponential = _bound("standard_exponential")
poisson = _bound("poisson")
binomial = _bound("binomial")
multinomial = _bound("multinomial")
geometric = _bound("geometric")
gamma = _bound("gamma")
standard_gamma = _bound("standard_gamma")
beta = _bound("beta")
chisquare = _bound("chisquare")
standard_t = _bound("standard_t")
dirichlet = _bound("dirichlet")
lognormal = _bound("lognormal")
laplace = _bound("laplace")
logistic = _bound("logistic")
gumbel = _bound("gumbel")
standard_cauchy = _bound("standard_cauchy")
rayleigh = _bound("rayleigh")
weibull = _bound("weibull")
pareto = _bound("pareto")
power = _bound("power")
triangular = _bound("triangular")
multivariate_normal = _bound("multivariate_normal")
f = _bound("f")
wald = _bound("wald")
negative_binomial = _bound("negative_binomial")
hypergeometric = _bound("hypergeometric")
noncentral_chisquare = _bound("noncentral_chisquare")
noncentral_f = _bound("noncentral_f")
vonmises = _bound("vonmises")
zipf = _bound("zipf")
logseries = _bound("logseries")
random_integers = _bound("random_integers")
