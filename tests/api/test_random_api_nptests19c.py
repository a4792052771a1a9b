"""NumPy's own random tests (numpy/random/tests/test_generator_mt19937.py) on API behaviour: errors and their
messages, ``out=`` layouts, ``permuted``'s ``out``, all-zero Dirichlet weights. Each case runs on NumPy's
Generator and on kdsl's and compares the outcome (the drawn values differ by design: Philox streams)."""

import sys

import numpy as np
import pytest

import kdsl as kd


def outcome(call):
    """('ok', dtype, shape) or (exception type, message) of ``call``."""
    try:
        v = call()
    except Exception as e:  # noqa: BLE001 - the exception itself is what is compared
        return type(e), str(e)
    return "ok", np.dtype(str(np.asarray(v).dtype)), np.shape(v)


def same_error(call_np, call_kd, exact=True):
    want, got = outcome(call_np), outcome(call_kd)
    assert want[0] != "ok" and got[0] is want[0], (got, want)
    assert got[1] == want[1] if exact else got[1].startswith(want[1]), (got, want)


def rngs():
    return np.random.default_rng(0), kd.random.default_rng(0)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int32, np.int64, np.uint64])
@pytest.mark.parametrize("endpoint", [False, True])
@pytest.mark.parametrize("case", ["low below", "high above", "reversed", "both out"])
def test_integers_host_array_bounds_checked(dtype, endpoint, case):
    lb = 0 if dtype is np.bool_ else int(np.iinfo(dtype).min)
    ub = 2 if dtype is np.bool_ else int(np.iinfo(dtype).max) + 1
    ub = ub - 1 if endpoint else ub
    low, high = {"low below": ([lb - 1], ub), "high above": ([lb], [ub + 1]), "reversed": (1, [0]),
                 "both out": ([lb - 1], [ub])}[case]
    n, k = rngs()
    same_error(lambda: n.integers(low, high, endpoint=endpoint, dtype=dtype),
               lambda: k.integers(low, high, endpoint=endpoint, dtype=dtype))


@pytest.mark.parametrize("endpoint", [False, True])
@pytest.mark.parametrize("bounds", [(-1, -2), (5, 5), (3, 1)])
def test_integers_reversed_bounds_say_numpys_words(endpoint, bounds):
    n, k = rngs()
    if endpoint and bounds[0] == bounds[1]:
        assert int(k.integers(*bounds, endpoint=True)) == bounds[0]
        return
    same_error(lambda: n.integers(*bounds, endpoint=endpoint), lambda: k.integers(*bounds, endpoint=endpoint),
               exact=False)


@pytest.mark.parametrize("dtype", ["i4", "u2", "i8"])
def test_integers_non_native_byteorder(dtype):
    other = (">" if sys.byteorder == "little" else "<") + dtype
    n, k = rngs()
    same_error(lambda: n.integers(0, 200, size=10, dtype=other), lambda: k.integers(0, 200, size=10, dtype=other))
    native = ("<" if sys.byteorder == "little" else ">") + dtype
    assert k.integers(0, 200, size=10, dtype=native).shape == (10,)


@pytest.mark.parametrize("mean,cov", [([0, 0], [[1 + 1j, 0], [0, 1]]), ([0 + 1j, 0], [[1, 0], [0, 1]]),
                                      (np.zeros(2, complex), np.eye(2))])
def test_multivariate_normal_rejects_complex(mean, cov):
    n, k = rngs()
    same_error(lambda: n.multivariate_normal(mean, cov), lambda: k.multivariate_normal(mean, cov))


@pytest.mark.parametrize("method,args,size", [
    ("noncentral_f", (np.ones((5, 4, 3)), 1.0, 1.0), (6, 5, 1, 1)),
    ("normal", (np.zeros((2, 3)),), (3,)),
    ("uniform", (np.zeros((4, 1)), np.ones(3)), (2, 4, 1)),
    ("gamma", (np.ones(3),), (3, 1)),
])
def test_size_that_parameters_broadcast_past(method, args, size):
    n, k = rngs()
    same_error(lambda: getattr(n, method)(*args, size=size), lambda: getattr(k, method)(*args, size=size))


def test_size_that_parameters_cannot_broadcast_to_is_numpys_shape_mismatch():
    n, k = rngs()
    want, got = outcome(lambda: n.normal(np.zeros(3), size=2)), outcome(lambda: k.normal(np.zeros(3), size=2))
    assert want[0] is got[0] is ValueError and "shape mismatch" in want[1] and "shape mismatch" in got[1]


@pytest.mark.parametrize("method", ["random", "standard_normal"])
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_out_in_either_contiguous_order(method, order, dtype):
    out = np.zeros((2, 3), order=order, dtype=dtype)
    variates = getattr(kd.random.default_rng(0), method)(out=out, dtype=dtype)
    assert variates is out and (out != 0).any()
    again = np.zeros((2, 3), order=order, dtype=dtype)
    getattr(kd.random.default_rng(0), method)(out=again, dtype=dtype)
    np.testing.assert_array_equal(out, again)  # same seed, same values, whatever the layout


@pytest.mark.parametrize("bad", ["strided", "read-only", "byteswapped"])
def test_out_not_one_writable_block(bad):
    out = {"strided": lambda: np.zeros((2, 6))[:, ::2],
           "read-only": lambda: np.zeros((2, 3)),
           "byteswapped": lambda: np.zeros((2, 3), dtype=np.float64).view(np.float64).byteswap().view(
               np.dtype(np.float64).newbyteorder())}[bad]()
    if bad == "read-only":
        out.flags.writeable = False
    n, k = rngs()
    same_error(lambda: n.random(out=out), lambda: k.random(out=out))


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.float32])
def test_permuted_into_a_numpy_out(axis, dtype):
    x = np.arange(15, dtype=dtype).reshape(3, 5)
    out = np.empty_like(x)
    got = kd.random.default_rng(1).permuted(x, axis=axis, out=out)
    assert got is out
    if axis is None:
        np.testing.assert_array_equal(np.sort(out, axis=None), np.sort(x, axis=None))
    else:
        np.testing.assert_array_equal(np.sort(out, axis=axis), x)
    assert not np.array_equal(out, x)  # 15! orders: the identity at one fixed seed would be a bug


def test_permuted_in_place_on_a_numpy_array():
    x = np.arange(12.0).reshape(2, 6)
    y = kd.random.default_rng(2).permuted(x, axis=1, out=x)
    assert y is x and sorted(x[0]) == list(range(6)) and sorted(x[1]) == list(range(6, 12))


@pytest.mark.parametrize("case", ["wrong type", "wrong kdsl type", "read-only", "shape", "not an array"])
def test_permuted_out_errors(case):
    x = np.ones((3, 5))
    out = {"wrong type": lambda: np.zeros((3, 5), dtype=np.int32),
           "wrong kdsl type": lambda: np.zeros((3, 5), dtype=np.int32),
           "read-only": lambda: x,
           "shape": lambda: np.zeros((5, 3)),
           "not an array": lambda: [[0.0] * 5] * 3}[case]()
    if case == "read-only":
        x.flags.writeable = False
    n, k = rngs()
    kd_out = kd.asarray(out) if case == "wrong kdsl type" else out
    want, got = outcome(lambda: n.permuted(x, axis=1, out=out)), outcome(lambda: k.permuted(x, axis=1, out=kd_out))
    assert got[0] is want[0], (got, want)
    if case in ("wrong type", "read-only"):
        assert got[1] == want[1]
    if case == "shape":
        assert "same shape" in got[1] and "same shape" in want[1]


@pytest.mark.parametrize("alpha", [[0.0], [0, 0, 0], [5, 9, 0, 8], [0.5, 0, 0, 0], [1e-5, 0, 0, 0]])
@pytest.mark.parametrize("size", [None, 4, (2, 3)])
def test_dirichlet_zero_alphas_give_zero(alpha, size):
    alpha = np.array(alpha, dtype=float)
    y = kd.random.default_rng(3).dirichlet(alpha, size=size).numpy()
    want = np.random.default_rng(3).dirichlet(alpha, size=size)
    assert y.shape == want.shape and not np.isnan(y).any()
    np.testing.assert_array_equal(y[..., alpha == 0], 0.0)
    if alpha.any():
        np.testing.assert_allclose(y.sum(axis=-1), 1.0, rtol=1e-5)
    else:
        np.testing.assert_array_equal(y, want)  # all zero: NumPy's zeros, not 0/0


@pytest.mark.parametrize("size", [None, 4, (7, 5, 3)])
@pytest.mark.parametrize("legacy", [False, True])
def test_multinomial_without_categories(size, legacy):
    n, k = (np.random.RandomState(0), kd.random.RandomState(0)) if legacy else rngs()
    want, got = outcome(lambda: n.multinomial(10, [], size=size)), outcome(lambda: k.multinomial(10, [], size=size))
    if legacy:  # the RandomState draws zero counts of shape size + (0,)
        assert got[0] == want[0] == "ok" and got[2] == want[2]
    else:  # the Generator refuses, with NumPy's message, rows of no categories too
        assert got == want, (got, want)
        same_error(lambda: n.multinomial(10, np.zeros((3, 0))), lambda: k.multinomial(10, np.zeros((3, 0))))


TINY = np.finfo(np.float64).tiny


@pytest.mark.parametrize("a,b", [(TINY / 32, TINY / 40), (1e-49, 1e-40), (1e-300, 3e-300), (5e-46, 5e-46)])
@pytest.mark.parametrize("legacy", [False, True])
def test_beta_parameters_below_float32_are_not_nan(a, b, legacy):
    """NumPy's gh-24266 regression: subnormal a, b gave NaN. Here they round to 0 in float32; the draw is then
    their limit law, 1 with probability a / (a + b) (NumPy's float64 draws agree: compared below)."""
    n = 20000
    rng = kd.random.RandomState(5) if legacy else kd.random.default_rng(5)
    x = rng.beta(a, b, size=n).numpy()
    assert not np.isnan(x).any() and np.isin(x, [0.0, 1.0]).all()
    p = a / (a + b)
    assert abs(x.mean() - p) <= 6 * np.sqrt(p * (1 - p) / n) + 1e-12
    want = np.random.default_rng(5).beta(a, b, size=n)
    assert abs((want > 0.5).mean() - p) <= 6 * np.sqrt(p * (1 - p) / n) + 1e-12  # NumPy's own law, same p


def test_beta_mixed_tiny_and_ordinary_parameters():
    a = np.array([TINY / 32, 2.0, 0.5, 1e-50])
    b = np.array([TINY / 40, 3.0, 0.5, 1e-50])
    x = kd.random.default_rng(6).beta(a, b, size=(20000, 4)).numpy()
    assert not np.isnan(x).any()
    assert abs(x[:, 1].mean() - 0.4) < 0.01 and abs(x[:, 2].mean() - 0.5) < 0.015  # ordinary columns: Beta means
    assert np.isin(x[:, [0, 3]], [0.0, 1.0]).all() and abs(x[:, 3].mean() - 0.5) < 0.03


@pytest.mark.parametrize("seed", [[-0.5], [-1], [4294967296], [1, 2, 4294967296], [1, -2, 4294967296],
                                  np.array([], dtype=np.int64), [], [[1, 2, 3]], [[1, 2, 3], [4, 5, 6]], "x",
                                  np.array([1.5]), [1, 2**64]])
@pytest.mark.parametrize("how", ["RandomState", "seed"])
def test_legacy_seed_arrays_checked_as_numpy(seed, how):
    """NumPy's TestSeed.test_invalid_array(_shape): seed words are 1-d, non-empty, ints in [0, 2**32)."""
    want, got = outcome(lambda: getattr(np.random, how)(seed)), outcome(lambda: getattr(kd.random, how)(seed))
    assert got[0] is want[0] and want[0] in (TypeError, ValueError), (got, want)
    if want[0] is ValueError:
        assert got[1] == want[1]
    else:  # NumPy says "scalar" or "array data" by the path its cast took; both are its safe-cast TypeError
        assert got[1].startswith("Cannot cast ") and "according to the rule 'safe'" in got[1]


@pytest.mark.parametrize("seed", [[0], [1, 2, 4294967295], np.arange(10, dtype=np.uint32), [True, False]])
def test_legacy_seed_arrays_that_numpy_takes(seed):
    a, b = kd.random.RandomState(seed).random(5).numpy(), kd.random.RandomState(seed).random(5).numpy()
    np.testing.assert_array_equal(a, b)
    np.random.RandomState(seed)  # NumPy takes these too


@pytest.mark.parametrize("mu", [-np.pi, np.pi, -7.0, 7.0, 0.0, np.float32(np.pi)])
@pytest.mark.parametrize("kappa", [1.0, 1e4, 1e15])
@pytest.mark.parametrize("f64", [False, True])
def test_vonmises_in_numpys_half_open_range(mu, kappa, f64):
    """NumPy's test_vonmises_large_kappa_range and ticket #986: angles in (-pi, pi], float32 ones included."""
    mus = kd.full(2000, mu, dtype=kd.float64) if f64 else mu
    r = kd.random.default_rng(4).vonmises(mus, kappa, size=2000).numpy()
    assert r.dtype == (np.float64 if f64 else np.float32)
    assert np.all(r > -np.pi) and np.all(r <= np.pi)
    if kappa >= 1e4:  # concentrated at mu (mod 2 pi)
        assert np.abs(np.angle(np.exp(1j * (r.astype(float) - float(mu))))).max() < 0.1
