"""What the digits examples share: scikit-learn's bundled 8x8 digits as device arrays, and a training loop
whose whole step (forward, backward, Adam update) is one kd.jit replay."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import kdsl as kd


def data(seed: int = 0):
    """Standardised digits (1797 images of 64 pixels) split 80/20: float32 images, int32 labels."""
    x, y = load_digits(return_X_y=True)
    x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.2, random_state=seed, stratify=y)
    mean, std = x_train.mean(), x_train.std()
    prep = lambda a: kd.asarray(((a - mean) / std).astype(np.float32))  # noqa: E731
    return prep(x_train), kd.asarray(y_train.astype(np.int32)), prep(x_test), kd.asarray(y_test.astype(np.int32))


def fit(forward: Callable, params: dict, epochs: int, batch: int = 128, lr: float = 3e-3, weight_decay: float = 0.0,
        seed: int = 0):
    """Train ``forward(params, x) -> logits`` with cross entropy and AdamW; returns (params, last loss, test
    accuracy)."""
    x_train, y_train, x_test, y_test = data(seed)
    opt = kd.optim.adamw(lr, weight_decay=weight_decay)
    state = opt.init(params)

    def loss(params, x, y):
        return kd.nn.cross_entropy(forward(params, x), y)

    @kd.jit
    def step(params, state, x, y):
        value, grads = kd.value_and_grad(loss)(params, x, y)
        params, state = opt.update(grads, state, params)
        return params, state, value

    n = x_train.shape[0] // batch * batch  # whole batches only: one recorded step serves them all
    order = np.random.default_rng(seed)
    value = kd.asarray(float("nan"))
    for _ in range(epochs):
        perm = kd.asarray(order.permutation(x_train.shape[0])[:n].astype(np.int32))
        xs, ys = x_train[perm], y_train[perm]
        for i in range(0, n, batch):
            params, state, value = step(params, state, xs[i:i + batch], ys[i:i + batch])
    accuracy = float((kd.argmax(forward(params, x_test), axis=1) == y_test).mean())
    return params, float(value), accuracy
