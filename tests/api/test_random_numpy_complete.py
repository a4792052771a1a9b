"""kd.random against NumPy's whole random API: unseeded generators draw fresh entropy, every NumPy name exists, and
the distributions added for completeness (negative_binomial, hypergeometric, multivariate_hypergeometric,
noncentral_chisquare, noncentral_f, vonmises, zipf, logseries, poisson with array lam, random_integers,
tomaxint) have NumPy's shapes, dtypes, parameter broadcasting and errors, and the right laws.

Streams are kdsl's own (Philox), so values are compared through statistics at fixed seeds (deterministic): moments
within 6 standard errors, Kolmogorov-Smirnov / chi-square p-values above 1e-6 on 1e5 draws (a wrong law drives
them to ~0 at this size). Few distinct shapes: each new one compiles kernels on the CPU Vulkan driver.
"""

import math
import warnings

import numpy as np
import pytest
from random_testing import chi2_ok, mean_ok
from scipy import special, stats

import kdsl as kd

N = 100_000


# ----- seeding: None means fresh OS entropy everywhere, as NumPy
UNSEEDED = {
    "seed()": lambda: (kd.random.seed(), kd.random.rand(8))[1],
    "seed(None)": lambda: (kd.random.seed(None), kd.random.random_sample(8))[1],
    "RandomState()": lambda: kd.random.RandomState().rand(8),
    "RandomState(None).seed()": lambda: (lambda r: (r.seed(), r.rand(8))[1])(kd.random.RandomState(None)),
    "default_rng()": lambda: kd.random.default_rng().random(8),
    "default_rng(None)": lambda: kd.random.default_rng(None).random(8),
    "Generator()": lambda: kd.random.Generator().random(8),
    "default_rng(SeedSequence())": lambda: kd.random.default_rng(kd.random.SeedSequence()).random(8),
}


@pytest.mark.parametrize("how", sorted(UNSEEDED))
def test_unseeded_generators_draw_fresh_entropy(how):
    a, b = UNSEEDED[how]().numpy(), UNSEEDED[how]().numpy()
    assert not np.array_equal(a, b)


@pytest.mark.parametrize("seed", [0, 12345, [1, 2, 3]])
def test_seeded_generators_replay(seed):
    np.testing.assert_array_equal(kd.random.default_rng(seed).random(8).numpy(),
                                  kd.random.default_rng(seed).random(8).numpy())
    np.testing.assert_array_equal(kd.random.RandomState(seed).rand(8).numpy(),
                                  kd.random.RandomState(seed).rand(8).numpy())


def test_numpy_bit_generators_and_seed_sequences_seed_kdsl():
    for make in (lambda: kd.random.PCG64(5), lambda: np.random.Philox(5), lambda: kd.random.SeedSequence(5)):
        a = kd.random.default_rng(make()).random(6).numpy()
        np.testing.assert_array_equal(a, kd.random.Generator(make()).random(6).numpy())
        np.testing.assert_array_equal(kd.random.RandomState(make()).rand(6).numpy(),
                                      kd.random.RandomState(make()).rand(6).numpy())
    assert not np.array_equal(kd.random.default_rng(kd.random.PCG64(5)).random(6).numpy(),
                              kd.random.default_rng(kd.random.PCG64(6)).random(6).numpy())


# ----- every name NumPy has
NOT_PORTED = {"bit_generator", "get_bit_generator", "set_bit_generator", "mtrand", "test"}


@pytest.mark.parametrize("ours, theirs", [(kd.random, np.random), (kd.random.Generator, np.random.Generator),
                                          (kd.random.RandomState, np.random.RandomState)])
def test_every_numpy_random_name_exists(ours, theirs):
    missing = [n for n in dir(theirs) if not n.startswith("_") and n not in NOT_PORTED and not hasattr(ours, n)]
    assert missing == []


# ----- shapes, dtypes, broadcasting and errors, as NumPy
NEW = {
    "negative_binomial": lambda g, s: g.negative_binomial(3, 0.4, s),
    "negative_binomial_frac": lambda g, s: g.negative_binomial([0.5, 7.5], 0.3, s),
    "hypergeometric": lambda g, s: g.hypergeometric(7, 5, 4, s),
    "hypergeometric_arrays": lambda g, s: g.hypergeometric([7, 50], [5, 60], 4, s),
    "noncentral_chisquare": lambda g, s: g.noncentral_chisquare(3.0, 1.5, s),
    "noncentral_f": lambda g, s: g.noncentral_f(3.0, 5.0, 1.5, s),
    "vonmises": lambda g, s: g.vonmises(0.5, [1.0, 8.0], s),
    "zipf": lambda g, s: g.zipf(2.5, s),
    "logseries": lambda g, s: g.logseries([0.2, 0.9], s),
    "poisson_array": lambda g, s: g.poisson([0.5, 40.0], s),
}
SIZES = {"negative_binomial_frac": (3, 2), "hypergeometric_arrays": (3, 2), "vonmises": (3, 2), "logseries": (3, 2),
         "poisson_array": (3, 2)}


@pytest.mark.parametrize("name", sorted(NEW))
@pytest.mark.parametrize("api", ["Generator", "RandomState", "module"])
def test_new_distributions_shapes_and_dtypes(name, api):
    size = SIZES.get(name, (2, 3))
    ours = {"Generator": kd.random.default_rng(1), "RandomState": kd.random.RandomState(1), "module": kd.random}[api]
    theirs = {"Generator": np.random.default_rng(1), "RandomState": np.random.RandomState(1),
              "module": np.random}[api]
    for s in (None, size):
        out, ref = NEW[name](ours, s), np.asarray(NEW[name](theirs, s))
        assert out.shape == ref.shape
        if ref.dtype.kind == "f":
            assert out.dtype == kd.float32  # kdsl's default float
        else:
            assert out.dtype == kd.int64 and ref.dtype == np.int64


@pytest.mark.parametrize("name", sorted(NEW))
def test_new_distributions_empty_size(name):
    size = (0, 2) if name in SIZES else 0
    out, ref = NEW[name](kd.random.default_rng(2), size), NEW[name](np.random.default_rng(2), size)
    assert out.shape == ref.shape and out.numpy().shape == ref.shape


@pytest.mark.parametrize("name", sorted(NEW))
def test_module_functions_replay_after_seed(name):
    kd.random.seed(21)
    a = NEW[name](kd.random, SIZES.get(name, (2, 3))).numpy()
    kd.random.seed(21)
    np.testing.assert_array_equal(NEW[name](kd.random, SIZES.get(name, (2, 3))).numpy(), a)
    np.testing.assert_array_equal(NEW[name](kd.random.RandomState(21), SIZES.get(name, (2, 3))).numpy(), a)


@pytest.mark.parametrize("name", ["negative_binomial_frac", "vonmises", "logseries", "poisson_array",
                                  "hypergeometric_arrays"])
def test_parameter_shapes_must_broadcast_to_size(name):
    with pytest.raises(ValueError):
        NEW[name](np.random.default_rng(0), (3,))
    with pytest.raises(ValueError):
        NEW[name](kd.random.default_rng(0), (3,))


BAD = {
    "negative_binomial n <= 0": lambda g: g.negative_binomial(0, 0.5),
    "negative_binomial p > 1": lambda g: g.negative_binomial(1, 1.5),
    "negative_binomial p NaN": lambda g: g.negative_binomial(1, np.nan),
    "negative_binomial array p": lambda g: g.negative_binomial(1, [0.5, -0.5]),
    "hypergeometric ngood < 0": lambda g: g.hypergeometric(-1, 5, 1),
    "hypergeometric nbad < 0": lambda g: g.hypergeometric(5, -1, 1),
    "hypergeometric sum < nsample": lambda g: g.hypergeometric(2, 2, 5),
    "hypergeometric nsample NaN": lambda g: g.hypergeometric(2, 2, np.nan),
    "noncentral_chisquare df <= 0": lambda g: g.noncentral_chisquare(0.0, 1.0),
    "noncentral_chisquare nonc < 0": lambda g: g.noncentral_chisquare(1.0, -1.0),
    "noncentral_f dfnum <= 0": lambda g: g.noncentral_f(0.0, 1.0, 1.0),
    "noncentral_f dfden <= 0": lambda g: g.noncentral_f(1.0, 0.0, 1.0),
    "noncentral_f nonc < 0": lambda g: g.noncentral_f(1.0, 1.0, -1.0),
    "vonmises kappa < 0": lambda g: g.vonmises(0.0, [1.0, -1.0]),
    "zipf a <= 1": lambda g: g.zipf(1.0),
    "zipf a NaN": lambda g: g.zipf(np.nan),
    "logseries p < 0": lambda g: g.logseries(-0.1),
    "logseries p >= 1": lambda g: g.logseries(1.0),
    "poisson lam < 0": lambda g: g.poisson([1.0, -1.0]),
    "poisson lam NaN": lambda g: g.poisson(np.nan),
    "poisson lam too large": lambda g: g.poisson(1e19),
}
GENERATOR_ONLY_BAD = {
    "negative_binomial p = 0": lambda g: g.negative_binomial(1, 0.0),
    "hypergeometric nsample < 0": lambda g: g.hypergeometric(2, 2, -1),
    "hypergeometric >= 10**9": lambda g: g.hypergeometric(10**9, 1, 1),
    "multivariate_hypergeometric negative": lambda g: g.multivariate_hypergeometric([1, -1], 1),
    "multivariate_hypergeometric floats": lambda g: g.multivariate_hypergeometric([1.5, 2], 1),
    "multivariate_hypergeometric 2-d": lambda g: g.multivariate_hypergeometric([[1, 2]], 1),
    "multivariate_hypergeometric nsample > sum": lambda g: g.multivariate_hypergeometric([1, 2], 4),
    "multivariate_hypergeometric nsample < 0": lambda g: g.multivariate_hypergeometric([1, 2], -1),
    "multivariate_hypergeometric method": lambda g: g.multivariate_hypergeometric([1, 2], 1, method="x"),
}
LEGACY_ONLY_BAD = {
    "negative_binomial p < 0": lambda g: g.negative_binomial(1, -0.5),
    "hypergeometric nsample < 1": lambda g: g.hypergeometric(2, 2, 0),
}


def _same_error(call, ours, theirs):
    with pytest.raises(ValueError) as ref:
        call(theirs)
    with pytest.raises(ValueError) as got:
        call(ours)
    assert str(ref.value).split()[0] in str(got.value)  # the same parameter (or check) is named


@pytest.mark.parametrize("case", sorted(BAD) + sorted(GENERATOR_ONLY_BAD))
def test_bad_parameters_raise_numpys_error(case):
    call = {**BAD, **GENERATOR_ONLY_BAD}[case]
    _same_error(call, kd.random.default_rng(0), np.random.default_rng(0))


@pytest.mark.parametrize("case", sorted(BAD) + sorted(LEGACY_ONLY_BAD))
def test_bad_parameters_raise_numpys_legacy_error(case):
    call = {**BAD, **LEGACY_ONLY_BAD}[case]
    _same_error(call, kd.random.RandomState(0), np.random.RandomState(0))


def test_legacy_accepts_what_the_generator_rejects():
    assert kd.random.RandomState(0).hypergeometric(10**9, 1, 1, 3).shape == (3,)
    assert kd.random.RandomState(0).negative_binomial(1, 1.0, 3).tolist() == [0, 0, 0]
    assert kd.random.default_rng(0).hypergeometric(3, 4, 0, 3).tolist() == [0, 0, 0]


# ----- the laws
CONTINUOUS = {
    "noncentral_chisquare df=3": (lambda g: g.noncentral_chisquare(3.0, 2.0, N), stats.ncx2(3.0, 2.0).cdf),
    "noncentral_chisquare df<1": (lambda g: g.noncentral_chisquare(0.5, 20.0, N), stats.ncx2(0.5, 20.0).cdf),
    "noncentral_chisquare nonc=0": (lambda g: g.noncentral_chisquare(4.0, 0.0, N), stats.chi2(4.0).cdf),
    "noncentral_f": (lambda g: g.noncentral_f(3.0, 7.0, 2.0, N), stats.ncf(3.0, 7.0, 2.0).cdf),
    "vonmises kappa=4": (lambda g: g.vonmises(1.0, 4.0, N), stats.vonmises(4.0, loc=1.0).cdf),
    "vonmises kappa=0.3 wraps": (lambda g: g.vonmises(3.0, 0.3, N), stats.vonmises(0.3, loc=3.0).cdf),
    "vonmises kappa=500": (lambda g: g.vonmises(-0.5, 500.0, N), stats.vonmises(500.0, loc=-0.5).cdf),
    "vonmises kappa=0": (lambda g: g.vonmises(0.0, 0.0, N), stats.uniform(-math.pi, 2 * math.pi).cdf),
}


@pytest.mark.parametrize("name", sorted(CONTINUOUS))
def test_kolmogorov_smirnov_against_exact_cdf(name):
    draw, cdf = CONTINUOUS[name]
    x = draw(kd.random.default_rng(2024)).numpy().astype(np.float64)
    assert np.isfinite(x).all()
    if name.startswith("vonmises"):
        assert ((x >= -math.pi - 1e-6) & (x <= math.pi + 1e-6)).all()
        x = np.clip(x, -math.pi, math.pi)
    if name == "vonmises kappa=0.3 wraps":  # scipy's CDF is on [loc - pi, loc + pi]: unwrap onto it
        x = np.where(x < 3.0 - math.pi, x + 2 * math.pi, x)
    assert stats.kstest(x, cdf).pvalue > 1e-6


def _support(mean, sd, lo=0):
    return np.arange(max(lo, int(mean - 6 * sd)), int(mean + 6 * sd) + 2)


@pytest.mark.parametrize("lam", [0.5, 4.0, 9.9, 10.0, 35.0, 2500.0, 3e6])
def test_poisson_array_route(lam):
    """Array ``lam`` is drawn per element: inversion below 10, PTRS rejection above."""
    x = kd.random.default_rng(3).poisson(np.full(N, lam)).numpy()
    assert x.dtype == np.int64 and x.min() >= 0
    sd = math.sqrt(lam)
    if lam < 1e5:
        chi2_ok(x, lambda k: stats.poisson.pmf(k, lam), _support(lam, sd))
    mean_ok(x.astype(float), lam, lam)
    assert abs(x.var() / lam - 1) < 6 * math.sqrt(2 / N)


@pytest.mark.parametrize("lam", [12_000.0, 1e7])
def test_poisson_large_scalar_is_exact_now(lam):
    """Above the host table's range a scalar lam takes the PTRS route (float64 past 2**22), not an approximation."""
    x = kd.random.default_rng(4).poisson(lam, N).numpy().astype(np.float64)
    mean_ok(x, lam, lam)
    assert abs(x.var() / lam - 1) < 6 * math.sqrt(2 / N)
    skew = stats.skew(x)
    assert abs(skew - 1 / math.sqrt(lam)) < 6 * math.sqrt(6 / N)


def test_poisson_kdsl_array_lam():
    lam = kd.asarray(np.array([[1.0], [20.0]], dtype=np.float32))
    x = kd.random.default_rng(5).poisson(lam, size=(2, N // 2)).numpy().astype(np.float64)
    mean_ok(x[0], 1.0, 1.0)
    mean_ok(x[1], 20.0, 20.0)


@pytest.mark.parametrize("n, p", [(3, 0.25), (0.5, 0.05), (40.5, 0.7), (1e4, 0.5)])
def test_negative_binomial_law(n, p):
    x = kd.random.default_rng(6).negative_binomial(n, p, N).numpy()
    assert x.dtype == np.int64 and x.min() >= 0
    mean, var = n * (1 - p) / p, n * (1 - p) / p**2
    mean_ok(x.astype(float), mean, var)
    if mean < 1e3:
        chi2_ok(x, lambda k: stats.nbinom.pmf(k, n, p), np.arange(0, int(mean + 12 * math.sqrt(var)) + 2))


def test_negative_binomial_array_parameters():
    n, p = np.array([2.0, 10.0]), np.array([[0.2], [0.9]])
    x = kd.random.default_rng(7).negative_binomial(n, p, (N // 4, 2, 2)).numpy().astype(np.float64)
    for i in range(2):
        for j in range(2):
            m, v = n[j] * (1 - p[i, 0]) / p[i, 0], n[j] * (1 - p[i, 0]) / p[i, 0] ** 2
            mean_ok(x[:, i, j], m, v)


@pytest.mark.parametrize("ngood, nbad, nsample", [(10, 5, 6), (3, 200, 100), (500, 700, 600),
                                                  (10**8, 3 * 10**8, 10**6), (0, 5, 3), (5, 0, 3)])
def test_hypergeometric_law(ngood, nbad, nsample):
    x = kd.random.default_rng(8).hypergeometric(ngood, nbad, nsample, N).numpy()
    assert x.dtype == np.int64
    assert x.min() >= max(0, nsample - nbad) and x.max() <= min(nsample, ngood)
    dist = stats.hypergeom(ngood + nbad, ngood, nsample)
    if dist.std() == 0:
        assert (x == dist.mean()).all()
        return
    mean_ok(x.astype(float), dist.mean(), dist.var())
    chi2_ok(x, dist.pmf, _support(dist.mean(), dist.std()))


def test_hypergeometric_array_parameters_each_get_their_law():
    good = np.array([5, 50, 500])
    x = kd.random.default_rng(9).hypergeometric(good, 40, np.array([[4], [30]]), (N // 6, 2, 3)).numpy()
    for i, s in enumerate((4, 30)):
        for j, g in enumerate(good):
            dist = stats.hypergeom(g + 40, g, s)
            mean_ok(x[:, i, j].astype(float), dist.mean(), dist.var())
    y = kd.random.default_rng(9).hypergeometric(kd.asarray(good), 40, 4).numpy()  # kdsl arrays are read
    assert y.shape == (3,) and (y <= 4).all()


def test_multivariate_hypergeometric():
    colors = np.array([6, 0, 10, 4])
    rows, nsample, total = N // 20, 7, colors.sum()
    for method in ("marginals", "count"):
        x = kd.random.default_rng(10).multivariate_hypergeometric(colors, nsample, rows, method=method).numpy()
        assert x.shape == (rows, 4) and x.dtype == np.int64
        assert (x.sum(-1) == nsample).all() and (x[:, 1] == 0).all() and (x <= colors).all()
        for i in (0, 2, 3):
            dist = stats.hypergeom(total, colors[i], nsample)
            mean_ok(x[:, i].astype(float), dist.mean(), dist.var())
        cov = np.cov(x[:, 0], x[:, 2])[0, 1]
        exact = -nsample * (colors[0] / total) * (colors[2] / total) * (total - nsample) / (total - 1)
        assert abs(cov - exact) < 0.1
    assert kd.random.default_rng(0).multivariate_hypergeometric([3, 2], 0, 2).tolist() == [[0, 0], [0, 0]]
    assert kd.random.default_rng(0).multivariate_hypergeometric([3, 2], 5).tolist() == [3, 2]


@pytest.mark.parametrize("a", [1.05, 1.5, 2.0, 3.5, 8.0])
def test_zipf_law(a):
    """NumPy's law: Zipf conditioned on fitting in int64 (for a near 1 a tenth of the mass lies beyond)."""
    x = kd.random.default_rng(11).zipf(a, N).numpy()
    assert x.dtype == np.int64 and x.min() >= 1
    inside = 1.0 - special.zeta(a, 2.0**63) / special.zeta(a)
    chi2_ok(x, lambda k: stats.zipf.pmf(k, a) / inside, np.arange(1, 200))


@pytest.mark.parametrize("p", [0.0, 0.3, 0.9, 0.999])
def test_logseries_law(p):
    x = kd.random.default_rng(12).logseries(p, N).numpy()
    assert x.dtype == np.int64 and x.min() >= 1
    if p == 0.0:
        assert (x == 1).all()
        return
    chi2_ok(x, lambda k: stats.logser.pmf(k, p), np.arange(1, 400))


def test_logseries_and_zipf_array_parameters():
    g = kd.random.default_rng(13)
    x = g.logseries(np.array([0.2, 0.8]), (N // 2, 2)).numpy().astype(np.float64)
    for j, p in enumerate((0.2, 0.8)):
        d = stats.logser(p)
        mean_ok(x[:, j], d.mean(), d.var())
    z = g.zipf(kd.asarray(np.array([4.0, 6.0])), (N // 2, 2)).numpy().astype(np.float64)
    for j, a in enumerate((4.0, 6.0)):
        d = stats.zipf(a)
        mean_ok(z[:, j], d.mean(), d.var())


# ----- the rest of NumPy's surface
def test_random_integers_and_tomaxint():
    rs = kd.random.RandomState(14)
    with pytest.warns(DeprecationWarning):
        x = rs.random_integers(-2, 3, size=5000).numpy()
    with pytest.warns(DeprecationWarning):
        ref = np.random.RandomState(0).random_integers(-2, 3, size=5)
    assert x.dtype == ref.dtype == np.int64
    assert sorted(set(x.tolist())) == [-2, -1, 0, 1, 2, 3]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert sorted(set(kd.random.random_integers(2, size=500).tolist())) == [1, 2]
    t = rs.tomaxint(1000).numpy()
    assert t.dtype == np.int64 and t.min() >= 0 and t.max() > 2**60


@pytest.mark.parametrize("method", ["random", "standard_normal", "standard_exponential", "standard_gamma"])
@pytest.mark.parametrize("kind", ["kdsl", "numpy"])
def test_out_argument(method, kind):
    def call(g, **kw):
        return getattr(g, method)(2.0, **kw) if method == "standard_gamma" else getattr(g, method)(**kw)
    for d in (np.float32, np.float64):
        out = kd.zeros((3, 4), dtype=d) if kind == "kdsl" else np.zeros((3, 4), dtype=d)
        got = call(kd.random.default_rng(15), out=out)
        assert got is out
        ref = call(kd.random.default_rng(15), size=(3, 4), dtype=d).numpy()
        np.testing.assert_array_equal(np.asarray(out.numpy() if kind == "kdsl" else out), ref)
    wrong = kd.zeros(3, dtype=kd.int32) if kind == "kdsl" else np.zeros(3, dtype=np.int32)
    with pytest.raises(TypeError, match="wrong type"):
        call(kd.random.default_rng(0), out=wrong)
    with pytest.raises(TypeError, match="wrong type"):
        call(np.random.default_rng(0), out=np.zeros(3, dtype=np.int32))
    with pytest.raises(ValueError, match="size must match out.shape"):
        call(kd.random.default_rng(0), size=4, out=kd.zeros(3))
    with pytest.raises(ValueError, match="size must match out.shape"):
        call(np.random.default_rng(0), size=4, out=np.zeros(3))


def test_standard_exponential_methods():
    for method in ("zig", "inv"):
        x = kd.random.default_rng(16).standard_exponential(N, method=method).numpy().astype(np.float64)
        assert stats.kstest(x, stats.expon().cdf).pvalue > 1e-6


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_choice_along_an_axis(axis):
    a = np.arange(24).reshape(4, 6)
    for replace in (True, False):
        got = kd.random.default_rng(17).choice(kd.asarray(a), 3, replace=replace, axis=axis).numpy()
        ref = np.random.default_rng(17).choice(a, 3, replace=replace, axis=axis)
        assert got.shape == ref.shape
        picked = np.moveaxis(got, axis, 0)
        rows = np.moveaxis(a, axis, 0)
        for r in picked:  # every pick is a whole slice of a along the axis
            assert any((r == s).all() for s in rows)
        if not replace:
            assert len({tuple(r) for r in picked}) == 3
    with pytest.raises(np.exceptions.AxisError):
        kd.random.default_rng(0).choice(kd.asarray(a), 2, axis=2)


@pytest.mark.parametrize("api", ["Generator", "module"])
def test_shuffle_host_containers_in_place(api):
    shuffle = kd.random.default_rng(18).shuffle if api == "Generator" else kd.random.shuffle
    x = np.arange(20).reshape(10, 2)
    shuffle(x)
    assert sorted(x[:, 0].tolist()) == list(range(0, 20, 2)) and (x[:, 1] == x[:, 0] + 1).all()
    assert not (x[:, 0] == np.arange(0, 20, 2)).all()
    y = list(range(30))
    shuffle(y)
    assert sorted(y) == list(range(30)) and y != list(range(30))
    z = np.arange(12).reshape(3, 4)
    shuffle(z, axis=1) if api == "Generator" else None
    assert (np.sort(z, axis=1) == np.arange(12).reshape(3, 4)).all()
    with pytest.raises(TypeError):
        shuffle((1, 2, 3))


# ----- integers / randint with arrays of bounds
@pytest.mark.parametrize("endpoint", [False, True])
def test_integers_with_array_bounds(endpoint):
    low, high = np.array([0, -7, 2]), np.array([[3], [12]])
    x = kd.random.default_rng(19).integers(low, high, size=(N // 6, 2, 3), endpoint=endpoint).numpy()
    ref = np.random.default_rng(19).integers(low, high, size=(N // 6, 2, 3), endpoint=endpoint)
    assert x.dtype == ref.dtype == np.int64 and x.shape == ref.shape
    top = high + (1 if endpoint else 0)
    for i in range(2):
        for j in range(3):
            col, span = x[:, i, j], top[i, 0] - low[j]
            assert col.min() >= low[j] and col.max() < top[i, 0]
            if span > 1:
                chi2_ok(col - low[j], lambda k, s=span: np.full(k.shape, 1.0 / s), np.arange(span))


def test_integers_bound_errors_and_kdsl_arrays():
    calls = [lambda g: g.integers([1, 5], [5, 5]), lambda g: g.integers([-1, 5], [5, 6], dtype=np.uint8),
             lambda g: g.integers([1, 5], [5, 300], dtype=np.uint8), lambda g: g.integers([1, 2], 10, size=3)]
    for call in calls:
        _same_error(call, kd.random.default_rng(0), np.random.default_rng(0))
    _same_error(lambda m: m.randint([1, 2], [3, 2]), kd.random.RandomState(0), np.random.RandomState(0))
    g = kd.random.default_rng(20)
    y = g.integers(kd.asarray(np.array([0, -5])), 3, size=(N // 2, 2)).numpy()
    assert sorted(set(y[:, 0].tolist())) == [0, 1, 2] and sorted(set(y[:, 1].tolist())) == list(range(-5, 3))
    z = g.integers(-2**63, [2**63 - 1], size=N).numpy()  # the widest span: half the candidates are rejected
    mean_ok((z < 0).astype(float), 0.5, 0.25)
    assert kd.random.randint([1, 2], [3, 4]).dtype == kd.int64
    assert g.integers([1, 2], 10, dtype=kd.uint8).dtype == kd.uint8


def test_integers_bool_dtype():
    g = kd.random.default_rng(22)
    x = g.integers(0, 2, size=N, dtype=bool)
    assert x.dtype == kd.bool_ and np.random.default_rng(0).integers(0, 2, size=3, dtype=bool).dtype == np.bool_
    mean_ok(x.numpy().astype(float), 0.5, 0.25)
    assert g.integers(1, 1, size=3, dtype=bool, endpoint=True).tolist() == [True] * 3
    for call in (lambda m: m.integers(-1, 2, dtype=bool), lambda m: m.integers(0, 3, dtype=bool)):
        _same_error(call, kd.random.default_rng(0), np.random.default_rng(0))


def test_multinomial_rows_of_pvals():
    n, pvals = np.array([10, 30]), np.array([[0.2, 0.3, 0.5], [0.6, 0.0, 0.4]])
    x = kd.random.default_rng(23).multinomial(n, pvals, size=(N // 10, 2)).numpy()
    ref = np.random.default_rng(23).multinomial(n, pvals, size=(N // 10, 2))
    assert x.shape == ref.shape and x.dtype == ref.dtype == np.int64
    assert (x.sum(-1) == n).all() and (x[:, 1, 1] == 0).all()
    for r in range(2):
        for c in range(3):
            p = pvals[r, c]
            mean_ok(x[:, r, c].astype(float), n[r] * p, n[r] * p * (1 - p) + 1e-12)
    assert kd.random.default_rng(0).multinomial(4, [[0.5, 0.5]] * 3).shape == (3, 2)
    for call in (lambda g: g.multinomial(4, [[0.5, 0.5]] * 3, size=2),
                 lambda g: g.multinomial(4, [[0.7, 0.2], [1.5, 0.0]])):
        _same_error(call, kd.random.default_rng(0), np.random.default_rng(0))


def test_bit_generator_state_round_trip():
    rng = kd.random.default_rng(24)
    saved = rng.bit_generator.state
    a = rng.standard_normal(5).numpy()
    assert rng.bit_generator.state != saved  # the draw moved the stream on
    rng.bit_generator.state = saved
    np.testing.assert_array_equal(rng.standard_normal(5).numpy(), a)
    assert isinstance(rng.bit_generator.seed_seq, np.random.SeedSequence)
    with pytest.raises(ValueError, match="bit_generator"):
        rng.bit_generator.state = np.random.default_rng(0).bit_generator.state
    np.testing.assert_array_equal(kd.random.default_rng(np.random.default_rng(3)).random(4).numpy(),
                                  kd.random.default_rng(np.random.default_rng(3)).random(4).numpy())
