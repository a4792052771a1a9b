"""kd.unravel_index / kd.ravel_multi_index against NumPy 2 on the edges of NumPy's own tests: uint64 index data
(NumPy casts index-trick input by 'same_kind', which allows it), shapes with a zero length (an empty set of
coordinates has an empty answer), the 0-d shape (only a scalar index), and shapes too large for int64."""

import numpy as np
import pytest

import kdsl as kd


def _same(got, want):
    got = got.numpy() if isinstance(got, kd.Array) else np.asarray(got)
    assert got.shape == np.shape(want) and got.dtype == np.asarray(want).dtype, (got, want)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["uint64", "uint32", "int16", "uint8"])
@pytest.mark.parametrize("order", ["C", "F"])
def test_index_tricks_take_every_integer_dtype(dtype, order):
    coords = np.array([[1, 0, 4, 2], [7, 6, 0, 3]], dtype)
    flat = np.ravel_multi_index(coords, (5, 8), order=order)
    _same(kd.ravel_multi_index(kd.asarray(coords), (5, 8), order=order), flat)
    _same(kd.ravel_multi_index(tuple(coords), (5, 8), order=order), flat)  # host arrays
    for g, w in zip(kd.unravel_index(kd.asarray(flat.astype(dtype)), (5, 8), order=order),
                    np.unravel_index(flat.astype(dtype), (5, 8), order=order), strict=True):
        _same(g, w)
    assert kd.unravel_index(np.uint64(7), (5, 8)) == np.unravel_index(np.uint64(7), (5, 8))


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("coords_shape", [(3, 0), (3, 2, 0)])
def test_ravel_multi_index_of_no_coordinates_in_an_empty_shape(mode, coords_shape):
    h = np.zeros(coords_shape, np.int64)
    _same(kd.ravel_multi_index(kd.asarray(h), (2, 1, 0), mode=mode), np.ravel_multi_index(h, (2, 1, 0), mode=mode))
    with pytest.raises(ValueError, match="zero entries"):
        kd.ravel_multi_index(kd.zeros((3, 1), dtype=kd.int64), (2, 1, 0), mode=mode)
    with pytest.raises(ValueError, match="zero entries"):
        kd.ravel_multi_index((0, 0, 0), (2, 1, 0), mode=mode)


def test_unravel_index_into_the_0d_shape():
    assert kd.unravel_index(0, ()) == np.unravel_index(0, ()) == ()
    assert kd.unravel_index(kd.asarray(0), ()) == ()
    with pytest.raises(ValueError, match="0d"):
        kd.unravel_index(kd.asarray([0]), ())
    with pytest.raises(ValueError, match="0d"):
        kd.unravel_index([0], ())
    with pytest.raises(ValueError, match="out of bounds"):
        kd.unravel_index([1], ())


def test_shapes_larger_than_int64_are_refused():
    with pytest.raises(ValueError, match="too large"):
        kd.unravel_index(1, (2**32 - 1, 2**31 + 1))
    with pytest.raises(ValueError, match="too large"):
        kd.unravel_index(kd.asarray([1]), (2**32 - 1, 2**31 + 1))
    half = np.iinfo(np.int64).max // 2
    _same(kd.ravel_multi_index(([0], [0]), (half, 2)), np.ravel_multi_index(([0], [0]), (half, 2)))
    for order in "CF":
        with pytest.raises(ValueError, match="larger than the maximum"):
            kd.ravel_multi_index(([0], [0]), (half + 1, 2), order=order)
