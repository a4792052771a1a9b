"""Python's protocols on kdsl arrays against NumPy's: conversions (float, int, complex, operator.index, bool,
len) with NumPy's errors, copy/deepcopy/pickle round trips (dtype, shape, values; copies independent of the
source), format/round/divmod/abs/@/** of 0-d arrays as NumPy's scalars (kdsl's 0-d results stand for them),
and what has no host memory to offer (memoryview, __array_interface__) refused clearly."""

import copy
import operator
import pickle
import warnings

import numpy as np
import pytest
from api_testing import sample

import kdsl as kd

DTYPES = ["float32", "float64", "float16", "int8", "int64", "uint16", "bool", "complex64"]


def _same_error(call, host, device):
    with pytest.raises(Exception) as want:
        call(host)
    with pytest.raises(type(want.value)) as got:
        call(device)
    assert str(got.value).startswith(str(want.value)), (str(got.value), str(want.value))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (1,), (1, 1), (3,), (0,), (2, 3)], ids=str)
def test_conversions_as_numpy(dtype, shape):
    host = sample(shape, dtype, seed=2, special=False)
    x = kd.asarray(host)
    for convert in (float, int, complex, operator.index, bool, len):
        try:
            want = convert(host)
        except Exception:  # NumPy's error (the array's shape or dtype), in NumPy's words
            _same_error(convert, host, x)
            continue
        got = convert(x)
        assert type(got) is type(want) and got == want, convert


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (0, 3), (1,), (4, 6)], ids=str)
@pytest.mark.parametrize("view", ["whole", "strided"])
def test_copy_deepcopy_and_pickle_round_trip(dtype, shape, view):
    host = sample(shape, dtype, seed=4)
    x = kd.asarray(host)
    if view == "strided" and host.ndim == 2:
        host, x = host[:, ::-2], x[:, ::-2]
    for twin in (copy.copy(x), copy.deepcopy(x), pickle.loads(pickle.dumps(x))):
        assert isinstance(twin, kd.Array) and twin.dtype == host.dtype and twin.shape == host.shape
        np.testing.assert_array_equal(twin.numpy(), host)
        if twin.size:
            twin[(0,) * twin.ndim] = 0  # the copy is its own: x keeps its values
            np.testing.assert_array_equal(x.numpy(), host)
    pair = copy.deepcopy([x, x])  # deepcopy's memo keeps shared references shared, as for NumPy's
    assert pair[0] is pair[1]


@pytest.mark.parametrize("value,dtype", [(2.675, "float32"), (1234.5678, "float64"), (-7, "int64"), (5, "int8"),
                                         (0.5, "float16"), (1 + 2j, "complex64"), (True, "bool")])
def test_zero_d_arrays_format_round_divmod_as_numpys_scalars(value, dtype):
    scalar = np.dtype(dtype).type(value)
    x = kd.asarray(scalar)
    for spec in ("", ".3f", ">10", "+.2e", "03d", "x"):
        try:
            want = format(scalar, spec)
        except (TypeError, ValueError):
            _same_error(lambda v, spec=spec: format(v, spec), scalar, x)
            continue
        assert format(x, spec) == want, spec
    if dtype not in ("complex64", "bool"):
        assert type(round(x)) is type(round(scalar)) is int and round(x) == round(scalar)
        for digits in (0, 1, 2, -1):
            got, want = round(x, digits), round(scalar, digits)
            assert got.dtype == want.dtype and got.item() == want.item(), digits
        for got, want in zip(divmod(x, 3), divmod(scalar, 3), strict=True):
            assert got.dtype == want.dtype and got.item() == want.item()
    if np.dtype(dtype).kind == "c":  # |1+2j| is a square root: a GPU's float32 sqrt may be an ulp off (the H100's is)
        np.testing.assert_array_max_ulp(np.float32(abs(x).item()), abs(scalar), maxulp=1)
    else:
        assert abs(x).item() == abs(scalar)


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8"])
def test_integer_powers_and_products(dtype):
    host = sample((4,), dtype, seed=5, special=False, low=1, high=9)
    x = kd.asarray(host)
    if np.dtype(dtype).kind == "i":
        for power in (lambda v: v ** -1, lambda v: v ** np.int64(-2), lambda v: 2 ** -v):
            _same_error(power, host, x)
    assert (x @ x).item() == host @ host
    np.testing.assert_array_equal((x @ x.reshape(4, 1)).numpy(), host @ host.reshape(4, 1))
    np.testing.assert_array_equal([v.numpy() for v in divmod(x, 3)], divmod(host, 3))
    np.testing.assert_array_equal(abs(-x.astype(kd.int64)).numpy(), abs(-host.astype(np.int64)))


def test_what_has_no_host_memory_is_refused_clearly():
    x = kd.ones(3)
    with pytest.raises(TypeError, match="bytes-like"):
        memoryview(x)
    assert not hasattr(x, "__array_interface__")  # np.asarray(x) (a download) goes through __array__
    assert np.asarray(x).__array_interface__["shape"] == (3,)
    with pytest.raises(TypeError, match="unhashable"):
        hash(x)


@pytest.mark.parametrize("shapes", [((), (2,)), ((2,), ()), ((), ()), ((2, 2), ())], ids=str)
def test_matmul_of_a_zero_d_operand_words_numpys_error(shapes):
    """``a @ b`` with a 0-d operand: NumPy's gufunc message, naming the operand (kdsl had its own words)."""
    hosts = [np.ones(s) for s in shapes]
    with pytest.raises(ValueError) as want:
        hosts[0] @ hosts[1]
    for call in (lambda x, y: x @ y, np.matmul, kd.matmul):
        with pytest.raises(ValueError) as got:
            call(kd.asarray(hosts[0]), kd.asarray(hosts[1]))
        assert str(got.value) == str(want.value)


@pytest.mark.parametrize("dtype", ["float32", "int16", "complex64", "bool"])
@pytest.mark.parametrize("target", [None, "float16", "float64", "int64", "complex128"])
def test_numpy_asarray_takes_dtype_and_copy_as_numpy(dtype, target):
    host = sample((3, 4), dtype, seed=7, special=False)
    x = kd.asarray(host)[:, ::2]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)  # (complex to real: both warn)
        want = np.asarray(host[:, ::2], dtype=target)
        got = np.asarray(x, dtype=target)
    assert type(got) is np.ndarray and got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    fresh = np.asarray(x, copy=True)
    fresh[...] = 0  # a download: writing it leaves the kdsl array as it was
    np.testing.assert_array_equal(x.numpy(), host[:, ::2])
    with pytest.raises(ValueError, match="Unable to avoid copy while creating an array as requested"):
        np.asarray(x, copy=False)  # the data is in device memory: NumPy 2's error, as for Python data
