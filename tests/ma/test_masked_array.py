"""kd.ma.MaskedArray's container against numpy.ma: construction, properties, filled/compressed/count, shapes,
indexing, item assignment, printing and conversions."""

import numpy as np
import pytest
from ma_testing import DTYPES, LAYOUTS, MASKS, SHAPES, assert_same, pair

import kdsl as kd


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("kind", MASKS)
def test_properties_filled_compressed_count(shape, dtype, kind):
    n, k = pair(shape, dtype, kind)
    assert (k.shape, k.ndim, k.size) == (n.shape, n.ndim, n.size)
    assert np.dtype(k.dtype.np) == n.dtype
    assert k.fill_value == n.fill_value and type(k.fill_value) is type(n.fill_value)
    assert_same(k, n)
    np.testing.assert_array_equal(k.filled().numpy(), n.filled())
    np.testing.assert_array_equal(k.filled(0).numpy(), n.filled(0))
    np.testing.assert_array_equal(k.compressed().numpy(), n.compressed())
    assert k.count() == n.count()
    for axis in range(len(shape)):
        np.testing.assert_array_equal(k.count(axis=axis).numpy(), n.count(axis=axis))
    np.testing.assert_array_equal(np.asarray(k), np.asarray(n))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("kind", ["some", "nomask"])
def test_views_and_shapes(layout, kind):
    n, k = pair((4, 6), np.float32, kind, layout)
    assert_same(k, n)
    assert_same(k.T, n.T)
    assert_same(k.ravel(), n.ravel())
    assert_same(k.reshape(-1, 2), n.reshape(-1, 2))
    assert_same(k.reshape((2, -1)), n.reshape((2, -1)))
    assert_same(k.astype(np.float64), n.astype(np.float64))
    c = k.copy()
    c[0] = 5.0
    assert_same(k, n)  # the copy is independent


def test_nomask_semantics():
    a = kd.ma.array(kd.asarray(np.arange(3.0)))
    assert a.mask is kd.ma.nomask and kd.ma.getmask(a) is kd.ma.nomask and a.mask == False  # noqa: E712
    assert kd.ma.nomask is np.ma.nomask and kd.ma.masked is np.ma.masked
    b = kd.ma.array([1.0, 2.0], mask=False)
    np.testing.assert_array_equal(b.mask.numpy(), np.ma.array([1.0, 2.0], mask=False).mask)
    c = kd.ma.array([1.0, 2.0, 3.0], mask=True)
    np.testing.assert_array_equal(c.mask.numpy(), [True] * 3)


@pytest.mark.parametrize("key", [0, -1, 2, (1, 2), (slice(None), 1), slice(1, None, 2), (Ellipsis, 0),
                                 (None, 1), (slice(None, None, -1), slice(0, 3))])
@pytest.mark.parametrize("kind", ["some", "all", "none", "nomask"])
def test_getitem(key, kind):
    n, k = pair((3, 4), np.float64, kind)
    assert_same(k[key], n[key])


def test_getitem_arrays():
    n, k = pair((3, 4), np.float64, "some")
    idx = np.array([2, 0, 2])
    assert_same(k[kd.asarray(idx)], n[idx])
    sel = np.array([True, False, True])
    assert_same(k[kd.asarray(sel)], n[sel])


@pytest.mark.parametrize("kind", ["some", "nomask"])
def test_setitem(kind):
    n, k = pair((3, 4), np.float32, kind)
    n[0, 1] = np.ma.masked
    k[0, 1] = kd.ma.masked
    assert_same(k, n)
    n[1] = 7.0  # assigning a value unmasks it
    k[1] = 7.0
    assert_same(k, n)
    n[:, 2] = np.ma.array([1.0, 2.0, 3.0], mask=[True, False, False])
    k[:, 2] = kd.ma.array(kd.asarray(np.array([1.0, 2.0, 3.0], np.float32)), mask=[True, False, False])
    assert_same(k, n)
    n[2, ::2] = np.ma.masked
    k[2, ::2] = kd.ma.masked
    assert_same(k, n)


def test_hard_mask_keeps_masked_values():
    n = np.ma.array([1.0, 2.0, 3.0], mask=[False, True, False], hard_mask=True)
    k = kd.ma.array(kd.asarray(np.array([1.0, 2.0, 3.0])), mask=[False, True, False], hard_mask=True)
    n[:] = 9.0
    k[:] = 9.0
    assert_same(k, n)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(0,), (5,), (2, 3)])
@pytest.mark.parametrize("kind", ["some", "nomask", "all"])
def test_printing_and_lists(shape, dtype, kind):
    n, k = pair(shape, dtype, kind)
    assert str(k) == str(n)
    assert repr(k) == repr(n)
    assert k.tolist() == n.tolist()
    out = k.to_numpy()
    assert isinstance(out, np.ma.MaskedArray)
    np.testing.assert_array_equal(np.ma.getmaskarray(out), np.ma.getmaskarray(n))


def test_fill_value_argument_and_setter():
    data = np.array([1, 2, 3], np.int32)
    n = np.ma.array(data, mask=[0, 1, 0], fill_value=-1)
    k = kd.ma.array(kd.asarray(data), mask=[0, 1, 0], fill_value=-1)
    assert k.fill_value == n.fill_value
    np.testing.assert_array_equal(k.filled().numpy(), n.filled())
    n.fill_value, k.fill_value = 42, 42
    np.testing.assert_array_equal(k.filled().numpy(), n.filled())


def test_from_numpy_masked_array_and_iteration():
    n = np.ma.array([[1.0, 2.0], [3.0, 4.0]], mask=[[0, 1], [0, 0]], fill_value=-5.0)
    k = kd.ma.array(n)
    assert_same(k, n)
    assert k.fill_value == n.fill_value
    assert [row.tolist() for row in k] == [row.tolist() for row in n]
    assert kd.ma.MaskedArray(k, mask=[[1, 0], [0, 0]]).tolist() == np.ma.MaskedArray(n, mask=[[1, 0], [0, 0]]).tolist()


@pytest.mark.parametrize("mask", [[0, 1], [[0, 1, 0, 1]], np.zeros((2, 2), bool)])
def test_bad_mask_raises_mask_error(mask):
    with pytest.raises(np.ma.MaskError, match="Mask and data not compatible"):
        np.ma.array(np.arange(3.0), mask=mask)
    with pytest.raises(kd.ma.MaskError, match="Mask and data not compatible"):
        kd.ma.array(kd.asarray(np.arange(3.0)), mask=mask)


def test_where_needs_both_or_neither():
    with pytest.raises(ValueError, match="both 'x' and 'y'"):
        np.ma.where([True], [1.0])
    with pytest.raises(ValueError, match="both 'x' and 'y'"):
        kd.ma.where(kd.asarray([True]), kd.asarray([1.0]))


def test_fill_value_the_dtype_cannot_hold_is_numpys_type_error():
    # porting19: m.filled(300) of uint8 data gave 44 (wrapped); NumPy raises TypeError, as for fill_value=300
    host = np.ma.masked_greater(np.array([1, 200, 255], np.uint8), 100)
    m = kd.ma.masked_greater(kd.asarray(host.data), 100)
    for call in (lambda x: x.filled(300), lambda x: x.filled(-1), lambda x: x.filled(np.nan),
                 lambda x: x.set_fill_value(300)):
        with pytest.raises(TypeError, match="Cannot convert fill_value"):
            call(host)
        with pytest.raises(TypeError, match="Cannot convert fill_value"):
            call(m)
    with pytest.raises(TypeError, match="Cannot convert fill_value 300 to dtype uint8"):
        kd.ma.array(kd.asarray(host.data), fill_value=300)
    for value in (7, 2.5, np.int64(300)):  # numbers that fit, floats truncated, NumPy scalars cast (wrapped)
        np.testing.assert_array_equal(m.filled(value).numpy(), host.filled(value))
