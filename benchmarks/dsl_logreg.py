"""100 steps of logistic regression on 100 000 x 16 (batch gradient descent, everything on the device), kdsl
against the same NumPy code and PyTorch when importable.

Run: python benchmarks/dsl_logreg.py [--m 100000 --n 16 --steps 100]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from dsl_common import table, torch_device, torch_module, torch_sync

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


def main(m: int, n: int, steps: int) -> None:
    rng = np.random.default_rng(0)
    hx = rng.normal(size=(m, n)).astype(np.float32)
    hy = (hx @ rng.normal(size=n).astype(np.float32) > 0).astype(np.float32)
    x, y = kd.asarray(hx), kd.asarray(hy)
    train(kd, x, y, 2, sigmoid=kd.sigmoid)  # compile the kernels once
    rows = []
    t0 = time.perf_counter()
    w, b = train(kd, x, y, steps, sigmoid=kd.sigmoid)
    w.numpy()
    t_kd = (time.perf_counter() - t0) * 1e3
    t0 = time.perf_counter()
    wn, bn = train(np, hx, hy, steps, sigmoid=lambda z: np.float32(1) / (np.float32(1) + np.exp(-z)))
    t_np = (time.perf_counter() - t0) * 1e3
    np.testing.assert_allclose(w.numpy(), wn, rtol=2e-3, atol=2e-4)
    row = [f"{m}x{n}", steps, t_np, t_kd, t_kd / steps, t_np / t_kd]
    torch = torch_module()
    if torch is not None:
        dev = torch_device(torch)
        tx, ty = torch.from_numpy(hx).to(dev), torch.from_numpy(hy).to(dev)
        t0 = time.perf_counter()
        train(torch, tx, ty, steps, sigmoid=torch.sigmoid)
        torch_sync(torch)
        row.append((time.perf_counter() - t0) * 1e3)
    rows.append(row)
    header = ["problem", "steps", "numpy ms", "kdsl ms", "kdsl ms/step", "numpy/kdsl"] + (["torch ms"] if torch else [])
    table("logistic regression, batch gradient descent", header, rows)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--m", type=int, default=100_000)
    parser.add_argument("--n", type=int, default=16)
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args()
    main(args.m, args.n, args.steps)
