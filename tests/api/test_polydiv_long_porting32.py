"""`np.polydiv` and `np.polynomial.polynomial.polydiv` of long dividends, as NumPy's, bit for bit, with a bounded
number of kernels: each long-division step moved its window along the remainder, so every step was another
program (400 coefficients: 403 programs, 17-26 s on lavapipe with a cold kernel cache, where NumPy takes 2 ms).
The remainder now sits in a frame that moves with the division: every step is the same graph (tests/porting)."""

import numpy as np
import pytest

import kdsl as kd

P = np.polynomial.polynomial


def _programs():
    return kd.stats()["programs"]


@pytest.mark.parametrize("legacy", [True, False])
def test_long_division_reuses_its_kernels(legacy):
    rng = np.random.default_rng(5)
    divide = kd.polydiv if legacy else kd.polynomial.polynomial.polydiv
    want_divide = np.polydiv if legacy else P.polydiv
    b = np.array([1.0, -0.5, 0.25]) if legacy else np.array([0.25, -0.5, 1.0])
    before = _programs()
    for n in (150, 300, 301):
        a = rng.normal(size=n)
        q, r = divide(kd.asarray(a), kd.asarray(b))
        want_q, want_r = want_divide(a, b)
        np.testing.assert_array_equal(q.numpy(), want_q)  # NumPy's operations in NumPy's order
        np.testing.assert_array_equal(r.numpy(), want_r)
    assert _programs() - before < 60  # a few per length at most; one per quotient coefficient before


@pytest.mark.parametrize("u,v", [([1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 1.0]), ([1e20, 3.0, 1.0, 2.0], [3.0, 1.0, 7.0]),
                                 ([1.0, np.inf, 2.0, 3.0], [1.0, 2.0]), ([5, 0, 0, 0, 1], [1, 0, 1]),
                                 ([2.0, 1.0], [4.0, 1.0, 1.0]), ([3.0], [0.5])])
def test_short_divisions_still_match_numpy(u, v):
    u, v = np.array(u), np.array(v)
    with np.errstate(all="ignore"):
        want = np.polydiv(u, v)
        got = kd.polydiv(kd.asarray(u), kd.asarray(v))
        np.testing.assert_array_equal(got[0].numpy(), want[0])
        np.testing.assert_array_equal(got[1].numpy(), want[1])
        want = P.polydiv(u, v)
        got = kd.polynomial.polynomial.polydiv(kd.asarray(u), kd.asarray(v))
        np.testing.assert_array_equal(got[0].numpy(), want[0])
        np.testing.assert_array_equal(got[1].numpy(), want[1])
