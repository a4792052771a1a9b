"""kdsl dtypes where ported code treats them as NumPy's: ``str``/``format`` give the bare name, ``kd.dtype(x)``
converts (as ``np.dtype(x)``), ``isinstance(d, kd.dtype)``, NumPy's other dtype attributes."""

import pickle

import numpy as np
import pytest

import kdsl as kd

NAMES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
         "float64", "complex64", "complex128"]


@pytest.mark.parametrize("name", NAMES)
def test_str_and_format_are_numpys(name):
    d = kd.ones(2, dtype=name).dtype
    assert str(d) == str(np.dtype(name)) and f"{d}" == f"{np.dtype(name)}"
    assert repr(d) == f"kdsl.{name}"  # the repr still says whose dtype it is


@pytest.mark.parametrize("spelling", ["float32", np.float64, np.dtype("int16"), "uint8", "i8", "c8", bool])
def test_kd_dtype_converts_like_np_dtype(spelling):
    d = kd.dtype(spelling)
    assert d == np.dtype(spelling) and isinstance(d, kd.dtype)


def test_kd_dtype_kdsl_defaults_and_module_access():
    assert kd.dtype(float) is kd.float32 and kd.dtype(int) is kd.int32  # kdsl's defaults (docs/numpy-api.md)
    assert kd.dtype(kd.float64) is kd.float64 and kd.dtype.float32 is kd.float32
    assert not isinstance(np.dtype("float32"), kd.dtype) and not isinstance("float32", kd.dtype)
    with pytest.raises(TypeError, match="not a dtype kdsl knows"):
        kd.dtype("no such type")


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("attr", ["char", "str", "num", "byteorder", "alignment", "kind", "itemsize", "name"])
def test_numpy_attributes(name, attr):
    assert getattr(kd.dtype(name), attr) == getattr(np.dtype(name), attr)


def test_unknown_attribute_and_pickle():
    with pytest.raises(AttributeError):
        kd.float32.no_such_attribute  # noqa: B018 - the lookup is the test
    assert pickle.loads(pickle.dumps(kd.float32)) is kd.float32


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("value", [np.float64(2.5), np.float32(1), np.int64(3), np.uint8(7), np.bool_(True),
                                   np.complex64(1j), 2.5, 3, True])
def test_isinstance_of_a_scalar_is_numpys(name, value):
    # `isinstance(v, np.float64)` in ported code: the kdsl dtype stands for NumPy's scalar type
    assert isinstance(value, getattr(kd, name)) == isinstance(value, getattr(np, name if name != "bool" else "bool_"))
    assert isinstance(getattr(kd, name)(1), getattr(kd, name))


@pytest.mark.parametrize("name", NAMES)
def test_issubclass_of_a_dtype_type(name):
    d = kd.ones(2, dtype=name).dtype
    assert issubclass(d.type, getattr(kd, name))
    assert issubclass(d.type, kd.float64) == issubclass(np.dtype(name).type, np.float64)
    assert issubclass(int, getattr(kd, name)) == issubclass(int, np.dtype(name).type)


def test_a_zero_d_array_is_not_a_scalar_instance():
    assert not isinstance(kd.asarray([1.0, 2.0]).sum(), kd.float32)  # a 0-d kdsl array (documented)
    assert issubclass(kd.float32, kd.float64) == issubclass(np.float32, np.float64)


@pytest.mark.parametrize("name", ["int16", "uint16", "int32", "uint32", "int64", "float32", "float64",
                                  "complex64"])
@pytest.mark.parametrize("order", [">", "<"])
def test_byte_order_dtype_reads_buffers_as_numpy(name, order, tmp_path):
    # np.frombuffer(buf, np.dtype('>u4')) (MNIST's IDX header, FITS data): kdsl's DType has no byte order, so
    # kd.dtype of another byte order stays NumPy's dtype and the bytes are read as NumPy reads them
    spelled = np.dtype(name).newbyteorder(order)
    values = (np.arange(-3, 9) * 7).astype(name)
    raw = values.astype(spelled).tobytes()
    spelling = order + np.dtype(name).str[1:]
    d = kd.dtype(spelling)
    assert d == spelled and isinstance(d, kd.dtype) and d.byteorder == np.dtype(spelling).byteorder
    got = kd.frombuffer(raw, dtype=d, count=10, offset=spelled.itemsize)
    assert got.dtype == np.dtype(name)  # kdsl arrays are native
    np.testing.assert_array_equal(got.numpy(), np.frombuffer(raw, dtype=spelled, count=10, offset=spelled.itemsize))
    (tmp_path / "x.bin").write_bytes(raw)
    np.testing.assert_array_equal(kd.fromfile(tmp_path / "x.bin", dtype=d).numpy(), values)
    np.testing.assert_array_equal(kd.zeros(3, dtype=d).numpy(), np.zeros(3, dtype=spelled))


def test_native_and_single_byte_spellings_stay_kdsl_dtypes():
    for spelling in ["=f4", "|u1", "|b1", np.dtype("<i2").newbyteorder("="), "<f8" if np.little_endian else ">f8"]:
        assert isinstance(kd.dtype(spelling), kd.dtype)
    assert kd.dtype(">u1") is kd.uint8  # one byte: no order (NumPy normalises it to '|')
