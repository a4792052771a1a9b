"""kd.random's parameter checks against NumPy's: NaN parameters pass and draw NaN, a "< 0" check rejects -0.0
(NumPy tests the sign bit), and uniform's ``high - low`` checks (Generator: negative -> ValueError; both
Generator and RandomState: a range that is not finite -> OverflowError, with NumPy's messages)."""

import numpy as np
import pytest

import kdsl as kd

# (method, positional parameters before the one under test, keyword of the parameter under test, NumPy's check)
NONNEGATIVE = [
    ("exponential", (), "scale"), ("normal", (0.0,), "scale"), ("gamma", (1.0,), "scale"),
    ("standard_gamma", (), "shape"), ("weibull", (), "a"), ("laplace", (0.0,), "scale"),
    ("logistic", (0.0,), "scale"), ("gumbel", (0.0,), "scale"), ("rayleigh", (), "scale"),
    ("lognormal", (0.0,), "sigma"), ("vonmises", (0.0,), "kappa"), ("noncentral_chisquare", (3.0,), "nonc"),
    ("noncentral_f", (5.0, 2.0), "nonc"),
]
POSITIVE = [
    ("pareto", (), "a"), ("power", (), "a"), ("beta", (1.0,), "b"), ("standard_t", (), "df"),
    ("chisquare", (), "df"), ("f", (1.0,), "dfden"), ("wald", (1.0,), "scale"),
]
GENERATORS = [lambda: kd.random.default_rng(7), lambda: kd.random.RandomState(7)]
NP_GENERATORS = [lambda: np.random.default_rng(7), lambda: np.random.RandomState(7)]


def _outcome(call):
    """('raise', type, message) or ('ok', None, None) of a call."""
    try:
        call()
    except (ValueError, OverflowError, TypeError) as e:
        return ("raise", type(e), str(e))
    return ("ok", None, None)


@pytest.mark.parametrize("which", [0, 1])
@pytest.mark.parametrize("method,before,name", NONNEGATIVE + POSITIVE)
@pytest.mark.parametrize("value", [-0.0, 0.0, -1.0, np.nan, np.array([1.0, -0.0]), np.array([[2.0, -3.0]])[:, ::-1]])
def test_sign_checks_as_numpy(which, method, before, name, value):
    """-0.0, 0, negatives, arrays and reversed views: the same outcome (and message) as NumPy."""
    want = _outcome(lambda: getattr(NP_GENERATORS[which](), method)(*before, **{name: value}))
    got = _outcome(lambda: getattr(GENERATORS[which](), method)(*before, **{name: value}))
    assert got == want


@pytest.mark.parametrize("method,before,name", NONNEGATIVE + POSITIVE)
def test_nan_parameters_draw_nan(method, before, name):
    """NaN passes NumPy's checks and its draws are NaN; the other elements are ordinary draws."""
    param = np.array([[np.nan, 2.0], [3.0, np.nan]])[:, ::-1]  # a non-contiguous view
    got = getattr(kd.random.default_rng(3), method)(*before, **{name: param}).numpy()
    want = getattr(np.random.default_rng(3), method)(*before, **{name: param})
    assert got.shape == want.shape == (2, 2)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    scalar = getattr(kd.random.default_rng(3), method)(*before, **{name: np.nan}, size=(3, 1))
    assert scalar.shape == (3, 1) and np.isnan(scalar.numpy()).all()


@pytest.mark.parametrize("which", [0, 1])
@pytest.mark.parametrize("low,high", [
    (2, 1), (0.0, -0.0), ([0, 3], [1, 2]), (-np.inf, 0), (0, np.inf), (np.nan, 1), (-1e308, 1e308), (1, 1),
    (np.float32(2), np.float32(1)), (np.zeros((2, 0)), 1.0), (np.array([[0.0, 5.0]])[:, ::-1], 4.0),
])
def test_uniform_range_checks(which, low, high):
    """Generator.uniform: ValueError "high - low < 0", OverflowError for a range that is not finite; the legacy
    uniform draws from (high, low] for high < low and raises its own OverflowError."""
    want = _outcome(lambda: NP_GENERATORS[which]().uniform(low, high))
    got = _outcome(lambda: GENERATORS[which]().uniform(low, high))
    assert got == want


def test_legacy_uniform_reversed_bounds_range():
    """RandomState.uniform(5, 2) lies in (2, 5], as NumPy's."""
    x = kd.random.RandomState(1).uniform(5.0, 2.0, size=(1000,)).numpy()
    assert x.shape == (1000,) and (x > 2.0).all() and (x <= 5.0).all()
    assert abs(x.mean() - 3.5) < 0.15
