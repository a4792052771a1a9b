"""arange's argument forms and default dtype, linspace into integer dtypes: against NumPy."""
import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("args", [(4,), (0, 5, 1, int), (2, 11, 3), (1, None), (3, None, 2), (0,), (5, 2),
                                  (2**31 - 3, 2**31 + 1), (-2**40, -2**40 + 2), (0, 2**33, 2**31)])
def test_arange_positional_forms(args):
    want = np.arange(*args)
    got = np.asarray(kd.arange(*args))
    np.testing.assert_array_equal(got, want)
    if any(abs(a) >= 2**31 for a in args if isinstance(a, int)):  # exact values need int64, as NumPy's
        assert got.dtype == np.int64


def test_arange_zero_d_array_bounds():
    np.testing.assert_array_equal(kd.arange(0, 10, kd.asarray(3)), np.arange(0, 10, np.array(3)))
    np.testing.assert_array_equal(kd.arange(np.array(2**33), np.array(2**33 + 2)),
                                  np.arange(np.array(2**33), np.array(2**33 + 2)))


@pytest.mark.parametrize("kwargs", [dict(stop=4), dict(stop=4, step=2), dict(start=1, stop=5, step=None),
                                    dict(start=2, stop=-2, step=-1), dict(stop=3, dtype=np.float32)])
def test_arange_keyword_forms(kwargs):
    np.testing.assert_array_equal(np.asarray(kd.arange(**kwargs)), np.arange(**kwargs))


def test_arange_keyword_and_positional_mix():
    np.testing.assert_array_equal(np.asarray(kd.arange(2, stop=6)), np.arange(2, stop=6))
    np.testing.assert_array_equal(np.asarray(kd.arange(5, step=2)), np.arange(5, step=2))


@pytest.mark.parametrize("call", [lambda m: m.arange(start=4), lambda m: m.arange(),
                                  lambda m: m.arange(2, start=1), lambda m: m.arange(1, 2, 3, 4, 5)])
def test_arange_argument_errors(call):
    with pytest.raises(TypeError):
        call(np)
    with pytest.raises(TypeError):
        call(kd)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8])
@pytest.mark.parametrize("bounds", [(-1.5, 2.5, 9), (-3, 3, 7), (0.0, 1.0, 5), (2.7, -2.7, 6), (0, 5, 0),
                                    (1.5, 1.5, 1)])
def test_linspace_integer_dtype_floors(dtype, bounds):
    if dtype == np.uint8 and min(bounds[:2]) < 0:
        bounds = (abs(bounds[0]), abs(bounds[1]) + 3, bounds[2])
    want = np.linspace(*bounds, dtype=dtype)
    got = np.asarray(kd.linspace(*bounds, dtype=dtype))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace_device_endpoints_integer_dtype_floors(endpoint):
    start = np.array([-1.5, 0.25, -3.0])
    stop = np.array([2.5, -2.75, 3.0])
    want = np.linspace(start, stop, 7, endpoint=endpoint, dtype=np.int32)
    got = kd.linspace(kd.asarray(start), kd.asarray(stop), 7, endpoint=endpoint, dtype=np.int32)
    np.testing.assert_array_equal(np.asarray(got), want)


def test_linspace_complex_geomspace():
    for start, stop in [(1j, 16j), (-1 + 0j, 1 + 0j), (1 + 1j, 8 + 8j)]:
        np.testing.assert_allclose(np.asarray(kd.geomspace(start, stop, 5)), np.geomspace(start, stop, 5),
                                   rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("start, stop, num", [(-1, 1, 3), (-1, 1, 5), (1, -16, 5), (-2.5, 0.5, 4), (1, 1, 1),
                                              (-1, 1, 0), (3, 3, 2)])
@pytest.mark.parametrize("dtype", [complex, np.complex64, np.complex128])
def test_geomspace_complex_dtype_of_real_endpoints(start, stop, num, dtype):
    want = np.geomspace(start, stop, num, dtype=dtype)
    got = np.asarray(kd.geomspace(start, stop, num, dtype=dtype))
    assert not np.isnan(got).any()
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    got_dev = np.asarray(kd.geomspace(kd.asarray(np.float64(start)), stop, num, dtype=dtype))
    np.testing.assert_allclose(got_dev, want, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("args", [(np.float64(2.0),), (0, 1, np.float64(0.25)), (np.float32(1), 3),
                                  (np.float32(1), 3.5), (np.int8(1), 3.0), (np.int32(3),), (np.int8(-2), 2),
                                  (np.array(4),), (np.uint8(2), np.uint8(5))])
def test_arange_typed_numpy_bounds_give_numpy_dtype(args):
    want = np.arange(*args)
    got = np.asarray(kd.arange(*args))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("args", [(2,), (True,), (False,), (6, 8), (0, 2, 1)])
def test_arange_booleans_up_to_two_values(args):
    np.testing.assert_array_equal(np.asarray(kd.arange(*args, dtype=bool)), np.arange(*args, dtype=bool))


@pytest.mark.parametrize("args", [(3,), (0, 5), (-1, 2)])
def test_arange_booleans_longer_raise(args):
    for m in (np, kd):
        with pytest.raises(TypeError):
            m.arange(*args, dtype=bool)


@pytest.mark.parametrize("args, message", [((0, np.inf), "Maximum allowed size exceeded"),
                                           ((np.inf, 0), "Maximum allowed size exceeded"),
                                           ((0, 1, np.nan), "cannot compute length"),
                                           ((np.nan, 1), "cannot compute length"),
                                           ((np.inf, np.inf), "cannot compute length")])
def test_arange_non_finite_errors(args, message):
    for m in (np, kd):
        with pytest.raises(ValueError, match=message):
            m.arange(*args)


@pytest.mark.parametrize("args", [(0, 1, np.inf), (0, 1, -np.inf)])
def test_arange_infinite_step(args):
    np.testing.assert_array_equal(np.asarray(kd.arange(*args)), np.arange(*args))
