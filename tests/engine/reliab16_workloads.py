"""Workloads a demanding user runs, each checked against NumPy: ``fn(rng, i)`` for a NumPy Generator and a step
number. Shared by the thread, fork and leak tests of tests/engine (``*_reliab16.py``); in a subprocess, put this
folder on ``sys.path`` first.

Example:
    >>> import numpy as np
    >>> _matmul(np.random.default_rng(0), 1)
"""

from __future__ import annotations

import numpy as np

import kdsl as kd


@kd.kernel
def _axpy(x: kd.f32[:], y: kd.f32[:], out: kd.f32[:], a: kd.f32):
    i = kd.global_id(0)
    out[i] = a * x[i] + y[i]


def close(got, want, rtol=1e-4, atol=1e-4):
    np.testing.assert_allclose(np.asarray(got), want, rtol=rtol, atol=atol)


def _elementwise(rng, i):
    x = rng.standard_normal((37, 19)).astype(np.float32)
    a = kd.asarray(x)
    close(kd.tanh(kd.exp(a * 0.1) - a) * (a + i) / 3, np.tanh(np.exp(x * np.float32(0.1)) - x) * (x + i) / 3)


def _reductions(rng, i):
    x = rng.standard_normal((6, 33, 17)).astype(np.float32)
    a = kd.asarray(x)
    axis = i % 3
    close(a.sum(axis=axis), x.sum(axis=axis), atol=1e-3)
    close(a.max(axis=axis), x.max(axis=axis))
    np.testing.assert_array_equal(a.argmin(axis=axis).numpy(), x.argmin(axis=axis))
    close(a.mean(axis=(0, 2)), x.mean(axis=(0, 2)))


def _sorting(rng, i):
    n = 700 if i % 2 else 5000  # the bitonic kernels, then the radix sort (kdsl/engine/sorting.py)
    x = rng.standard_normal(n).astype(np.float32)
    a = kd.asarray(x)
    np.testing.assert_array_equal(kd.sort(a).numpy(), np.sort(x))
    np.testing.assert_array_equal(kd.argsort(a, stable=True).numpy(), np.argsort(x, stable=True))
    k = rng.integers(0, 50, (4, 300)).astype(np.int32)
    np.testing.assert_array_equal(kd.sort(kd.asarray(k), axis=1).numpy(), np.sort(k, axis=1))


def _unique_cumsum(rng, i):
    k = rng.integers(-20, 20, 1000 + i).astype(np.int32)
    vals, counts = kd.unique(kd.asarray(k), return_counts=True)
    want_vals, want_counts = np.unique(k, return_counts=True)
    np.testing.assert_array_equal(vals.numpy(), want_vals)
    np.testing.assert_array_equal(counts.numpy(), want_counts)
    np.testing.assert_array_equal(kd.cumsum(kd.asarray(k)).numpy(), np.cumsum(k))
    x = rng.standard_normal((5, 200)).astype(np.float32)
    close(kd.cumsum(kd.asarray(x), axis=1), np.cumsum(x, axis=1), atol=1e-3)


def _matmul(rng, i):
    a = rng.standard_normal((3, 24, 40)).astype(np.float32)
    b = rng.standard_normal((40, 17)).astype(np.float32)
    close(kd.asarray(a) @ kd.asarray(b), a @ b, atol=1e-3)


def _fft(rng, i):
    x = rng.standard_normal((4, 96 + i % 3)).astype(np.float32)
    close(kd.fft.rfft(kd.asarray(x)), np.fft.rfft(x), atol=1e-3)
    z = (x + 1j * x[::-1]).astype(np.complex64)
    close(kd.fft.fft(kd.asarray(z), axis=0), np.fft.fft(z, axis=0), atol=1e-3)


def _linalg(rng, i):
    a = rng.standard_normal((3, 6, 6)).astype(np.float32) + 6 * np.eye(6, dtype=np.float32)
    b = rng.standard_normal((3, 6, 2)).astype(np.float32)
    close(kd.linalg.solve(kd.asarray(a), kd.asarray(b)), np.linalg.solve(a, b), atol=1e-3)
    q, r = kd.linalg.qr(kd.asarray(a))
    close(kd.matmul(q, r), a, atol=1e-3)
    s = a + np.swapaxes(a, 1, 2)
    w, v = kd.linalg.eigh(kd.asarray(s))
    close(w, np.linalg.eigvalsh(s), atol=2e-3)
    close(kd.matmul(kd.asarray(s), v), v.numpy() * w.numpy()[:, None, :], atol=3e-3)


def _nn(rng, i):
    x = rng.standard_normal((4, 8, 16)).astype(np.float32)
    mu, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    close(kd.nn.layer_norm(kd.asarray(x), 16), (x - mu) / np.sqrt(var + 1e-5), atol=1e-3)
    e = np.exp(x - x.max(-1, keepdims=True))
    close(kd.nn.softmax(kd.asarray(x)), e / e.sum(-1, keepdims=True))
    q, k, v = (rng.standard_normal((2, 8, 16)).astype(np.float32) for _ in range(3))
    s = q @ np.swapaxes(k, 1, 2) / np.sqrt(16)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    out = kd.nn.scaled_dot_product_attention(kd.asarray(q), kd.asarray(k), kd.asarray(v))
    close(out, p @ v, atol=1e-3)


_step = kd.jit(lambda w, x: w - 0.1 * (w * x - 1.0))


def _jit_grad(rng, i):
    x = rng.uniform(1, 2, 64).astype(np.float32)
    w, wn = kd.zeros(64), np.zeros(64, np.float32)
    for _ in range(4):
        w = _step(w, kd.asarray(x))
        wn = wn - np.float32(0.1) * (wn * x - 1)
    close(w, wn)
    g = kd.grad(lambda v: (kd.sin(v) * v).sum())(kd.asarray(x))
    close(g, np.cos(x) * x + np.sin(x))


def _kernel_rng(rng, i):
    x = rng.standard_normal(300).astype(np.float32)
    y = rng.standard_normal(300).astype(np.float32)
    out = kd.empty(300)
    _axpy(kd.asarray(x), kd.asarray(y), out, float(i), grid=300)
    close(out, np.float32(i) * x + y)
    g = kd.random.default_rng(i)
    np.testing.assert_array_equal(g.random(50).numpy(), kd.random.default_rng(i).random(50).numpy())
    u = g.integers(0, 10, 500).numpy()
    assert u.min() >= 0 and u.max() < 10


def _conv_pool(rng, i):
    x = rng.standard_normal((2, 3, 9, 9)).astype(np.float32)
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    want = np.zeros((2, 4, 7, 7), np.float32)
    for r in range(3):
        for c in range(3):
            want += np.einsum("nchw,oc->nohw", x[:, :, r:r + 7, c:c + 7], w[:, :, r, c])
    close(kd.nn.conv2d(kd.asarray(x), kd.asarray(w)), want, atol=1e-3)
    pooled = x[:, :, :8, :8].reshape(2, 3, 4, 2, 4, 2).max(axis=(3, 5))
    close(kd.nn.max_pool2d(kd.asarray(x), 2), pooled)


def _print(rng, i):
    x = np.arange(12, dtype=np.float32).reshape(3, 4) * i
    assert repr(kd.asarray(x)) == "kd." + repr(x).replace("\n" + " " * 7, "\n" + " " * 10)  # kdsl's prefix
    assert str(kd.asarray(x)) == str(x)
    big = np.arange(3000, dtype=np.int32) + i
    assert str(kd.asarray(big)) == str(big)


WORKLOADS = [_elementwise, _reductions, _sorting, _unique_cumsum, _matmul, _fft, _linalg, _nn, _jit_grad,
             _kernel_rng, _conv_pool, _print]
