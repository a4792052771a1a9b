"""NumPy scalars are strong in NumPy 2 (NEP 50): ``float32_array * np.float64(2)`` is float64, as NumPy's, even
though ``np.float64`` is a Python float subclass; Python scalars stay weak."""

import numpy as np
import pytest

import kdsl as kd

ARRAYS = ["bool", "int8", "uint8", "int32", "int64", "float16", "float32", "float64", "complex64"]
SCALARS = [np.float64(1.5), np.float32(1.5), np.float16(0.5), np.int64(3), np.int8(-2), np.uint16(7),
           np.complex128(1 + 2j), np.bool_(True)]


def host(dtype):
    return (np.arange(6).reshape(2, 3) % 4 + 1).astype(dtype)


@pytest.mark.parametrize("dtype", ARRAYS)
@pytest.mark.parametrize("scalar", SCALARS, ids=lambda s: type(s).__name__)
@pytest.mark.parametrize("op", ["add", "multiply", "maximum", "less"])
def test_numpy_scalars_are_strong(dtype, scalar, op):
    a = host(dtype)
    fn = getattr(np, op)
    try:
        ref = fn(a, scalar), fn(scalar, a.T)
    except TypeError:  # bool - bool
        with pytest.raises(TypeError):
            getattr(kd, op)(kd.asarray(a), scalar)
        return
    got = getattr(kd, op)(kd.asarray(a), scalar), getattr(kd, op)(scalar, kd.asarray(a).T)
    for g, r in zip(got, ref, strict=True):
        assert g.dtype == r.dtype
        np.testing.assert_allclose(g.numpy(), r, rtol=1e-6)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_operators_and_python_scalars(dtype):
    a, x = host(dtype), kd.asarray(host(dtype))
    assert (x * np.float64(2)).dtype == (a * np.float64(2)).dtype
    assert (np.float64(2) - x[:, ::2]).dtype == (np.float64(2) - a[:, ::2]).dtype
    assert (x + 2.0).dtype == (a + 2.0).dtype == a.dtype  # Python floats are weak
    assert (x > np.float64(1.5)).dtype == kd.bool
    assert kd.where(x > 1, x, np.float64(0)).dtype == np.where(a > 1, a, np.float64(0)).dtype


def test_in_place_keeps_the_dtype():
    a = kd.ones(3, dtype=kd.float32)
    a += np.float64(0.5)
    ref = np.ones(3, np.float32)
    ref += np.float64(0.5)
    assert a.dtype == ref.dtype
    np.testing.assert_array_equal(a.numpy(), ref)


def test_without_float64_the_scalar_is_weak(monkeypatch):
    """A device without float64: the np.float64 scalar acts as a Python float (the array's precision) rather
    than raising for a dtype the device cannot hold."""
    d = kd.device()
    monkeypatch.setattr(d, "features", d.features - {"float64"})
    x = kd.ones(3, dtype=kd.float32)
    got = x * np.float64(2.5)
    assert got.dtype == kd.float32
    np.testing.assert_array_equal(got.numpy(), np.full(3, 2.5, np.float32))


COMPOSED = ["hypot", "copysign", "fmod", "fmax", "fmin", "heaviside", "logaddexp", "logaddexp2", "nextafter"]


@pytest.mark.parametrize("dtype", ["int8", "uint8", "float16", "float32"])
@pytest.mark.parametrize("scalar", [np.float64(1.5), np.float32(-0.0), np.float16(0.5), np.float64(np.nan)],
                         ids=repr)
@pytest.mark.parametrize("op", COMPOSED)
def test_composed_float_functions_take_numpy_scalars_as_strong(dtype, scalar, op):
    """Functions kdsl composes of several ops (``hypot``, ``copysign``, ``fmax``...) promote as the operators:
    ``np.hypot(f32, np.float64(1.5))`` is float64 (they took ``np.float64``, a Python float, as weak)."""
    a = np.array([[-2.0, -0.0, 0.0, 1.5], [3.0, np.inf, np.nan, -7.25]]).astype(dtype)[:, ::-1]  # reversed view
    x = kd.asarray(np.ascontiguousarray(a[:, ::-1]))[:, ::-1]
    fn = getattr(np, op)
    with np.errstate(all="ignore"):
        refs = fn(a, scalar), fn(scalar, a)
    got = getattr(kd, op)(x, scalar), getattr(kd, op)(scalar, x)
    for g, r in zip(got, refs, strict=True):
        assert g.dtype == r.dtype
        np.testing.assert_allclose(g.numpy(), r, rtol=1e-6, equal_nan=True)
        if op not in ("fmax", "fmin"):  # their (0.0, -0.0) ties are x1's (docs/numpy-api.md); a NaN's sign is moot
            known = ~np.isnan(r)
            np.testing.assert_array_equal(np.signbit(g.numpy())[known], np.signbit(r)[known])


@pytest.mark.parametrize("op", COMPOSED)
def test_composed_float_functions_keep_python_floats_weak(op):
    a = np.array([-1.5, 0.0, 2.0], np.float32)
    fn = getattr(np, op)
    for args, kargs in [((a, 2.5), (kd.asarray(a), 2.5)), ((a[:0], 2.5), (kd.asarray(a[:0]), 2.5)),
                        ((np.float64(2.0), np.float32(3.0)), (np.float64(2.0), np.float32(3.0)))]:
        ref, got = fn(*args), getattr(kd, op)(*kargs)
        assert got.dtype == ref.dtype
        assert got.shape == np.shape(ref)
        np.testing.assert_allclose(np.asarray(got.numpy()), ref, rtol=1e-6)


def test_composed_function_without_float64_takes_the_scalar_as_weak(monkeypatch):
    d = kd.device()
    monkeypatch.setattr(d, "features", d.features - {"float64"})
    got = kd.hypot(kd.ones(3, dtype=kd.float32), np.float64(2.0))
    assert got.dtype == kd.float32
    want = np.hypot(np.ones(3, np.float32), np.float32(2.0))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)  # (an H200's hypot is 1 ulp off)
