"""kd.cov / kd.corrcoef of data without observations are NaN (NumPy's ``0 * inf``), for real and complex data
and any number of variables; they used to come out 0."""

import warnings

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("name", ["cov", "corrcoef"])
@pytest.mark.parametrize("shape", [(0,), (1, 0), (2, 0), (3, 0)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
def test_no_observations_is_nan(name, shape, dtype):
    a = np.zeros(shape, dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = getattr(np, name)(a)
    got = getattr(kd, name)(kd.asarray(a))
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("name", ["cov", "corrcoef"])
def test_no_observations_column_variables(name):
    a = np.zeros((0, 3), np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = getattr(np, name)(a, rowvar=False)
    np.testing.assert_array_equal(getattr(kd, name)(kd.asarray(a), rowvar=False).numpy(), want)
