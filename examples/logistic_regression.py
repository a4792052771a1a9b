"""Logistic regression with kdsl arrays, trained on the GPU: every step is one lazy graph (forward, gradient,
update) realised in a single submission; the weights never visit the host until printed.

Part 1 is Kompute's seed example (x_i, x_j, y; 100 iterations, learning rate 0.1; Kompute's result
w ~ [0.0003, 1.587], b ~ -0.794). Part 2 trains on a synthetic 100 000 x 16 problem and prints loss and accuracy.

Run:  python examples/logistic_regression.py
"""

from __future__ import annotations

import time

import numpy as np

import kdsl as kd


def train(x: kd.Array, y: kd.Array, steps: int, lr: float, w0: float = 0.0):
    """Batch gradient descent on the mean logistic loss. Returns (w, b) as device arrays."""
    m, n = x.shape
    w = kd.full((n,), w0)
    b = kd.zeros(())
    for _ in range(steps):
        dz = kd.sigmoid(x @ w + b) - y    # forward + dloss/dz, fused into the matmul's consumer
        w = w - lr * ((x.T @ dz) / m)      # lr is a Python float: a push constant, not a new kernel
        b = b - lr * dz.mean()
        kd.realize(w, b)                   # one submission per step; results stay on the device
    return w, b


def loss_and_accuracy(x, y, w, b) -> tuple[float, float]:
    p = kd.sigmoid(x @ w + b)
    eps = 1e-7
    loss = -(y * kd.log(p + eps) + (1 - y) * kd.log(1 - p + eps)).mean()
    acc = ((p > 0.5) == (y > 0.5)).astype(kd.float32).mean()
    return float(loss), float(acc)


def seed_example() -> None:
    x_i = [0.0, 1.0, 1.0, 1.0, 1.0]
    x_j = [0.0, 0.0, 0.0, 1.0, 1.0]
    y = kd.asarray([0.0, 0.0, 0.0, 1.0, 1.0])
    x = kd.stack([kd.asarray(x_i), kd.asarray(x_j)], axis=1)
    w, b = train(x, y, steps=100, lr=0.1, w0=0.001)
    print(f"seed example: w = {np.round(w.numpy(), 4)}, b = {float(b):.4f}   (Kompute: w ~ [0.0003, 1.587], "
          "b ~ -0.794)")


def synthetic(m: int = 100_000, n: int = 16, steps: int = 100) -> None:
    kd.random.seed(0)
    true_w = kd.random.normal(size=n)
    x = kd.random.normal(size=(m, n))
    y = (x @ true_w + 0.5 * kd.random.normal(size=m) > 0).astype(kd.float32)
    kd.realize(true_w, x, y)
    print(f"synthetic {m} x {n}: before training loss/accuracy = "
          f"{loss_and_accuracy(x, y, kd.zeros(n), kd.zeros(()))}")
    t0 = time.perf_counter()
    w, b = train(x, y, steps=steps, lr=0.5)
    seconds = time.perf_counter() - t0
    loss, acc = loss_and_accuracy(x, y, w, b)
    print(f"after {steps} steps ({seconds * 1e3 / steps:.2f} ms/step on {kd.device().name}): "
          f"loss {loss:.4f}, accuracy {acc:.3f}")


if __name__ == "__main__":
    seed_example()
    synthetic()
