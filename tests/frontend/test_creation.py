"""Array creation, dtypes and devices, random numbers, and the interface other kdsl parts rely on."""

import numpy as np
import pytest
from kd_testing import ALL_DTYPES, sample

import kdsl as kd


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_asarray_roundtrip_keeps_dtype(dtype):
    x = sample((3, 4), dtype, seed=1)
    a = kd.asarray(x)
    assert a.dtype == kd.dtype.as_dtype(dtype) and a.shape == (3, 4) and a.ndim == 2 and a.size == 12
    np.testing.assert_array_equal(a.numpy(), x)


def test_python_data_defaults():
    assert kd.asarray([1.0, 2.5]).dtype == kd.float32
    assert kd.asarray([[1, 2], [3, 4]]).dtype == kd.int32
    assert kd.asarray([True, False]).dtype == kd.bool
    assert kd.asarray([1, 2], dtype="float64").dtype == kd.float64
    with pytest.raises(TypeError):
        kd.asarray(["a", "b"])
    assert kd.asarray([1j, 2]).dtype == kd.complex64  # Python complex: the default complex, as floats
    with pytest.raises(TypeError):
        kd.asarray([1, 2], dtype="complex256")


def test_constructors_match_numpy():
    np.testing.assert_array_equal(kd.zeros((2, 3)).numpy(), np.zeros((2, 3), np.float32))
    np.testing.assert_array_equal(kd.ones(4, dtype=kd.int8).numpy(), np.ones(4, np.int8))
    np.testing.assert_array_equal(kd.full((2, 2), 7, dtype="uint16").numpy(), np.full((2, 2), 7, np.uint16))
    np.testing.assert_array_equal(kd.full((2,), 2.5).numpy(), np.full(2, 2.5, np.float32))
    assert kd.empty((3, 0)).shape == (3, 0)
    z = kd.asarray(np.arange(6, dtype=np.int16).reshape(2, 3))
    assert kd.zeros_like(z).dtype == kd.int16 and kd.ones_like(z).numpy().sum() == 6
    np.testing.assert_array_equal(kd.full_like(z, 3).numpy(), np.full((2, 3), 3, np.int16))


@pytest.mark.parametrize("args", [(5,), (2, 11, 3), (10, 0, -2), (0.5, 3.0, 0.25), (3, 3)])
def test_arange(args):
    got = kd.arange(*args).numpy()
    expected = np.arange(*args)
    np.testing.assert_allclose(got, expected)
    assert got.dtype == (np.float32 if any(isinstance(v, float) for v in args) else np.int32)


def test_linspace_and_eye():
    np.testing.assert_allclose(kd.linspace(0, 1, 7).numpy(), np.linspace(0, 1, 7, dtype=np.float32))
    np.testing.assert_allclose(kd.linspace(2, 3, 4, endpoint=False).numpy(), np.linspace(2, 3, 4, endpoint=False),
                               rtol=1e-6)
    np.testing.assert_array_equal(kd.eye(3, 4, k=1).numpy(), np.eye(3, 4, k=1, dtype=np.float32))
    np.testing.assert_array_equal(kd.eye(2, dtype=kd.int32).numpy(), np.eye(2, dtype=np.int32))


def test_copy_and_astype():
    a = kd.asarray(np.arange(4, dtype=np.float32))
    b = a.copy()
    assert b._buffer() is not a._buffer()
    np.testing.assert_array_equal(b.numpy(), a.numpy())
    assert a.astype("int8").dtype == kd.int8


def test_buffer_interface_for_kernels():
    a = kd.asarray(np.arange(12, dtype=np.float32).reshape(3, 4))
    t = a.T._buffer()  # a view: copied into a contiguous buffer of exactly size elements
    assert t.size() == 12
    back = kd.Array._from_buffer(t, (4, 3), kd.float32)
    np.testing.assert_array_equal(back.numpy(), np.arange(12, dtype=np.float32).reshape(3, 4).T)
    np.testing.assert_array_equal((back + 1).numpy(), np.arange(12).reshape(3, 4).T + 1)
    with pytest.raises(ValueError):
        kd.Array._from_buffer(t, (5, 3), kd.float32)


def test_device_choice():
    d = kd.device()
    assert d is kd.Device(d.index) and d.manager is d.manager
    with kd.Device(d.index) as inner:
        assert kd.device() is inner and kd.zeros(2).device is inner
    assert isinstance(d.manager.get_device_properties(), dict)
    with pytest.raises(ValueError):
        kd.Device(99)


def test_random_reproducible_and_distributed():
    kd.random.seed(3)
    u1, n1 = kd.random.uniform(size=(200, 50)).numpy(), kd.random.normal(size=20000).numpy()
    kd.random.seed(3)
    u2 = kd.random.uniform(size=(200, 50)).numpy()
    u3 = kd.random.uniform(size=(200, 50)).numpy()
    np.testing.assert_array_equal(u1, u2)
    assert not np.array_equal(u2, u3)
    assert u1.dtype == np.float32 and 0 <= u1.min() and u1.max() < 1 and abs(u1.mean() - 0.5) < 0.01
    assert abs(n1.mean()) < 0.03 and abs(n1.std() - 1) < 0.03
    ints = kd.random.integers(-3, 4, size=5000).numpy()
    assert ints.dtype == np.int32 and ints.min() == -3 and ints.max() == 3
    scaled = kd.random.uniform(2.0, 5.0, size=1000).numpy()
    assert 2 <= scaled.min() and scaled.max() < 5
    with pytest.raises(ValueError):
        kd.random.integers(5, 5)


def test_unsupported_dtype_error_names_feature(monkeypatch):
    d = kd.device()
    monkeypatch.setattr(d, "features", d.features - {"float64"})
    with pytest.raises(TypeError, match="float64"):
        kd.asarray(np.zeros(2, np.float64))


def test_too_large_for_one_buffer_is_a_clear_error():
    limit = kd.device().info["max_storage_buffer_range"]
    big = kd.zeros(limit // 4 + 1)  # lazy: nothing allocated yet
    with pytest.raises(ValueError, match="does not fit one buffer"):
        big.realize()


@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("num", [0, 1, 2, 7])
@pytest.mark.parametrize(("start", "stop"), [
    (np.array(1.0, np.float32), np.array(-2.5, np.float32)),        # 0-d arrays
    (np.array([0.0, 1.0, -3.0]), np.array(2.0)),                     # shapes broadcast: (num, 3)
    (np.array([[1.0], [2.0]], np.float32), np.array([0.0, 4.0], np.float32)),
    (np.array(1 + 1j, np.complex64), np.array(-2j, np.complex64)),
])
def test_linspace_of_kdsl_arrays_stays_lazy_and_matches_numpy(start, stop, num, endpoint):
    got = kd.linspace(kd.asarray(start), kd.asarray(stop), num, endpoint=endpoint)
    want = np.linspace(start, stop, num, endpoint=endpoint)
    assert got.shape == want.shape and got.dtype.np == want.dtype
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(np.linspace(kd.asarray(start), stop, num, endpoint=endpoint).numpy(), want,
                               rtol=1e-6, atol=1e-6)  # np.linspace dispatches (it recursed before)


@pytest.mark.parametrize(("start", "stop"), [(0, 1j), (1 + 2j, -3 - 1j), (2.0, 3j)])
def test_linspace_of_python_complex_keeps_the_imaginary_part(start, stop):
    got = kd.linspace(start, stop, 5)
    assert got.dtype is kd.complex64  # kdsl's default complex (NumPy: complex128)
    np.testing.assert_allclose(got.numpy(), np.linspace(start, stop, 5), rtol=1e-6)


@pytest.mark.parametrize("num", [0, 1, 2, 7])
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace_retstep_matches_numpy(num, endpoint):
    got, step = kd.linspace(-1.0, 3.0, num, endpoint=endpoint, retstep=True)
    expected, np_step = np.linspace(-1.0, 3.0, num, endpoint=endpoint, retstep=True)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)
    np.testing.assert_equal(step, np_step)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_linspace_of_arrays_axis_and_retstep(axis):
    a, b = np.array([0.0, 1.0, -2.0], np.float32), np.array([2.0, 5.0, 4.0], np.float32)
    got, step = kd.linspace(kd.asarray(a), kd.asarray(b), 4, retstep=True, axis=axis)
    expected, np_step = np.linspace(a, b, 4, retstep=True, axis=axis)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(step.numpy(), np_step, rtol=1e-6)
    np.testing.assert_allclose(kd.linspace(a, b, 4, axis=axis).numpy(), expected, rtol=1e-6)


@pytest.mark.parametrize("build", [
    lambda xp, y: [y[1], -y[0] - 0.5 * y[1]],
    lambda xp, y: [[y[0], 2.0], [3.0, y[1]]],
    lambda xp, y: (y, y * 2, [7.0, 8.0]),
    lambda xp, y: [y.astype(xp.int8), [300, 1]],
    lambda xp, y: [y[0].astype(xp.int32), 2.5],
])
def test_array_of_kdsl_arrays_joins_on_the_device(build, monkeypatch):
    host = np.array([1.5, -2.0], np.float32)
    expected = np.array(build(np, host))
    y = kd.asarray(host)
    monkeypatch.setattr(kd.Array, "__array__", lambda *a, **k: pytest.fail("downloaded an item"))
    got = kd.array(build(kd, y))
    monkeypatch.undo()
    assert got.shape == expected.shape and got.dtype.kind == expected.dtype.kind
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)


def test_array_of_ragged_kdsl_arrays():
    with pytest.raises(ValueError, match="inhomogeneous"):
        kd.array([kd.arange(2), kd.arange(3)])


FULL_ARRAY_FILLS = [
    ((2, 2), [1, 2], None), ((2, 3), [1.5, 2.0, -3.0], None), ((2, 2, 3), [0, 0, 255], "int64"),
    ((3, 1), [[1], [2], [3]], "float32"), ((0, 2), [1, 2], None), ((4, 2), np.arange(2.0), None),
    ((2, 3), [1.5, -2.7, 3.2], "int8"), ((1, 3), [True, False, True], None), ((2, 3), [[1, 2, 3]], "complex64"),
]


@pytest.mark.parametrize("shape,fill,dtype", FULL_ARRAY_FILLS)
def test_full_with_array_fill_value(shape, fill, dtype):
    """np.full((2, 2), [1, 2]) broadcasts the fill (NumPy's docstring example), cast unsafely to dtype."""
    want = np.full(shape, fill, dtype=dtype)
    got = kd.full(shape, fill, dtype=dtype)
    assert got.shape == want.shape and got.dtype.kind == want.dtype.kind
    np.testing.assert_array_equal(got.numpy(), want)
    host_like = np.zeros(shape, dtype=dtype or "int32")
    np.testing.assert_array_equal(kd.full_like(kd.asarray(host_like), fill).numpy(), np.full_like(host_like, fill))


def test_full_with_kdsl_fill_stays_lazy_and_is_a_new_array():
    f = kd.asarray([1.0, 2.0])[::-1]  # a non-contiguous view
    a = kd.full((3, 2), f)
    assert a._node.op == "view"  # a broadcast of the fill: nothing read back to the host
    a[0, 0] = 7.0
    np.testing.assert_array_equal(f.numpy(), [2.0, 1.0])
    np.testing.assert_array_equal(a.numpy(), [[7.0, 1.0], [2.0, 1.0], [2.0, 1.0]])
    zero_d = kd.full(3, kd.asarray(np.float64(2.5)))
    assert zero_d.dtype == kd.float64 and zero_d.tolist() == [2.5, 2.5, 2.5]


@pytest.mark.parametrize("shape,fill", [((2, 2), [1, 2, 3]), ((2,), [[1, 2], [3, 4]]), ((3,), [1, 2])])
def test_full_fill_that_does_not_broadcast(shape, fill):
    with pytest.raises(ValueError) as want:
        np.full(shape, fill)
    with pytest.raises(type(want.value), match="could not broadcast"):
        kd.full(shape, fill)


_FLOAT_RANGES = [(-3, 3, 0.5), (0, 5, 1.5), (5, 0, -1.5), (0.5, 4, 1), (1, 10, 3), (-2.7, 3, 0.9), (0, 1, 0.3),
                 (3, 3, 0.5), (2.5,), (np.float32(0.5), 3, 1)]


@pytest.mark.parametrize("args,dtype", [(r, d) for r in _FLOAT_RANGES for d in ("int32", "int64", "int8")] +
                         [(r, "uint8") for r in _FLOAT_RANGES if min(r) >= 0])
def test_arange_integer_dtype_with_float_bounds(args, dtype):
    """np.arange(-3, 3, 0.5, dtype=int): the first two values truncated give the step (NumPy's docstring)."""
    want = np.arange(*args, dtype=dtype)
    got = kd.arange(*args, dtype=dtype)
    assert got.dtype == kd.dtype.as_dtype(dtype)
    np.testing.assert_array_equal(got.numpy(), want)


def test_arange_numpy_float32_bound_is_float():
    # NumPy's dtype: its arange takes the Python int 3 as an int64 array, so float32 and int64 give float64
    assert kd.arange(np.float32(0.5), 3).dtype == np.arange(np.float32(0.5), 3).dtype == kd.float64
    np.testing.assert_array_equal(kd.arange(np.float32(0.5), 3).numpy(), [0.5, 1.5, 2.5])


@pytest.mark.parametrize("make", ["ones", "zeros", "empty", "full"])
@pytest.mark.parametrize("shape", [
    np.array(3), np.array(0), np.int64(2), np.array([2, 3]), np.array([4, 1])[::-1], np.array([[1], [2]])[:, 0],
])
@pytest.mark.parametrize("as_kdsl", [False, True])
def test_shape_from_an_integer_array(make, shape, as_kdsl):
    # 2017 * np.ones(np.sum(year == 2017)) (NumPy tutorials): a 0-d integer array is one length, a 1-d one a shape
    arg = kd.asarray(shape) if as_kdsl and isinstance(shape, np.ndarray) else shape
    args = (7,) if make == "full" else ()
    want = getattr(np, make)(shape, *args)
    got = getattr(kd, make)(arg, *args)
    assert got.shape == want.shape
    if make != "empty":
        np.testing.assert_array_equal(got.numpy(), want)


def test_shape_from_a_mask_count():
    m = np.array([3, 1, 3, 3]) == 3
    np.testing.assert_array_equal(kd.ones(kd.sum(kd.asarray(m))).numpy(), np.ones(np.sum(m)))


@pytest.mark.parametrize("shape", [np.array(2.0), np.array([2.0, 1.0]), np.array(True)])
def test_shape_from_a_non_integer_array_raises_type_error(shape):
    with pytest.raises(TypeError):
        np.ones(shape)
    with pytest.raises(TypeError, match="shape must be an int or a tuple of ints"):
        kd.ones(kd.asarray(shape))


@pytest.mark.parametrize("fn", ["eye", "identity"])
@pytest.mark.parametrize("n", [np.array(3), np.array(0), np.array(1), np.int64(2)])
@pytest.mark.parametrize("as_kdsl", [False, True])
def test_eye_size_from_a_0d_integer_array(fn, n, as_kdsl):
    # np.eye(np.sum(mask)): a 0-d integer array is a size
    arg = kd.asarray(n) if as_kdsl and isinstance(n, np.ndarray) else n
    np.testing.assert_array_equal(getattr(kd, fn)(arg).numpy(), getattr(np, fn)(n))


@pytest.mark.parametrize("n", [np.array(2.0), np.array([2]), True, 2.0])
def test_eye_size_that_is_not_an_integer_raises_type_error(n):
    with pytest.raises(TypeError):
        np.eye(n)
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        kd.eye(kd.asarray(n) if isinstance(n, np.ndarray) else n)
