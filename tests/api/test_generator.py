"""kd.random.default_rng: NumPy's Generator API on the Philox counter generator.

Statistical checks use fixed seeds, so they are deterministic; their bounds are 6 standard errors of the checked
statistic for the sample size (a correct generator lands outside with probability ~2e-9 per check, so a seed
change will not make them flaky either), while the errors they guard against (wrong scale, modulo bias, a
zero-probability entry drawn) move the statistic by far more.
"""

import math

import numpy as np
import pytest

import kdsl as kd

N = 40_000


def _mean_ok(x: np.ndarray, mean: float, var: float) -> None:
    """The sample mean is within 6 standard errors of ``mean``."""
    assert abs(x.mean() - mean) <= 6 * math.sqrt(var / x.size), (x.mean(), mean)


def _var_ok(x: np.ndarray, var: float, kurtosis_excess: float) -> None:
    """The sample variance is within 6 standard errors of ``var`` (se^2 = var^2 (2 + excess) / n)."""
    se = var * math.sqrt((2 + kurtosis_excess) / x.size)
    assert abs(x.var() - var) <= 6 * se, (x.var(), var)


# ----- seeding and streams
def test_same_seed_same_sequence_and_calls_differ():
    def run(seed):
        g = kd.random.default_rng(seed)
        return [g.random(50).numpy(), g.random(50).numpy(), g.integers(0, 1000, 50).numpy(),
                g.normal(size=50).numpy(), g.permutation(50).numpy()]
    a, b, c = run(123), run(123), run(124)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(a[0], a[1])  # each call advances the generator
    assert not np.array_equal(a[0], c[0])  # another seed, another sequence


def test_seeds_accepted_and_rejected():
    g = kd.random.default_rng(0)
    assert kd.random.default_rng(g) is g
    ss = np.random.SeedSequence(5)
    np.testing.assert_array_equal(kd.random.default_rng(ss).random(4).numpy(),
                                  kd.random.default_rng(5).random(4).numpy())
    assert not np.array_equal(kd.random.default_rng().random(8).numpy(), kd.random.default_rng().random(8).numpy())
    with pytest.raises(ValueError):
        kd.random.default_rng(-1)
    with pytest.raises(TypeError):
        kd.random.default_rng(1.5)
    assert isinstance(g, kd.random.Generator)


# ----- shapes, dtypes, size=None and empty sizes
CALLS = {
    "random": lambda g, s: g.random(s),
    "uniform": lambda g, s: g.uniform(1.0, 2.0, s),
    "normal": lambda g, s: g.normal(0.0, 2.0, s),
    "standard_normal": lambda g, s: g.standard_normal(s),
    "exponential": lambda g, s: g.exponential(2.0, s),
    "standard_exponential": lambda g, s: g.standard_exponential(s),
    "integers": lambda g, s: g.integers(-3, 7, s),
    "poisson": lambda g, s: g.poisson(2.5, s),
    "choice": lambda g, s: g.choice(5, s),
    "choice_p": lambda g, s: g.choice(3, s, p=[0.5, 0.0, 0.5]),
}


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("size", [None, 0, 3, (2, 0), (2, 3)])
def test_shapes(name, size):
    out = CALLS[name](kd.random.default_rng(9), size)
    ref = CALLS[name](np.random.default_rng(9), size)
    assert out.shape == np.shape(ref)
    assert out.dtype.np.kind == np.asarray(ref).dtype.kind
    assert out.numpy().shape == np.shape(ref)


@pytest.mark.parametrize("dtype", [kd.float32, kd.float64])
def test_float_dtypes(dtype):
    g = kd.random.default_rng(1)
    for x in (g.random(4, dtype=dtype), g.standard_normal(4, dtype=dtype), g.standard_exponential(4, dtype=dtype)):
        assert x.dtype == dtype
    with pytest.raises(TypeError, match="float32 or float64"):
        g.random(3, dtype=kd.int32)


# ----- uniform floats
@pytest.mark.parametrize("dtype", [kd.float32, kd.float64])
def test_random_moments(dtype):
    x = kd.random.default_rng(11).random(N, dtype=dtype).numpy().astype(np.float64)
    assert ((x >= 0) & (x < 1)).all()
    _mean_ok(x, 0.5, 1 / 12)
    _var_ok(x, 1 / 12, -1.2)
    if dtype == kd.float64:  # 53 random bits, not float32's 24 widened
        assert (x * 2**24 != np.floor(x * 2**24)).mean() > 0.99


def test_uniform_range_and_broadcast():
    g = kd.random.default_rng(12)
    x = g.uniform(-2.0, 3.0, N).numpy()
    assert ((x >= -2) & (x < 3)).all()
    _mean_ok(x, 0.5, 25 / 12)
    y = g.uniform(np.array([0.0, 10.0, 100.0]), kd.asarray([1.0, 11.0, 101.0]), size=(4, 3)).numpy()
    assert y.shape == (4, 3) and ((y >= [0, 10, 100]) & (y < [1, 11, 101])).all()
    assert g.uniform(np.zeros(3), 1.0).shape == (3,)
    wide = g.uniform(kd.zeros(N, dtype=kd.float64), 1.0).numpy()  # a float64 parameter: 53 random bits
    assert wide.dtype == np.float64 and (wide * 2**24 != np.floor(wide * 2**24)).mean() > 0.99
    with pytest.raises(ValueError, match="shape mismatch"):
        g.uniform(np.zeros(3), 1.0, size=4)
    with pytest.raises(OverflowError, match="exceeds valid bounds"):  # NumPy's error for a range not finite
        g.uniform(0.0, np.inf, 3)


# ----- integers
@pytest.mark.parametrize("dtype", [kd.int8, kd.uint8, kd.int16, kd.int32, kd.uint32, kd.int64, kd.uint64])
def test_integers_dtypes_in_range_hit_every_value(dtype):
    info = np.iinfo(dtype.np)
    low = max(info.min, -3)
    x = kd.random.default_rng(13).integers(low, low + 5, size=2000, dtype=dtype)
    assert x.dtype == dtype
    assert sorted(set(x.numpy().tolist())) == list(range(low, low + 5))
    full = kd.random.default_rng(13).integers(int(info.min), int(info.max), size=200, dtype=dtype, endpoint=True)
    v = full.numpy()
    assert v.dtype == dtype.np and v.min() < info.min / 2 + info.max / 2 < v.max()


def test_integers_endpoint_and_one_argument():
    g = kd.random.default_rng(14)
    assert sorted(set(g.integers(2, 4, size=500, endpoint=True).tolist())) == [2, 3, 4]
    assert sorted(set(g.integers(3, size=500).tolist())) == [0, 1, 2]
    assert g.integers(5, 6, size=4).tolist() == [5, 5, 5, 5]
    assert g.integers(10).shape == ()


def test_integers_uniform_counts():
    x = kd.random.default_rng(15).integers(0, 3, size=N).numpy()
    counts = np.bincount(x, minlength=3)
    se = math.sqrt(N * (1 / 3) * (2 / 3))
    assert (np.abs(counts - N / 3) <= 6 * se).all(), counts


def test_integers_no_modulo_bias():
    """Span 3 * 2**30: 32-bit ``bits % span`` would put half the draws below 2**30 instead of a third."""
    span = 3 * 2**30
    for dtype in (kd.int64, kd.uint32):
        x = kd.random.default_rng(16).integers(0, span, size=N, dtype=dtype).numpy().astype(np.int64)
        assert ((x >= 0) & (x < span)).all()
        _mean_ok((x < 2**30).astype(np.float64), 1 / 3, 2 / 9)


def test_integers_wide_ranges():
    g = kd.random.default_rng(17)
    x = g.integers(-(2**40), 2**40 + 3, size=N).numpy()
    assert ((x >= -(2**40)) & (x < 2**40 + 3)).all()
    _mean_ok(x / 2**40, 0.0, 1 / 3)
    y = g.integers(0, 2**63 + 2**62, size=500, dtype=kd.uint64).numpy()
    assert (y < 2**63 + 2**62).all() and (y >= 2**63).any()


def test_integers_validation():
    g = kd.random.default_rng(0)
    with pytest.raises(ValueError, match="low >= high"):
        g.integers(5, 5)
    with pytest.raises(ValueError, match="low >= high"):
        g.integers(5, 2)
    with pytest.raises(ValueError, match="low is out of bounds for int8"):
        g.integers(-200, 0, dtype=kd.int8)
    with pytest.raises(ValueError, match="high is out of bounds for uint8"):
        g.integers(0, 257, dtype=kd.uint8)
    with pytest.raises(TypeError, match="integer dtype"):
        g.integers(0, 5, dtype=kd.float32)
    with pytest.raises(TypeError, match="ints or arrays"):
        g.integers(1.5, 5)
    assert g.integers(kd.asarray([0, 1]), 5).shape == (2,)  # array bounds: test_random_numpy_complete.py


# ----- normal and exponential
def test_normal_moments():
    g = kd.random.default_rng(18)
    x = g.normal(3.0, 2.0, N).numpy().astype(np.float64)
    _mean_ok(x, 3.0, 4.0)
    _var_ok(x, 4.0, 0.0)
    z = g.standard_normal(N, dtype=kd.float64).numpy()
    assert np.isfinite(z).all()
    _mean_ok(z, 0.0, 1.0)
    _var_ok(z, 1.0, 0.0)
    rows = g.normal(np.array([0.0, 100.0]), 1.0, size=(N // 2, 2)).numpy()
    _mean_ok(rows[:, 1].astype(np.float64), 100.0, 1.0)
    with pytest.raises(ValueError, match="scale < 0"):
        g.normal(0.0, -1.0)
    with pytest.raises(ValueError, match="scale < 0"):
        g.normal(0.0, np.array([1.0, -1.0]))


def test_exponential_moments():
    g = kd.random.default_rng(19)
    x = g.exponential(2.0, N).numpy().astype(np.float64)
    assert (x >= 0).all() and np.isfinite(x).all()
    _mean_ok(x, 2.0, 4.0)
    _var_ok(x, 4.0, 6.0)
    e = g.standard_exponential(N, dtype=kd.float64).numpy()
    assert (e >= 0).all() and np.isfinite(e).all()
    _mean_ok(e, 1.0, 1.0)
    with pytest.raises(ValueError, match="scale < 0"):
        g.exponential(-0.5)


# ----- poisson
@pytest.mark.parametrize("lam", [0.3, 4.0, 150.0, 50_000.0])
def test_poisson_moments(lam):
    x = kd.random.default_rng(20).poisson(lam, N).numpy()
    assert x.dtype == np.int64 and (x >= 0).all()
    _mean_ok(x.astype(np.float64), lam, lam)
    _var_ok(x.astype(np.float64), lam, 1 / lam)


def test_poisson_small_lam_pmf():
    x = kd.random.default_rng(21).poisson(2.0, N).numpy()
    for k in range(6):
        p = math.exp(-2.0) * 2.0**k / math.factorial(k)
        _mean_ok((x == k).astype(np.float64), p, p * (1 - p))


def test_poisson_validation():
    g = kd.random.default_rng(0)
    assert g.poisson(0.0, 4).tolist() == [0, 0, 0, 0]
    for bad in (-1.0, np.nan, 1e19):
        with pytest.raises(ValueError, match="lam"):
            g.poisson(bad)
    assert g.poisson([1.0, 2.0]).shape == (2,)  # arrays of lam: tests/api/test_random_numpy_complete.py


# ----- permutation and shuffle
@pytest.mark.parametrize("n", [0, 1, 7, 3000])
def test_permutation_of_int(n):
    p = kd.random.default_rng(22).permutation(n).numpy()
    assert p.dtype == np.int64
    np.testing.assert_array_equal(np.sort(p), np.arange(n))


def test_permutation_of_array_keeps_rows():
    a = np.arange(40).reshape(10, 4)
    g = kd.random.default_rng(23)
    p = g.permutation(a).numpy()
    assert sorted(map(tuple, p)) == sorted(map(tuple, a)) and not np.array_equal(p, a)
    q = g.permutation(kd.asarray(a), axis=1).numpy()
    assert sorted(map(tuple, q.T)) == sorted(map(tuple, a.T))
    with pytest.raises(np.exceptions.AxisError):
        g.permutation(kd.asarray(3.0))
    with pytest.raises(ValueError, match="negative"):
        g.permutation(-1)


def test_permutation_positions_are_uniform():
    """Where element 0 lands over many permutations of 4: a quarter of the time in each place."""
    g = kd.random.default_rng(24)
    pos = np.array([int(np.flatnonzero(g.permutation(4).numpy() == 0)[0]) for _ in range(400)])
    counts = np.bincount(pos, minlength=4)
    assert (np.abs(counts - 100) <= 6 * math.sqrt(400 * 0.25 * 0.75)).all(), counts


def test_shuffle_in_place():
    a = kd.arange(20).reshape(10, 2) * 1  # a computed (lazy) array
    before = a.numpy()
    kd.random.default_rng(25).shuffle(a)
    after = a.numpy()
    assert sorted(map(tuple, after)) == sorted(map(tuple, before)) and not np.array_equal(after, before)
    empty = kd.zeros((0, 3))
    kd.random.default_rng(25).shuffle(empty)
    assert empty.shape == (0, 3)
    with pytest.raises(TypeError, match="permutation"):
        kd.random.default_rng(25).shuffle((1, 2, 3))  # NumPy arrays and lists: test_random_numpy_complete.py
    with pytest.raises(TypeError, match="0-d"):
        kd.random.default_rng(25).shuffle(kd.asarray(1.0))


# ----- choice
def test_choice_uniform_and_from_arrays():
    g = kd.random.default_rng(26)
    x = g.choice(4, N).numpy()
    assert sorted(set(x.tolist())) == [0, 1, 2, 3]
    _mean_ok((x == 2).astype(np.float64), 0.25, 0.1875)
    rows = np.arange(12.0).reshape(6, 2)
    y = g.choice(rows, size=(3, 5)).numpy()
    assert y.shape == (3, 5, 2) and all(tuple(r) in set(map(tuple, rows)) for r in y.reshape(-1, 2))


def test_choice_with_p_respects_zeros_and_frequencies():
    p = np.array([0.0, 0.1, 0.0, 0.6, 0.3, 0.0])
    x = kd.random.default_rng(27).choice(6, N, p=p).numpy()
    assert set(x.tolist()) == {1, 3, 4}
    for i in (1, 3, 4):
        _mean_ok((x == i).astype(np.float64), p[i], p[i] * (1 - p[i]))
    v = kd.random.default_rng(27).choice(kd.asarray([10, 20, 30]), size=50, p=kd.asarray([0.0, 0.0, 1.0]))
    assert set(v.tolist()) == {30}


def test_choice_without_replacement():
    g = kd.random.default_rng(28)
    x = g.choice(50, 50, replace=False).numpy()
    np.testing.assert_array_equal(np.sort(x), np.arange(50))
    y = g.choice(np.arange(100, 110), (2, 3), replace=False).numpy()
    assert y.shape == (2, 3) and len(set(y.ravel().tolist())) == 6 and (y >= 100).all()
    p = np.array([0.5, 0.0, 0.25, 0.25, 0.0])
    z = g.choice(5, 3, replace=False, p=p).numpy()
    assert sorted(z.tolist()) == [0, 2, 3]
    first = np.array([g.choice(5, 1, replace=False, p=p).numpy()[0] for _ in range(200)])
    _mean_ok((first == 0).astype(np.float64), 0.5, 0.25)  # the first pick follows p


def test_choice_validation():
    g = kd.random.default_rng(0)
    with pytest.raises(ValueError, match="sum to 1"):
        g.choice(3, p=[0.5, 0.2, 0.2])
    with pytest.raises(ValueError, match="non-negative"):
        g.choice(3, p=[1.5, -0.5, 0.0])
    with pytest.raises(ValueError, match="same size"):
        g.choice(3, p=[0.5, 0.5])
    with pytest.raises(ValueError, match="1-dimensional"):
        g.choice(4, p=[[0.5, 0.5], [0.0, 0.0]])
    with pytest.raises(ValueError, match="larger sample"):
        g.choice(3, 4, replace=False)
    with pytest.raises(ValueError, match="non-zero entries"):
        g.choice(3, 2, replace=False, p=[1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="empty"):
        g.choice([], 2)
    with pytest.raises(ValueError, match="positive integer"):
        g.choice(-2)
    assert g.choice(0, 0).shape == (0,)
