"""The array API standard's data-type functions, inspection API and namespace attributes, against NumPy."""

import numpy as np
import pytest
from api_testing import ALL_DTYPES, FLOATS, INTS

import kdsl as kd


@pytest.mark.parametrize("name", FLOATS)
def test_finfo_matches_numpy(name):
    f, ref = kd.finfo(getattr(kd, name)), np.finfo(name)
    assert (f.bits, f.eps, f.max, f.min, f.smallest_normal) == \
        (ref.bits, float(ref.eps), float(ref.max), float(ref.min), float(ref.smallest_normal))
    assert f.dtype is getattr(kd, name) and isinstance(f.eps, float)
    assert kd.finfo(kd.ones(2, dtype=name)).dtype is getattr(kd, name)  # an array works too


@pytest.mark.parametrize("name", INTS)
def test_iinfo_matches_numpy(name):
    i, ref = kd.iinfo(getattr(kd, name)), np.iinfo(name)
    assert (i.bits, i.max, i.min, i.dtype) == (ref.bits, int(ref.max), int(ref.min), getattr(kd, name))


def test_finfo_iinfo_refuse_the_wrong_kind():
    with pytest.raises(TypeError, match="iinfo"):
        kd.finfo(kd.int32)
    with pytest.raises(TypeError, match="finfo"):
        kd.iinfo(kd.float32)


KINDS = {"bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu", "real floating": "f",
         "complex floating": "", "numeric": "iuf"}


@pytest.mark.parametrize("name", ALL_DTYPES)
@pytest.mark.parametrize("kind", list(KINDS))
def test_isdtype_kinds(name, kind):
    d = getattr(kd, name)
    assert kd.isdtype(d, kind) == (np.dtype(name).kind in KINDS[kind]) == np.isdtype(np.dtype(name), kind)


def test_isdtype_dtypes_and_tuples_and_errors():
    assert kd.isdtype(kd.int8, kd.int8) and not kd.isdtype(kd.int8, kd.int16)
    assert kd.isdtype(kd.float16, ("bool", kd.float16)) and not kd.isdtype(kd.uint8, ("bool", "real floating"))
    with pytest.raises(ValueError, match="unknown dtype kind"):
        kd.isdtype(kd.int8, "integer")
    with pytest.raises(TypeError):
        kd.isdtype("int8", "integral")


@pytest.mark.parametrize("name", ALL_DTYPES)
@pytest.mark.parametrize("kind", [*KINDS, "float32", "int8", ("bool", "int16"), ("complex floating", "uint8")])
def test_isdtype_takes_numpy_dtypes_like_np_isdtype(name, kind):
    # np.isdtype takes NumPy dtypes and scalar types, as dtype and as kind; kd.isdtype the same, and kd dtypes
    np_kind = tuple(np.dtype(k).type if k in ALL_DTYPES else k for k in kind) if isinstance(kind, tuple) else \
        (np.dtype(kind).type if kind in ALL_DTYPES else kind)
    want = np.isdtype(np.dtype(name), np_kind)
    assert kd.isdtype(np.dtype(name), np_kind) == want
    assert kd.isdtype(np.dtype(name).type, np_kind) == want
    assert kd.isdtype(getattr(kd, name), np_kind) == want


@pytest.mark.parametrize("bad", ["float32", 3, None, [kd.int8]])
def test_isdtype_refuses_what_numpy_refuses(bad):
    with pytest.raises(TypeError):
        np.isdtype(bad, "numeric")
    with pytest.raises(TypeError, match="isdtype takes a dtype"):
        kd.isdtype(bad, "numeric")


@pytest.mark.parametrize("a", ALL_DTYPES)
def test_result_type_and_can_cast_match_numpy(a):
    da = getattr(kd, a)
    x = kd.ones(1, dtype=da)
    for b in ALL_DTYPES:
        db = getattr(kd, b)
        assert kd.result_type(da, db).np == np.result_type(a, b), b
        assert kd.result_type(x, db, da).np == np.result_type(a, b), b
        assert kd.can_cast(da, db) == np.can_cast(a, b), b


def test_result_type_with_python_scalars_is_weak():
    assert kd.result_type(kd.int8, 1) is kd.int8
    assert kd.result_type(kd.float16, 1.0) is kd.float16
    assert kd.result_type(kd.int16, 1.0) is kd.float32  # kdsl's default float, where NumPy says float64
    assert kd.result_type(1, 2.0) is kd.float32
    with pytest.raises(ValueError):
        kd.result_type()


COMPLEX_AND_ALL = ALL_DTYPES + ["complex64", "complex128"]


@pytest.mark.parametrize("a", COMPLEX_AND_ALL)
@pytest.mark.parametrize("scalars", [(1, True), (True, 2, 3), (1, 2.0), (2.0, 1j), (1, 1, 1), (False, 0.5, 1)])
def test_result_type_with_several_python_scalars(a, scalars):
    # np.add takes two operands (a third is its out=), so more than one scalar crashed; NumPy's answer, except
    # kdsl's defaults (int32, float32, complex64) where only a Python scalar changes the kind of the array's dtype
    want = np.result_type(np.dtype(a), *scalars)
    got = kd.result_type(getattr(kd, a), *scalars)
    if want.kind != np.dtype(a).kind and np.dtype(a).kind in "biu" and want.kind in "ifc":
        assert got is {"i": kd.int32, "f": kd.float32, "c": kd.complex64}[want.kind]
    else:
        assert got.np == want
    assert kd.result_type(*scalars, kd.ones(2, dtype=getattr(kd, a))) is got
    assert kd.result_type(*scalars) is kd.result_type(*scalars[:2], *scalars[2:])


@pytest.mark.parametrize("a", COMPLEX_AND_ALL)
@pytest.mark.parametrize("shape", [(), (1,), (2, 3), (0,)])
def test_result_type_takes_numpy_arrays_and_scalars(a, shape):
    # NumPy arrays of any ndim (0-d included) and NumPy scalars are strong types, in kdsl as in NumPy 2
    host = np.ones(shape, a)
    for b in COMPLEX_AND_ALL:
        other = np.ones(3, b)
        want = np.result_type(host, other)
        assert kd.result_type(host, other).np == want, b
        assert kd.result_type(host, kd.asarray(other)).np == want, b
        assert kd.result_type(kd.asarray(host), getattr(kd, b)).np == want, b
        assert kd.result_type(host[()] if not shape else host, np.dtype(b).type(1)).np == want, b
    assert kd.result_type(host).np == host.dtype
    assert kd.can_cast(host, kd.float64) == np.can_cast(host, np.float64)


def test_result_type_numpy_array_with_python_scalars():
    assert kd.result_type(np.array(1.0), 1) is kd.float64
    assert kd.result_type(np.array(1, np.int8), 1) is kd.int8
    assert kd.result_type(np.array([1, 2], np.float16), 1.0) is kd.float16
    with pytest.raises(TypeError, match="not supported"):
        kd.result_type(np.array(["a"]))


def test_astype_function_and_copy():
    a = kd.asarray(np.array([1.7, -2.5, np.nan], np.float32))
    assert kd.astype(a, kd.float32, copy=False) is a
    c = kd.astype(a, "float32")
    assert c is not a and np.array_equal(c.numpy(), a.numpy(), equal_nan=True)
    assert kd.astype(a[:2], kd.int16).tolist() == [1, -2]
    assert kd.astype(a, kd.float64, copy=False).dtype is kd.float64
    with pytest.raises(TypeError, match="kd.asarray"):  # NumPy's astype takes its arrays (so does kdsl's), not lists
        kd.astype([1.0, 2.0], kd.float32)


@pytest.mark.parametrize("shapes", [[(3, 1), (4,)], [(), (2, 3)], [(0, 1), (1, 5)], [(1,)], [5, (3, 1)], []])
def test_broadcast_shapes(shapes):
    assert kd.broadcast_shapes(*shapes) == np.broadcast_shapes(*shapes)


def test_broadcast_shapes_error():
    with pytest.raises(ValueError, match="broadcast"):
        kd.broadcast_shapes((2,), (3,))


def test_namespace_and_version():
    x = kd.ones((2, 3))
    assert x.__array_namespace__() is kd and kd.__array_api_version__ == "2024.12"
    assert x.__array_namespace__(api_version="2023.12") is kd
    with pytest.raises(ValueError, match="2024.12"):
        x.__array_namespace__(api_version="2019.01")


def test_inspection_api():
    info = kd.__array_namespace_info__()
    caps = info.capabilities()
    assert caps["boolean indexing"] is True and caps["data-dependent shapes"] is True
    assert caps["max dimensions"] is None
    # what the capabilities promise works: a mask index and a data-dependent shape, against NumPy
    host = np.array([[3.0, -1.0, 2.0], [-0.0, 5.0, -1.0]], np.float32)
    a = kd.asarray(host)
    np.testing.assert_array_equal(np.asarray(a[a > 0]), host[host > 0])
    np.testing.assert_array_equal(np.asarray(kd.unique_values(a)), np.unique_values(host))
    deep = np.arange(2.0, dtype=np.float32).reshape((1,) * 39 + (2,))  # "max dimensions": None
    np.testing.assert_array_equal(np.asarray(kd.asarray(deep).T + 1), deep.T + 1)
    assert info.default_device() is kd.device() and kd.device() in info.devices()
    defaults = info.default_dtypes()
    assert defaults["real floating"] is kd.float32 and defaults["integral"] is kd.int32
    assert defaults["indexing"] is (kd.int64 if kd.device().supports(kd.int64) else kd.int32)
    everything = info.dtypes()
    assert all(kd.device().supports(d) for d in everything.values()) and everything["float32"] is kd.float32
    assert "float16" not in everything  # kdsl has it, the standard does not
    assert set(info.dtypes(kind="unsigned integer")) <= {"uint8", "uint16", "uint32", "uint64"}
    assert set(info.dtypes(kind=("bool", "real floating"))) <= {"bool", "float16", "float32", "float64"}


def test_array_attributes():
    x = kd.asarray(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    assert x.mT.shape == (2, 4, 3) and np.array_equal(x.mT.numpy(), np.swapaxes(x.numpy(), -1, -2))
    assert np.array_equal(kd.matrix_transpose(x[:, ::2]).numpy(), np.swapaxes(x.numpy()[:, ::2], -1, -2))
    with pytest.raises(ValueError, match="matrix transpose with ndim < 2 is undefined"):
        _ = x[0, 0].mT
    assert x.to_device(x.device) is x and x.device is kd.device()
    assert complex(x[1, 2, 3]) == 23 + 0j and complex(kd.asarray(True)) == 1 + 0j
    with pytest.raises(TypeError):
        complex(x)


def test_clip_standard_keywords():
    data = np.array([-3.0, -0.0, 0.5, np.nan, np.inf], np.float32)
    x = kd.asarray(data)
    assert np.array_equal(kd.clip(x, min=-1).numpy(), np.clip(data, min=-1), equal_nan=True)
    assert np.array_equal(kd.clip(x, max=0.25).numpy(), np.clip(data, max=0.25), equal_nan=True)
    assert np.array_equal(x.clip(min=-1, max=0.25).numpy(), np.clip(data, -1, 0.25), equal_nan=True)
    assert kd.clip(x) is not x  # NumPy 2: np.clip(a) with no bound is a new array
    older = x.clip(a_min=-1, a_max=0.25).numpy()  # NumPy's older names
    assert np.array_equal(kd.clip(x, -1, 0.25).numpy(), older, equal_nan=True)
    with pytest.raises(TypeError, match="a_max"):  # NumPy: TypeError, a_max is missing
        kd.clip(x, a_min=0, min=1)
    with pytest.raises(ValueError, match="forbidden"):  # NumPy: ValueError, both spellings
        kd.clip(x, 0, 1, min=1)
    with pytest.raises(ValueError, match="once"):  # the method: each bound once
        x.clip(a_min=0, min=1)


@pytest.mark.parametrize("correction", [0, 1, 2.5])
def test_var_std_correction(correction):
    data = np.random.default_rng(1).standard_normal((3, 5)).astype(np.float32)
    x = kd.asarray(data)
    np.testing.assert_allclose(kd.var(x, axis=1, correction=correction).numpy(),
                               np.var(data, axis=1, correction=correction), rtol=1e-5)
    np.testing.assert_allclose(x.T.std(correction=correction).numpy(), np.std(data, correction=correction),
                               rtol=1e-5)
    with pytest.raises(ValueError, match="correction"):
        kd.std(x, ddof=1, correction=1)


@pytest.mark.parametrize("fn", ["zeros", "ones", "empty"])
def test_creation_without_dtype_is_float32(fn):
    assert getattr(kd, fn)(3).dtype is kd.float32
    assert getattr(kd, fn)((2, 0), None).dtype is kd.float32
    assert getattr(kd, fn)((2,), dtype=None).dtype is kd.float32
    assert kd.eye(2, dtype=None).dtype is kd.float32 and kd.identity(2).dtype is kd.float32


def test_standard_spellings_are_the_numpy_functions():
    assert kd.acos is kd.arccos and kd.atan2 is kd.arctan2 and kd.bitwise_invert is kd.invert
    assert kd.pow is kd.power and kd.bitwise_left_shift is kd.left_shift
    a = kd.ones((2, 3))
    assert kd.concat([a, a], axis=None).shape == (12,) and kd.permute_dims(a, (1, 0)).shape == (3, 2)


def test_asarray_copy():
    a = kd.arange(6)
    assert kd.asarray(a, copy=False) is a and kd.asarray(a, copy=None) is a
    b = kd.asarray(a, copy=True)
    assert b is not a and b.tolist() == a.tolist()
    assert kd.asarray([1.5], copy=True).tolist() == [1.5]
    for bad in ([1, 2], np.ones(2)):
        with pytest.raises(ValueError, match="copy=False"):
            kd.asarray(bad, copy=False)
    with pytest.raises(ValueError, match="copy=False"):
        kd.asarray(a, dtype=kd.float32, copy=False)


@pytest.mark.parametrize("dtype", ["int32", "float32", "bool", "uint8"])
@pytest.mark.parametrize("view", ["plain", "strided", "transposed", "lazy"])
def test_asarray_of_an_array_with_its_dtype_is_the_array(dtype, view):
    host = np.arange(12).reshape(3, 4).astype(dtype)
    a = {"plain": lambda x: x, "strided": lambda x: x[:, ::2], "transposed": lambda x: x.T,
         "lazy": lambda x: x + x}[view](kd.asarray(host))
    for spelling in (None, a.dtype, dtype, np.dtype(dtype), a.dtype.np):
        assert kd.asarray(a, dtype=spelling) is a, spelling  # as np.asarray(x, dtype=x.dtype) is x
        assert kd.asarray(a, dtype=spelling, copy=False) is a, spelling
        b = kd.asarray(a, dtype=spelling, copy=True)
        assert b is not a and b.dtype is a.dtype and np.array_equal(b.numpy(), a.numpy())
    other = "float64" if dtype != "float64" else "float32"
    c = kd.asarray(a, dtype=other)
    assert c is not a and c.dtype.name == other and np.array_equal(c.numpy(), a.numpy().astype(other))
    with pytest.raises(ValueError, match="copy=False"):
        kd.asarray(a, dtype=other, copy=False)


def test_asarray_same_array_keeps_view_semantics():
    a = kd.zeros((2, 3))
    row = a[1]
    kd.asarray(row, dtype=kd.float32)[0] = 5  # the same view, so the write reaches a (as with NumPy)
    h = np.zeros((2, 3), np.float32)
    np.asarray(h[1], dtype=np.float32)[0] = 5
    np.testing.assert_array_equal(a.numpy(), h)


def test_reshape_copy():
    a = kd.asarray(np.arange(6, dtype=np.int16).reshape(2, 3))
    assert kd.reshape(a, (3, 2), copy=False).tolist() == [[0, 1], [2, 3], [4, 5]]
    assert kd.reshape(a.T, (6,), copy=True).tolist() == np.arange(6).reshape(2, 3).T.ravel().tolist()
    with pytest.raises(ValueError, match="without a copy"):
        kd.reshape(a.T, (6,), copy=False)


@pytest.mark.parametrize("fn", ["zeros_like", "ones_like", "empty_like"])
def test_like_functions_take_device(fn):
    a = kd.ones((2, 3), dtype=kd.int8)
    out = getattr(kd, fn)(a, device=kd.device())
    assert out.shape == (2, 3) and out.dtype is kd.int8 and out.device is kd.device()
    assert kd.full_like(a, 7, device=kd.device()).tolist() == [[7] * 3] * 2


@pytest.mark.parametrize("other", [None, {"a": 1}, {"names": ["a", "b"], "formats": ["f4"]}, "no such dtype", 3.5])
def test_dtype_equality_with_anything_else_is_false(other):
    assert (kd.float64 == other) is False and (kd.float32 != other) is True
