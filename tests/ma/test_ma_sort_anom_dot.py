"""kd.ma's ``sort``/``argsort`` (functions and methods, ``endwith``, ``fill_value``, in place through a view),
``anom``/``anomalies``, ``cumsum``/``cumprod`` functions, ``masked_all``/``masked_all_like``, ``dot``
(``strict``), ``hstack``/``vstack`` against numpy.ma: each was an AttributeError (``np.ma.sort(x)`` in a port).
NumPy's default sort is an unstable quicksort, so the orders are compared with ``kind="stable"``."""

import warnings

import numpy as np
import pytest
from ma_testing import assert_same, pair

import kdsl as kd


@pytest.mark.parametrize("dtype", [np.float64, np.int32])
@pytest.mark.parametrize("kind", ["some", "nomask", "all"])
@pytest.mark.parametrize("axis", [-1, 0, None])
@pytest.mark.parametrize("endwith", [True, False])
def test_argsort_and_sort(dtype, kind, axis, endwith):
    n, k = pair((4, 5), dtype, kind, layout="strided")
    got = kd.ma.argsort(k, axis=axis, endwith=endwith, kind="stable")
    np.testing.assert_array_equal(got.numpy(), np.ma.argsort(n, axis=axis, endwith=endwith, kind="stable"))
    assert_same(kd.ma.sort(k, axis=axis, endwith=endwith, kind="stable"),
                np.ma.sort(n, axis=axis, endwith=endwith, kind="stable"), masked_data=True)


def test_non_finite_data_and_fill_value():
    data = np.array([[2.0, np.inf, np.nan, -1.0], [np.nan, 0.5, -np.inf, 3.0]])
    mask = [[0, 0, 0, 1], [1, 0, 0, 0]]
    n, k = np.ma.array(data, mask=mask), kd.ma.array(kd.asarray(data), mask=mask)
    for kw in [{}, {"endwith": False}, {"fill_value": 1.0}]:
        np.testing.assert_array_equal(kd.ma.argsort(k, axis=1, kind="stable", **kw).numpy(),
                                      np.ma.argsort(n, axis=1, kind="stable", **kw))


def test_sort_method_in_place_through_a_view():
    n, k = pair((4, 6), np.int32, "some")
    n[1:3].sort(axis=1, kind="stable")
    k[1:3].sort(axis=1, kind="stable")
    assert_same(k, n, masked_data=True)
    np.testing.assert_array_equal(k[0].argsort(kind="stable").numpy(), n[0].argsort(kind="stable"))
    with pytest.raises(ValueError, match="stable"):
        k.sort(stable=True)


def test_argsort_default_axis_of_2d_warns_and_flattens_as_numpy():
    n, k = pair((3, 4), np.float64, "some")
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        got = k.argsort(kind="stable")
    assert any(issubclass(x.category, np.ma.core.MaskedArrayFutureWarning) for x in w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_array_equal(got.numpy(), n.argsort(kind="stable"))


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_anom_and_accumulations(axis):
    n, k = pair((4, 5), np.float64, "some")
    n[2], k[2] = np.ma.masked, kd.ma.masked  # a line with nothing unmasked
    assert_same(k.anom(axis=axis), n.anom(axis=axis), rtol=1e-12, atol=1e-12)
    assert_same(kd.ma.anomalies(k, axis=axis), np.ma.anomalies(n, axis=axis), rtol=1e-12, atol=1e-12)
    assert_same(kd.ma.cumsum(k, axis=axis), np.ma.cumsum(n, axis=axis), masked_data=False)
    ni, ki = pair((3, 4), np.int32, "some")
    assert_same(kd.ma.cumprod(ki, axis=axis), np.ma.cumprod(ni, axis=axis))
    assert_same(ki.cumprod(axis=axis), ni.cumprod(axis=axis))


def test_masked_all():
    got, expected = kd.ma.masked_all((2, 3), dtype=kd.int32), np.ma.masked_all((2, 3), dtype=np.int32)
    np.testing.assert_array_equal(kd.ma.getmaskarray(got).numpy(), np.ma.getmaskarray(expected))
    assert got.count() == expected.count() == 0 and kd.ma.masked_all((3,)).sum() is kd.ma.masked
    got[1, 1] = 7
    expected[1, 1] = 7
    assert_same(got, expected)
    like = kd.ma.masked_all_like(kd.asarray(np.arange(4.0)))
    assert like.dtype == kd.float64 and like.count() == 0


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("shape_b", [(5, 3), (5,)])
def test_dot(strict, shape_b):
    n, k = pair((4, 5), np.float64, "some")
    nb, kb = pair(shape_b, np.float64, "some", seed=3)
    assert_same(kd.ma.dot(k, kb, strict=strict), np.ma.dot(n, nb, strict=strict), rtol=1e-12, atol=1e-12)
    assert_same(k.dot(kb, strict=strict), n.dot(nb, strict=strict), rtol=1e-12, atol=1e-12)


def test_hstack_vstack():
    n, k = pair((3, 4), np.float64, "some")
    n2, k2 = pair((3, 2), np.float64, "nomask", seed=5)
    assert_same(kd.ma.hstack([k, k2]), np.ma.hstack([n, n2]))
    assert_same(kd.ma.hstack([k[0], k2[1]]), np.ma.hstack([n[0], n2[1]]))
    assert_same(kd.ma.vstack([k[0], k]), np.ma.vstack([n[0], n]))
    assert_same(kd.ma.row_stack((k[1], k[2])), np.ma.vstack((n[1], n[2])))
