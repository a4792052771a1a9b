"""apply_along_axis with masked arrays (numpy/lib/tests/test_shape_base.py's test_axis_insertion_ma): a masked
input gives the function masked slices, and masked results keep their masks, through kd.apply_along_axis,
np.apply_along_axis and kd.ma.apply_along_axis, as NumPy's (kdsl dropped every mask)."""

import numpy as np
import pytest
from ma_testing import assert_same, pair

import kdsl as kd

FUNCS = {  # name: (NumPy's function of a slice, kdsl's)
    "double": (lambda r: r * 2, lambda r: r * 2),
    "sum": (lambda r: r.sum(), lambda r: r.sum()),
    "reversed": (lambda r: r[::-1], lambda r: r[::-1]),
    "outer": (lambda r: r[::-1] * r[:2, None], lambda r: r[::-1] * r[:2, None]),
}


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided"])
@pytest.mark.parametrize("kind", ["some", "nomask", "all"])
@pytest.mark.parametrize("name", FUNCS)
def test_masked_input(name, kind, layout, axis):
    n, k = pair((4, 5), np.float32, kind, layout)
    np_f, kd_f = FUNCS[name]
    # numpy.ma's: np.apply_along_axis drops the mask of a masked scalar result after an unmasked first one (its
    # buffer is the first result's type); kdsl keeps it, as np.ma.apply_along_axis does
    # (a fully masked slice's sum is NumPy's float64 masked constant, which makes the result float64: numpy.ma
    # takes the largest of the results' dtypes)
    expected = np.ma.apply_along_axis(np_f, axis, n)
    assert_same(kd.apply_along_axis(kd_f, axis, k), expected)
    assert_same(np.apply_along_axis(kd_f, axis, k), expected)
    assert_same(kd.ma.apply_along_axis(kd_f, axis, k), expected)


@pytest.mark.parametrize("make", [lambda r: 1 if r[0] < 2 else r.sum(), lambda r: r.astype(int)[0] if r[0] < 2
                                  else r[0] * 0.5, lambda r: np.int8(1) if r[0] < 2 else np.float32(2.5)])
@pytest.mark.parametrize("axis", [0, 1])
def test_result_dtype_is_the_largest_of_the_results(make, axis):
    # kdsl cast every result to the first one's dtype: a float result after an int one was truncated (7.5 -> 7)
    host = np.array([[1.0, 3.0], [3.5, 4.0]])
    n, k = np.ma.array(host, mask=[[0, 0], [0, 1]]), kd.ma.array(kd.asarray(host), mask=[[0, 0], [0, 1]])
    expected = np.ma.apply_along_axis(make, axis, n)
    got = kd.ma.apply_along_axis(make, axis, k)
    if isinstance(make(np.array([1.0])), int):  # a Python int is int32 in kdsl (docs/numpy-api.md), int64 in NumPy
        assert_same(got, expected, check_dtype=expected.dtype.kind != "i")
    else:
        assert_same(got, expected)


def _masked_where_odd(module):
    return lambda r: module.ma.masked_where(r % 2 == 1, r)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
@pytest.mark.parametrize("axis", [0, 1])
def test_masked_results_of_a_plain_array(dtype, axis):
    host = np.arange(12, dtype=dtype).reshape(3, 4)
    expected = np.apply_along_axis(_masked_where_odd(np), axis, host)
    assert_same(kd.apply_along_axis(_masked_where_odd(kd), axis, kd.asarray(host)), expected)
    assert_same(np.apply_along_axis(_masked_where_odd(kd), axis, kd.asarray(host)), expected)


def test_a_masked_result_after_plain_ones_calls_once_per_slice():
    host = np.array([[1.0, np.nan, 3.0], [4.0, np.inf, -0.0], [7.0, 8.0, 9.0]])
    calls = []

    def f(r, module):
        calls.append(1)
        return module.ma.masked_invalid(r) if bool(module.any(~module.isfinite(r))) else r
    expected = np.apply_along_axis(f, 0, host, np)
    calls.clear()
    got = kd.apply_along_axis(f, 0, kd.asarray(host), kd)
    assert len(calls) == 3  # the plain loop's results are kept, not computed again
    assert_same(got, expected)


def test_numpys_axis_insertion_example():
    def f1to2(module):
        def f(x):
            res = x[::-1] * x[1:, None]
            return module.ma.masked_where(res % 5 == 0, res)
        return f
    a = np.arange(6 * 3).reshape((6, 3))
    expected = np.apply_along_axis(f1to2(np), 0, a)
    got = kd.apply_along_axis(f1to2(kd), 0, kd.asarray(a))
    assert got.ndim == 3
    assert_same(got, expected, check_dtype=False)  # kdsl's integers are int32 (np.arange's are int64)


def test_plain_results_stay_plain_and_errors_are_numpys():
    a = kd.arange(6).reshape(2, 3)
    assert type(kd.apply_along_axis(kd.sum, 1, a)) is kd.Array
    with pytest.raises(ValueError, match="iteration dimensions are 0"):
        kd.ma.apply_along_axis(lambda r: r, 1, kd.ma.array(np.zeros((0, 3))))
    with pytest.raises(kd.exceptions.AxisError):
        kd.ma.apply_along_axis(lambda r: r, 2, kd.ma.array(np.zeros((2, 3))))
