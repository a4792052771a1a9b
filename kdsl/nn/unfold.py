"""Sliding windows of an image as one gather (im2col): the shared front half of ``conv2d`` and the poolings.

The padded input ``(N, C, Hp, Wp)`` is viewed as ``(N, C, Hp * Wp)`` and ``kd.take`` picks, for every kernel tap
``k`` and output position ``l``, the element at ``index[k, l]``; the index table depends only on the geometry,
is computed once on the host and cached on the device, so a forward pass uploads nothing and reads nothing back.

Example:
    >>> import kdsl as kd, numpy as np
    >>> x = kd.asarray(np.arange(9.0, dtype=np.float32).reshape(1, 1, 3, 3))
    >>> kd.nn.unfold(x, 2).numpy()[0]      # (C * kh * kw, L): each column is one 2x2 window
    array([[0., 1., 3., 4.],
           [1., 2., 4., 5.],
           [3., 4., 6., 7.],
           [4., 5., 7., 8.]], dtype=float32)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

import kdsl as kd

__all__ = ["unfold", "pair", "single", "windows", "out_size", "device_table"]

IntPair = int | Sequence[int]


def pair(v: IntPair, name: str, minimum: int = 1) -> tuple[int, int]:
    """``v`` as ``(h, w)``, each an int >= ``minimum``."""
    t = (v, v) if isinstance(v, (int, np.integer)) else tuple(v)
    if len(t) != 2 or not all(isinstance(i, (int, np.integer)) and not isinstance(i, bool) for i in t):
        raise TypeError(f"{name} must be an int or a pair of ints, got {v!r}")
    if min(t) < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {v!r}")
    return int(t[0]), int(t[1])


def single(v: int | Sequence[int], name: str) -> int:
    """``v`` or the one element of a 1-tuple/list ``v`` (the 1-d layers' arguments, PyTorch accepts both)."""
    if isinstance(v, (list, tuple)):
        if len(v) != 1:
            raise TypeError(f"{name} must be an int or a 1-tuple, got {v!r}")
        v = v[0]
    return v  # type: ignore[return-value]


def out_size(size: int, k: int, stride: int, pad: int, dilation: int, name: str) -> int:
    span = dilation * (k - 1) + 1
    n = (size + pad - span) // stride + 1
    if n < 1:
        raise ValueError(f"{name}: the kernel (extent {span} with dilation) is larger than the padded input "
                         f"({size + pad}); pad the input or use a smaller kernel")
    return n


@lru_cache(maxsize=256)
def _index_table(hp: int, wp: int, kernel: tuple[int, int], stride: tuple[int, int], dilation: tuple[int, int],
                 out: tuple[int, int]) -> np.ndarray:
    kh, kw = np.meshgrid(np.arange(kernel[0]) * dilation[0], np.arange(kernel[1]) * dilation[1], indexing="ij")
    oh, ow = np.meshgrid(np.arange(out[0]) * stride[0], np.arange(out[1]) * stride[1], indexing="ij")
    rows = kh.reshape(-1, 1) + oh.reshape(1, -1)
    cols = kw.reshape(-1, 1) + ow.reshape(1, -1)
    return (rows * wp + cols).astype(np.int32)


_DEVICE_TABLES: dict[tuple, kd.Array] = {}  # (what, geometry, device) -> the table on that device


def device_table(key: tuple, make: Callable[..., np.ndarray], device: Any) -> kd.Array:
    """``make(*key[1:])`` on ``device``, built and uploaded once per key (``key[0]`` names the kind of table):
    shape-only constants such as window indices or pooling divisors, so a layer uploads nothing per call."""
    # The Device object, not its index: a forked child's device has its parent's index, and the parent's table
    # there raised "created in the parent process before fork()" at the child's first conv2d or pooling.
    full = key + (device,)
    if full not in _DEVICE_TABLES:
        if len(_DEVICE_TABLES) > 256:  # bounded: geometries of one model are few
            _DEVICE_TABLES.clear()
        _DEVICE_TABLES[full] = kd.asarray(make(*key[1:]), device=device)
    return _DEVICE_TABLES[full]


def windows(x: kd.Array, kernel: tuple[int, int], stride: tuple[int, int], padding: tuple[int, int, int, int],
            dilation: tuple[int, int], fill: float, name: str) -> tuple[kd.Array, tuple[int, int]]:
    """``x`` ``(N, C, H, W)`` -> ``(N, C, kh * kw, OH * OW)`` windows, padded (top, bottom, left, right) with
    ``fill``; also ``(OH, OW)``."""
    n, c, h, w = x.shape
    top, bottom, left, right = padding
    out = (out_size(h, kernel[0], stride[0], top + bottom, dilation[0], name),
           out_size(w, kernel[1], stride[1], left + right, dilation[1], name))
    if any(padding):
        x = kd.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)), constant_values=fill)
    hp, wp = h + top + bottom, w + left + right
    table = device_table(("windows", hp, wp, kernel, stride, dilation, out), _index_table, x.device)
    # The table is in range by construction: mode='clip' skips the bounds check (a read-back per call).
    return kd.take(kd.reshape(x, (n, c, hp * wp)), table, axis=2, mode="clip"), out


def unfold(x: kd.Array, kernel_size: IntPair, dilation: IntPair = 1, padding: IntPair = 0,
           stride: IntPair = 1) -> kd.Array:
    """PyTorch's ``F.unfold``: ``(N, C, H, W)`` -> ``(N, C * kh * kw, L)``, zero padding."""
    x = kd.asarray(x)
    if x.ndim != 4:
        raise ValueError(f"unfold: input must be 4-d (N, C, H, W), got shape {x.shape}")
    ph, pw = pair(padding, "padding", 0)
    cols, (oh, ow) = windows(x, pair(kernel_size, "kernel_size"), pair(stride, "stride"), (ph, ph, pw, pw),
                             pair(dilation, "dilation"), 0.0, "unfold")
    n, c, kk, _ = cols.shape
    return kd.reshape(cols, (n, c * kk, oh * ow))
