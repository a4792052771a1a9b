"""a[mask] = v against NumPy: scalars and broadcast rows (a lazy where, no read-back), one value per selected
element (NumPy's rule, one read-back), row masks, empty and all-True/all-False masks, errors."""

import numpy as np
import pytest

import kdsl as kd


def _assign(h, mask, value, kvalue=None, kmask=True):
    """(kdsl's result, NumPy's) of ``a[mask] = value``."""
    a = kd.asarray(h)
    a[kd.asarray(mask) if kmask else mask] = value if kvalue is None else kvalue
    want = h.copy()
    want[mask] = value
    return a.numpy(), want


def _same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["int32", "uint8", "float32", "float64", "int64"])
@pytest.mark.parametrize("shape", [(9,), (3, 4), (2, 1, 5)])
def test_scalar_into_mask_needs_no_read_back(shape, dtype):
    h = np.random.default_rng(0).integers(-3, 4, shape).astype(dtype)
    a = kd.asarray(h)
    kd.realize(a)
    before = kd.stats()["downloads"]
    a[a <= 0] = 0  # grad[h <= 0] = 0
    assert kd.stats()["downloads"] == before
    want = h.copy()
    want[want <= 0] = 0
    _same(a.numpy(), want)


def test_values_per_selected_element_follow_numpy():
    rng = np.random.default_rng(1)
    h = rng.standard_normal((4, 5)).astype(np.float32)
    mask = h > 0
    vals = np.arange(mask.sum(), dtype=np.float32) * 10
    _same(*_assign(h, mask, vals))
    _same(*_assign(h, mask, vals, kvalue=kd.asarray(vals)))
    _same(*_assign(h, mask, vals, kmask=False))
    _same(*_assign(h, mask, vals.astype(np.float64), kvalue=kd.asarray(vals.astype(np.float64))))  # cast


def test_row_masks_assign_rows():
    h = np.arange(12, dtype=np.int32).reshape(4, 3)
    rows = np.array([True, False, True, False])
    _same(*_assign(h, rows, 7))
    _same(*_assign(h, rows, np.array([1, 2, 3], np.int32)))  # one row for every selected row
    _same(*_assign(h, rows, np.array([[1, 2, 3], [4, 5, 6]], np.int32)))  # one row per selected row
    _same(*_assign(h, rows, np.array([[1], [4]], np.int32)))


@pytest.mark.parametrize("fill", [False, True])
def test_all_false_all_true_and_empty_masks(fill):
    h = np.arange(6, dtype=np.float32).reshape(2, 3)
    mask = np.full(h.shape, fill)
    _same(*_assign(h, mask, -1.5))
    _same(*_assign(h, mask, np.arange(int(mask.sum()), dtype=np.float32)))
    e = np.zeros((0, 3), np.float32)
    _same(*_assign(e, np.zeros((0, 3), bool), 2.0))


def test_nan_masks_and_non_contiguous_views():
    h = np.array([[np.nan, 1.0, -2.0], [np.inf, np.nan, 0.0]], np.float32)
    a = kd.asarray(h)
    a[a != a] = 0.0  # NaN -> 0
    want = h.copy()
    want[want != want] = 0.0
    _same(a.numpy(), want)
    b = kd.asarray(h).T[::-1]
    b[b > 0] = 9.0
    want = h.T[::-1].copy()
    want[want > 0] = 9.0
    _same(b.numpy(), want)


def test_mask_assignment_errors_as_numpy():
    a = kd.zeros((2, 3))
    with pytest.raises(ValueError, match="cannot assign 2 input values to the 6 output values"):
        a[a == 0] = kd.asarray([1.0, 2.0])
    with pytest.raises(ValueError, match="could not be broadcast"):
        a[kd.asarray([True, False])] = kd.ones(2)
    with pytest.raises(IndexError, match="did not match"):
        a[kd.asarray([True, False, True])] = 1.0
    with pytest.raises(ValueError, match="NaN"):
        b = kd.zeros(3, dtype=kd.int32)
        b[b == 0] = float("nan")


@pytest.mark.parametrize(("shape", "vshape"), [((4, 5), (1, 20)), ((4, 5), (1, 1)), ((3,), (1, 3)), ((0,), (1, 1)),
                                                ((4, 5), (0, 0)), ((2, 3), (2, 3))])
@pytest.mark.parametrize("host_mask", [False, True])
def test_value_of_two_or_more_axes_under_a_full_mask_is_refused(shape, vshape, host_mask):
    # NumPy's boolean assignment with a mask of all of a's axes takes a 0-d or 1-d value (TypeError otherwise);
    # kdsl assigned the broadcast value before
    mask = np.ones(shape, bool)
    with pytest.raises(TypeError) as want:
        np.zeros(shape)[mask] = np.ones(vshape)
    a = kd.zeros(shape)
    with pytest.raises(TypeError) as got:
        a[mask if host_mask else kd.asarray(mask)] = kd.ones(vshape)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize(("shape", "mshape", "vshape"), [((4, 5), (4, 5), (20,)), ((4, 5), (4, 5), (1,)),
                                                          ((4, 5), (4,), (1, 1, 5)), ((4, 5), (4,), (1, 4, 5)),
                                                          ((2, 3), (2, 3), ())])
def test_values_numpy_accepts_still_assign(shape, mshape, vshape):
    h = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    mask = np.ones(mshape, bool)
    value = np.full(vshape, 7.0, np.float32)
    got, want = _assign(h, mask, value, kd.asarray(value))
    np.testing.assert_array_equal(got, want)
