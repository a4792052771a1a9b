"""``adaptive_avg_pool1d`` / ``adaptive_avg_pool2d`` (PyTorch's semantics): the output has a given size and
output cell ``i`` of an axis of length ``n`` averages the inputs ``floor(i * n / out)`` to
``ceil((i + 1) * n / out)`` (windows that may overlap and differ in size by one).

Each axis is one small matrix product with a shape-only averaging matrix ``(out, n)`` (built once on the host),
so the windows' different sizes cost nothing and the gradient is a matmul too.

Example:
    >>> import kdsl as kd, numpy as np
    >>> x = kd.asarray(np.arange(10.0, dtype=np.float32).reshape(1, 2, 5))
    >>> kd.nn.adaptive_avg_pool1d(x, 2).numpy()      # windows [0, 3) and [2, 5)
    array([[[1., 3.],
            [6., 8.]]], dtype=float32)
    >>> kd.nn.adaptive_avg_pool2d(kd.ones((1, 3, 7, 5)), 1).shape   # global average pooling
    (1, 3, 1, 1)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

import kdsl as kd
from kdsl.nn.unfold import device_table, single

__all__ = ["adaptive_avg_pool1d", "adaptive_avg_pool2d"]


def _averaging_matrix(n: int, out: int, dtype: str) -> np.ndarray:
    """``(out, n)``: row ``i`` is ``1 / len`` on the window ``[floor(i n / out), ceil((i + 1) n / out))``."""
    i = np.arange(out)
    start, end = (i * n) // out, -((-(i + 1) * n) // out)
    cols = np.arange(n)
    inside = (cols >= start[:, None]) & (cols < end[:, None])
    return (inside / (end - start)[:, None]).astype(dtype)


def _size(v: int | None, n: int, name: str) -> int:
    if v is None:
        return n
    if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 1:
        raise ValueError(f"{name}: output_size entries must be ints >= 1 (or None: keep the input's size), got {v!r}")
    return int(v)


def _pool_last_axes(x: kd.Array, sizes: tuple[int, ...], name: str) -> kd.Array:
    if not kd.isdtype(x.dtype, "real floating"):
        raise TypeError(f"{name}: input must be floating point, got {x.dtype.name}")
    if any(n == 0 for n in x.shape[x.ndim - len(sizes):]):
        raise ValueError(f"{name}: the pooled axes of shape {x.shape} must not be empty")
    dt = x.dtype.name
    for k, out in enumerate(sizes):
        axis = x.ndim - len(sizes) + k
        n = x.shape[axis]
        if out == n:
            continue  # the identity
        m = device_table(("adaptive avg", n, out, dt), _averaging_matrix, x.device)
        x = kd.moveaxis(kd.matmul(m, kd.moveaxis(x, axis, -2)), -2, axis)  # (out, n) @ (..., n, rest)
    return x


def adaptive_avg_pool2d(input: kd.Array, output_size: int | None | Sequence[int | None]) -> kd.Array:
    """Average-pool ``(N, C, H, W)`` (or ``(C, H, W)``) to ``(N, C, *output_size)``; an int gives a square
    output, ``None`` keeps that axis."""
    x = kd.asarray(input)
    if x.ndim not in (3, 4):
        raise ValueError(f"adaptive_avg_pool2d: input must be (N, C, H, W) or (C, H, W), got shape {x.shape}")
    sizes = (output_size, output_size) if output_size is None or isinstance(output_size, int) else tuple(output_size)
    if len(sizes) != 2:
        raise ValueError(f"adaptive_avg_pool2d: output_size must be an int or a pair, got {output_size!r}")
    h, w = x.shape[-2:]
    return _pool_last_axes(x, (_size(sizes[0], h, "adaptive_avg_pool2d"), _size(sizes[1], w, "adaptive_avg_pool2d")),
                           "adaptive_avg_pool2d")


def adaptive_avg_pool1d(input: kd.Array, output_size: int | Sequence[int]) -> kd.Array:
    """Average-pool ``(N, C, L)`` (or ``(C, L)``) to ``(N, C, output_size)``."""
    x = kd.asarray(input)
    if x.ndim not in (2, 3):
        raise ValueError(f"adaptive_avg_pool1d: input must be (N, C, L) or (C, L), got shape {x.shape}")
    return _pool_last_axes(x, (_size(single(output_size, "output_size"), x.shape[-1], "adaptive_avg_pool1d"),),
                           "adaptive_avg_pool1d")
