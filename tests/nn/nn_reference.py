"""NumPy reference implementations of kd.nn's functions (the oracle of tests/nn; written from the definitions,
direct loops where that is clearest)."""

import math

import numpy as np

erf = np.vectorize(math.erf, otypes=[np.float64])


def relu(x):
    return np.where(x > 0, x, np.where(np.isnan(x), x, 0)).astype(x.dtype)


def gelu(x, approximate="none"):
    x64 = x.astype(np.float64)
    if approximate == "tanh":
        y = 0.5 * x64 * (1 + np.tanh(math.sqrt(2 / math.pi) * (x64 + 0.044715 * x64 ** 3)))
    else:
        y = 0.5 * x64 * (1 + erf(x64 / math.sqrt(2)))
    return y.astype(x.dtype)


def silu(x):
    return (x / (1 + np.exp(-x.astype(np.float64)))).astype(x.dtype)


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def log_softmax(x, axis=-1):
    s = x - x.max(axis=axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))


def layer_norm(x, n, w=None, b=None, eps=1e-5):
    axes = tuple(range(x.ndim - n, x.ndim))
    mu = x.mean(axis=axes, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=axes, keepdims=True)
    y = (x - mu) / np.sqrt(var + eps)
    return y * (1 if w is None else w) + (0 if b is None else b)


def rms_norm(x, n, w=None, eps=None):
    axes = tuple(range(x.ndim - n, x.ndim))
    eps = np.finfo(x.dtype).eps if eps is None else eps
    y = x / np.sqrt((x * x).mean(axis=axes, keepdims=True) + eps)
    return y * (1 if w is None else w)


def conv2d(x, w, b=None, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1):
    """Direct convolution: padding (top, bottom, left, right)."""
    n, c, h, wd = x.shape
    cout, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), padding[:2], padding[2:]))
    oh = (h + padding[0] + padding[1] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd + padding[2] + padding[3] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, cout, oh, ow), np.float64)
    og = cout // groups
    for o in range(cout):
        g = o // og
        for i in range(oh):
            for j in range(ow):
                r, s = i * stride[0], j * stride[1]
                patch = xp[:, g * cg:(g + 1) * cg, r:r + dilation[0] * (kh - 1) + 1:dilation[0],
                           s:s + dilation[1] * (kw - 1) + 1:dilation[1]]
                out[:, o, i, j] = (patch * w[o]).sum(axis=(1, 2, 3))
    if b is not None:
        out += b[None, :, None, None]
    return out.astype(x.dtype)


def pool2d(x, k, s, p, op, fill, dilation=(1, 1)):
    n, c, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])), constant_values=fill)
    oh = (h + 2 * p[0] - dilation[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (w + 2 * p[1] - dilation[1] * (k[1] - 1) - 1) // s[1] + 1
    out = np.zeros((n, c, oh, ow), x.dtype)
    for i in range(oh):
        for j in range(ow):
            win = xp[:, :, i * s[0]:i * s[0] + dilation[0] * (k[0] - 1) + 1:dilation[0],
                     j * s[1]:j * s[1] + dilation[1] * (k[1] - 1) + 1:dilation[1]]
            out[:, :, i, j] = op(win)
    return out


def avg_pool2d_exclude_pad(x, k, s, p):
    total = pool2d(x, k, s, p, lambda w: w.sum(axis=(2, 3)), 0.0)
    counts = pool2d(np.ones_like(x), k, s, p, lambda w: w.sum(axis=(2, 3)), 0.0)
    return total / counts


def cross_entropy(x, t, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    logp = log_softmax(x.astype(np.float64), axis=1)
    c = x.shape[1]
    onehot = np.zeros_like(logp)
    keep = t != ignore_index
    safe = np.where(keep, t, 0)
    np.put_along_axis(onehot, np.expand_dims(safe, 1), 1.0, axis=1)
    target = onehot * (1 - label_smoothing) + label_smoothing / c
    loss = -(target * logp).sum(axis=1) * keep
    if reduction == "mean":
        return loss.sum() / keep.sum()
    return loss.sum() if reduction == "sum" else loss


def binary_cross_entropy(p, t):
    with np.errstate(divide="ignore"):
        return -(t * np.maximum(np.log(p), -100) + (1 - t) * np.maximum(np.log1p(-p), -100))


def bce_with_logits(x, t, pos_weight=None):
    pw = 1.0 if pos_weight is None else pos_weight
    x = x.astype(np.float64)
    return pw * t * np.logaddexp(0, -x) + (1 - t) * np.logaddexp(0, x)  # -log(sigmoid), -log(1 - sigmoid)


def sdpa(q, k, v, mask=None, causal=False, scale=None):
    scale = 1 / math.sqrt(q.shape[-1]) if scale is None else scale
    s = q.astype(np.float64) @ np.swapaxes(k, -1, -2) * scale
    if causal:
        mask = np.tril(np.ones((q.shape[-2], k.shape[-2]), bool))
    if mask is not None:
        s = np.where(mask, s, -np.inf) if mask.dtype == bool else s + mask
    return softmax(s) @ v


def pool_out(size, k, s, p, d=1, ceil_mode=False):
    """PyTorch's pooling output length (aten's pooling_output_shape)."""
    n = (size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    return n - 1 if ceil_mode and (n - 1) * s >= size + p else n


def max_pool2d(x, k, s, p, d=(1, 1), ceil_mode=False):
    """Direct loops over the output, taps clipped to the input (PyTorch's CPU kernel's definition)."""
    n, c, h, w = x.shape
    oh, ow = (pool_out(h, k[0], s[0], p[0], d[0], ceil_mode), pool_out(w, k[1], s[1], p[1], d[1], ceil_mode))
    out = np.full((n, c, oh, ow), -np.inf, x.dtype)
    for i in range(oh):
        rows = [r for r in range(i * s[0] - p[0], i * s[0] - p[0] + d[0] * (k[0] - 1) + 1, d[0]) if 0 <= r < h]
        for j in range(ow):
            cols = [q for q in range(j * s[1] - p[1], j * s[1] - p[1] + d[1] * (k[1] - 1) + 1, d[1]) if 0 <= q < w]
            if rows and cols:
                out[:, :, i, j] = x[:, :, rows][:, :, :, cols].max(axis=(2, 3))
    return out


def avg_pool2d(x, k, s, p, ceil_mode=False, count_include_pad=True, divisor_override=None):
    """PyTorch's avg_pool2d: a window clipped to the padded input (its divisor with count_include_pad) and then
    to the input (the sum, and the divisor without)."""
    n, c, h, w = x.shape
    oh, ow = pool_out(h, k[0], s[0], p[0], 1, ceil_mode), pool_out(w, k[1], s[1], p[1], 1, ceil_mode)
    out = np.zeros((n, c, oh, ow), np.float64)
    for i in range(oh):
        r0 = i * s[0] - p[0]
        r1 = min(r0 + k[0], h + p[0])
        for j in range(ow):
            c0 = j * s[1] - p[1]
            c1 = min(c0 + k[1], w + p[1])
            size = (r1 - r0) * (c1 - c0)
            a0, a1, b0, b1 = max(r0, 0), min(r1, h), max(c0, 0), min(c1, w)
            div = divisor_override or (size if count_include_pad else (a1 - a0) * (b1 - b0))
            out[:, :, i, j] = x[:, :, a0:a1, b0:b1].sum(axis=(2, 3)) / div
    return out.astype(x.dtype)


def adaptive_avg_pool(x, sizes):
    """Average over [floor(i n / out), ceil((i + 1) n / out)) along each of the last len(sizes) axes."""
    for k, out in enumerate(sizes):
        axis = x.ndim - len(sizes) + k
        n = x.shape[axis]
        parts = [np.take(x, range(i * n // out, -(-(i + 1) * n // out)), axis=axis).mean(axis=axis, keepdims=True)
                 for i in range(out)]
        x = np.concatenate(parts, axis=axis)
    return x


def weighted_cross_entropy(x, t, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """PyTorch's formulas with class weights: label y costs -(1 - eps) w[y] logp[y] - eps / C sum_c w[c] logp[c];
    the mean divides by sum(w[y]) over the labels that are not ignored."""
    logp = log_softmax(x.astype(np.float64), axis=1)
    c = x.shape[1]
    w = np.ones(c) if weight is None else weight.astype(np.float64)
    wb = w.reshape((-1,) + (1,) * (x.ndim - 2))
    keep = t != ignore_index
    safe = np.where(keep, t, 0)
    picked = np.take_along_axis(logp * wb, np.expand_dims(safe, 1), axis=1)[:, 0]
    loss = -(1 - label_smoothing) * picked - label_smoothing / c * (logp * wb).sum(axis=1)
    loss = loss * keep
    if reduction == "mean":
        return loss.sum() / (w[safe] * keep).sum()
    return loss.sum() if reduction == "sum" else loss


def soft_cross_entropy(x, probs, weight=None, reduction="mean", label_smoothing=0.0):
    """Cross entropy of class probabilities (PyTorch): -sum_c w[c] t[c] logp[c], the mean over samples."""
    logp = log_softmax(x.astype(np.float64), axis=1)
    c = x.shape[1]
    t = probs * (1 - label_smoothing) + label_smoothing / c
    w = 1.0 if weight is None else weight.reshape((-1,) + (1,) * (x.ndim - 2))
    loss = -(logp * t * w).sum(axis=1)
    if reduction == "mean":
        return loss.sum() / (logp.size // c)
    return loss.sum() if reduction == "sum" else loss
