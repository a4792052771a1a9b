"""``max_pool2d`` and ``avg_pool2d`` (PyTorch's semantics, floor mode): a window gather
(:mod:`kdsl.nn.unfold`) then a max or mean over the window axis, in one pass on the device.

Example:
    >>> import kdsl as kd, numpy as np
    >>> x = kd.asarray(np.arange(16.0, dtype=np.float32).reshape(1, 1, 4, 4))
    >>> kd.nn.max_pool2d(x, 2).numpy()[0, 0]
    array([[ 5.,  7.],
           [13., 15.]], dtype=float32)
    >>> kd.nn.avg_pool2d(x, 2).numpy()[0, 0]
    array([[ 2.5,  4.5],
           [10.5, 12.5]], dtype=float32)
"""

from __future__ import annotations

import numpy as np

import kdsl as kd
from kdsl.nn.unfold import IntPair, pair, windows

__all__ = ["max_pool2d", "avg_pool2d"]


def _geometry(x: kd.Array, kernel_size: IntPair, stride: IntPair | None, padding: IntPair, name: str):
    if x.ndim not in (3, 4):
        raise ValueError(f"{name}: input must be (N, C, H, W) or (C, H, W), got shape {x.shape}")
    k = pair(kernel_size, "kernel_size")
    s = k if stride is None else pair(stride, "stride")
    p = pair(padding, "padding", 0)
    if p[0] > k[0] // 2 or p[1] > k[1] // 2:
        raise ValueError(f"{name}: padding {p} should be at most half of the kernel size {k}")
    return k, s, p


def max_pool2d(input: kd.Array, kernel_size: IntPair, stride: IntPair | None = None, padding: IntPair = 0,
               dilation: IntPair = 1) -> kd.Array:
    """Maximum over each window; padding counts as ``-inf`` (never chosen). ``stride`` defaults to the kernel
    size. NaN in a window gives NaN."""
    x = kd.asarray(input)
    k, s, p = _geometry(x, kernel_size, stride, padding, "max_pool2d")
    if x.ndim == 3:
        return max_pool2d(x[None], k, s, p, dilation)[0]
    fill = -np.inf if kd.isdtype(x.dtype, "real floating") else int(kd.iinfo(x.dtype).min)
    cols, (oh, ow) = windows(x, k, s, (p[0], p[0], p[1], p[1]), pair(dilation, "dilation"), fill, "max_pool2d")
    return kd.reshape(kd.max(cols, axis=2), x.shape[:2] + (oh, ow))


def avg_pool2d(input: kd.Array, kernel_size: IntPair, stride: IntPair | None = None, padding: IntPair = 0,
               count_include_pad: bool = True, divisor_override: int | None = None) -> kd.Array:
    """Mean over each window; zero padding counts towards the divisor unless ``count_include_pad=False``;
    ``divisor_override`` replaces the divisor."""
    x = kd.asarray(input)
    k, s, p = _geometry(x, kernel_size, stride, padding, "avg_pool2d")
    if x.ndim == 3:
        return avg_pool2d(x[None], k, s, p, count_include_pad, divisor_override)[0]
    if not kd.isdtype(x.dtype, "real floating"):
        raise TypeError(f"avg_pool2d: input must be floating point, got {x.dtype.name}")
    pads = (p[0], p[0], p[1], p[1])
    cols, (oh, ow) = windows(x, k, s, pads, (1, 1), 0.0, "avg_pool2d")
    total = kd.sum(cols, axis=2)
    if divisor_override is not None:
        if divisor_override == 0:
            raise ValueError("avg_pool2d: divisor_override must not be zero")
        out = total / float(divisor_override)
    elif count_include_pad or not any(p):
        out = total / float(k[0] * k[1])
    else:  # the divisor counts the window's real pixels: a shape-only table, computed on the host
        ones = np.pad(np.ones(x.shape[2:], np.float32), ((p[0], p[0]), (p[1], p[1])))
        counts = np.lib.stride_tricks.sliding_window_view(ones, k)[::s[0], ::s[1]].sum(axis=(2, 3))
        out = total / kd.asarray(counts.reshape(-1).astype(np.float32), device=x.device)
    return kd.reshape(out.astype(x.dtype), x.shape[:2] + (oh, ow))
