"""100 steps of logistic regression on 100 000 x 16 (batch gradient descent, everything on the device), kdsl
against the same NumPy code and PyTorch when importable.

Every peer runs the whole training once untimed (compiling / warming up) and is checked against NumPy before
its timed runs; the table reports medians.

Run: python benchmarks/dsl_logreg.py [--m 100000 --n 16 --steps 100 --repeat 5]
"""

from __future__ import annotations

import argparse

import numpy as np
from dsl_common import median_ms, table, torch_device, torch_module, torch_sync

import kdsl as kd


def train(xp, x, y, steps: int, lr: float = 0.5, sigmoid=None):
    m, n = x.shape
    if xp.__name__ == "torch":
        w, b = xp.zeros(n, dtype=xp.float32, device=x.device), xp.zeros((), dtype=xp.float32, device=x.device)
    else:
        w, b = xp.zeros(n, dtype=xp.float32), xp.zeros((), dtype=xp.float32)
    for _ in range(steps):
        dz = sigmoid(x @ w + b) - y
        w = w - lr * ((x.T @ dz) / m)
        b = b - lr * dz.mean()
        if xp is kd:
            kd.realize(w, b)
    return w, b


def main(m: int, n: int, steps: int, repeat: int) -> None:
    rng = np.random.default_rng(0)
    hx = rng.normal(size=(m, n)).astype(np.float32)
    hy = (hx @ rng.normal(size=n).astype(np.float32) > 0).astype(np.float32)
    x, y = kd.asarray(hx), kd.asarray(hy)

    def np_sigmoid(z):
        return np.float32(1) / (np.float32(1) + np.exp(-z))

    wn, _ = train(np, hx, hy, steps, sigmoid=np_sigmoid)  # the reference result, and NumPy's warm-up run
    w, _ = train(kd, x, y, steps, sigmoid=kd.sigmoid)  # kdsl's warm-up run: compiles every kernel
    np.testing.assert_allclose(w.numpy(), wn, rtol=2e-3, atol=2e-4)
    t_np = median_ms(lambda: train(np, hx, hy, steps, sigmoid=np_sigmoid), repeat)
    t_kd = median_ms(lambda: train(kd, x, y, steps, sigmoid=kd.sigmoid)[0].numpy(), repeat)
    row = [f"{m}x{n}", steps, t_np, t_kd, t_kd / steps, t_np / t_kd]
    torch = torch_module()
    if torch is not None:
        dev = torch_device(torch)
        tx, ty = torch.from_numpy(hx).to(dev), torch.from_numpy(hy).to(dev)

        def run_torch():
            out = train(torch, tx, ty, steps, sigmoid=torch.sigmoid)
            torch_sync(torch)
            return out

        tw, _ = run_torch()  # PyTorch's warm-up run, checked against NumPy like kdsl's
        np.testing.assert_allclose(tw.cpu().numpy(), wn, rtol=2e-3, atol=2e-4)
        t_torch = median_ms(run_torch, repeat)
        row += [t_torch, t_kd / t_torch]
    header = ["problem", "steps", "numpy ms", "kdsl ms", "kdsl ms/step", "numpy/kdsl"]
    header += ["torch ms", "kdsl/torch"] if torch is not None else []
    table(f"logistic regression, batch gradient descent (median of {repeat} runs after one warm-up run each)",
          header, [row])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--m", type=int, default=100_000)
    parser.add_argument("--n", type=int, default=16)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    main(args.m, args.n, args.steps, args.repeat)
