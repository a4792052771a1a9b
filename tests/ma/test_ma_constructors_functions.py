"""kd.ma's constructors and helpers against numpy.ma: the masked_* family, masked_invalid/values, fix_invalid,
zeros/ones/empty/arange, getmask/getmaskarray/getdata, is_masked, make_mask, mask_or, filled, compressed,
count_masked, where, concatenate, stack."""

import numpy as np
import pytest
from ma_testing import DTYPES, LAYOUTS, assert_same, host_data, pair

import kdsl as kd

CONDITIONS = ["masked_equal", "masked_not_equal", "masked_greater", "masked_greater_equal", "masked_less",
              "masked_less_equal"]


@pytest.mark.parametrize("name", CONDITIONS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
@pytest.mark.parametrize("shape", [(0,), (9,), (3, 4)])
def test_masked_conditions(name, dtype, shape):
    data = host_data(shape, dtype)
    assert_same(getattr(kd.ma, name)(kd.asarray(data), 1), getattr(np.ma, name)(data, 1))
    n, k = pair(shape, dtype, "some")  # the input's own mask is kept
    assert_same(getattr(kd.ma, name)(k, 0), getattr(np.ma, name)(n, 0))


@pytest.mark.parametrize("bounds", [(-1, 2), (2, -1), (0, 0)])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_masked_inside_outside(bounds, layout):
    n, k = pair((4, 6), np.float64, "nomask", layout)
    assert_same(kd.ma.masked_inside(k, *bounds), np.ma.masked_inside(n, *bounds))
    assert_same(kd.ma.masked_outside(k, *bounds), np.ma.masked_outside(n, *bounds))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_masked_invalid_values_fix_invalid(dtype):
    data = np.array([[1.0, np.nan, np.inf], [-np.inf, 2.5, 1.0 + 1e-9]], dtype)
    assert_same(kd.ma.masked_invalid(kd.asarray(data)), np.ma.masked_invalid(data))
    got, expected = kd.ma.masked_values(kd.asarray(data), 1.0), np.ma.masked_values(data, 1.0)
    assert_same(got, expected)
    assert got.fill_value == expected.fill_value
    mask = [[0, 0, 0], [0, 1, 0]]
    got, expected = kd.ma.fix_invalid(kd.asarray(data), mask=mask), np.ma.fix_invalid(data, mask=mask)
    assert_same(got, expected)
    np.testing.assert_array_equal(got.data.numpy(), expected.data)


@pytest.mark.parametrize("fill", [None, 0.0, -7.5])
def test_fix_invalid_keeps_the_arrays_fill_value(fill):
    # np.ma.fix_invalid(x, fill_value=0).filled() gives 1e20 under the mask: fill_value only replaces the data
    data = np.array([[1.0, np.nan, 3.0], [np.inf, 2.5, -np.inf]])
    mask = [[0, 0, 1], [0, 0, 0]]
    got = kd.ma.fix_invalid(kd.ma.array(kd.asarray(data), mask=mask), fill_value=fill)
    expected = np.ma.fix_invalid(np.ma.array(data, mask=mask), fill_value=fill)
    assert_same(got, expected)
    np.testing.assert_array_equal(got.data.numpy(), expected.data)
    np.testing.assert_array_equal(got.filled().numpy(), expected.filled())
    assert got.fill_value == expected.fill_value


def test_masked_where():
    data = np.arange(12.0).reshape(3, 4)
    cond = data % 3 == 0
    assert_same(kd.ma.masked_where(kd.asarray(cond), kd.asarray(data)), np.ma.masked_where(cond, data))
    assert_same(kd.ma.masked_where(cond, data), np.ma.masked_where(cond, data))
    n, k = pair((3, 4), np.float64, "some")
    assert_same(kd.ma.masked_where(k > 0, k), np.ma.masked_where(n > 0, n))
    with pytest.raises(IndexError):
        kd.ma.masked_where(kd.asarray([True, False]), kd.asarray(data))


@pytest.mark.parametrize("name", ["zeros", "ones"])
@pytest.mark.parametrize("dtype", [None, np.float32, np.int32, np.bool_])
def test_creation(name, dtype):
    kwargs = {} if dtype is None else {"dtype": dtype}
    got = getattr(kd.ma, name)((2, 3), **kwargs)
    if dtype is None:  # kdsl's default float, as kd.zeros / kd.ones
        assert got.dtype == getattr(kd, name)(1).dtype
        kwargs = {"dtype": got.dtype.np}
    assert_same(got, getattr(np.ma, name)((2, 3), **kwargs))
    assert getattr(kd.ma, name)(4).mask is kd.ma.nomask
    assert kd.ma.empty((2, 0), **kwargs).shape == (2, 0)
    # kdsl's default int and float, as kd.arange's
    assert_same(kd.ma.arange(5), np.ma.arange(5, dtype=kd.arange(5).dtype.np))
    assert_same(kd.ma.arange(1.0, 2.0, 0.25), np.ma.arange(1.0, 2.0, 0.25, dtype=kd.arange(1.0).dtype.np))


@pytest.mark.parametrize("kind", ["some", "all", "none", "nomask"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_mask_helpers(kind, dtype):
    n, k = pair((3, 4), dtype, kind)
    assert (kd.ma.getmask(k) is kd.ma.nomask) == (np.ma.getmask(n) is np.ma.nomask)
    np.testing.assert_array_equal(kd.ma.getmaskarray(k).numpy(), np.ma.getmaskarray(n))
    np.testing.assert_array_equal(kd.ma.getdata(k).numpy(), np.ma.getdata(n))
    assert kd.ma.is_masked(k) == np.ma.is_masked(n)
    assert kd.ma.count_masked(k) == np.ma.count_masked(n)
    np.testing.assert_array_equal(kd.ma.count_masked(k, axis=0).numpy(), np.ma.count_masked(n, axis=0))
    np.testing.assert_array_equal(kd.ma.filled(k, 1).numpy(), np.ma.filled(n, 1))
    np.testing.assert_array_equal(kd.ma.compressed(k).numpy(), np.ma.compressed(n))
    assert kd.ma.isMaskedArray(k) and kd.ma.isMA(k) and not kd.ma.isMA(k.data)
    assert kd.ma.getmask(k.data) is kd.ma.nomask
    np.testing.assert_array_equal(kd.ma.getmaskarray(k.data).numpy(), np.zeros((3, 4), bool))


@pytest.mark.parametrize("m1", [[0, 0, 0], [1, 0, 0], None])
@pytest.mark.parametrize("m2", [[0, 0, 0], [0, 1, 1], None])
def test_make_mask_mask_or(m1, m2):
    def host(m):
        return np.ma.nomask if m is None else np.array(m, bool)

    def dev(m):
        return kd.ma.nomask if m is None else kd.asarray(np.array(m, bool))

    for got, expected in ((kd.ma.make_mask(dev(m1)), np.ma.make_mask(host(m1))),
                          (kd.ma.mask_or(dev(m1), dev(m2)), np.ma.mask_or(host(m1), host(m2)))):
        if expected is np.ma.nomask:
            assert got is kd.ma.nomask
        else:
            np.testing.assert_array_equal(got.numpy(), expected)
    assert kd.ma.MaskType == kd.bool_


@pytest.mark.parametrize("kinds", [("some", "some"), ("nomask", "some"), ("nomask", "nomask")])
def test_where(kinds):
    nx, kx = pair((3, 4), np.float64, kinds[0])
    ny, ky = pair((3, 4), np.float64, kinds[1], seed=7)
    cond = host_data((3, 4), np.bool_, seed=3)
    assert_same(kd.ma.where(kd.asarray(cond), kx, ky), np.ma.where(cond, nx, ny))
    assert_same(kd.ma.where(kd.asarray(cond), kx, 0.0), np.ma.where(cond, nx, 0.0))
    ncond = np.ma.array(cond, mask=host_data((3, 4), np.bool_, seed=9))
    kcond = kd.ma.array(kd.asarray(cond), mask=kd.asarray(np.ma.getmaskarray(ncond)))
    assert_same(kd.ma.where(kcond, kx, ky), np.ma.where(ncond, nx, ny))
    assert_same(kd.ma.where(kd.asarray(cond), kx, kd.ma.masked), np.ma.where(cond, nx, np.ma.masked),
                check_data=False)


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("kinds", [("some", "nomask"), ("nomask", "nomask"), ("all", "some")])
def test_concatenate_stack(axis, kinds):
    n1, k1 = pair((3, 4), np.float32, kinds[0])
    n2, k2 = pair((3, 4), np.float32, kinds[1], seed=5)
    assert_same(kd.ma.concatenate([k1, k2], axis=axis), np.ma.concatenate([n1, n2], axis=axis))
    assert_same(kd.ma.stack([k1, k2], axis=axis), np.ma.stack([n1, n2], axis=axis))
    if kinds[1] == "nomask":
        assert kd.ma.concatenate([k2, k2]).mask is kd.ma.nomask
