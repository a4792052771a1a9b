"""Creation routines as NumPy's where differential fuzzing found them apart: ``arange`` into a complex dtype
keeps fractional bounds and steps (it truncated them to integers); ``linspace`` of complex endpoints into an
integer dtype raises NumPy's TypeError (it dropped the imaginary parts); a dense ``mgrid`` whose slice counts
backwards raises NumPy's ValueError (``ogrid`` stays empty); ``full``/``full_like`` drop a fill's leading
length-1 axes as NumPy's copy does (``full((), [1])`` raised)."""

import warnings

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("dtype", ["complex64", "complex128", complex])
@pytest.mark.parametrize("args", [(2.5,), (-9.4, 0.8), (0.5, 3, 0.5), (3.2, 0.55, -0.5), (0.1, 1.0, 0.1), (0, 5),
                                  (-7.85, 4), (1e8, 1e8 + 10, 0.7), (3, 3), (0.0, -1.0)])
def test_arange_into_complex_keeps_fractions(args, dtype):
    want = np.arange(*args, dtype=np.complex64 if dtype is complex else dtype)  # complex: kdsl's complex64
    got = kd.arange(*args, dtype=dtype).numpy()
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint16", "int64", int])
@pytest.mark.parametrize(("start", "stop"), [(2 - 4j, 5.6), (0, 1j), (1 + 1j, 3 + 3j)])
def test_linspace_of_complex_into_integers_is_refused(start, stop, dtype):
    with pytest.raises(TypeError):
        np.linspace(start, stop, 3, dtype=dtype)
    with pytest.raises(TypeError, match="floor"):
        kd.linspace(start, stop, 3, dtype=dtype)
    with pytest.raises(TypeError, match="floor"):  # kdsl endpoints: the device path
        kd.linspace(kd.asarray([start]), kd.asarray(stop), 3, dtype=dtype)


@pytest.mark.parametrize("dtype", ["bool", "float32", "complex64"])
def test_linspace_of_complex_into_other_dtypes_still_casts(dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        want = np.linspace(2 - 4j, 5.5, 4, dtype=dtype)
        got = kd.linspace(2 - 4j, 5.5, 4, dtype=dtype).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-6)


KEYS = [(slice(2, 0),), (slice(2, 1.0),), (slice(0, 3, -1), slice(0, 2)), (slice(1.8, 4.0, -0.7),),
        (slice(0, 2), slice(5, -1, 2)), (slice(2, 1.5),), (slice(0, -0.5),), (slice(3, 0, -1), slice(0, 1, 3j)),
        (slice(2, 2),), (slice(0, 3), slice(1, 0, 2j))]


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("name", ["mgrid", "ogrid"])
def test_grids_that_count_backwards(name, key):
    try:
        want = getattr(np, name)[key]
    except ValueError:
        with pytest.raises(ValueError, match="negative dimensions"):
            getattr(kd, name)[key]
        return
    got = getattr(kd, name)[key]
    for w, g in zip(want if name == "ogrid" else [want], got if name == "ogrid" else [got], strict=True):
        assert g.shape == w.shape
        np.testing.assert_allclose(np.asarray(g), w)


@pytest.mark.parametrize(("shape", "fill"), [((), [1]), ((), [[2.5]]), ((2,), [[1, 2]]), ((3,), [[[5]]]),
                                             ((1, 2), [[[3, 4]]]), ((0,), [[7]]), ((2, 2), [[[1], [2]]])])
def test_full_drops_leading_length_one_axes_of_the_fill(shape, fill):
    want = np.full(shape, fill)
    got = kd.full(shape, fill).numpy()
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    like = kd.full_like(kd.zeros((4, 4), kd.int16), fill, shape=shape).numpy()
    np.testing.assert_array_equal(like, np.full_like(np.zeros((4, 4), np.int16), fill, shape=shape))
    assert like.dtype == np.int16


@pytest.mark.parametrize(("shape", "fill"), [((), [1, 2]), ((2,), [[1], [2]]), ((3,), [1, 2])])
def test_full_still_refuses_fills_that_do_not_fit(shape, fill):
    with pytest.raises(ValueError):
        np.full(shape, fill)
    with pytest.raises(ValueError, match="could not broadcast"):
        kd.full(shape, fill)
