"""A training-style ``kd.jit`` step replays its recorded command buffer: its intermediates are the trace's own
buffers, its outputs alternate between two buffer sets, and every kernel keeps both sets bound (before, a char
transformer step never replayed: 239 dispatches recorded again every step)."""

import threading

import numpy as np

import kdsl as kd


def _step(params, lr):
    # many parameters of one shape: the update kernel runs once per parameter, on new buffers each step
    new = []
    for p in params:
        g = kd.tanh(p * 2.0) + (p * p).sum(axis=0, keepdims=True) * 0.01  # intermediates of their own
        new.append(p - lr * g)
    return new


def _reference(params, lr):
    return [p - lr * (np.tanh(p * 2.0) + (p * p).sum(axis=0, keepdims=True) * 0.01) for p in params]


def test_a_step_over_many_same_shaped_parameters_replays():
    rng = np.random.default_rng(3)
    host = [rng.standard_normal((16, 8)).astype(np.float32) for _ in range(24)]
    params = [kd.asarray(h) for h in host]
    step = kd.jit(lambda *ps: _step(ps, 0.1))
    for _ in range(4):  # trace, then record both buffer sets (the first outputs come from the trace)
        params, host = step(*params), _reference(host, 0.1)
    before = kd.stats()["replays"]
    for _ in range(8):
        params, host = step(*params), _reference(host, 0.1)
    assert kd.stats()["replays"] - before == 8
    for got, want in zip(params, host, strict=True):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6)


def test_the_trace_intermediates_are_reused_and_threads_get_their_own():
    step = kd.jit(lambda x: (kd.exp(x) * 2).sum(axis=1) + x[:, 0])
    x = kd.asarray(np.arange(12, dtype=np.float32).reshape(3, 4) / 10)
    want = (np.exp(x.numpy()) * 2).sum(axis=1) + x.numpy()[:, 0]
    np.testing.assert_allclose(step(x).numpy(), want, rtol=1e-6)
    (trace,) = step.traces.values()
    temps = {p: id(b.tensor) for p, b in (trace.temps or {}).items()}
    np.testing.assert_allclose(step(x).numpy(), want, rtol=1e-6)
    assert {p: id(b.tensor) for p, b in (trace.temps or {}).items()} == temps
    errors = []

    def worker(k):
        xk = kd.asarray(np.full((3, 4), k / 10, np.float32))
        wk = (np.exp(np.full((3, 4), k / 10, np.float32)) * 2).sum(axis=1) + k / 10
        for _ in range(30):
            got = step(xk).numpy()
            if not np.allclose(got, wk, rtol=1e-5):
                errors.append((k, got, wk))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
