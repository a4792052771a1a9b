"""Advanced indices that NumPy reads as separated (a slice, ``None`` or an ``...`` of no axes between them): the
selection's axes go first. ``x[:, mask, 1:5, 0]`` kept the mask's axis in place (shape ``(3, 2, 4)`` for NumPy's
``(2, 3, 4)``) and its assignment refused the value; ``x[:, idx, ..., 1, 2]`` of a 4-d ``x`` did the same with an
index array (kdsl/frontend/array/mixed_mask_index.py, ``separated``; inner_index.py). Read and written, against
NumPy."""

import numpy as np
import pytest

import kdsl as kd

X = np.arange(240.0).reshape(3, 4, 5, 4)
M4 = np.array([False, True, False, True])
M3 = np.array([True, False, True])
S = slice(None)

KEYS = {
    "slice, mask, slice, int": (S, M4, slice(1, 5), -3),
    "None, mask, slice, int": (None, M3, slice(1, 5), -3),
    "slice, mask, None, int": (S, M4, None, 1),
    "slice, mask, ..., int (no axes)": (S, M4, ..., 1, 2),
    "slice, index, ..., int (no axes)": (S, np.array([1, 3]), ..., 1, 2),
    "slice, mask, int (adjacent: in place)": (S, M4, 2),
}


@pytest.mark.parametrize("name", KEYS)
def test_read_and_write_as_numpy(name):
    key = KEYS[name]
    expected = X[key]
    for as_kdsl in (False, True):
        k = tuple(kd.asarray(v) if as_kdsl and isinstance(v, np.ndarray) else v for v in key)
        got = kd.asarray(X)[k].numpy()
        assert got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)
        value = -np.arange(expected.size, dtype=float).reshape(expected.shape)
        want, a = X.copy(), kd.asarray(X)
        want[key] = value
        a[k] = value
        np.testing.assert_array_equal(a.numpy(), want)


@pytest.mark.parametrize("key", [(np.array([0]), M3), (S, 0, np.array([True])), (0, np.array([-2]), M3[:2]),
                                 (M3[:1], M3[:1], 0)])
def test_mask_of_another_length_among_index_arrays_is_refused(key):
    """A mask read as its nonzero indices (with index arrays, or apart from them) is checked against the axis it
    indexes as NumPy does: a shorter one selected silently (``x[[0], [True, False]]`` of a (2, 7, 3) ``x``)."""
    x = np.zeros((2, 7, 3))
    with pytest.raises(IndexError) as expected:
        x[key]
    for as_kdsl in (False, True):
        k = tuple(kd.asarray(v) if as_kdsl and isinstance(v, np.ndarray) else v for v in key)
        with pytest.raises(IndexError, match="did not match") as got:
            kd.asarray(x)[k]
        assert str(got.value) == str(expected.value)
        with pytest.raises(IndexError, match="did not match"):
            a = kd.asarray(x)
            a[k] = 1.0
    assert kd.asarray(x)[np.array([1]), np.zeros(0, bool)].shape == x[np.array([1]), np.zeros(0, bool)].shape
