"""numpy.ma names kd.ma lacked (AttributeError before): ``ediff1d`` (masks through the differences, ``to_begin``
/ ``to_end``, ``masked`` as an end), ``identity``, ``MAError`` (NumPy's own class), ``minimum_fill_value`` and
``maximum_fill_value``; against numpy.ma on several shapes, dtypes, masks, views, NaN and inf."""

import numpy as np
import pytest
from ma_testing import assert_same, pair

import kdsl as kd


@pytest.mark.parametrize("case", [((7,), np.float32, "some", "contiguous"), ((3, 4), np.int32, "some", "strided"),
                                  ((4, 3), np.float64, "nomask", "transposed"), ((1,), np.float32, "all",
                                                                                  "contiguous"),
                                  ((0,), np.float32, "some", "contiguous"), ((2, 1), np.int32, "none", "contiguous")])
def test_ediff1d(case):
    n, k = pair(*case)
    assert_same(kd.ma.ediff1d(k), np.ma.ediff1d(n))
    begin = np.array([9, 8], case[1])
    assert_same(kd.ma.ediff1d(k, to_begin=kd.asarray(begin), to_end=kd.asarray(begin[:1])),
                np.ma.ediff1d(n, to_begin=begin, to_end=begin[:1]))


def test_ediff1d_masked_ends_nan_inf():
    data = np.array([1.0, np.nan, np.inf, -np.inf, 2.0])
    n, k = np.ma.array(data, mask=[0, 0, 0, 1, 0]), kd.ma.array(kd.asarray(data), mask=[0, 0, 0, 1, 0])
    with np.errstate(invalid="ignore"):
        want = np.ma.ediff1d(n, to_begin=np.ma.masked, to_end=np.ma.array([5.0], mask=[1]))
    assert_same(kd.ma.ediff1d(k, to_begin=kd.ma.masked, to_end=kd.ma.array([5.0], mask=[True])), want,
                check_dtype=False)


@pytest.mark.parametrize("n", [0, 1, 3])
@pytest.mark.parametrize("dtype", [None, kd.int32, kd.float64])
def test_identity(n, dtype):
    got = kd.ma.identity(n, dtype=dtype)
    want = np.ma.identity(n, dtype=None if dtype is None else dtype.np)
    assert_same(got, want, check_dtype=dtype is not None)  # kdsl's default float is float32


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.uint16, np.int64, np.bool_])
def test_fill_values(dtype):
    n, k = pair((3,), dtype, "some")
    assert kd.ma.minimum_fill_value(k) == np.ma.minimum_fill_value(n)
    assert kd.ma.maximum_fill_value(k.data) == np.ma.maximum_fill_value(n.data)
    assert kd.ma.minimum_fill_value(np.dtype(dtype)) == np.ma.minimum_fill_value(np.dtype(dtype))


def test_maerror_is_numpys():
    assert kd.ma.MAError is np.ma.MAError and issubclass(kd.ma.MaskError, kd.ma.MAError)


@pytest.mark.parametrize("obj", [1.0, 7, True, 1j, np.float32(2.5), np.int16(3), [1.5, 2.0]])
def test_fill_values_of_scalars(obj):
    # `np.ma.default_fill_value(1.0)` (a value, not a dtype): TypeError "Cannot interpret '1.0' as a data type"
    for name in ("default_fill_value", "minimum_fill_value", "maximum_fill_value"):
        assert getattr(kd.ma, name)(obj) == getattr(np.ma, name)(obj), name
    assert kd.ma.default_fill_value(kd.asarray([1.5])) == np.ma.default_fill_value(np.array([1.5], np.float32))
    assert kd.ma.default_fill_value(kd.ma.array([1, 2])) == 999999
