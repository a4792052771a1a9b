"""``layer_norm`` and ``rms_norm`` over the trailing axes given by ``normalized_shape`` (PyTorch's semantics:
biased variance, ``eps`` inside the square root).

Example:
    >>> import kdsl as kd, numpy as np
    >>> y = kd.nn.layer_norm(kd.asarray([[1.0, 2.0, 3.0]]), (3,))
    >>> np.round(y.numpy(), 4) + 0.0  # + 0.0: the middle value is a rounding residue of either sign
    array([[-1.2247,  0.    ,  1.2247]], dtype=float32)
"""

from __future__ import annotations

from collections.abc import Sequence

import kdsl as kd

__all__ = ["layer_norm", "rms_norm"]


def _axes(x: kd.Array, normalized_shape: int | Sequence[int], name: str) -> tuple[int, ...]:
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    n = len(shape)
    if n == 0 or n > x.ndim or tuple(x.shape[x.ndim - n:]) != shape:
        raise ValueError(f"{name}: normalized_shape {shape} must equal the trailing axes of the input, "
                         f"whose shape is {x.shape}")
    return tuple(range(x.ndim - n, x.ndim))


def _check_affine(shape: tuple[int, ...], weight: kd.Array | None, bias: kd.Array | None, name: str) -> None:
    """``weight`` and ``bias`` hold one value per normalized element: ``normalized_shape`` itself."""
    for what, v in (("weight", weight), ("bias", bias)):
        if v is not None and tuple(kd.asarray(v).shape) != tuple(shape):
            raise ValueError(f"{name}: {what} must have the normalized_shape {tuple(shape)}, got "
                             f"{tuple(kd.asarray(v).shape)}")


def _affine(y: kd.Array, weight: kd.Array | None, bias: kd.Array | None) -> kd.Array:
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y


def layer_norm(x: kd.Array, normalized_shape: int | Sequence[int], weight: kd.Array | None = None,
               bias: kd.Array | None = None, eps: float = 1e-5) -> kd.Array:
    """``(x - mean) / sqrt(var + eps) * weight + bias`` over the trailing ``normalized_shape`` axes."""
    x = kd.asarray(x)
    axes = _axes(x, normalized_shape, "layer_norm")
    _check_affine(x.shape[axes[0]:], weight, bias, "layer_norm")
    centred = x - kd.mean(x, axis=axes, keepdims=True)
    var = kd.mean(centred * centred, axis=axes, keepdims=True)
    return _affine(centred * kd.rsqrt(var + eps), weight, bias)


def rms_norm(x: kd.Array, normalized_shape: int | Sequence[int], weight: kd.Array | None = None,
             eps: float | None = None) -> kd.Array:
    """``x / sqrt(mean(x**2) + eps) * weight`` over the trailing axes; ``eps=None`` is the dtype's machine
    epsilon (PyTorch's default).

    >>> import kdsl as kd, numpy as np
    >>> np.round(kd.nn.rms_norm(kd.asarray([[3.0, 4.0]]), 2).numpy(), 4)
    array([[0.8485, 1.1314]], dtype=float32)
    """
    x = kd.asarray(x)
    axes = _axes(x, normalized_shape, "rms_norm")
    _check_affine(x.shape[axes[0]:], weight, None, "rms_norm")
    if eps is None:
        eps = float(kd.finfo(x.dtype).eps)
    return _affine(x * kd.rsqrt(kd.mean(x * x, axis=axes, keepdims=True) + eps), weight, None)
