"""Checking kd.grad against central finite differences in float64 (shared by the autodiff tests)."""

from __future__ import annotations

import numpy as np

import kdsl as kd

EPS = 1e-6


def _scalar(f, weights):
    """f's output projected on fixed random weights: a scalar whose gradient exercises every output element."""
    w = kd.asarray(weights)

    def loss(*xs):
        y = f(*xs)
        return (y * w).sum() if y.ndim else y * 1.0
    return loss


def numeric_grad(loss, xs, k, rng, directions=2):
    """Central differences of ``loss`` in argument ``k``: every element for small arrays, else the projections
    on a few random directions (returned as (directions, expected dot products)). The perturbations are made
    on the device (a lazy one-hot), so each evaluation is one submission."""
    x = xs[k]

    def at(step):
        args = list(xs)
        args[k] = x + step
        return float(loss(*args))

    if x.size <= 12:
        out = np.zeros(x.shape)
        flat = kd.arange(x.size).reshape(x.shape)
        for j, i in enumerate(np.ndindex(x.shape)):
            onehot = (flat == j).astype(kd.float64)
            out[i] = (at(onehot * EPS) - at(onehot * -EPS)) / (2 * EPS)
        return out, None
    dirs, dots = [], []
    for _ in range(directions):
        v = rng.standard_normal(x.shape)
        vd = kd.asarray(v)
        dirs.append(v)
        dots.append((at(vd * EPS) - at(vd * -EPS)) / (2 * EPS))
    return dirs, dots


def check_grad(f, *hosts, argnums=None, rtol=1e-5, atol=1e-6, seed=0):
    """kd.grad of ``f`` (any output shape, projected to a scalar) against central differences, in float64."""
    rng = np.random.default_rng(seed)
    hosts = [np.asarray(h, dtype=np.float64) for h in hosts]
    probe = f(*[kd.asarray(h) for h in hosts])
    weights = rng.standard_normal(probe.shape)
    loss = _scalar(f, weights)
    nums = tuple(range(len(hosts))) if argnums is None else argnums
    xs = [kd.asarray(h) for h in hosts]
    grads = kd.grad(loss, argnums=nums)(*xs)
    for k, g in zip(nums, grads, strict=True):
        assert g.shape == hosts[k].shape and g.dtype == kd.float64
        got = g.numpy()
        want, dots = numeric_grad(loss, xs, k, rng)
        if dots is None:
            np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=f"argument {k}")
        else:
            for v, d in zip(want, dots, strict=True):
                np.testing.assert_allclose(float((got * v).sum()), d, rtol=rtol, atol=atol * v.size,
                                           err_msg=f"argument {k}")
    return grads


def check_elementwise_grad(f, host, rtol=1e-5, atol=1e-6, seed=0):
    """kd.grad of an elementwise ``f`` against central differences taken on all elements at once (the
    Jacobian is diagonal): two evaluations whatever the size."""
    rng = np.random.default_rng(seed)
    x = kd.asarray(np.asarray(host, dtype=np.float64))
    weights = rng.standard_normal(x.shape)
    g = kd.grad(_scalar(f, weights))(x)
    assert g.shape == x.shape and g.dtype == kd.float64
    diag = (f(x + EPS).numpy() - f(x - EPS).numpy()) / (2 * EPS)
    np.testing.assert_allclose(g.numpy(), weights * diag, rtol=rtol, atol=atol)
