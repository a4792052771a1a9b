"""``kd.nditer`` with ``op_flags=['readwrite']`` while the program also writes the array itself: NumPy's iterator
and the program share memory, so both kinds of writes stay (kdsl's iterator used to upload its stale host copy
over the program's writes when the iteration ended)."""

import gc
import sys

import numpy as np
import pytest

import kdsl as kd


def gradient_check(xp, W_host, X_host):
    """The numerical gradient of "Deep Learning from Scratch" (cs231n's eval_numerical_gradient)."""
    W, X = xp.asarray(W_host), xp.asarray(X_host)

    def f(W):
        return xp.sum(xp.tanh(X @ W) ** 2)

    grad = xp.zeros_like(W)
    it = xp.nditer(W, flags=["multi_index"], op_flags=["readwrite"])
    while not it.finished:
        idx = it.multi_index
        tmp_val = W[idx]
        W[idx] = float(tmp_val) + 1e-4
        fxh1 = f(W)
        W[idx] = tmp_val - 1e-4
        fxh2 = f(W)
        grad[idx] = (fxh1 - fxh2) / 2e-4
        W[idx] = tmp_val
        it.iternext()
    return np.asarray(grad), np.asarray(W)


def test_gradient_check_leaves_the_array_as_it_was():
    rng = np.random.default_rng(0)
    W, X = rng.normal(size=(3, 2)), rng.normal(size=(4, 3))
    g_np, W_np = gradient_check(np, W, X)
    g_kd, W_kd = gradient_check(kd, W, X)
    np.testing.assert_allclose(g_kd, g_np, rtol=1e-5, atol=1e-6)  # float64 host data stays float64
    np.testing.assert_array_equal(W_kd, W_np)


@pytest.mark.parametrize("xp", [np, kd])
def test_program_writes_during_the_iteration_stay(xp):
    W = xp.asarray(np.arange(6.0).reshape(2, 3))
    it = xp.nditer(W, flags=["multi_index"], op_flags=["readwrite"])
    W -= 1  # after the download: the iterator's copy is stale
    while not it.finished:
        W[it.multi_index] = W[it.multi_index] * 2
        it.iternext()
    assert np.asarray(W).tolist() == [[-2.0, 0.0, 2.0], [4.0, 6.0, 8.0]]


@pytest.mark.parametrize("xp", [np, kd])
def test_writes_through_the_iterator_and_by_the_program_both_stay(xp):
    a = xp.asarray(np.zeros((2, 3)))
    with xp.nditer(a, flags=["multi_index"], op_flags=["readwrite"]) as it:
        for x in it:
            i, j = it.multi_index
            if j == 0:
                x[...] = 10 * i + 1  # through the iterator
            else:
                a[i, j] = -(10 * i + j)  # by the program, on a (kdsl: the device array)
    assert np.asarray(a).tolist() == [[1.0, -1.0, -2.0], [11.0, -11.0, -12.0]]


def test_iterator_writes_of_a_view_reach_its_base_only_where_written():
    base = kd.asarray(np.arange(8.0).reshape(2, 4))
    view = base[:, 1::2]
    with kd.nditer(view, op_flags=["readwrite"]) as it:
        base[0, 0] = 100.0  # outside the view, and inside it after the download:
        base[1, 3] = 50.0
        for x in it:
            if float(x) == 1.0:
                x[...] = -1.0
    assert base.tolist() == [[100.0, -1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 50.0]]


def test_negative_zero_and_nan_written_through_the_iterator():
    a = kd.asarray(np.array([0.0, np.nan, 1.0]))
    with kd.nditer(a, op_flags=["readwrite"]) as it:
        for i, x in enumerate(it):
            if i == 0:
                x[...] = -0.0
    got = a.numpy()
    assert np.signbit(got[0]) and np.isnan(got[1]) and got[2] == 1.0


@pytest.mark.parametrize("xp", [np, kd])
def test_writes_before_a_break_stay(xp):
    a = xp.asarray(np.arange(6.0))
    for x in xp.nditer(a, op_flags=["readwrite"]):
        if float(x) > 2:
            break
        x[...] = -x
    assert np.asarray(a).tolist() == [0.0, -1.0, -2.0, 3.0, 4.0, 5.0]


def test_an_iterator_whose_construction_failed_is_dropped_quietly(monkeypatch):
    # NumPy refuses the flags: the half-built iterator's finaliser must not recurse through __getattr__
    raised = []
    monkeypatch.setattr(sys, "unraisablehook", raised.append)
    with pytest.raises(ValueError):
        kd.nditer(kd.arange(3.0), op_flags=["readwrite", "bogus"])
    gc.collect()
    assert raised == []


def test_ufunc_out_into_nditer_buffers():
    # NumPy's nditer guide: `mulop(a, b, out=c)` over the iterator's buffers (TypeError: a NumPy out refused,
    # though no kdsl array was involved: kd.nditer's buffers are NumPy's)
    x, y = kd.arange(2) + 1, kd.arange(3) + 1
    it = kd.nditer([x, y, None], ["external_loop"], [["readonly"], ["readonly"], ["writeonly", "allocate"]],
                   op_axes=[[0, -1], [-1, 0], None])
    with it:
        for a, b, c in it:
            kd.multiply(a, b, out=c)
        got = it.operands[2]
    np.testing.assert_array_equal(np.asarray(got), np.multiply.outer([1, 2], [1, 2, 3]))
    with pytest.raises(TypeError, match="NumPy out"):  # a kdsl operand into a NumPy out: still refused
        kd.add(kd.ones(2), 1, out=np.zeros(2))
