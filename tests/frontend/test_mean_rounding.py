"""``mean`` and ``var`` divide by the count as NumPy does (``sum / n``, IEEE-rounded): ``np.mean([1., 2., 2.])``
printed 1.6666666666666665 where NumPy prints 1.6666666666666667 (a product with ``1 / n`` is an ulp off for many
``n``). Sums of small integers are exact, so the results must equal NumPy's bit for bit (tests/porting,
porting9a)."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32])
@pytest.mark.parametrize("n", [3, 5, 7, 10, 11, 13, 25])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_mean_is_sum_over_count(dtype, n, axis):
    x = np.random.default_rng(n).integers(-50, 50, size=(n, 3)).astype(dtype)
    got = kd.asarray(x).mean(axis=axis).numpy()
    want = np.asarray(x.mean(axis=axis))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("ddof", [0, 1])
def test_var_divides_by_count_minus_ddof(dtype, ddof):
    x = np.array([[1.0, 2.0, 2.0], [4.0, -1.0, 0.0], [2.0, 2.0, 5.0]], dtype)  # column sums of squares exact
    np.testing.assert_array_equal(kd.asarray(x).var(axis=0, ddof=ddof).numpy(), x.var(axis=0, ddof=ddof))


def test_mean_prints_as_numpy():
    x = np.array([1.0, 2.0, 2.0])
    assert str(kd.asarray(x).mean()) == str(x.mean()) == "1.6666666666666667"
    assert str(kd.asarray(x.astype(np.float32)).mean()) == str(x.astype(np.float32).mean())
