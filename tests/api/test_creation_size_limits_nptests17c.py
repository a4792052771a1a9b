"""Creation functions refuse sizes NumPy cannot index (numpy/_core/tests/test_regression.py's test_zeros,
test_huge_arange, test_array_too_big): a length past intp's maximum, or a byte count past it, is NumPy's
ValueError at once. kdsl made such constants lazily, so the error came later from a kernel, or never."""

import numpy as np
import pytest

import kdsl as kd

BIG = 2**63  # one past np.intp's maximum


@pytest.mark.parametrize("make", ["zeros", "ones", "empty"])
@pytest.mark.parametrize(("shape", "dtype", "message"), [
    (2**64, "float32", "Maximum allowed dimension exceeded"),
    ((3, BIG), "int8", "Maximum allowed dimension exceeded"),
    ([975] * 7, "int8", "array is too big"),
    ([26244] * 5, "int8", "array is too big"),
    ((2**62, 4), "int64", "array is too big"),
    ((2**61, 2, 2), "bool", "array is too big"),
])
def test_too_big_as_numpy(make, shape, dtype, message):
    with pytest.raises(ValueError, match=message):
        getattr(np, make)(shape, dtype)
    with pytest.raises(ValueError, match=message):
        getattr(kd, make)(shape, getattr(kd, dtype))


def test_full_and_like():
    with pytest.raises(ValueError, match="array is too big"):
        kd.full((2**62, 2), 1.5)
    with pytest.raises(ValueError, match="array is too big"):
        kd.full((2**61, 2), [1, 2])  # an array-like fill, as np.full
    with pytest.raises(ValueError, match="array is too big"):
        kd.zeros_like(kd.zeros(2), shape=(2**40, 2**30))


@pytest.mark.parametrize("shape", [(0, 2**63 - 1), (2**62, 0), (2**62, 0, 2**62), (0, 2**62, 4), (0,), (1, 1)])
@pytest.mark.parametrize("dtype", ["int8", "int64"])
def test_empty_shapes_as_numpy(shape, dtype):
    """NumPy counts the lengths other than 0: (0, 2**63 - 1) int8 is fine, int64 too big; (1, 1) is ordinary."""
    try:
        expected = np.zeros(shape, dtype).shape
    except ValueError:
        with pytest.raises(ValueError, match="array is too big"):
            kd.zeros(shape, getattr(kd, dtype))
    else:
        assert kd.zeros(shape, getattr(kd, dtype)).shape == expected


def test_arange_length():
    with pytest.raises(ValueError, match="Maximum allowed size exceeded"):
        np.arange(2**64)
    with pytest.raises(ValueError, match="Maximum allowed size exceeded"):
        kd.arange(2**64)
    with pytest.raises(ValueError, match="Maximum allowed size exceeded"):
        kd.arange(0.0, np.inf)
    for args in [(10, 0, -3), (-7, 7, 3), (5,), (3, 3), (2**40, 2**40 + 5, 2), (-(2**40), -(2**40) - 7, -3)]:
        assert kd.arange(*args, dtype=kd.int64).tolist() == np.arange(*args).tolist()


@pytest.mark.parametrize("args", [(np.uint16(0x7C00),), (np.uint8(3), np.uint8(250)), (np.int64(5),),
                                  (np.int8(-3), np.int16(300), np.uint8(7))])
def test_arange_numpy_integer_bounds(args):
    """NumPy integer bounds give a shape of Python ints (a NumPy uint16 length broke indexing: -n wrapped)."""
    a = kd.arange(*args)
    assert all(type(n) is int for n in a.shape)
    assert a.tolist() == np.arange(*args).tolist()
    assert a[0].item() == np.arange(*args)[0]
