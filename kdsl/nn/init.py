"""Parameter initialisers with PyTorch's formulas (``torch.nn.init``), drawn lazily on the device. Each takes
the ``shape`` to create and a ``key`` (an int seed, a ``kd.random.Generator`` or None for the global stream)
and returns a new array, instead of filling a tensor in place.

Fans follow PyTorch: for a weight of shape ``(out, in, *kernel)``, ``fan_in = in * prod(kernel)`` and
``fan_out = out * prod(kernel)``.

Example:
    >>> import kdsl as kd
    >>> w = kd.nn.init.kaiming_uniform((64, 32), a=5 ** 0.5, key=0)   # nn.Linear's default weight
    >>> w.shape, bool(abs(w).max() <= 1 / 32 ** 0.5)
    ((64, 32), True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import kdsl as kd
from kdsl.nn.dropout import rng_of

__all__ = ["calculate_gain", "fans", "uniform", "normal", "zeros", "ones", "constant", "xavier_uniform",
           "xavier_normal", "kaiming_uniform", "kaiming_normal"]

Key = int | kd.random.Generator | None
Shape = int | Sequence[int]

_LINEAR = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
           "sigmoid")


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """PyTorch's recommended gain for a nonlinearity.

    >>> from kdsl.nn.init import calculate_gain
    >>> round(calculate_gain("relu"), 4), round(calculate_gain("leaky_relu", 0.2), 4)
    (1.4142, 1.3868)
    """
    if nonlinearity in _LINEAR:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"unsupported nonlinearity {nonlinearity!r}")


def _shape(shape: Shape) -> tuple[int, ...]:
    return (shape,) if isinstance(shape, int) else tuple(int(s) for s in shape)


def fans(shape: Shape) -> tuple[int, int]:
    """``(fan_in, fan_out)`` of a weight shape (at least 2-d, as PyTorch requires)."""
    s = _shape(shape)
    if len(s) < 2:
        raise ValueError(f"fan in and fan out need a weight of at least 2 dimensions, got shape {s}")
    receptive = math.prod(s[2:])
    return s[1] * receptive, s[0] * receptive


def _draw_dtype(dtype) -> kd.DType:
    return kd.float64 if kd.dtype.as_dtype(dtype) == kd.float64 else kd.float32  # float16: drawn in float32


def uniform(shape: Shape, a: float = 0.0, b: float = 1.0, key: Key = None, dtype=kd.float32) -> kd.Array:
    """Uniform in ``[a, b)``."""
    rng, d = rng_of(key, None), _draw_dtype(dtype)
    u = kd.random.random(_shape(shape), dtype=d) if rng is None else rng.random(_shape(shape), dtype=d)
    return (u * (b - a) + a).astype(dtype)


def normal(shape: Shape, mean: float = 0.0, std: float = 1.0, key: Key = None, dtype=kd.float32) -> kd.Array:
    """Normal with mean ``mean`` and standard deviation ``std``."""
    rng, d = rng_of(key, None), _draw_dtype(dtype)
    size = _shape(shape)
    z = kd.random.standard_normal(size, dtype=d) if rng is None else rng.standard_normal(size, dtype=d)
    return (z * std + mean).astype(dtype)


def zeros(shape: Shape, dtype=kd.float32) -> kd.Array:
    """Zeros (biases, and PyTorch's ``zeros_``)."""
    return kd.zeros(_shape(shape), dtype=dtype)


def ones(shape: Shape, dtype=kd.float32) -> kd.Array:
    """Ones (normalisation weights)."""
    return kd.ones(_shape(shape), dtype=dtype)


def constant(shape: Shape, value: float, dtype=kd.float32) -> kd.Array:
    """Every element ``value``."""
    return kd.full(_shape(shape), value, dtype=dtype)


def xavier_uniform(shape: Shape, gain: float = 1.0, key: Key = None, dtype=kd.float32) -> kd.Array:
    """Glorot uniform: ``U(-b, b)``, ``b = gain * sqrt(6 / (fan_in + fan_out))``."""
    fan_in, fan_out = fans(shape)
    bound = gain * math.sqrt(6.0 / (fan_in + fan_out))
    return uniform(shape, -bound, bound, key, dtype)


def xavier_normal(shape: Shape, gain: float = 1.0, key: Key = None, dtype=kd.float32) -> kd.Array:
    """Glorot normal: ``N(0, std^2)``, ``std = gain * sqrt(2 / (fan_in + fan_out))``."""
    fan_in, fan_out = fans(shape)
    return normal(shape, 0.0, gain * math.sqrt(2.0 / (fan_in + fan_out)), key, dtype)


def _kaiming_std(shape: Shape, a: float, mode: str, nonlinearity: str) -> float:
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"mode must be 'fan_in' or 'fan_out', got {mode!r}")
    fan_in, fan_out = fans(shape)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan_in if mode == "fan_in" else fan_out)


def kaiming_uniform(shape: Shape, a: float = 0.0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                    key: Key = None, dtype=kd.float32) -> kd.Array:
    """He uniform: ``U(-b, b)``, ``b = gain * sqrt(3 / fan)`` (``a``: the leaky_relu slope)."""
    bound = math.sqrt(3.0) * _kaiming_std(shape, a, mode, nonlinearity)
    return uniform(shape, -bound, bound, key, dtype)


def kaiming_normal(shape: Shape, a: float = 0.0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                   key: Key = None, dtype=kd.float32) -> kd.Array:
    """He normal: ``N(0, std^2)``, ``std = gain / sqrt(fan)``."""
    return normal(shape, 0.0, _kaiming_std(shape, a, mode, nonlinearity), key, dtype)
