"""``max_pool1d``/``max_pool2d`` and ``avg_pool1d``/``avg_pool2d`` with PyTorch's semantics (padding, dilation
for max, ``ceil_mode``, ``count_include_pad``, ``divisor_override``): a window gather (:mod:`kdsl.nn.unfold`)
then a max or a sum over the window axis, in one pass on the device.

``ceil_mode=True`` rounds the output size up, as PyTorch: a last, partial window is added when it starts
inside the input or the left padding (never one that starts in the right padding). Its missing part is filled
with ``-inf`` for max and zeros for avg; avg divides a window by its size clipped to the padded input
(``count_include_pad=True``) or to the input (``False``), both shape-only tables computed once on the host.

Example:
    >>> import kdsl as kd, numpy as np
    >>> x = kd.asarray(np.arange(16.0, dtype=np.float32).reshape(1, 1, 4, 4))
    >>> kd.nn.max_pool2d(x, 2).numpy()[0, 0]
    array([[ 5.,  7.],
           [13., 15.]], dtype=float32)
    >>> kd.nn.avg_pool2d(x, 2).numpy()[0, 0]
    array([[ 2.5,  4.5],
           [10.5, 12.5]], dtype=float32)
    >>> kd.nn.max_pool2d(x, 3, 2, ceil_mode=True).numpy()[0, 0]   # a partial window on the right/bottom
    array([[10., 11.],
           [14., 15.]], dtype=float32)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

import kdsl as kd
from kdsl.nn.unfold import IntPair, device_table, pair, single, windows

__all__ = ["max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d", "pool_size"]


def pool_size(size: int, k: int, stride: int, pad: int, dilation: int, ceil_mode: bool, name: str) -> int:
    """PyTorch's output length of a pooling: floor or ceil of the window count, and in ceil mode no window
    that starts in the right padding.

    >>> pool_size(6, 3, 2, 1, 1, False, "p"), pool_size(6, 3, 2, 1, 1, True, "p")
    (3, 4)
    """
    span = dilation * (k - 1) + 1
    n = (size + 2 * pad - span + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (n - 1) * stride >= size + pad:
        n -= 1
    if n < 1:
        raise ValueError(f"{name}: the window (extent {span}) is larger than the padded input ({size + 2 * pad}): "
                         "the output would be empty; pad the input, use a smaller kernel or ceil_mode=True")
    return n


class _Geometry(NamedTuple):
    kernel: tuple[int, int]
    stride: tuple[int, int]
    padding: tuple[int, int]
    dilation: tuple[int, int]
    out: tuple[int, int]
    pads: tuple[int, int, int, int]  # (top, bottom, left, right): bottom/right grow in ceil mode


def _geometry(x: kd.Array, kernel_size: IntPair, stride: IntPair | None, padding: IntPair, dilation: IntPair,
              ceil_mode: bool, name: str) -> _Geometry:
    if x.ndim != 4:
        raise ValueError(f"{name}: input must be (N, C, H, W) or (C, H, W), got shape {x.shape}")
    k = pair(kernel_size, "kernel_size")
    s = k if stride is None or (not isinstance(stride, int) and len(stride) == 0) else pair(stride, "stride")
    p = pair(padding, "padding", 0)
    d = pair(dilation, "dilation")
    if p[0] > k[0] // 2 or p[1] > k[1] // 2:
        raise ValueError(f"{name}: padding {p} should be at most half of the kernel size {k}")
    out = tuple(pool_size(x.shape[2 + i], k[i], s[i], p[i], d[i], ceil_mode, name) for i in range(2))
    # the padded extent the last window reaches: more than the input plus padding only in ceil mode
    after = tuple(max(p[i], (out[i] - 1) * s[i] + d[i] * (k[i] - 1) + 1 - x.shape[2 + i] - p[i]) for i in range(2))
    return _Geometry(k, s, p, d, out, (p[0], after[0], p[1], after[1]))  # type: ignore[arg-type]


def max_pool2d(input: kd.Array, kernel_size: IntPair, stride: IntPair | None = None, padding: IntPair = 0,
               dilation: IntPair = 1, ceil_mode: bool = False) -> kd.Array:
    """Maximum over each window of ``(N, C, H, W)`` (or ``(C, H, W)``); padding counts as ``-inf`` (never
    chosen). ``stride`` defaults to the kernel size. NaN in a window gives NaN. Its gradient splits a tie evenly
    among the tied elements (``kd.max``'s rule; PyTorch gives it all to one)."""
    x = kd.asarray(input)
    if x.ndim == 3:
        return max_pool2d(x[None], kernel_size, stride, padding, dilation, ceil_mode)[0]
    g = _geometry(x, kernel_size, stride, padding, dilation, ceil_mode, "max_pool2d")
    fill = -np.inf if kd.isdtype(x.dtype, "real floating") else int(kd.iinfo(x.dtype).min)
    cols, (oh, ow) = windows(x, g.kernel, g.stride, g.pads, g.dilation, fill, "max_pool2d")
    return kd.reshape(kd.max(cols, axis=2), x.shape[:2] + (oh, ow))


def _divisors(size: int, k: int, stride: int, pad: int, out: int, include_pad: bool) -> np.ndarray:
    """Each window's divisor along one axis: its length clipped to the padded input, or to the input."""
    start = np.arange(out) * stride - pad
    end = np.minimum(start + k, size + pad)
    if include_pad:
        return end - start
    return np.minimum(end, size) - np.maximum(start, 0)


def _divisor_table(h: int, w: int, k: tuple[int, int], s: tuple[int, int], p: tuple[int, int],
                   out: tuple[int, int], include_pad: bool) -> np.ndarray:
    rows = _divisors(h, k[0], s[0], p[0], out[0], include_pad)
    cols = _divisors(w, k[1], s[1], p[1], out[1], include_pad)
    return np.outer(rows, cols).reshape(-1).astype(np.float32)


def avg_pool2d(input: kd.Array, kernel_size: IntPair, stride: IntPair | None = None, padding: IntPair = 0,
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> kd.Array:
    """Mean over each window of ``(N, C, H, W)`` (or ``(C, H, W)``); zero padding counts towards the divisor
    unless ``count_include_pad=False`` (the part of a ``ceil_mode`` window past the padding never does);
    ``divisor_override`` replaces the divisor."""
    x = kd.asarray(input)
    if x.ndim == 3:
        return avg_pool2d(x[None], kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)[0]
    g = _geometry(x, kernel_size, stride, padding, 1, ceil_mode, "avg_pool2d")
    if not kd.isdtype(x.dtype, "real floating"):
        raise TypeError(f"avg_pool2d: input must be floating point, got {x.dtype.name}")
    cols, (oh, ow) = windows(x, g.kernel, g.stride, g.pads, (1, 1), 0.0, "avg_pool2d")
    total = kd.sum(cols, axis=2)
    if divisor_override is not None:
        if divisor_override == 0:
            raise ValueError("avg_pool2d: divisor_override must not be zero")
        out = total / float(divisor_override)
    else:
        geometry = (x.shape[2], x.shape[3], g.kernel, g.stride, g.padding, g.out, bool(count_include_pad))
        table = _divisor_table(*geometry)
        if np.all(table == table[0]):  # every window whole (the usual case): one scalar
            out = total / float(table[0])
        else:
            out = total / device_table(("pool divisors", *geometry), _divisor_table, x.device)
    return kd.reshape(out.astype(x.dtype), x.shape[:2] + (oh, ow))


def _as_2d(x: kd.Array, name: str) -> kd.Array:
    """``(N, C, L)`` -> ``(N, C, 1, L)``, ``(C, L)`` -> ``(C, 1, L)`` (the 1-d poolings are 2-d ones of height 1)."""
    if x.ndim not in (2, 3):
        raise ValueError(f"{name}: input must be (N, C, L) or (C, L), got shape {x.shape}")
    return kd.expand_dims(x, -2)


def _one_or_none(v: int | Sequence[int] | None, name: str) -> int | None:
    return None if v is None or (isinstance(v, (list, tuple)) and len(v) == 0) else single(v, name)


def _height_one(kernel_size: int | Sequence[int], stride: int | Sequence[int] | None,
                padding: int | Sequence[int]) -> tuple[tuple[int, int], tuple[int, int] | None, tuple[int, int]]:
    """A 1-d pooling's window, stride (None: the window's) and padding as its 2-d pooling's, of height one."""
    s = _one_or_none(stride, "stride")
    return (1, single(kernel_size, "kernel_size")), None if s is None else (1, s), (0, single(padding, "padding"))


def max_pool1d(input: kd.Array, kernel_size: int | Sequence[int], stride: int | Sequence[int] | None = None,
               padding: int | Sequence[int] = 0, dilation: int | Sequence[int] = 1,
               ceil_mode: bool = False) -> kd.Array:
    """Maximum over each window of ``(N, C, L)`` (or ``(C, L)``): :func:`max_pool2d` with a height of one.

    >>> import kdsl as kd
    >>> kd.nn.max_pool1d(kd.asarray([[[1.0, 5.0, 2.0, 4.0, 3.0]]]), 2, ceil_mode=True).numpy()
    array([[[5., 4., 3.]]], dtype=float32)
    """
    x = _as_2d(kd.asarray(input), "max_pool1d")
    y = max_pool2d(x, *_height_one(kernel_size, stride, padding), (1, single(dilation, "dilation")), ceil_mode)
    return kd.squeeze(y, axis=-2)


def avg_pool1d(input: kd.Array, kernel_size: int | Sequence[int], stride: int | Sequence[int] | None = None,
               padding: int | Sequence[int] = 0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> kd.Array:
    """Mean over each window of ``(N, C, L)`` (or ``(C, L)``): :func:`avg_pool2d` with a height of one.

    >>> import kdsl as kd
    >>> kd.nn.avg_pool1d(kd.asarray([[[1.0, 5.0, 2.0, 4.0, 3.0]]]), 2, ceil_mode=True).numpy()
    array([[[3., 3., 3.]]], dtype=float32)
    """
    x = _as_2d(kd.asarray(input), "avg_pool1d")
    y = avg_pool2d(x, *_height_one(kernel_size, stride, padding), ceil_mode, count_include_pad)
    return kd.squeeze(y, axis=-2)
