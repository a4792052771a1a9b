"""NumPy's legacy random API: kd.random.rand/randn/randint/... on one global generator, and kd.random.RandomState.

The streams are kdsl's (Philox), not NumPy's: the tests compare shapes, dtype kinds, errors and reproducibility with
NumPy's legacy API, and check the values' ranges and moments (6 standard errors; fixed seeds).
"""

import math

import numpy as np
import pytest

import kdsl as kd

LEGACY = {
    "rand": lambda m, s: m.rand(*s) if s else m.rand(),
    "randn": lambda m, s: m.randn(*s) if s else m.randn(),
    "randint": lambda m, s: m.randint(-3, 7, size=s or None),
    "random_sample": lambda m, s: m.random_sample(s or None),
    "random": lambda m, s: m.random(s or None),
    "ranf": lambda m, s: m.ranf(s or None),
    "sample": lambda m, s: m.sample(s or None),
    "choice": lambda m, s: m.choice(5, s or None),
    "choice_p": lambda m, s: m.choice(3, s or None, p=[0.5, 0.0, 0.5]),
    "choice_noreplace": lambda m, s: m.choice(50, s or None, replace=False),
    "uniform": lambda m, s: m.uniform(1.0, 2.0, s or None),
    "normal": lambda m, s: m.normal(1.0, 2.0, s or None),
    "standard_normal": lambda m, s: m.standard_normal(s or None),
    "exponential": lambda m, s: m.exponential(2.0, s or None),
    "standard_exponential": lambda m, s: m.standard_exponential(s or None),
    "poisson": lambda m, s: m.poisson(3.0, s or None),
    "binomial": lambda m, s: m.binomial(8, 0.25, s or None),
    "gamma": lambda m, s: m.gamma(2.0, 1.5, s or None),
    "standard_gamma": lambda m, s: m.standard_gamma(2.0, s or None),
    "beta": lambda m, s: m.beta(2.0, 2.0, s or None),
    "chisquare": lambda m, s: m.chisquare(2.0, s or None),
    "lognormal": lambda m, s: m.lognormal(0.0, 1.0, s or None),
    "laplace": lambda m, s: m.laplace(0.0, 1.0, s or None),
    "logistic": lambda m, s: m.logistic(0.0, 1.0, s or None),
    "gumbel": lambda m, s: m.gumbel(0.0, 1.0, s or None),
    "standard_cauchy": lambda m, s: m.standard_cauchy(s or None),
    "standard_t": lambda m, s: m.standard_t(3.0, s or None),
    "rayleigh": lambda m, s: m.rayleigh(1.0, s or None),
    "weibull": lambda m, s: m.weibull(2.0, s or None),
    "pareto": lambda m, s: m.pareto(2.0, s or None),
    "power": lambda m, s: m.power(2.0, s or None),
    "triangular": lambda m, s: m.triangular(0.0, 0.5, 1.0, s or None),
    "geometric": lambda m, s: m.geometric(0.5, s or None),
    "f": lambda m, s: m.f(2.0, 3.0, s or None),
    "wald": lambda m, s: m.wald(1.0, 1.0, s or None),
    "multinomial": lambda m, s: m.multinomial(10, [0.3, 0.7], s or None),
    "multivariate_normal": lambda m, s: m.multivariate_normal([0.0, 1.0], np.eye(2), s or None),
    "dirichlet": lambda m, s: m.dirichlet([1.0, 2.0], s or None),
}


@pytest.mark.parametrize("name", sorted(LEGACY))
@pytest.mark.parametrize("size", [(), (2, 3)])  # the shapes of test_random_distributions: kernels are reused
def test_module_functions_match_numpys_shapes(name, size):
    kd.random.seed(1)
    out = LEGACY[name](kd.random, size)
    ref = np.asarray(LEGACY[name](np.random, size))
    assert out.shape == ref.shape
    assert out.dtype.np.kind == ref.dtype.kind


@pytest.mark.parametrize("name", ["rand", "randn", "randint", "choice", "binomial", "gamma", "laplace"])
def test_randomstate_methods_match_module(name):
    ours, theirs = kd.random.RandomState(4), np.random.RandomState(4)
    assert LEGACY[name](ours, (2, 2)).shape == np.shape(LEGACY[name](theirs, (2, 2)))
    kd.random.seed(4)
    np.testing.assert_array_equal(LEGACY[name](kd.random, (5,)).numpy(),
                                  LEGACY[name](kd.random.RandomState(4), (5,)).numpy())


def test_seed_replays_the_global_sequence():
    def run():
        return [kd.random.rand(20).numpy(), kd.random.randn(20).numpy(), kd.random.randint(0, 100, 20).numpy(),
                kd.random.gamma(3.0, size=20).numpy(), kd.random.permutation(20).numpy(),
                kd.random.uniform(size=20).numpy(), kd.random.normal(size=20).numpy(),
                kd.random.integers(0, 9, size=20).numpy()]
    kd.random.seed(123)
    a = run()
    kd.random.seed(123)
    b = run()
    kd.random.seed(124)
    c = run()
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(a[0], c[0])
    assert not np.array_equal(a[0], kd.random.rand(20).numpy())  # the sequence moved on


def test_get_and_set_state():
    kd.random.seed(5)
    state = kd.random.get_state()
    assert isinstance(state, kd.random.PhiloxState)
    x = kd.random.standard_gamma(2.0, size=10).numpy()
    kd.random.set_state(state)
    np.testing.assert_array_equal(kd.random.standard_gamma(2.0, size=10).numpy(), x)
    rs = kd.random.RandomState(0)
    rs.set_state(state)
    np.testing.assert_array_equal(rs.standard_gamma(2.0, size=10).numpy(), x)
    with pytest.raises(TypeError, match="PhiloxState"):
        kd.random.set_state(np.random.get_state())


def test_seeds_accepted_and_rejected():
    kd.random.seed(None)
    kd.random.seed([1, 2, 3])
    kd.random.seed(2**64 - 1)
    with pytest.raises(ValueError):
        kd.random.seed(-1)
    with pytest.raises(ValueError):
        kd.random.RandomState(2**64)
    with pytest.raises(TypeError):
        kd.random.seed(1.5)
    a, b = kd.random.RandomState(None).rand(8).numpy(), kd.random.RandomState(None).rand(8).numpy()
    assert not np.array_equal(a, b)


def test_randint_and_values():
    kd.random.seed(6)
    x = kd.random.randint(-3, 7, size=20_000).numpy()
    assert x.dtype == np.int64 and x.min() == -3 and x.max() == 6
    assert sorted(set(kd.random.randint(4, size=500).tolist())) == [0, 1, 2, 3]
    assert kd.random.randint(0, 5, size=3, dtype=kd.int16).dtype == kd.int16
    with pytest.raises(ValueError, match="low >= high"):
        kd.random.randint(5, 5)
    with pytest.raises(ValueError):
        np.random.randint(5, 5)
    u = kd.random.rand(20_000).numpy().astype(np.float64)
    assert ((u >= 0) & (u < 1)).all()
    assert abs(u.mean() - 0.5) < 6 * math.sqrt(1 / 12 / u.size)
    z = kd.random.randn(20_000).numpy().astype(np.float64)
    assert abs(z.mean()) < 6 * math.sqrt(1 / z.size) and abs(z.var() - 1) < 6 * math.sqrt(2 / z.size)


def test_shuffle_in_place_and_choice():
    kd.random.seed(7)
    a = kd.arange(10)
    kd.random.shuffle(a)
    assert sorted(a.tolist()) == list(range(10))
    with pytest.raises(TypeError):
        kd.random.shuffle((1, 2, 3))
    picks = kd.random.choice(10, 10, replace=False).tolist()
    assert sorted(picks) == list(range(10))
    assert set(kd.random.choice(3, 200, p=[0.0, 1.0, 0.0]).tolist()) == {1}
    with pytest.raises(ValueError):
        kd.random.choice(3, 5, replace=False)


def test_legacy_dirichlet_rejects_zero_alpha():
    with pytest.raises(ValueError, match="alpha <= 0"):
        np.random.dirichlet([0.0, 1.0])
    with pytest.raises(ValueError, match="alpha <= 0"):
        kd.random.dirichlet([0.0, 1.0])


def test_existing_functions_keep_dtype_and_device_arguments():
    assert kd.random.uniform(size=3).dtype == kd.float32
    assert kd.random.uniform(size=3, dtype=kd.float64).dtype == kd.float64
    assert kd.random.normal(size=3, device=kd.device()).shape == (3,)
    assert kd.random.integers(0, 5, size=3).dtype == kd.int32
    assert kd.random.uniform([0.0, 10.0], 11.0).shape == (2,)
    with pytest.raises(TypeError):
        kd.random.uniform(size=3, dtype=kd.int32)
