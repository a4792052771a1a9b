"""Activation functions and the softmax family, as lazy kdsl expressions (each fuses into its neighbours).

``erf`` is the core's ``kd.erf`` (one op: ``kdsl.codegen.erf``), so ``gelu`` is a handful of graph nodes.

Example:
    >>> import kdsl as kd, numpy as np
    >>> x = kd.asarray(np.array([-1.0, 0.0, 2.0], dtype=np.float32))
    >>> kd.nn.relu(x).numpy()
    array([0., 0., 2.], dtype=float32)
    >>> np.round(kd.nn.softmax(x).numpy(), 4)
    array([0.042 , 0.1142, 0.8438], dtype=float32)
"""

from __future__ import annotations

import math

import numpy as np

import kdsl as kd

__all__ = ["erf", "relu", "gelu", "silu", "sigmoid", "tanh", "softmax", "log_softmax", "leaky_relu"]


def erf(x: kd.Array) -> kd.Array:
    """The error function, elementwise: one op of the graph (``kdsl.codegen.erf``: within 4e-7 relative and
    2e-7 absolute of ``math.erf`` in float32, 2e-15 relative in float64); NaN stays NaN, ``erf(+-inf)`` is
    ``+-1``. Integer input gives a float (as ``kd.exp``); complex input raises TypeError.

    >>> import kdsl as kd, numpy as np
    >>> np.round(kd.nn.erf(kd.asarray(np.array([-2.0, 0.0, 0.5], np.float32))).numpy(), 6)
    array([-0.995322,  0.      ,  0.5205  ], dtype=float32)
    """
    return kd.erf(kd.asarray(x))


def relu(x: kd.Array) -> kd.Array:
    """``max(x, 0)``; NaN stays NaN (PyTorch's convention)."""
    x = kd.asarray(x)
    # maximum with a scalar keeps NaN and gives the tie at 0 to the scalar (relu'(0) = 0); unlike a pair of
    # where()s it leaves no masks for the backward pass to keep (one kernel forward, one fused in backward)
    return kd.maximum(x, 0).astype(x.dtype)


def leaky_relu(x: kd.Array, negative_slope: float = 0.01) -> kd.Array:
    """``x`` where positive, ``negative_slope * x`` elsewhere."""
    x = kd.asarray(x)
    return kd.where(x > 0, x, x * negative_slope).astype(x.dtype)


def gelu(x: kd.Array, approximate: str = "none") -> kd.Array:
    """Gaussian error linear unit: ``x * Phi(x)`` (``approximate="none"``, with :func:`erf`) or PyTorch's tanh
    approximation (``approximate="tanh"``).

    >>> import kdsl as kd, numpy as np
    >>> np.round(kd.nn.gelu(kd.asarray(np.array([-1.0, 1.0], np.float32))).numpy(), 5)
    array([-0.15866,  0.84134], dtype=float32)
    """
    x = kd.asarray(x)
    if approximate == "none":
        return x * 0.5 * (1.0 + erf(x * (1.0 / math.sqrt(2.0))))
    if approximate == "tanh":
        # 0.5 * (1 + tanh(z)) == sigmoid(2 z), z = sqrt(2 / pi) * (x + 0.044715 x^3): the same function with
        # fewer intermediates for the backward pass to keep (4 kernels for value and gradient instead of 7),
        # and no cancellation in 1 + tanh(z) for negative x
        a = 2.0 * math.sqrt(2.0 / math.pi)
        return x * kd.sigmoid(x * (a + (a * 0.044715) * (x * x)))
    raise ValueError(f"approximate must be 'none' or 'tanh', got {approximate!r}")


def sigmoid(x: kd.Array) -> kd.Array:
    """``1 / (1 + exp(-x))``."""
    return kd.sigmoid(kd.asarray(x))


def tanh(x: kd.Array) -> kd.Array:
    """Hyperbolic tangent."""
    return kd.tanh(kd.asarray(x))


def silu(x: kd.Array) -> kd.Array:
    """``x * sigmoid(x)`` (also called swish)."""
    x = kd.asarray(x)
    return x * kd.sigmoid(x)


def _check_axis(x: kd.Array, axis: int) -> int:
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"axis must be an int, got {type(axis).__name__} {axis!r}")
    if not -x.ndim <= axis < max(x.ndim, 1):
        raise ValueError(f"axis {axis} is out of bounds for an array of {x.ndim} dimensions")
    return axis


def _shift(x: kd.Array, axis: int) -> kd.Array:
    """The row maximum that softmax subtracts for range, as a constant to autodiff: the result does not depend
    on it (its true derivative is 0), so its backward pass (a tie mask and counts) would only add kernels and
    rounding."""
    return kd.stop_gradient(kd.max(x, axis=axis, keepdims=True))


def softmax(x: kd.Array, axis: int = -1) -> kd.Array:
    """``exp(x) / sum(exp(x))`` along ``axis``, shifted by the maximum so that large inputs do not overflow.

    >>> import kdsl as kd
    >>> kd.nn.softmax(kd.asarray([1000.0, 1000.0])).numpy()
    array([0.5, 0.5], dtype=float32)
    """
    x = kd.asarray(x)
    _check_axis(x, axis)
    e = kd.exp(x - _shift(x, axis))
    return e / kd.sum(e, axis=axis, keepdims=True)


def log_softmax(x: kd.Array, axis: int = -1) -> kd.Array:
    """``log(softmax(x))`` computed as ``x - max - log(sum(exp(x - max)))`` (no log of zero).

    >>> import kdsl as kd
    >>> kd.nn.log_softmax(kd.asarray([0.0, 0.0])).numpy()
    array([-0.6931472, -0.6931472], dtype=float32)
    """
    x = kd.asarray(x)
    _check_axis(x, axis)
    shifted = x - _shift(x, axis)
    return shifted - kd.log(kd.sum(kd.exp(shifted), axis=axis, keepdims=True))
