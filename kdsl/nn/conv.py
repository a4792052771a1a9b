"""``conv1d`` / ``conv2d`` (PyTorch's cross-correlation, NCHW, weight ``(out, in / groups, kh, kw)``) as one
gather and one batched matmul on the device: the windows (:mod:`kdsl.nn.unfold`) are grouped as
``(N, groups, in / groups * kh * kw, L)`` and multiplied by the weight viewed as
``(groups, out / groups, in / groups * kh * kw)``.

Example:
    >>> import kdsl as kd, numpy as np
    >>> x = kd.asarray(np.arange(16.0, dtype=np.float32).reshape(1, 1, 4, 4))
    >>> kd.nn.conv2d(x, kd.ones((1, 1, 2, 2)), stride=2).numpy()[0, 0]
    array([[10., 18.],
           [42., 50.]], dtype=float32)
"""

from __future__ import annotations

from collections.abc import Sequence

import kdsl as kd
from kdsl.nn.unfold import IntPair, pair, single, windows

__all__ = ["conv1d", "conv2d"]


def _padding(padding: IntPair | str, kernel: tuple[int, int], stride: tuple[int, int],
             dilation: tuple[int, int]) -> tuple[int, int, int, int]:
    if padding == "valid":
        return (0, 0, 0, 0)
    if padding == "same":
        if stride != (1, 1):
            raise ValueError("padding='same' is not supported for strided convolutions (as in PyTorch)")
        th, tw = dilation[0] * (kernel[0] - 1), dilation[1] * (kernel[1] - 1)
        return (th // 2, th - th // 2, tw // 2, tw - tw // 2)  # the extra row/column goes after, as PyTorch
    if isinstance(padding, str):
        raise ValueError(f"padding must be 'valid', 'same', an int or a pair of ints, got {padding!r}")
    ph, pw = pair(padding, "padding", 0)
    return (ph, ph, pw, pw)


def _bias(bias: kd.Array, cout: int, name: str) -> kd.Array:
    """``bias`` checked to hold one value per output channel, ``(C_out,)``."""
    b = kd.asarray(bias)
    if b.shape != (cout,):
        raise ValueError(f"{name}: bias must have shape (C_out,) = ({cout},), one value per output channel; got "
                         f"{b.shape}")
    return b


def conv2d(input: kd.Array, weight: kd.Array, bias: kd.Array | None = None, stride: IntPair = 1,
           padding: IntPair | str = 0, dilation: IntPair = 1, groups: int = 1) -> kd.Array:
    """2-d convolution of ``(N, C_in, H, W)`` (or unbatched ``(C_in, H, W)``) by ``(C_out, C_in / groups, kh,
    kw)``; ``padding`` an int, a pair, ``"valid"`` or ``"same"``. Returns ``(N, C_out, OH, OW)``."""
    x, w = kd.asarray(input), kd.asarray(weight)
    if x.ndim == 3:
        return conv2d(x[None], w, bias, stride, padding, dilation, groups)[0]
    if x.ndim != 4 or w.ndim != 4:
        raise ValueError(f"conv2d: input must be (N, C, H, W) and weight (C_out, C_in/groups, kh, kw); got "
                         f"shapes {x.shape} and {w.shape}")
    n, c, _, _ = x.shape
    cout, cg, kh, kw = w.shape
    if not isinstance(groups, int) or groups < 1 or c % groups or cout % groups or cg * groups != c:
        raise ValueError(f"conv2d: groups={groups} must divide C_in ({c}) and C_out ({cout}), and weight's "
                         f"axis 1 ({cg}) must be C_in / groups")
    stride_, dilation_ = pair(stride, "stride"), pair(dilation, "dilation")
    pads = _padding(padding, (kh, kw), stride_, dilation_)
    cols, (oh, ow) = windows(x, (kh, kw), stride_, pads, dilation_, 0.0, "conv2d")
    cols = kd.reshape(cols, (n, groups, cg * kh * kw, oh * ow))
    y = kd.matmul(kd.reshape(w, (groups, cout // groups, cg * kh * kw)), cols)
    y = kd.reshape(y, (n, cout, oh, ow))
    if bias is not None:
        y = y + kd.reshape(_bias(bias, cout, "conv2d"), (cout, 1, 1))
    return y


def conv1d(input: kd.Array, weight: kd.Array, bias: kd.Array | None = None, stride: int | Sequence[int] = 1,
           padding: int | Sequence[int] | str = 0, dilation: int | Sequence[int] = 1, groups: int = 1) -> kd.Array:
    """1-d convolution of ``(N, C_in, L)`` (or ``(C_in, L)``) by ``(C_out, C_in / groups, k)``: ``conv2d`` with a
    height of one.

    >>> import kdsl as kd
    >>> kd.nn.conv1d(kd.asarray([[[1.0, 2.0, 3.0]]]), kd.asarray([[[1.0, -1.0]]])).numpy()
    array([[[-1., -1.]]], dtype=float32)
    """
    x, w = kd.asarray(input), kd.asarray(weight)
    if x.ndim == 2:
        return conv1d(x[None], w, bias, stride, padding, dilation, groups)[0]
    if x.ndim != 3 or w.ndim != 3:
        raise ValueError(f"conv1d: input must be (N, C, L) and weight (C_out, C_in/groups, k); got shapes "
                         f"{x.shape} and {w.shape}")
    pad = padding if isinstance(padding, str) else (0, single(padding, "padding"))
    y = conv2d(x[:, :, None, :], w[:, :, None, :], bias, (1, single(stride, "stride")), pad,
               (1, single(dilation, "dilation")), groups)
    return y[:, :, 0, :]
