"""Generator.multivariate_hypergeometric at its edges, against NumPy: no colours (``[]`` reads as float64: it
raised), zero samples, and NumPy's bound sum(colors) < 10**9 for method="marginals" (kdsl tried a 3e9-key draw)."""

import numpy as np
import pytest

import kdsl as kd


def _outcome(call):
    try:
        r = np.asarray(call())
    except ValueError as e:
        return ("raise", str(e))
    return ("ok", r.shape, r.dtype, r.tolist() if r.size <= 12 else None)


@pytest.mark.parametrize("method", ["count", "marginals"])
@pytest.mark.parametrize("colors,nsample,size", [
    ([], 0, None), ([], 0, 1), ([], 0, (2, 3)), (np.array([], dtype=np.int64), 0, None), ([0, 0, 0], 0, None),
    ([1, 2, 3], 0, 2), ([9, 0, 0], 3, None), ([1, 1, 0, 1, 1], 4, (2,)), ([], 1, None),
    (np.array([4, 0, 6, 2])[::2], 10, None),
])
def test_edges_as_numpy(method, colors, nsample, size):
    want = _outcome(lambda: np.random.default_rng(0).multivariate_hypergeometric(colors, nsample, size, method))
    got = _outcome(lambda: kd.random.default_rng(0).multivariate_hypergeometric(colors, nsample, size, method))
    if want[0] == "raise" and want[1].startswith('When method is "marginals"'):
        assert got == want
    else:
        assert got[0] == want[0] and (got[0] == "raise" or got[1:] == want[1:])


@pytest.mark.parametrize("colors,nsample,size", [([999999999, 101], 5, 1), ([10**9], 2, None)])
def test_marginals_bound(colors, nsample, size):
    """NumPy's ValueError for sum(colors) >= 10**9 with method="marginals" (the default)."""
    want = _outcome(lambda: np.random.default_rng(0).multivariate_hypergeometric(colors, nsample, size))
    got = _outcome(lambda: kd.random.default_rng(0).multivariate_hypergeometric(colors, nsample, size))
    assert got == want and got[0] == "raise"
