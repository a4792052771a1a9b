"""``kd.float32(a)``, ``kd.uint8(img)`` of arrays and lists: NumPy's scalar types cast an array
(``np.float32(a)`` is ``np.asarray(a, np.float32)``), so the port of ``f = np.float32(img) / 255.0; f += noise``
must give a kdsl array. kdsl's DTypes called NumPy's types, which read the kdsl array back and returned a NumPy
host array: ``f += noise`` then raised TypeError (no writes into NumPy arrays by kdsl), and every such cast was a
silent round trip; a `kd.ma` array lost its mask (silently wrong means). Numbers, strings and 0-d arrays still make
NumPy's scalars."""

import numpy as np
import pytest

import kdsl as kd

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]


def _sources():
    rng = np.random.default_rng(2525)
    return [rng.normal(0, 100, (3, 4)), rng.integers(-300, 300, 7), rng.random((2, 3)) > 0.5,
            np.array([0.0, -0.0, 1.5, -2.5, 255.9, np.inf, -np.inf]), np.zeros((0, 3)), np.array([7.25]),
            (rng.normal(size=4) + 1j * rng.normal(size=4)).astype(np.complex64),
            rng.normal(size=(4, 6))[::2, ::-3]]  # a strided view


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")  # complex to real: both warn, as NumPy
@pytest.mark.parametrize("name", DTYPES)
def test_casts_of_kdsl_and_numpy_arrays_are_kdsl_arrays(name):
    for src in _sources():
        if not np.all(np.isfinite(src)) and name[0] in "iu":
            continue  # NumPy's own casts of inf to integers are undefined (platform-dependent)
        with np.errstate(all="ignore"):
            want = getattr(np, name)(src)
        for given in (kd.asarray(src), src):
            with np.errstate(all="ignore"):
                got = getattr(kd, name)(given)
            assert isinstance(got, kd.Array), (name, type(got))
            assert got.dtype.name == want.dtype.name and got.shape == want.shape
            np.testing.assert_array_equal(got.numpy(), want)


def test_lists_tuples_ranges_and_identity():
    assert kd.float64([0.1, 0.2]).numpy().tolist() == [0.1, 0.2]  # float64 from the start, not float32 rounded
    assert kd.int32([[1, 2], [3, 4]]).shape == (2, 2) and kd.float32(()).shape == (0,)
    np.testing.assert_array_equal(kd.float32(range(4)).numpy(), np.float32(range(4)))
    x = kd.asarray(np.arange(3.0))
    assert kd.float64(x) is x  # NumPy's np.float64(a) is a itself when the dtype matches
    with pytest.raises(OverflowError, match="out of bounds for uint8"):
        kd.uint8([-1, 256])
    np.testing.assert_array_equal(kd.int8(kd.asarray(np.array([300.0, -1.5]))).numpy(), [44, -1])


def test_scalars_stay_numpys():
    x = kd.asarray(np.array([1.5, 2.5, -3.75]))
    cases = [(kd.float64(x.sum()), np.float64(0.25)), (kd.int64(x[0]), np.int64(1)), (kd.float32(3), np.float32(3)),
             (kd.float32(np.array(2.5)), np.float32(2.5)), (kd.float64("1.5"), np.float64(1.5)),
             (kd.complex64(1, 2), np.complex64(1 + 2j)), (kd.float32(), np.float32(0))]
    for got, want in cases:
        assert type(got) is type(want) and got == want
    np.testing.assert_array_equal(kd.float32(np.array(["1.5", "2"])), np.float32(np.array(["1.5", "2"])))


def test_image_normalisation_program():
    def program(xp, img, noise):
        f = xp.float32(xp.asarray(img)) / 255.0
        f += xp.asarray(noise)
        out = xp.uint8(xp.clip(f * 255, 0, 255))
        out[out > 200] = 200
        return out, f.dtype.name

    rng = np.random.default_rng(2526)
    img = rng.integers(0, 256, (5, 6), dtype=np.uint8)
    noise = rng.normal(0, 0.05, (5, 6)).astype(np.float32)
    got, want = program(kd, img, noise), program(np, img, noise)
    assert isinstance(got[0], kd.Array) and got[1] == want[1]
    np.testing.assert_array_equal(got[0].numpy(), want[0])


def test_masked_arrays_keep_their_masks():
    data, mask = np.array([1.0, 2.0, 100.0, -4.5]), np.array([False, False, True, False])
    want = np.float32(np.ma.array(data, mask=mask))
    got = kd.float32(kd.ma.masked_array(data, mask=mask))  # was a NumPy array of all four values: mean 24.6
    assert isinstance(got, kd.ma.MaskedArray) and got.dtype.name == "float32"
    np.testing.assert_array_equal(got.mask, want.mask)
    assert float(got.mean()) == float(want.mean())
    ints = kd.int16(kd.ma.masked_array(data, mask=mask))
    np.testing.assert_array_equal(ints.filled(0), np.int16(np.ma.array(data, mask=mask)).filled(0))
    host = kd.float32(np.ma.array(data, mask=mask))  # NumPy's own masked array: NumPy's answer, a host np.ma
    assert isinstance(host, np.ma.MaskedArray) and float(host.mean()) == float(want.mean())


@pytest.mark.parametrize("name", ["float32", "int16", "complex64", "bool"])
def test_dtype_type_is_numpys_scalar_type_and_the_dtype_casts_arrays(name):
    # a.dtype.type stays NumPy's scalar type, so ported identity and subclass checks hold (docs/numpy-api.md);
    # the kdsl spelling of NumPy's a.dtype.type(b) is a.dtype(b): a kdsl array
    a = kd.asarray(np.array([1, 0, 3]), dtype=name)
    assert a.dtype.type is np.dtype(name).type and kd.dtype(name).type is np.dtype(name).type
    assert issubclass(a.dtype.type, np.generic) and np.issubdtype(a.dtype.type, np.dtype(name))
    src = np.array([[2.5, -1.0], [0.0, 7.0]])
    want = np.dtype(name).type(src)
    got = a.dtype(kd.asarray(src))
    assert isinstance(got, kd.Array) and got.dtype.name == want.dtype.name
    np.testing.assert_array_equal(got.numpy(), want)
    assert type(a.dtype(2)) is type(np.dtype(name).type(2))  # a number: NumPy's scalar, as np.float32(2)
