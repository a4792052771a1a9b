"""kd.save/load/savez/savez_compressed/savetxt/loadtxt/genfromtxt/frombuffer/fromiter/fromstring/fromfile and
Array.tofile: NumPy's file formats and readers, with kdsl arrays in and out."""

import io
import pickle

import numpy as np
import pytest

import kdsl as kd

ARRAYS = [np.arange(12, dtype=np.float32).reshape(3, 4), np.array([1.5, np.nan, -np.inf, -0.0]),
          np.array([[True, False]]), np.zeros((0, 3), np.int16), np.array(7, np.uint8),
          np.array([1 + 2j, 3j], np.complex64), np.arange(10, dtype=np.int64)[::3]]


def _same(got, want):
    assert isinstance(got, kd.Array)
    host = got.numpy()
    assert host.dtype == want.dtype and host.shape == want.shape
    np.testing.assert_array_equal(host, want)


@pytest.mark.parametrize("i", range(len(ARRAYS)))
def test_save_load_npy_roundtrip_and_numpy_compat(tmp_path, i):
    host = ARRAYS[i]
    path = tmp_path / "a.npy"
    kd.save(path, kd.asarray(host))
    np.testing.assert_array_equal(np.load(path), host)  # the same file NumPy writes
    assert path.read_bytes() == _numpy_bytes(host)
    _same(kd.load(path), host)
    _same(kd.load(str(path), mmap_mode="r"), host)


def _numpy_bytes(host):
    f = io.BytesIO()
    np.save(f, host)
    return f.getvalue()


def test_save_views_and_numpy_dispatch(tmp_path):
    a = kd.arange(12).reshape(3, 4)
    host = np.arange(12, dtype=np.int32).reshape(3, 4)
    kd.save(tmp_path / "t.npy", a.T)
    np.testing.assert_array_equal(np.load(tmp_path / "t.npy"), host.T)
    np.save(tmp_path / "v.npy", a[::2, 1:])  # np.save on a kdsl array comes to kd.save
    np.testing.assert_array_equal(np.load(tmp_path / "v.npy"), host[::2, 1:])
    kd.save(tmp_path / "l.npy", [1.5, 2.5])  # host data as NumPy saves it
    _same(kd.load(tmp_path / "l.npy"), np.array([1.5, 2.5]))


@pytest.mark.parametrize("saver", ["savez", "savez_compressed"])
def test_npz_is_a_lazy_mapping(tmp_path, saver):
    path = tmp_path / "z.npz"
    getattr(kd, saver)(path, kd.asarray(ARRAYS[0]), kd.asarray(ARRAYS[1]), w=kd.asarray(ARRAYS[2]))
    with np.load(path) as ref:
        assert sorted(ref.files) == ["arr_0", "arr_1", "w"]
    with kd.load(path) as z:
        assert sorted(z.files) == ["arr_0", "arr_1", "w"] and len(z) == 3 and "w" in z and "q" not in z
        _same(z["arr_0"], ARRAYS[0])
        _same(z["arr_1"], ARRAYS[1])
        _same(z["w"], ARRAYS[2])
        assert sorted(z) == sorted(z.keys())
        with pytest.raises(KeyError):
            z["missing"]


@pytest.mark.parametrize("kwargs", [{}, {"fmt": "%d", "delimiter": ","}, {"header": "h", "footer": "f"},
                                    {"fmt": "%.3f"}])
@pytest.mark.parametrize("host", [np.arange(6).reshape(2, 3), np.array([0.5, -1.25, 3.0])], ids=["2d", "1d"])
def test_savetxt_matches_numpy(tmp_path, kwargs, host):
    kd.savetxt(tmp_path / "k.txt", kd.asarray(host), **kwargs)
    np.savetxt(tmp_path / "n.txt", host, **kwargs)
    assert (tmp_path / "k.txt").read_text() == (tmp_path / "n.txt").read_text()


@pytest.mark.parametrize("kwargs", [{}, {"dtype": int}, {"dtype": kd.float32}, {"usecols": (0, 2)},
                                    {"skiprows": 1}, {"ndmin": 2, "max_rows": 1}, {"dtype": np.int16}])
def test_loadtxt_matches_numpy(kwargs):
    text = "1 2 3\n4 5 6\n7 8 9\n"
    want = np.loadtxt(io.StringIO(text), **{k: (v.np if isinstance(v, kd.DType) else v) for k, v in kwargs.items()})
    _same(kd.loadtxt(io.StringIO(text), **kwargs), want)


def test_loadtxt_unpack_and_genfromtxt():
    text = "1,2\n3,4\n5,6"
    got, want = kd.loadtxt(io.StringIO(text), delimiter=",", unpack=True), np.loadtxt(io.StringIO(text),
                                                                                      delimiter=",", unpack=True)
    assert isinstance(got, kd.Array) and got.shape == (2, 3)  # NumPy's transposed array: x, y = ... unpacks it
    _same(got, want)
    missing = "1,,3\n4,5,\n"
    _same(kd.genfromtxt(io.StringIO(missing), delimiter=","), np.genfromtxt(io.StringIO(missing), delimiter=","))
    _same(kd.genfromtxt(io.StringIO(missing), delimiter=",", filling_values=-1),
          np.genfromtxt(io.StringIO(missing), delimiter=",", filling_values=-1))
    masked = kd.genfromtxt(io.StringIO(missing), delimiter=",", usemask=True)  # tests/ma/test_genfromtxt_usemask*
    assert isinstance(masked, kd.ma.MaskedArray)
    assert masked.mask.tolist() == [[False, True, False], [False, False, True]]
    with pytest.raises(TypeError, match="no structured arrays"):
        kd.genfromtxt(io.StringIO("a,1\nb,2"), delimiter=",", dtype=None, encoding="utf-8")


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.uint8, np.complex64, np.float64])
def test_frombuffer_fromiter(dtype):
    host = np.arange(8).astype(dtype)
    _same(kd.frombuffer(host.tobytes(), dtype=dtype), np.frombuffer(host.tobytes(), dtype=dtype))
    _same(kd.frombuffer(host.tobytes(), dtype=kd.dtype.as_dtype(dtype), count=3, offset=host.itemsize),
          np.frombuffer(host.tobytes(), dtype=dtype, count=3, offset=host.itemsize))
    if dtype is not np.complex64:
        _same(kd.fromiter(iter(range(5)), dtype), np.fromiter(iter(range(5)), dtype))
        _same(kd.fromiter(range(0), dtype), np.fromiter(range(0), dtype))
    _same(kd.frombuffer(b"\x00" * 8), np.frombuffer(b"\x00" * 8))  # dtype=float: float64, as NumPy


def test_fromstring_is_numpy_2():
    _same(kd.fromstring("1 2 3", sep=" "), np.fromstring("1 2 3", sep=" "))
    _same(kd.fromstring("1,2,3", dtype=np.int32, sep=","), np.fromstring("1,2,3", dtype=np.int32, sep=","))
    with pytest.raises(ValueError):
        np.fromstring("1 2", sep="")
    with pytest.raises(ValueError, match="frombuffer"):
        kd.fromstring("1 2", sep="")
    with pytest.raises(TypeError):
        kd.fromstring("1 2")  # sep is required


@pytest.mark.parametrize("host", [np.arange(6, dtype=np.int32).reshape(2, 3), np.array([0.5, np.nan], np.float64),
                                  np.zeros(0, np.float32)])
def test_tofile_fromfile(tmp_path, host):
    a = kd.asarray(host)
    a.tofile(tmp_path / "k.bin")
    host.tofile(tmp_path / "n.bin")
    assert (tmp_path / "k.bin").read_bytes() == (tmp_path / "n.bin").read_bytes()
    _same(kd.fromfile(tmp_path / "k.bin", dtype=host.dtype), np.fromfile(tmp_path / "n.bin", dtype=host.dtype))
    a.T.tofile(tmp_path / "kt.txt", sep=",", format="%s")
    host.T.tofile(tmp_path / "nt.txt", sep=",", format="%s")
    assert (tmp_path / "kt.txt").read_text() == (tmp_path / "nt.txt").read_text()
    if host.size:
        _same(kd.fromfile(tmp_path / "kt.txt", dtype=host.dtype, sep=","),
              np.fromfile(tmp_path / "nt.txt", dtype=host.dtype, sep=","))


def test_load_of_strings_is_refused(tmp_path):
    np.save(tmp_path / "s.npy", np.array(["a", "b"]))
    with pytest.raises(TypeError, match="cannot hold"):
        kd.load(tmp_path / "s.npy")


@pytest.mark.parametrize("host", [np.arange(6, dtype=np.int16).reshape(2, 3)[:, ::2], np.array([-0.0, np.nan, np.inf]),
                                  np.zeros((0, 3), np.float32)])
def test_dump_dumps_round_trip(tmp_path, host):
    a = kd.asarray(host)
    back = pickle.loads(a.dumps())
    assert isinstance(back, type(a))
    _same(back, host)
    a.dump(tmp_path / "a.pkl")
    _same(np.load(tmp_path / "a.pkl", allow_pickle=True), host)
    with open(tmp_path / "b.pkl", "wb") as f:
        a.dump(f)
    with open(tmp_path / "b.pkl", "rb") as f:
        _same(pickle.load(f), host)
