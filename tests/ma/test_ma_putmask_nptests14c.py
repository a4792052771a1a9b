"""kd.ma.putmask, as numpy.ma's (missing before: AttributeError): values written where the mask holds, in place,
their mask with them (a soft mask takes it, a hard mask only gains it); several shapes, dtypes, views, scalars,
broadcast values, empty arrays, NaN and inf."""

import numpy as np
import pytest
from ma_testing import assert_same, pair

import kdsl as kd


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("values_masked", [False, True])
@pytest.mark.parametrize("case", [((7,), np.float32, "some", "contiguous"), ((3, 4), np.int32, "nomask", "contiguous"),
                                  ((3, 4), np.float64, "all", "contiguous"), ((0,), np.float32, "some", "contiguous"),
                                  ((1,), np.int32, "none", "contiguous")])
def test_putmask_against_numpy(case, values_masked, hard):
    n, k = pair(*case)
    if hard:
        n.harden_mask()
        k.harden_mask()
    where = np.random.default_rng(4).random(n.shape) < 0.5
    vals = (np.arange(n.size).reshape(n.shape) * 10 + 5).astype(case[1])
    vmask = np.random.default_rng(6).random(n.shape) < 0.5
    nv = np.ma.array(vals, mask=vmask) if values_masked else vals
    kv = kd.ma.array(kd.asarray(vals), mask=kd.asarray(vmask)) if values_masked else kd.asarray(vals)
    np.ma.putmask(n, where, nv)
    assert kd.ma.putmask(k, kd.asarray(where), kv) is None
    assert_same(k, n, masked_data=True)


def test_scalar_and_broadcast_values_nan_inf():
    data = np.array([[1.0, np.nan], [np.inf, -np.inf]])
    n, k = np.ma.array(data, mask=[[0, 1], [0, 0]]), kd.ma.array(kd.asarray(data), mask=[[0, 1], [0, 0]])
    where = np.array([[True, True], [False, True]])
    np.ma.putmask(n, where, np.nan)
    kd.ma.putmask(k, kd.asarray(where), float("nan"))
    assert_same(k, n, masked_data=True)
    row = np.array([np.inf, 2.0])
    np.ma.putmask(n, ~where, row)
    kd.ma.putmask(k, kd.asarray(~where), kd.asarray(row))
    assert_same(k, n, masked_data=True)


def test_view_writes_through_and_errors():
    base = kd.ma.array(kd.asarray(np.arange(6.0)), mask=[0, 1, 0, 1, 0, 1])
    nbase = np.ma.array(np.arange(6.0), mask=[0, 1, 0, 1, 0, 1])
    kd.ma.putmask(base[::2], kd.asarray([True, False, True]), kd.asarray([9.0, 9.0, 9.0]))
    np.ma.putmask(nbase[::2], np.array([True, False, True]), np.array([9.0, 9.0, 9.0]))
    np.testing.assert_array_equal(base.data.numpy(), nbase.data)
    with pytest.raises(TypeError):
        kd.ma.putmask(kd.asarray([1.0]), kd.asarray([True]), kd.asarray([2.0]))
