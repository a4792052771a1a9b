"""kd.loadtxt / kd.genfromtxt with unpack=True give NumPy's result: the transposed array of plain numbers (one
column: a 1-d array, one value: a 0-d array, an empty file: an empty array), a tuple of field arrays for a
structured dtype; and an .npz's arrays as attributes (``npz.f.name``, NumPy's BagObj)."""

import io
import warnings

import numpy as np
import pytest

import kdsl as kd

TEXTS = ["1,2\n3,4\n5,6", "1\n2\n3", "7", "1,2,3", "nan,inf\n-inf,1e308\n-0.0,2", "# only a comment\n1,2\n"]
DTYPES = [float, np.float32, np.int64, np.int16, None]


def _readers():
    return [(kd.loadtxt, np.loadtxt), (kd.genfromtxt, np.genfromtxt)]


def _same(got, want):
    assert isinstance(got, kd.Array), type(got)
    host = got.numpy()
    assert host.dtype == want.dtype and host.shape == want.shape
    np.testing.assert_array_equal(host, want)


@pytest.mark.parametrize("reader", [0, 1])
@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_unpack_is_numpys_transposed_array(reader, text, dtype):
    ours, numpys = _readers()[reader]
    try:
        want = numpys(io.StringIO(text), delimiter=",", dtype=dtype, unpack=True)
    except (ValueError, OverflowError) as e:  # NaN, inf and 1e308 as integers: NumPy's error, ours the same type
        with pytest.raises(type(e)):
            ours(io.StringIO(text), delimiter=",", dtype=dtype, unpack=True)
        return
    got = ours(io.StringIO(text), delimiter=",", dtype=dtype, unpack=True)
    _same(got, want)


def test_unpack_rows_are_the_columns():
    x, y = kd.loadtxt(io.StringIO("1 10\n2 20\n3 30"), unpack=True)
    np.testing.assert_array_equal(x.numpy(), [1, 2, 3])
    np.testing.assert_array_equal(y.numpy(), [10, 20, 30])
    (col,) = kd.loadtxt(io.StringIO("1 10\n2 20"), usecols=(1,), ndmin=2, unpack=True)
    np.testing.assert_array_equal(col.numpy(), [10, 20])


def test_unpack_of_an_empty_file():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # NumPy's "input contained no data"
        want = np.loadtxt(io.StringIO(""), unpack=True)
        got = kd.loadtxt(io.StringIO(""), unpack=True)
    _same(got, want)


def test_unpack_of_a_structured_dtype_is_a_tuple_of_fields():
    text = "1 2.5\n3 4.5"
    types = [("a", np.int64), ("b", np.float64)]
    want = np.loadtxt(io.StringIO(text), dtype=types, unpack=True)
    got = kd.loadtxt(io.StringIO(text), dtype=types, unpack=True)
    assert isinstance(got, tuple) and len(got) == len(want) == 2
    for g, w in zip(got, want, strict=True):
        _same(g, w)


def test_unpack_round_trip_of_a_view():
    a = kd.asarray(np.arange(12, dtype=np.float32).reshape(3, 4))[:, ::2].T  # non-contiguous
    f = io.StringIO()
    kd.savetxt(f, a, fmt="%g")
    _ = f.seek(0)
    _same(kd.loadtxt(f, dtype=np.float32, unpack=True), a.numpy().T)


def test_npz_arrays_as_attributes():
    f = io.BytesIO()
    kd.savez(f, file_a=kd.asarray(np.arange(3)), file_b=kd.ones((2, 0)))
    _ = f.seek(0)
    with kd.load(f) as z:
        assert sorted(dir(z.f)) == ["file_a", "file_b"]
        _same(z.f.file_a, np.arange(3))
        assert z.f.file_b.shape == (2, 0)
        with pytest.raises(AttributeError):
            _ = z.f.missing
