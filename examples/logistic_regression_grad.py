"""Logistic regression trained with kd.grad: examples/logistic_regression.py without the hand-written gradient.

The loss is written once; ``kd.value_and_grad`` derives the gradient as more lazy graph, and ``kd.jit`` records
the whole step (forward, backward, update) once and replays it. Part 1 is Kompute's seed example (w ~ [0.0003,
1.587], b ~ -0.794 after 100 steps of learning rate 0.1, as with the hand-written gradient); part 2 trains on a
small synthetic problem and prints the loss as it falls.

Run:  python examples/logistic_regression_grad.py [m n steps]
"""

from __future__ import annotations

import sys
import time

import numpy as np

import kdsl as kd


def loss(params: dict, x: kd.Array, y: kd.Array) -> kd.Array:
    """Mean logistic loss of the model sigmoid(x @ w + b)."""
    p = kd.sigmoid(x @ params["w"] + params["b"])
    return -(y * kd.log(p) + (1 - y) * kd.log1p(-p)).mean()


def make_step(lr: float):
    @kd.jit
    def step(w: kd.Array, b: kd.Array, x: kd.Array, y: kd.Array):
        value, grads = kd.value_and_grad(loss)({"w": w, "b": b}, x, y)
        return value, w - lr * grads["w"], b - lr * grads["b"]
    return step


def train(x: kd.Array, y: kd.Array, steps: int, lr: float, w0: float = 0.0, report: int = 0):
    """Gradient descent; returns (w, b, losses) with the loss before each step."""
    w, b = kd.full((x.shape[1],), w0), kd.zeros(())
    step = make_step(lr)
    losses = []
    for i in range(steps):
        value, w, b = step(w, b, x, y)
        losses.append(value)
        if report and i % report == 0:
            print(f"  step {i:4d}  loss {float(value):.4f}")
    return w, b, [float(v) for v in losses]


def seed_example() -> None:
    x = kd.stack([kd.asarray([0.0, 1.0, 1.0, 1.0, 1.0]), kd.asarray([0.0, 0.0, 0.0, 1.0, 1.0])], axis=1)
    y = kd.asarray([0.0, 0.0, 0.0, 1.0, 1.0])
    w, b, _ = train(x, y, steps=100, lr=0.1, w0=0.001)
    print(f"seed example: w = {np.round(w.numpy(), 4)}, b = {float(b):.4f}   (Kompute: w ~ [0.0003, 1.587], "
          "b ~ -0.794)")


def synthetic(m: int = 4096, n: int = 16, steps: int = 60) -> None:
    rng = np.random.default_rng(0)
    true_w = rng.standard_normal(n).astype(np.float32)
    xh = rng.standard_normal((m, n)).astype(np.float32)
    yh = (xh @ true_w + 0.5 * rng.standard_normal(m) > 0).astype(np.float32)
    x, y = kd.asarray(xh), kd.asarray(yh)
    print(f"synthetic {m} x {n}:")
    t0 = time.perf_counter()
    w, b, losses = train(x, y, steps=steps, lr=0.5, report=max(1, steps // 5))
    seconds = time.perf_counter() - t0
    acc = float(((kd.sigmoid(x @ w + b) > 0.5) == (y > 0.5)).astype(kd.float32).mean())
    print(f"after {steps} steps ({seconds * 1e3 / steps:.2f} ms/step on {kd.device().name}): "
          f"loss {losses[0]:.4f} -> {float(loss({'w': w, 'b': b}, x, y)):.4f}, accuracy {acc:.3f}")


if __name__ == "__main__":
    seed_example()
    synthetic(*(int(a) for a in sys.argv[1:4]))
