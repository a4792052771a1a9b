"""The distributions of kd.random.Generator beyond the basics (gamma family, transforms, binomial, multinomial, ...).

Statistical checks use fixed seeds, so they are deterministic. Moment checks allow 6 standard errors (a correct
sampler lands outside with probability ~2e-9); the distribution checks (Kolmogorov-Smirnov against the exact CDF,
chi-square against the exact pmf) require a p-value above 1e-6, while a wrong shape, scale or tail (the errors
they guard against) drives the p-value to ~0 at these sample sizes.
"""

import math

import numpy as np
import pytest
from random_testing import chi2_ok, mean_ok, var_ok
from scipy import stats

import kdsl as kd

N = 100_000


# ----- shapes, dtypes and size=None, like NumPy
CALLS = {
    "standard_gamma": lambda g, s: g.standard_gamma(2.5, s),
    "gamma": lambda g, s: g.gamma(0.5, 2.0, s),
    "beta": lambda g, s: g.beta(2.0, 3.0, s),
    "chisquare": lambda g, s: g.chisquare(3.0, s),
    "standard_t": lambda g, s: g.standard_t(4.0, s),
    "lognormal": lambda g, s: g.lognormal(0.0, 0.5, s),
    "laplace": lambda g, s: g.laplace(1.0, 2.0, s),
    "logistic": lambda g, s: g.logistic(1.0, 2.0, s),
    "gumbel": lambda g, s: g.gumbel(1.0, 2.0, s),
    "standard_cauchy": lambda g, s: g.standard_cauchy(s),
    "rayleigh": lambda g, s: g.rayleigh(2.0, s),
    "weibull": lambda g, s: g.weibull(1.5, s),
    "pareto": lambda g, s: g.pareto(3.0, s),
    "power": lambda g, s: g.power(2.0, s),
    "triangular": lambda g, s: g.triangular(0.0, 1.0, 3.0, s),
    "geometric": lambda g, s: g.geometric(0.3, s),
    "f": lambda g, s: g.f(3.0, 5.0, s),
    "wald": lambda g, s: g.wald(1.0, 2.0, s),
    "binomial": lambda g, s: g.binomial(10, 0.3, s),
}


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("size", [None, 0, (2, 3)])  # few shapes: each new shape compiles its kernels
def test_shapes_and_dtype_kinds(name, size):
    out = CALLS[name](kd.random.default_rng(9), size)
    ref = np.asarray(CALLS[name](np.random.default_rng(9), size))
    assert out.shape == ref.shape
    assert out.dtype.np.kind == ref.dtype.kind
    assert out.numpy().shape == ref.shape


@pytest.mark.parametrize("name, call", [
    ("gamma", lambda g, a, s: g.gamma(a, 2.0, size=s)),
    ("beta", lambda g, a, s: g.beta(a, 1.5, size=s)),
    ("laplace", lambda g, a, s: g.laplace(a, 1.0, size=s)),
    ("weibull", lambda g, a, s: g.weibull(a, size=s)),
])
def test_parameter_broadcasting(name, call):
    a = np.array([0.5, 2.0])
    assert call(kd.random.default_rng(0), a, None).shape == (2,)
    assert call(kd.random.default_rng(0), a[:, None], (2, 2)).shape == (2, 2)
    assert call(kd.random.default_rng(0), kd.asarray(a), (3, 2)).shape == (3, 2)
    with pytest.raises(ValueError):
        call(kd.random.default_rng(0), a, (3,))  # (2,) does not broadcast to (3,), as NumPy says


BAD = {
    "standard_gamma shape < 0": lambda g: g.standard_gamma(-1.0),
    "gamma scale < 0": lambda g: g.gamma(1.0, -1.0),
    "beta a <= 0": lambda g: g.beta(0.0, 1.0),
    "beta b <= 0": lambda g: g.beta(1.0, [1.0, -1.0]),
    "chisquare df <= 0": lambda g: g.chisquare(0.0),
    "standard_t df <= 0": lambda g: g.standard_t(0.0),
    "lognormal sigma < 0": lambda g: g.lognormal(0.0, -1.0),
    "laplace scale < 0": lambda g: g.laplace(0.0, -1.0),
    "logistic scale < 0": lambda g: g.logistic(0.0, -1.0),
    "gumbel scale < 0": lambda g: g.gumbel(0.0, -1.0),
    "rayleigh scale < 0": lambda g: g.rayleigh(-1.0),
    "weibull a < 0": lambda g: g.weibull(-1.0),
    "pareto a <= 0": lambda g: g.pareto(0.0),
    "power a <= 0": lambda g: g.power(0.0),
    "triangular left > mode": lambda g: g.triangular(1.0, 0.0, 2.0),
    "triangular mode > right": lambda g: g.triangular(0.0, 3.0, 2.0),
    "triangular left == right": lambda g: g.triangular(1.0, 1.0, 1.0),
    "f dfnum <= 0": lambda g: g.f(0.0, 1.0),
    "f dfden <= 0": lambda g: g.f(1.0, 0.0),
    "wald mean <= 0": lambda g: g.wald(0.0, 1.0),
    "wald scale <= 0": lambda g: g.wald(1.0, 0.0),
    "geometric p <= 0": lambda g: g.geometric(0.0),
    "geometric p > 1": lambda g: g.geometric(1.5),
    "binomial n < 0": lambda g: g.binomial(-1, 0.5),
    "binomial p > 1": lambda g: g.binomial(3, 1.5),
    "binomial p NaN": lambda g: g.binomial(3, np.nan),
    "multinomial n < 0": lambda g: g.multinomial(-1, [0.5, 0.5]),
    "multinomial pvals > 1": lambda g: g.multinomial(3, [0.7, 0.6, 0.1]),
    "dirichlet alpha < 0": lambda g: g.dirichlet([-1.0, 1.0]),
    "multivariate_normal cov not square": lambda g: g.multivariate_normal([0.0, 0.0], [[1.0, 0.0]]),
    "multivariate_normal length": lambda g: g.multivariate_normal([0.0, 0.0, 0.0], np.eye(2)),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_parameters_raise_numpys_error(case):
    with pytest.raises(ValueError) as ref:
        BAD[case](np.random.default_rng(0))
    with pytest.raises(ValueError) as ours:
        BAD[case](kd.random.default_rng(0))
    assert str(ref.value).split()[0] in str(ours.value)  # the same parameter is named


def test_reproducible_and_calls_differ():
    def run(seed):
        g = kd.random.default_rng(seed)
        return [g.gamma(2.0, size=50).numpy(), g.gamma(2.0, size=50).numpy(), g.binomial(10, 0.4, 50).numpy(),
                g.binomial(np.full(N, 40), np.full(1, 0.4)).numpy(), g.laplace(size=50).numpy(),
                g.dirichlet([1, 2], 5).numpy()]
    a, b, c = run(11), run(11), run(12)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(a[0], a[1])
    assert not np.array_equal(a[0], c[0])


# ----- distributions against their exact CDFs and moments
CONTINUOUS = {
    "gamma a=0.3": (lambda g: g.standard_gamma(0.3, N), stats.gamma(0.3).cdf),
    "gamma a=1": (lambda g: g.gamma(1.0, 2.0, N), stats.gamma(1.0, scale=2.0).cdf),
    "gamma a=7.5": (lambda g: g.standard_gamma(7.5, N), stats.gamma(7.5).cdf),
    "beta": (lambda g: g.beta(0.5, 2.0, N), stats.beta(0.5, 2.0).cdf),
    "chisquare": (lambda g: g.chisquare(3.0, N), stats.chi2(3.0).cdf),
    "standard_t": (lambda g: g.standard_t(5.0, N), stats.t(5.0).cdf),
    "lognormal": (lambda g: g.lognormal(0.5, 0.7, N), stats.lognorm(0.7, scale=math.exp(0.5)).cdf),
    "laplace": (lambda g: g.laplace(1.0, 2.0, N), stats.laplace(1.0, 2.0).cdf),
    "logistic": (lambda g: g.logistic(1.0, 2.0, N), stats.logistic(1.0, 2.0).cdf),
    "gumbel": (lambda g: g.gumbel(1.0, 2.0, N), stats.gumbel_r(1.0, 2.0).cdf),
    "standard_cauchy": (lambda g: g.standard_cauchy(N), stats.cauchy().cdf),
    "rayleigh": (lambda g: g.rayleigh(2.0, N), stats.rayleigh(scale=2.0).cdf),
    "weibull": (lambda g: g.weibull(1.5, N), stats.weibull_min(1.5).cdf),
    "pareto": (lambda g: g.pareto(3.0, N), stats.lomax(3.0).cdf),
    "power": (lambda g: g.power(2.5, N), stats.powerlaw(2.5).cdf),
    "f": (lambda g: g.f(4.0, 7.0, N), stats.f(4.0, 7.0).cdf),
    "wald": (lambda g: g.wald(1.5, 2.0, N), stats.invgauss(1.5 / 2.0, scale=2.0).cdf),
    "wald large y": (lambda g: g.wald(3.0, 0.1, N), stats.invgauss(30.0, scale=0.1).cdf),
    "triangular": (lambda g: g.triangular(-1.0, 0.0, 3.0, N), stats.triang(0.25, loc=-1.0, scale=4.0).cdf),
}


@pytest.mark.parametrize("name", sorted(CONTINUOUS))
def test_kolmogorov_smirnov_against_exact_cdf(name):
    draw, cdf = CONTINUOUS[name]
    x = draw(kd.random.default_rng(2024)).numpy().astype(np.float64)
    assert np.isfinite(x).all()
    assert stats.kstest(x, cdf).pvalue > 1e-6


@pytest.mark.parametrize("a", [0.05, 0.5, 1.0, 4.0, 100.0])
def test_gamma_moments(a):
    x = kd.random.default_rng(5).standard_gamma(a, N).numpy().astype(np.float64)
    assert (x >= 0).all()
    mean_ok(x, a, a)
    var_ok(x, a, 6.0 / a)


def test_gamma_edge_values():
    g = kd.random.default_rng(6)
    assert g.standard_gamma(0.0, 5).tolist() == [0.0] * 5  # NumPy: shape 0 gives 0
    x = g.beta(1e-3, 1e-3, 2000).numpy()  # tiny shapes: the gammas underflow, the log-space ratio does not
    assert np.isfinite(x).all() and ((x >= 0) & (x <= 1)).all()
    assert 0.35 < (x > 0.5).mean() < 0.65


@pytest.mark.parametrize("n, p", [(10, 0.3), (1000, 0.004), (200, 0.9), (10**6, 0.5)])
def test_binomial_table_route(n, p):
    x = kd.random.default_rng(7).binomial(n, p, N).numpy()
    sd = math.sqrt(n * p * (1 - p))
    support = np.arange(max(0, int(n * p - 6 * sd)), min(n, int(n * p + 6 * sd)) + 1)
    chi2_ok(x, lambda k: stats.binom.pmf(k, n, p), support)


@pytest.mark.parametrize("n, p", [(10, 0.3), (1000, 0.004), (30, 0.9), (1000, 0.5), (10**6, 0.02)])
def test_binomial_device_route(n, p):
    """Array parameters take the per-element route: inversion below mean 10, BTRS above."""
    x = kd.random.default_rng(8).binomial(np.full(N, n), np.float32(p) * np.ones(1)).numpy()
    assert x.min() >= 0 and x.max() <= n
    sd = math.sqrt(n * p * (1 - p))
    support = np.arange(max(0, int(n * p - 6 * sd)), min(n, int(n * p + 6 * sd)) + 1)
    chi2_ok(x, lambda k: stats.binom.pmf(k, n, np.float32(p)), support)


def test_binomial_edges():  # also broadcasting of n and p against size
    g = kd.random.default_rng(9)
    assert g.binomial(7, 1.0, 4).tolist() == [7] * 4
    assert g.binomial(7, 0.0, 4).tolist() == [0] * 4
    assert g.binomial(0, 0.5, 4).tolist() == [0] * 4
    x = g.binomial(np.array([0, 5, 50, 500]), np.array([0.5, 0.0, 1.0, 0.5]), (1000, 4)).numpy()
    assert (x[:, 0] == 0).all() and (x[:, 1] == 0).all() and (x[:, 2] == 50).all()
    assert ((x[:, 3] >= 0) & (x[:, 3] <= 500)).all()


def test_geometric_distribution():
    x = kd.random.default_rng(10).geometric(0.3, N).numpy()
    chi2_ok(x, lambda k: stats.geom.pmf(k, 0.3), np.arange(1, 40))


def test_multinomial():
    g = kd.random.default_rng(11)
    p = np.array([0.2, 0.5, 0.3])
    x = g.multinomial(np.full(N // 10, 50), p).numpy()  # n an array (one kernel shape per test: compiles)
    assert x.shape == (N // 10, 3)
    assert (x.sum(-1) == 50).all()
    for i in range(3):
        mean_ok(x[:, i].astype(float), 50 * p[i], 50 * p[i] * (1 - p[i]))
    cov = np.cov(x[:, 0], x[:, 1])[0, 1]
    assert abs(cov - (-50 * p[0] * p[1])) < 0.3  # the counts compete: cov = -n p0 p1 = -5


def test_dirichlet():
    alpha = np.array([0.5, 1.0, 3.0])
    x = kd.random.default_rng(12).dirichlet(alpha, N // 10).numpy().astype(np.float64)
    assert x.shape == (N // 10, 3)
    np.testing.assert_allclose(x.sum(-1), 1.0, atol=1e-5)
    a0 = alpha.sum()
    for i in range(3):
        m = alpha[i] / a0
        mean_ok(x[:, i], m, m * (1 - m) / (a0 + 1))
    assert kd.random.default_rng(0).dirichlet([0.0, 1.0], 3).numpy()[:, 0].tolist() == [0.0] * 3


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal(method):
    cov = np.array([[2.0, 0.8, 0.0], [0.8, 1.0, -0.3], [0.0, -0.3, 0.5]])
    mean = np.array([1.0, -2.0, 0.5])
    x = kd.random.default_rng(13).multivariate_normal(mean, cov, size=N // 2, method=method).numpy()
    assert x.shape == (N // 2, 3)
    np.testing.assert_allclose(x.mean(0), mean, atol=6 * math.sqrt(2.0 / (N // 2)))
    np.testing.assert_allclose(np.cov(x.T), cov, atol=0.05)


def test_multivariate_normal_not_psd():
    bad = np.array([[1.0, 2.0], [2.0, 1.0]])
    with pytest.warns(RuntimeWarning, match="positive-semidefinite"):
        kd.random.default_rng(0).multivariate_normal([0.0, 0.0], bad)
    with pytest.raises(ValueError, match="positive-semidefinite"):
        kd.random.default_rng(0).multivariate_normal([0.0, 0.0], bad, check_valid="raise")


def test_permuted_bytes_spawn():
    g = kd.random.default_rng(14)
    x = np.arange(24).reshape(4, 6)
    y = g.permuted(kd.asarray(x), axis=1).numpy()
    np.testing.assert_array_equal(np.sort(y, axis=1), x)
    assert not np.array_equal(y, x)
    z = g.permuted(x).numpy()
    np.testing.assert_array_equal(np.sort(z.ravel()), x.ravel())
    a = kd.asarray(x)
    assert g.permuted(a, axis=0, out=a) is a
    np.testing.assert_array_equal(np.sort(a.numpy(), axis=0), x)
    b = g.bytes(13)
    assert isinstance(b, bytes) and len(b) == 13
    c1, c2 = kd.random.default_rng(15).spawn(2)
    d1, _ = kd.random.default_rng(15).spawn(2)
    np.testing.assert_array_equal(c1.random(8).numpy(), d1.random(8).numpy())
    assert not np.array_equal(c1.random(8).numpy(), c2.random(8).numpy())
