"""kd.optim against torch.optim on CPU over several steps, where PyTorch is installed (the NumPy references of
test_optim.py cover the same rules without it)."""

import numpy as np
import pytest

import kdsl as kd

torch = pytest.importorskip("torch", reason="PyTorch is not installed (a test-only extra: pip install torch)")


@pytest.mark.parametrize("ours,theirs", [
    (lambda: kd.optim.sgd(0.05, momentum=0.9, nesterov=True, weight_decay=0.01),
     lambda p: torch.optim.SGD(p, 0.05, momentum=0.9, nesterov=True, weight_decay=0.01)),
    (lambda: kd.optim.sgd(0.05, momentum=0.8, dampening=0.2),
     lambda p: torch.optim.SGD(p, 0.05, momentum=0.8, dampening=0.2)),
    (lambda: kd.optim.adam(0.01, weight_decay=0.1), lambda p: torch.optim.Adam(p, 0.01, weight_decay=0.1)),
    (lambda: kd.optim.adamw(0.01, betas=(0.8, 0.95)), lambda p: torch.optim.AdamW(p, 0.01, betas=(0.8, 0.95))),
    (lambda: kd.optim.adam(0.01, weight_decay=0.1, amsgrad=True),
     lambda p: torch.optim.Adam(p, 0.01, weight_decay=0.1, amsgrad=True)),
    (lambda: kd.optim.adamw(0.01, amsgrad=True, maximize=True),
     lambda p: torch.optim.AdamW(p, 0.01, amsgrad=True, maximize=True)),
    (lambda: kd.optim.sgd(0.05, momentum=0.8, dampening=0.2, weight_decay=0.1, maximize=True),
     lambda p: torch.optim.SGD(p, 0.05, momentum=0.8, dampening=0.2, weight_decay=0.1, maximize=True)),
])
def test_matches_torch_optim(ours, theirs):
    rng = np.random.default_rng(0)
    p0 = [rng.standard_normal((4, 3)), rng.standard_normal(3)]
    tp = [torch.tensor(p, requires_grad=True) for p in p0]
    topt = theirs(tp)
    opt = ours()
    params = [kd.asarray(p) for p in p0]
    state = opt.init(params)
    for i in range(6):
        g = [rng.standard_normal(p.shape) * (3.0 if i % 2 else 0.3) for p in p0]  # v rises and falls (AMSGrad)
        for t, gi in zip(tp, g, strict=True):
            t.grad = torch.tensor(gi)
        topt.step()
        params, state = opt.update([kd.asarray(gi) for gi in g], state, params)
        kd.optim.realize(params, state)
    for a, t in zip(params, tp, strict=True):
        np.testing.assert_allclose(a.numpy(), t.detach().numpy(), rtol=1e-6, atol=1e-7)
