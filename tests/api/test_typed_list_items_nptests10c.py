"""Lists of NumPy arrays and NumPy scalars keep the items' dtypes, as ``np.array`` does (a list of float64 rows
is float64, of int64 rows int64); only Python numbers take kdsl's float32/int32 defaults, as in a list that
holds kdsl arrays (kdsl/frontend/array/host_dtypes.py: ``typed_items_dtype``)."""

import numpy as np
import pytest

import kdsl as kd

ROWS_DTYPES = [np.float64, np.int64, np.uint64, np.complex128, np.float32, np.int16]


@pytest.mark.parametrize("dtype", ROWS_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(3,), (2, 4), (0,)])
def test_list_of_numpy_rows_keeps_their_dtype(dtype, shape):
    rng = np.random.default_rng(3)
    rows = [(rng.random(shape) * 100).astype(dtype) for _ in range(3)]
    for make in (kd.array, kd.asarray):
        got = make(rows)
        want = np.array(rows)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.numpy(), want)


def test_numpy_rows_nested_and_as_tuple():
    a = np.linspace(0, 1, 6).reshape(2, 3)  # float64 values float32 would round
    got = kd.asarray(([a[0], a[1]], [a[1], a[0]]))
    assert got.dtype == kd.float64
    np.testing.assert_array_equal(got.numpy(), np.array(([a[0], a[1]], [a[1], a[0]])))


@pytest.mark.parametrize("items, name", [
    ([np.float64(0.1), 2.0], "float64"),       # a strong NumPy scalar among Python floats
    ([np.int64(3), 2.5], "float64"),           # int64 with a Python float: NumPy's float64
    ([np.float32(0.1), 2.5], "float32"),       # a Python float counts as kdsl's float32
    ([np.int8(1), 2], "int32"),                # a Python int counts as kdsl's int32
    ([np.int8(1), 2**40], "int64"),            # ... unless int32 cannot hold it
    ([np.arange(2), [5, 6]], "int64"),
    ([np.complex128(1j), 1.0], "complex128"),
])
def test_numpy_scalars_among_python_numbers(items, name):
    got = kd.asarray(items)
    assert got.dtype.name == name
    np.testing.assert_array_equal(got.numpy(), np.array(items).astype(name))


def test_python_numbers_alone_keep_kdsl_defaults():
    assert kd.asarray([[1.5, 2.0], [3.0, 4.0]]).dtype == kd.float32
    assert kd.asarray([1, 2, 3]).dtype == kd.int32
    assert kd.asarray([1j, 2.0]).dtype == kd.complex64


def test_ranges_and_other_sequences_among_the_items():
    # (the typed-items check once raised TypeError on a range: kd.array([range(2, 5), range(4, 7)]))
    got = kd.array([range(i, i + 3) for i in (2, 4, 6)])
    assert got.dtype == kd.int32
    np.testing.assert_array_equal(got.numpy(), np.array([range(i, i + 3) for i in (2, 4, 6)]))
    mixed = kd.array([np.ones(2), range(2)])
    assert mixed.dtype == kd.float64
    np.testing.assert_array_equal(mixed.numpy(), np.array([np.ones(2), range(2)]))
