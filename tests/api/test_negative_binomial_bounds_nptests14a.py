"""Generator.negative_binomial rejects n and p whose counts would overflow int64, as NumPy's (the draw was -2**63);
the legacy RandomState does not check, as NumPy's."""

import numpy as np
import pytest

import kdsl as kd


def _outcome(call):
    try:
        r = call()
    except ValueError as e:
        return ("raise", str(e))
    return ("ok", np.shape(r))


@pytest.mark.parametrize("n,p,size", [
    (2**62, 0.1, None), (10, 1e-18, None), (1e18, 0.1, None), (1e17, 0.1, (2, 3)), ([5, 1e19], 0.5, None),
    (np.array([[3.0, 2**62]])[:, ::-1], [0.5, 0.1], (2, 2)), (np.zeros((0, 2)) + 4, 0.5, None), (3, [0.5, 1.0], None),
    (np.inf, 0.5, None), (3, np.float32(0.25), (1,)),
])
def test_generator_bound_as_numpy(n, p, size):
    want = _outcome(lambda: np.random.default_rng(0).negative_binomial(n, p, size))
    got = _outcome(lambda: kd.random.default_rng(0).negative_binomial(n, p, size))
    assert got == want


def test_legacy_does_not_check():
    assert kd.random.RandomState(0).negative_binomial(2**62, 0.1).shape == ()


def test_large_mean_draws_stay_near_it():
    x = kd.random.default_rng(4).negative_binomial(1e15, 0.5, size=2000).numpy().astype(np.float64)
    assert x.dtype == np.float64 and abs(x.mean() / 1e15 - 1.0) < 1e-5
