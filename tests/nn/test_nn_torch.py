"""kd.nn against PyTorch's CPU build (torch.nn.functional), where torch is installed. Every function also has a
NumPy reference test (test_functional.py), so nothing depends on torch."""

import math

import numpy as np
import pytest

import kdsl as kd

torch = pytest.importorskip("torch", reason="PyTorch is not installed (a test-only extra: pip install torch)")
F = torch.nn.functional
RNG = np.random.default_rng(1)


def rand(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def same(got, want, atol=1e-5):
    np.testing.assert_allclose(got.numpy(), want.detach().numpy(), rtol=1e-5, atol=atol)


def test_activations_and_norms():
    x = rand(4, 6) * 3
    t = torch.from_numpy(x)
    for approximate in ("none", "tanh"):
        same(kd.nn.gelu(kd.asarray(x), approximate), F.gelu(t, approximate=approximate))
    same(kd.nn.silu(kd.asarray(x)), F.silu(t))
    same(kd.nn.log_softmax(kd.asarray(x), 0), F.log_softmax(t, 0))
    w, b = rand(6), rand(6)
    same(kd.nn.layer_norm(kd.asarray(x), (6,), kd.asarray(w), kd.asarray(b)),
         F.layer_norm(t, (6,), torch.from_numpy(w), torch.from_numpy(b)), atol=1e-4)
    same(kd.nn.rms_norm(kd.asarray(x), (6,), kd.asarray(w)), F.rms_norm(t, (6,), torch.from_numpy(w)), atol=1e-4)


@pytest.mark.parametrize("stride,padding,dilation,groups", [(1, 0, 1, 1), (2, 1, 1, 2), (1, "same", 2, 1)])
def test_conv2d_and_conv1d(stride, padding, dilation, groups):
    x, w, b = rand(2, 4, 7, 8), rand(6, 4 // groups, 3, 2), rand(6)
    same(kd.nn.conv2d(kd.asarray(x), kd.asarray(w), kd.asarray(b), stride, padding, dilation, groups),
         F.conv2d(torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(b), stride, padding, dilation, groups),
         atol=1e-4)
    same(kd.nn.conv1d(kd.asarray(x[:, :, 0]), kd.asarray(w[..., 0]), None, stride, padding, dilation, groups),
         F.conv1d(torch.from_numpy(x[:, :, 0]), torch.from_numpy(w[..., 0]), None, stride, padding, dilation,
                  groups), atol=1e-4)


def test_pools():
    x = rand(2, 3, 7, 6)
    t = torch.from_numpy(x)
    same(kd.nn.max_pool2d(kd.asarray(x), 3, 2, 1, 2), F.max_pool2d(t, 3, 2, 1, 2))
    same(kd.nn.avg_pool2d(kd.asarray(x), (3, 2), (2, 1), (1, 1)), F.avg_pool2d(t, (3, 2), (2, 1), (1, 1)))
    same(kd.nn.avg_pool2d(kd.asarray(x), 3, 2, 1, count_include_pad=False),
         F.avg_pool2d(t, 3, 2, 1, count_include_pad=False))


def test_losses():
    x, y = rand(5, 4, 3), RNG.integers(0, 4, (5, 3))
    y[0, 0] = -100
    for reduction in ("mean", "sum", "none"):
        same(kd.nn.cross_entropy(kd.asarray(x), kd.asarray(y), reduction=reduction, label_smoothing=0.2),
             F.cross_entropy(torch.from_numpy(x), torch.from_numpy(y), reduction=reduction, label_smoothing=0.2),
             atol=1e-4)
    p, t = 1 / (1 + np.exp(-rand(8))), RNG.random(8).astype(np.float32)
    same(kd.nn.binary_cross_entropy(kd.asarray(p), kd.asarray(t)),
         F.binary_cross_entropy(torch.from_numpy(p), torch.from_numpy(t)))
    z, pw = rand(8) * 10, RNG.random(8).astype(np.float32) * 3
    same(kd.nn.binary_cross_entropy_with_logits(kd.asarray(z), kd.asarray(t), pos_weight=kd.asarray(pw)),
         F.binary_cross_entropy_with_logits(torch.from_numpy(z), torch.from_numpy(t), pos_weight=torch.from_numpy(pw)))
    same(kd.nn.mse_loss(kd.asarray(z), kd.asarray(t)), F.mse_loss(torch.from_numpy(z), torch.from_numpy(t)))


def test_attention():
    q, k, v = rand(2, 3, 5, 8), rand(2, 3, 6, 8), rand(2, 3, 6, 4)
    tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))
    same(kd.nn.scaled_dot_product_attention(kd.asarray(q), kd.asarray(k), kd.asarray(v), is_causal=True),
         F.scaled_dot_product_attention(tq, tk, tv, is_causal=True))
    mask = RNG.random((5, 6)) > 0.4
    mask[:, 0] = True
    same(kd.nn.scaled_dot_product_attention(kd.asarray(q), kd.asarray(k), kd.asarray(v), kd.asarray(mask), scale=0.3),
         F.scaled_dot_product_attention(tq, tk, tv, torch.from_numpy(mask), scale=0.3))


def test_init_formulas():
    for shape in ((64, 32), (16, 8, 3, 3)):
        assert kd.nn.init.fans(shape) == torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(shape))
    for name, param in (("relu", None), ("tanh", None), ("leaky_relu", 0.2), ("leaky_relu", math.sqrt(5))):
        assert kd.nn.init.calculate_gain(name, param) == pytest.approx(torch.nn.init.calculate_gain(name, param))
    # nn.Linear's default init: kaiming_uniform(a=sqrt(5)) -> bound 1/sqrt(fan_in), as torch's layer draws
    torch.manual_seed(0)
    lin = torch.nn.Linear(50, 20)
    ours = kd.nn.init.kaiming_uniform((20, 50), a=math.sqrt(5), key=0).numpy()
    bound = 1 / math.sqrt(50)
    assert lin.weight.abs().max().item() <= bound and np.abs(ours).max() <= bound
    assert np.abs(ours).max() > 0.95 * bound


@pytest.mark.parametrize("ceil_mode", [False, True])
def test_pool_options(ceil_mode):
    x = rand(2, 3, 7, 6)
    t = torch.from_numpy(x)
    same(kd.nn.max_pool2d(kd.asarray(x), (3, 2), (2, 3), 1, (1, 2), ceil_mode),
         F.max_pool2d(t, (3, 2), (2, 3), 1, (1, 2), ceil_mode))
    for include in (True, False):
        same(kd.nn.avg_pool2d(kd.asarray(x), 3, 2, 1, ceil_mode, include),
             F.avg_pool2d(t, 3, 2, 1, ceil_mode, include))
        same(kd.nn.avg_pool1d(kd.asarray(x[:, :, 0]), 3, 2, 1, ceil_mode, include),
             F.avg_pool1d(t[:, :, 0], 3, 2, 1, ceil_mode, include))
    same(kd.nn.max_pool1d(kd.asarray(x[0, 0:2, 1]), 2, 2, 1, 1, ceil_mode),
         F.max_pool1d(t[0, 0:2, 1], 2, 2, 1, 1, ceil_mode))
    same(kd.nn.adaptive_avg_pool2d(kd.asarray(x), (4, None)), F.adaptive_avg_pool2d(t, (4, None)))
    same(kd.nn.adaptive_avg_pool1d(kd.asarray(x[0]), 4), F.adaptive_avg_pool1d(t[0], 4))


def test_cross_entropy_options_and_gradients():
    x, y = rand(5, 4, 3), RNG.integers(0, 4, (5, 3))
    y[0, 0] = 2
    w, probs = RNG.random(4).astype(np.float32) + 0.3, torch.softmax(torch.from_numpy(rand(5, 4, 3)), 1)
    tx = torch.from_numpy(x).requires_grad_(True)
    for reduction in ("mean", "sum", "none"):
        kw = dict(reduction=reduction, label_smoothing=0.2)
        ours = kd.nn.cross_entropy(kd.asarray(x), kd.asarray(y), kd.asarray(w), ignore_index=2, **kw)
        same(ours, F.cross_entropy(tx, torch.from_numpy(y), torch.from_numpy(w), ignore_index=2, **kw), atol=1e-4)
        same(kd.nn.cross_entropy(kd.asarray(x), kd.asarray(probs.numpy()), kd.asarray(w), **kw),
             F.cross_entropy(tx, probs, torch.from_numpy(w), **kw), atol=1e-4)
    same(kd.nn.nll_loss(kd.asarray(x), kd.asarray(y), kd.asarray(w)),
         F.nll_loss(tx, torch.from_numpy(y), torch.from_numpy(w)))
    # gradients: kd.grad against torch.autograd, weighted labels and weighted probabilities
    for target, theirs in ((kd.asarray(y), torch.from_numpy(y)), (kd.asarray(probs.numpy()), probs)):
        g = kd.grad(lambda z, t=target: kd.nn.cross_entropy(z, t, kd.asarray(w), label_smoothing=0.1))(kd.asarray(x))
        (tg,) = torch.autograd.grad(F.cross_entropy(tx, theirs, torch.from_numpy(w), label_smoothing=0.1), tx)
        same(g, tg)


def test_pool_gradients():
    x = rand(2, 2, 6, 5)
    tx = torch.from_numpy(x).requires_grad_(True)
    scale = rand(2, 2, 4, 3)
    for ours, theirs in ((lambda z: kd.nn.max_pool2d(z, 3, 2, 1, ceil_mode=True),
                          lambda z: F.max_pool2d(z, 3, 2, 1, ceil_mode=True)),
                         (lambda z: kd.nn.avg_pool2d(z, 3, 2, 1, True, False),
                          lambda z: F.avg_pool2d(z, 3, 2, 1, True, False)),
                         (lambda z: kd.nn.adaptive_avg_pool2d(z, (4, 3)),
                          lambda z: F.adaptive_avg_pool2d(z, (4, 3)))):
        g = kd.grad(lambda z, f=ours: (f(z) * kd.asarray(scale)).sum())(kd.asarray(x))
        (tg,) = torch.autograd.grad((theirs(tx) * torch.from_numpy(scale)).sum(), tx)
        same(g, tg)
