"""``np.maximum.at(a, idx, v)``, ``minimum.at``, ``add.at`` (and ``multiply.at``, ``bitwise_or.at``) with an
index past the end or below ``-n``, against NumPy: IndexError naming the index, and nothing written - neither
into ``a`` nor past it (host indices, stored device indices and lazy ones computed on the device)."""

import numpy as np
import pytest

import kdsl as kd

BAD = [[0, 4], [1, -5], [3, 9, 0], [-8]]


def _index(lib, bad, form):
    if form == "host":
        return bad
    if form == "stored":
        return lib.asarray(bad)
    return lib.asarray(bad) * 1 + 0  # lazy: computed on the device with the scatter


@pytest.mark.parametrize("name,dtype", [("maximum", "float32"), ("minimum", "float32"), ("add", "float32"),
                                        ("maximum", "int32"), ("minimum", "int64"), ("add", "int32"),
                                        ("multiply", "float32"), ("bitwise_or", "int32")])
@pytest.mark.parametrize("form", ["host", "stored", "lazy"])
def test_out_of_range_index_raises_as_numpy_and_writes_nothing(name, dtype, form):
    for bad in BAD:
        want = np.arange(1, 5, dtype=dtype)
        with pytest.raises(IndexError) as expected:
            getattr(np, name).at(want, _index(np, bad, form), 7)
        whole = kd.arange(1, 9, dtype=dtype)
        a = whole[:4]  # a view: a write past its end would land in whole[4:]
        with pytest.raises(IndexError, match="out of bounds for axis 0 with size 4") as got:
            getattr(kd, name).at(a, _index(kd, bad, form), 7)
        assert str(got.value) == str(expected.value)  # the same index named
        np.testing.assert_array_equal(a.numpy(), want)
        np.testing.assert_array_equal(whole.numpy(), np.arange(1, 9, dtype=dtype))


@pytest.mark.parametrize("name", ["maximum", "minimum", "add"])
def test_out_of_range_on_a_later_axis_raises_as_numpy(name):
    want = np.zeros((3, 4), np.float32)
    with pytest.raises(IndexError) as expected:
        getattr(np, name).at(want, (np.array([0, 2]), np.array([1, -5])), 1.0)
    a = kd.zeros((3, 4))
    with pytest.raises(IndexError) as got:
        getattr(kd, name).at(a, (kd.asarray([0, 2]), kd.asarray([1, -5])), 1.0)
    assert str(got.value) == str(expected.value)
    np.testing.assert_array_equal(a.numpy(), want)
