"""kd.grad against torch.autograd on the same functions (float32 and float64), where PyTorch is installed.

Run on a GPU machine too: ``pytest tests/autodiff/test_against_torch.py`` compares kdsl's gradients computed on
that device with PyTorch's."""

import numpy as np
import pytest

import kdsl as kd

torch = pytest.importorskip("torch", reason="PyTorch is not installed (a test-only extra: pip install torch)")
RNG = np.random.default_rng(7)


def _log_softmax_kd(z):
    m = kd.stop_gradient(z.max(axis=-1, keepdims=True))
    return z - m - kd.log(kd.exp(z - m).sum(axis=-1, keepdims=True))


def _mlp_kd(w1, b1, w2, x, labels):
    h = kd.relu(x @ w1 + b1)
    logp = _log_softmax_kd(h @ w2)
    return -kd.take_along_axis(logp, labels[:, None], axis=1).mean()


def _mlp_torch(w1, b1, w2, x, labels):
    h = torch.relu(x @ w1 + b1)
    return torch.nn.functional.cross_entropy(h @ w2, labels)


def _layer_norm_kd(x, g, b):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return ((x - mu) / kd.sqrt(var + 1e-5) * g + b).sum() * 0.1 + (kd.tanh(x) ** 3).sum()


def _layer_norm_torch(x, g, b):
    return torch.nn.functional.layer_norm(x, x.shape[-1:], g, b, 1e-5).sum() * 0.1 + (torch.tanh(x) ** 3).sum()


def _attention_kd(q, k, v):
    s = q @ k.swapaxes(-1, -2) / np.sqrt(q.shape[-1])
    p = kd.exp(_log_softmax_kd(s))
    return ((p @ v) ** 2).sum()


def _attention_torch(q, k, v):
    s = q @ k.transpose(-1, -2) / np.sqrt(q.shape[-1])
    return ((torch.softmax(s, -1) @ v) ** 2).sum()


def _embedding_kd(table, idx):
    e = table[idx]
    return (kd.sort(e, axis=-1) * kd.cumsum(e, axis=0)).sum() + kd.cumprod(e[:, :3], axis=1).sum()


def _embedding_torch(table, idx):
    e = table[idx]
    return (torch.sort(e, -1).values * torch.cumsum(e, 0)).sum() + torch.cumprod(e[:, :3], 1).sum()


CASES = {
    "mlp": (_mlp_kd, _mlp_torch, [(5, 8), (8,), (8, 4), (6, 5)], lambda: np.array([0, 3, 1, 1, 2, 0])),
    "layer_norm": (_layer_norm_kd, _layer_norm_torch, [(3, 7), (7,), (7,)], None),
    "attention": (_attention_kd, _attention_torch, [(2, 4, 3), (2, 5, 3), (2, 5, 3)], None),
    "embedding_sort_scans": (_embedding_kd, _embedding_torch, [(6, 4)], lambda: np.array([5, 0, 5, 2, 1])),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name, dtype):
    kd_fn, torch_fn, shapes, extra = CASES[name]
    hosts = [RNG.standard_normal(s).astype(dtype) for s in shapes]
    tail = [] if extra is None else [extra()]
    tensors = [torch.tensor(h, requires_grad=True) for h in hosts]
    want = torch_fn(*tensors, *[torch.tensor(t) for t in tail])
    want.backward()
    value, grads = kd.value_and_grad(kd_fn, argnums=tuple(range(len(hosts))))(
        *[kd.asarray(h) for h in hosts], *[kd.asarray(t) for t in tail])
    tol = dict(rtol=2e-4, atol=2e-5) if dtype == "float32" else dict(rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(float(value), want.item(), **tol)
    for g, t in zip(grads, tensors, strict=True):
        assert g.dtype.name == dtype
        np.testing.assert_allclose(g.numpy(), t.grad.numpy(), **tol)


def test_conventions_match_torch():
    x = np.array([-1.0, 0.0, 0.0, 2.0, 2.0])
    for kd_fn, torch_fn in [(lambda a: kd.relu(a).sum(), lambda a: torch.relu(a).sum()),
                            (lambda a: kd.abs(a).sum(), lambda a: torch.abs(a).sum()),
                            (lambda a: a.max(), lambda a: torch.amax(a)),
                            (lambda a: (a ** 0.0 + a ** 2.0).sum(), lambda a: (a ** 0.0 + a ** 2).sum()),
                            (lambda a: kd.maximum(a, a[::-1]).sum(), lambda a: torch.maximum(a, a.flip(0)).sum())]:
        t = torch.tensor(x, requires_grad=True)
        torch_fn(t).backward()
        np.testing.assert_array_equal(kd.grad(kd_fn)(kd.asarray(x)).numpy(), t.grad.numpy())
