"""Python's ``round()`` of kdsl arrays as of NumPy's: an array of one or more dimensions (size 1 and empty ones
included) has no ``__round__`` (TypeError, with or without ``ndigits``); a 0-d array stands for NumPy's scalar
(``round(x)`` a Python int, ``round(x, n)`` a 0-d array of x's dtype). kdsl used to round n-d arrays element-wise."""

import numpy as np
import pytest

import kdsl as kd

ARRAYS = [np.ones(3), np.ones(1), np.ones((1, 1)), np.zeros((0, 2)), np.array([np.nan, np.inf]),
          np.arange(6, dtype=np.int32).reshape(2, 3)[:, ::2], np.float32([[0.5, 2.5]]).T]


@pytest.mark.parametrize("x", ARRAYS, ids=lambda x: f"{x.dtype}{x.shape}")
@pytest.mark.parametrize("ndigits", [None, 0, 2])
def test_round_of_n_d_arrays_raises_as_numpy(x, ndigits):
    args = () if ndigits is None else (ndigits,)
    with pytest.raises(TypeError):
        round(x, *args)
    with pytest.raises(TypeError, match="__round__"):
        round(kd.asarray(x), *args)


@pytest.mark.parametrize("value", [2.5, -0.5, 3.75, 2048.5])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_round_of_zero_d_arrays_is_numpys_scalar_round(value, dtype):
    want = round(np.array(value, dtype)[()])
    got = round(kd.asarray(np.array(value, dtype)))
    assert type(got) is int and got == want
    want2 = round(np.array(value, dtype)[()], 1)
    got2 = round(kd.asarray(np.array(value, dtype)), 1)
    assert isinstance(got2, kd.Array) and got2.ndim == 0 and got2.dtype == kd.asarray(np.array(value, dtype)).dtype
    np.testing.assert_allclose(float(got2), float(want2), rtol=1e-3)


def test_round_of_reduction_results_and_kd_round_of_arrays():
    x = np.array([[0.5, 1.5], [2.5, 3.25]])
    assert round(kd.asarray(x).sum()) == round(x.sum())
    assert round(kd.asarray(x)[1, 0]) == round(x[1, 0])
    np.testing.assert_array_equal(kd.round(kd.asarray(x)).numpy(), np.round(x))
    with pytest.raises(TypeError):
        round(kd.asarray(x).sum(axis=0))
