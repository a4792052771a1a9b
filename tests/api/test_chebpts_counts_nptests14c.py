"""chebpts1 / chebpts2 take NumPy's point counts: a float equal to an integer (2.0) is that many points, another
float is NumPy's ValueError("npts must be integer") (kdsl raised TypeError for both), and too few points is
NumPy's ValueError."""

import numpy as np
import numpy.polynomial.chebyshev as npcheb
import pytest

import kdsl as kd


@pytest.mark.parametrize("name", ["chebpts1", "chebpts2"])
@pytest.mark.parametrize("npts", [2, 2.0, 3, np.int32(5), np.float64(4.0), 9])
def test_counts_as_numpy(name, npts):
    got = getattr(kd.polynomial.chebyshev, name)(npts)
    want = getattr(npcheb, name)(npts)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name", ["chebpts1", "chebpts2"])
@pytest.mark.parametrize("npts", [1.5, 0, -1, 2.5, 0.5])
def test_errors_as_numpy(name, npts):
    with pytest.raises(ValueError) as want:
        getattr(npcheb, name)(npts)
    with pytest.raises(ValueError) as got:
        getattr(kd.polynomial.chebyshev, name)(npts)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("name", ["chebpts1", "chebpts2"])
def test_nan_and_inf_counts(name):
    for npts in (float("nan"), float("inf")):
        with pytest.raises((ValueError, OverflowError)) as want:
            getattr(npcheb, name)(npts)
        with pytest.raises(type(want.value)):
            getattr(kd.polynomial.chebyshev, name)(npts)
