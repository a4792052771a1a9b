"""kd.ma.cov / kd.ma.corrcoef against numpy.ma's (numpy/ma/tests/test_extras.py's TestCov, TestCorrcoef): pairwise
unmasked observations, rowvar, bias, ddof, y (a shared mask when shapes agree), allow_masked (kdsl had neither)."""

import warnings

import numpy as np
import pytest
from ma_testing import assert_same, pair

import kdsl as kd


def expected(name, *args, **kwargs):
    with warnings.catch_warnings():  # NumPy's empty-slice / divide warnings on fully masked variables
        warnings.simplefilter("ignore", RuntimeWarning)
        return getattr(np.ma, name)(*args, **kwargs)


@pytest.mark.parametrize("name", ["cov", "corrcoef"])
@pytest.mark.parametrize("kind", ["some", "none", "all", "nomask"])
@pytest.mark.parametrize("shape", [(3, 6), (1, 5), (6,), (4, 1), (2, 0)])
@pytest.mark.parametrize("rowvar", [True, False])
def test_one_array(name, kind, shape, rowvar):
    n, k = pair(shape, np.float64, kind)
    assert_same(getattr(kd.ma, name)(k, rowvar=rowvar), expected(name, n, rowvar=rowvar), rtol=1e-9)


@pytest.mark.parametrize("dtype", [np.int32, np.bool_, np.float64])
@pytest.mark.parametrize("layout", ["transposed", "strided"])
def test_dtypes_and_views(dtype, layout):
    n, k = pair((4, 6), dtype, "some", layout)
    assert_same(kd.ma.cov(k), expected("cov", n), rtol=1e-9)
    assert_same(kd.ma.corrcoef(k), expected("corrcoef", n), rtol=1e-9)


def test_float32_keeps_its_dtype():
    n, k = pair((3, 5), np.float32, "some")
    got = kd.ma.cov(k)
    assert got.dtype == kd.float32  # NumPy computes in float64
    assert_same(got, expected("cov", n), rtol=1e-5, atol=1e-5, check_dtype=False)


@pytest.mark.parametrize("bias, ddof", [(True, None), (False, None), (False, 0), (True, 2), (False, 5)])
def test_bias_and_ddof(bias, ddof):
    n, k = pair((3, 6), np.float64, "some")
    assert_same(kd.ma.cov(k, bias=bias, ddof=ddof), expected("cov", n, bias=bias, ddof=ddof), rtol=1e-9)


@pytest.mark.parametrize("rowvar", [True, False])
@pytest.mark.parametrize("yshape", ["same", "fewer"])
def test_with_y(rowvar, yshape):
    n, k = pair((3, 6), np.float64, "some")
    ny, ky = pair((3, 6), np.float64, "some", seed=5)
    if yshape == "fewer":  # another shape: no shared mask
        cut = (slice(None), slice(0, 4)) if not rowvar else (slice(0, 2),)
        ny, ky = ny[cut], ky[cut]
    for name in ("cov", "corrcoef"):
        assert_same(getattr(kd.ma, name)(k, ky, rowvar=rowvar), expected(name, n, ny, rowvar=rowvar), rtol=1e-9)


def test_one_dimensional_pair_shares_its_mask():
    x = np.ma.array([1.0, 2.0, 4.0, 7.0, np.inf], mask=[0, 1, 0, 0, 1])
    y = np.ma.array([3.0, 1.0, np.nan, 2.0, 5.0], mask=[0, 0, 1, 0, 0])
    kx, ky = kd.ma.array(x), kd.ma.array(y)
    assert_same(kd.ma.cov(kx, ky), expected("cov", x, y), rtol=1e-9)
    assert_same(kd.ma.corrcoef(kx, ky), expected("corrcoef", x, y), rtol=1e-9)


def test_a_single_variable():
    n, k = pair((6,), np.float64, "some")
    got = kd.ma.cov(k)
    assert isinstance(got, kd.ma.MaskedArray) and got.shape == ()  # NumPy's squeezed 0-d masked array
    assert float(got.data) == pytest.approx(float(expected("cov", n)))
    assert kd.ma.corrcoef(k) is kd.ma.masked  # as NumPy's: no diagonal to scale by


def test_masked_nan_and_inf_are_left_out():
    data = np.array([[1.0, np.nan, 3.0, 4.0], [2.0, 1.0, np.inf, 0.5], [1.0, 2.0, 3.0, 5.0]])
    n = np.ma.array(data, mask=[[0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0]])
    assert_same(kd.ma.cov(kd.ma.array(n)), expected("cov", n), rtol=1e-9)
    assert_same(kd.ma.corrcoef(kd.ma.array(n)), expected("corrcoef", n), rtol=1e-9)


def test_an_unmasked_nan_gives_nan_in_its_row_and_column():
    # as np.cov; numpy.ma's own result depends on whether the input has a mask (its masked mean of a
    # non-finite sum turns the variable's centred values into zeros)
    data = np.array([[1.0, np.nan, 3.0, 4.0], [2.0, 1.0, 7.0, 0.5]])
    got = kd.ma.cov(kd.ma.array(data, mask=[[0, 0, 0, 0], [0, 0, 1, 0]])).data.numpy()
    assert np.isnan(got[0]).all() and np.isnan(got[:, 0]).all() and np.isfinite(got[1, 1])


def test_allow_masked_and_bad_ddof():
    n, k = pair((3, 4), np.float64, "some")
    for name in ("cov", "corrcoef"):
        with pytest.raises(ValueError, match="Cannot process masked data."):
            getattr(kd.ma, name)(k, allow_masked=False)
        clean = kd.ma.array(kd.asarray(n.data))
        assert_same(getattr(kd.ma, name)(clean, kd.ma.array(kd.asarray(n.data)), allow_masked=False),
                    expected(name, n.data, n.data, allow_masked=False), rtol=1e-9)
    with pytest.raises(ValueError, match="ddof must be an integer"):
        kd.ma.cov(k, ddof=1.5)
