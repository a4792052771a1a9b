"""Complex reductions, scans, matrix products, creation and movement against NumPy."""

import numpy as np
import pytest
from cx_testing import ARITH_RTOL, CDTYPES, assert_complex_close, csample, need

import kdsl as kd


@pytest.mark.parametrize("cd", CDTYPES)
@pytest.mark.parametrize("shape,axis", [((0,), None), ((1,), 0), ((37,), None), ((4, 300), 1), ((4, 300), 0),
                                        ((3, 5, 2), (0, 2)), ((2, 0, 3), 1)], ids=str)
def test_sum_prod_mean(cd, shape, axis):
    need(cd)
    a = csample(shape, cd, seed=12, scale=1.0)
    x = kd.asarray(a)
    n = max(1, a.size)
    assert_complex_close(x.sum(axis=axis), a.sum(axis=axis), n * ARITH_RTOL[cd], atol=n * ARITH_RTOL[cd],
                         zero_sign=False)
    assert_complex_close(kd.sum(x, axis=axis, keepdims=True), a.sum(axis=axis, keepdims=True), n * ARITH_RTOL[cd],
                         atol=n * ARITH_RTOL[cd], zero_sign=False)
    assert_complex_close(x.prod(axis=axis), a.prod(axis=axis), 4 * n * ARITH_RTOL[cd], atol=1e-30,
                         zero_sign=False)
    if all(s for s in np.sum(np.zeros(shape), axis=axis, keepdims=True).shape) and a.size:
        assert_complex_close(x.mean(axis=axis), a.mean(axis=axis), n * ARITH_RTOL[cd], atol=n * ARITH_RTOL[cd],
                             zero_sign=False)


@pytest.mark.parametrize("cd", CDTYPES)
def test_var_std_nan_aware(cd):
    need(cd)
    a = csample((6, 7), cd, seed=13)
    x = kd.asarray(a)
    for fn in ("var", "std"):
        got, want = getattr(kd, fn)(x, axis=1), getattr(np, fn)(a, axis=1)
        assert_complex_close(got, want, 100 * ARITH_RTOL[cd])  # real results, as NumPy's
    a[2, 3] = complex(np.nan, 1)
    y = kd.asarray(a)
    for fn in ("nansum", "nanmean", "nanprod"):
        assert_complex_close(getattr(kd, fn)(y, axis=1), getattr(np, fn)(a, axis=1), 100 * ARITH_RTOL[cd],
                             zero_sign=False)
    for fn in ("nanvar", "nanstd"):
        assert_complex_close(getattr(kd, fn)(y, axis=1), getattr(np, fn)(a, axis=1), 100 * ARITH_RTOL[cd])


@pytest.mark.parametrize("cd", CDTYPES)
def test_cumulative(cd):
    need(cd)
    a = csample((3, 40), cd, seed=14, scale=1.2)
    x = kd.asarray(a)
    assert_complex_close(kd.cumsum(x, axis=1), np.cumsum(a, axis=1), 50 * ARITH_RTOL[cd], atol=50 * ARITH_RTOL[cd],
                         zero_sign=False)
    assert_complex_close(kd.cumprod(x, axis=1), np.cumprod(a, axis=1), 200 * ARITH_RTOL[cd], atol=1e-30,
                         zero_sign=False)
    assert_complex_close(kd.cumsum(x), np.cumsum(a), 200 * ARITH_RTOL[cd], atol=200 * ARITH_RTOL[cd],
                         zero_sign=False)


@pytest.mark.parametrize("cd", CDTYPES)
@pytest.mark.parametrize("sa,sb", [((5, 70), (70, 90)), ((70, 70), (70, 90)), ((3,), (3, 4)), ((4, 3), (3,)),
                                   ((2, 1, 4, 6), (3, 6, 5)), ((0, 4), (4, 3)), ((6,), (6,))], ids=str)
def test_matmul(cd, sa, sb):
    need(cd)
    a, b = csample(sa, cd, seed=15, scale=1.0), csample(sb, cd, seed=16, scale=1.0)
    k = sa[-1]
    assert_complex_close(kd.asarray(a) @ kd.asarray(b), a @ b, 4 * k * ARITH_RTOL[cd], atol=4 * k * ARITH_RTOL[cd],
                         zero_sign=False)


@pytest.mark.parametrize("cd", CDTYPES)
def test_matmul_mixed_and_views(cd):
    need(cd)
    a, b = csample((40, 30), cd, seed=17, scale=1.0), csample((30, 80), cd, seed=18, scale=1.0)
    r = np.random.default_rng(0).uniform(-1, 1, (30, 80)).astype(np.float32)
    tol = 200 * ARITH_RTOL[cd]
    x, y = kd.asarray(a), kd.asarray(b)
    assert_complex_close(x @ kd.asarray(r), a @ r, tol, atol=tol, zero_sign=False)
    assert_complex_close(kd.asarray(r.T) @ x.T, r.T @ a.T, tol, atol=tol, zero_sign=False)
    assert_complex_close(x[::2] @ y[:, 1::3], a[::2] @ b[:, 1::3], tol, atol=tol, zero_sign=False)
    assert_complex_close(kd.dot(x, y), np.dot(a, b), tol, atol=tol, zero_sign=False)
    assert_complex_close(kd.matmul(x * 1j, y), (a * np.dtype(cd).type(1j)) @ b, tol, atol=tol, zero_sign=False)


@pytest.mark.parametrize("cd", CDTYPES)
def test_vdot_vecdot_conjugate_the_first_argument(cd):
    need(cd)
    a, b = csample((4, 9), cd, seed=19), csample((4, 9), cd, seed=20)
    x, y = kd.asarray(a), kd.asarray(b)
    tol = 40 * ARITH_RTOL[cd]
    assert_complex_close(kd.vdot(x, y), np.asarray(np.vdot(a, b)), tol, atol=tol, zero_sign=False)
    assert kd.vdot(x, y).shape == ()
    assert_complex_close(kd.vecdot(x, y), np.vecdot(a, b), tol, atol=tol, zero_sign=False)
    assert_complex_close(kd.vecdot(x, y, axis=0), np.vecdot(a, b, axis=0), tol, atol=tol, zero_sign=False)
    r = np.arange(9, dtype=np.float32)
    assert_complex_close(kd.vdot(kd.asarray(r), y[0]), np.asarray(np.vdot(r, b[0])), tol, atol=tol,
                         zero_sign=False)
    with pytest.raises(ValueError, match="different sizes"):
        kd.vdot(x, y[0])


@pytest.mark.parametrize("cd", CDTYPES)
def test_creation(cd):
    need(cd)
    d = getattr(kd, cd)
    for got, want in ((kd.zeros((2, 3), dtype=d), np.zeros((2, 3), cd)), (kd.ones(4, dtype=cd), np.ones(4, cd)),
                      (kd.full((2, 2), 1 - 2j, dtype=d), np.full((2, 2), 1 - 2j, cd)),
                      (kd.zeros_like(kd.ones(3, dtype=d)), np.zeros(3, cd)),
                      (kd.full_like(kd.ones(3, dtype=d), 2j), np.full(3, 2j, cd)),
                      (kd.eye(3, dtype=d), np.eye(3, dtype=cd)), (kd.empty((0, 2), dtype=d), np.empty((0, 2), cd))):
        assert_complex_close(got, want, 0)
    assert kd.full(3, 1j).dtype is kd.complex64  # a Python complex fill: the default complex
    assert kd.empty_like(kd.ones(2, dtype=d)).dtype is d


@pytest.mark.parametrize("cd", CDTYPES)
def test_movement_and_indexing(cd):
    need(cd)
    a, b = csample((4, 6), cd, seed=21, special=True), csample((4, 6), cd, seed=22)
    x, y = kd.asarray(a), kd.asarray(b)
    for got, want in ((kd.concatenate([x, y], axis=1), np.concatenate([a, b], axis=1)),
                      (kd.stack([x, y]), np.stack([a, b])), (x.reshape(3, 8), a.reshape(3, 8)),
                      (x.T, a.T), (kd.transpose(x)[::-1, 2:], a.T[::-1, 2:]), (kd.flip(x, 0), np.flip(a, 0)),
                      (kd.broadcast_to(x[:1], (3, 6)), np.broadcast_to(a[:1], (3, 6))),
                      (x[kd.asarray([2, 0])], a[[2, 0]]), (kd.roll(x, 2, axis=1), np.roll(a, 2, axis=1)),
                      (kd.tril(x), np.tril(a)), (kd.take(x, kd.asarray([1, 5]), axis=1), np.take(a, [1, 5], axis=1)),
                      (x[kd.asarray(a.real > 0)], a[a.real > 0])):
        assert_complex_close(got, want, 0)
    z = kd.asarray(a.copy())
    z[1:3, ::2] = y[1:3, ::2] * 2
    want = a.copy()
    want[1:3, ::2] = b[1:3, ::2] * 2
    assert_complex_close(z, want, 0)


def test_numpy_protocols_stay_on_device():
    a = csample((5,), "complex64", seed=23)
    x = kd.asarray(a)
    for got, want in ((np.exp(x), np.exp(a)), (np.conj(x), np.conj(a)), (np.abs(x), np.abs(a)),
                      (np.sum(x), np.asarray(np.sum(a))), (np.real(x), np.real(a)),
                      (np.multiply(x, 2j), a * np.complex64(2j)), (np.add(1j, x), np.complex64(1j) + a)):
        assert isinstance(got, kd.Array), type(got)
        assert_complex_close(got, want, 1e-5, atol=1e-5, zero_sign=False)


def test_jit_with_complex_arguments():
    @kd.jit
    def f(x, c):
        return kd.abs(x * c) + kd.real(x)

    a = csample((8,), "complex64", seed=24)
    for c in (1j, 2 - 1j):
        assert_complex_close(f(kd.asarray(a), c), np.abs(a * np.complex64(c)) + a.real, 1e-5, atol=1e-5)
