"""Random numbers from a counter-based generator (Philox4x32-10) evaluated inside the kernels.

Element ``i`` of a draw is ``philox(counter=(i, stream), key=seed)``: no state lives on the device, the same
seed gives the same arrays on every device and run, and a draw fuses into its consumer like any elementwise
op. Each call takes the next stream, so successive calls differ; :func:`seed` restarts the sequence.
``integers`` reduces 32 random bits modulo the range (bias below 2**-32 * range).

Example:
    >>> import kdsl as kd
    >>> kd.random.seed(7); a = kd.random.uniform(size=3).numpy()
    >>> kd.random.seed(7); b = kd.random.uniform(size=3).numpy()
    >>> bool((a == b).all()) and bool(((a >= 0) & (a < 1)).all())
    True
"""

from __future__ import annotations

from kdsl import dtype as dt
from kdsl.device import device as current_device
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_shape
from kdsl.frontend.array.generator import Generator, default_rng
from kdsl.ir.graph import Node

__all__ = ["Generator", "default_rng", "integers", "normal", "random", "seed", "standard_normal", "uniform"]

_state = {"seed": 0, "stream": 0}


def seed(value: int = 0) -> None:
    """Restart the random sequence from ``value`` (any non-negative int below 2**64)."""
    if not isinstance(value, int) or value < 0 or value >= 1 << 64:
        raise ValueError(f"seed must be an int in [0, 2**64), got {value!r}")
    _state["seed"], _state["stream"] = value, 0


def _draw(dist: str, size, dtype: dt.DType, device) -> Array:
    shape = () if size is None else as_shape(size)
    dev = current_device(device)
    s = _state["seed"]
    key = (dist, s & 0xFFFFFFFF, s >> 32, _state["stream"])
    _state["stream"] += 1
    return Array(Node("rand", (), dtype, shape, key, device=dev))


def uniform(low=0.0, high=1.0, size=None, dtype=float, device=None) -> Array:
    """Uniform floats in [low, high)."""
    d = dt.as_dtype(dtype)
    if not d.is_float:
        raise TypeError(f"uniform draws floats; got dtype {d.name} (use integers() for ints)")
    u = _draw("uniform", size, d, device)
    return u if (low, high) == (0.0, 1.0) else u * (high - low) + low


def random(size=None, dtype=float, device=None) -> Array:
    """Uniform floats in [0, 1)."""
    return uniform(0.0, 1.0, size, dtype, device)


def normal(loc=0.0, scale=1.0, size=None, dtype=float, device=None) -> Array:
    """Normally distributed floats (Box-Muller on Philox output)."""
    d = dt.as_dtype(dtype)
    if not d.is_float:
        raise TypeError(f"normal draws floats; got dtype {d.name}")
    if isinstance(scale, (int, float)) and scale < 0:  # an Array scale is not read here (that would sync)
        raise ValueError(f"scale < 0: normal's scale is a standard deviation, got {scale}")
    z = _draw("normal", size, d, device)
    return z if (loc, scale) == (0.0, 1.0) else z * scale + loc


def standard_normal(size=None, dtype=float, device=None) -> Array:
    return normal(0.0, 1.0, size, dtype, device)


def integers(low: int, high: int | None = None, size=None, dtype=int, device=None) -> Array:
    """Random ints in [low, high) (``integers(n)``: [0, n))."""
    if high is None:
        low, high = 0, low
    if high <= low:
        raise ValueError(f"high ({high}) must be greater than low ({low})")
    if high - low > 1 << 32:
        raise ValueError("integers: the range high - low must be at most 2**32")
    d = dt.as_dtype(dtype)
    bits = _draw("bits", size, dt.uint32, device)
    span = high - low
    offset = bits if span == 1 << 32 else bits % span
    return offset.astype(d) + low if low else offset.astype(d)
