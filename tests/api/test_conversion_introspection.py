"""Conversion and introspection against NumPy: ``copy ascontiguousarray asanyarray asarray_chkfinite copyto
ndim shape size isscalar array_equiv issubdtype promote_types`` (and ``np.shape/ndim/size/copyto`` dispatching
to them)."""

import numpy as np
import pytest
from api_testing import ALL_DTYPES, LAYOUTS, layout_data, numpy_kdsl_allclose, sample

import kdsl as kd

SHAPES = [(), (0,), (1,), (2, 3), (3, 1, 2)]


# ----- copy, ascontiguousarray, asanyarray

@numpy_kdsl_allclose()
@pytest.mark.parametrize("fn", ["copy", "ascontiguousarray", "asanyarray"])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", ["float32", "int8", "bool"])
def test_values(xp, fn, shape, dtype):
    return getattr(xp, fn)(layout_data(xp, shape, dtype))


@numpy_kdsl_allclose(rtol=0)  # a copy is exact
@pytest.mark.parametrize("fn", ["copy", "ascontiguousarray", "asanyarray"])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_complex_values(xp, fn, shape, layout):
    if layout != "plain" and len(shape) < 2:
        layout = "plain"
    return getattr(xp, fn)(layout_data(xp, shape, "complex128", layout))


@numpy_kdsl_allclose()
@pytest.mark.parametrize("fn", ["copy", "ascontiguousarray", "asanyarray", "asarray_chkfinite"])
@pytest.mark.parametrize("layout", ["strided", "transposed"])
def test_views(xp, fn, layout):
    return getattr(xp, fn)(layout_data(xp, (3, 4), "int32", layout))


@numpy_kdsl_allclose()
@pytest.mark.parametrize("fn", ["copy", "ascontiguousarray", "asanyarray", "asarray_chkfinite"])
def test_host_data(xp, fn):
    return getattr(xp, fn)(sample((2, 3), "float64", special=False))


@numpy_kdsl_allclose()
@pytest.mark.parametrize("fn", ["ascontiguousarray", "asanyarray", "asarray_chkfinite"])
@pytest.mark.parametrize("dtype", ["float64", "int16", "uint8"])
def test_dtype_argument(xp, fn, dtype):
    return getattr(xp, fn)(layout_data(xp, (2, 3), "float32", "strided"), dtype=dtype)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_copy_is_independent(layout):
    a = layout_data(kd, (2, 3), "int32", layout)
    before = a.numpy().copy()
    for b in (kd.copy(a), kd.copy(a, order="F"), np.copy(a)):
        assert isinstance(b, kd.Array)
        b[0] = 7
        np.testing.assert_array_equal(a.numpy(), before)
        assert (b.numpy()[0] == 7).all()


def test_ascontiguousarray_copies_only_views():
    a = kd.asarray(sample((3, 4), "float32"))
    assert kd.ascontiguousarray(a) is a and kd.asanyarray(a) is a
    assert kd.asanyarray(a, dtype=kd.float32) is a
    t = kd.ascontiguousarray(a.T)
    assert t is not a and not kd.may_share_memory(t, a)
    np.testing.assert_array_equal(t.numpy(), a.numpy().T)
    assert kd.ascontiguousarray(kd.asarray(np.float32(2))).shape == np.ascontiguousarray(np.float32(2)).shape


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64"])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_asarray_chkfinite_raises(dtype, bad, layout):
    host = sample((3, 4), dtype, special=False)
    host[2, 1] = bad
    with pytest.raises(ValueError):
        np.asarray_chkfinite(host)
    x = kd.asarray(host)
    x = {"plain": x, "strided": kd.asarray(np.repeat(host, 2, axis=-1))[..., ::2],
         "transposed": kd.asarray(np.ascontiguousarray(host.T)).T.T}[layout]
    with pytest.raises(ValueError, match="infs or NaNs"):
        kd.asarray_chkfinite(x)
    with pytest.raises(ValueError, match="infs or NaNs"):
        np.asarray_chkfinite(x)  # dispatches to kdsl


@pytest.mark.parametrize("dtype", ["int32", "bool", "uint8", "float32"])
def test_asarray_chkfinite_passes(dtype):
    host = sample((2, 5), dtype, special=False)
    got = kd.asarray_chkfinite(host)
    np.testing.assert_array_equal(got.numpy(), np.asarray_chkfinite(host))
    assert kd.asarray_chkfinite(kd.zeros((0, 3))).shape == (0, 3)


@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")
def test_asarray_chkfinite_converts_before_checking():
    with pytest.raises(ValueError):
        kd.asarray_chkfinite([1.0, 1e300], dtype=kd.float32)  # inf once it is float32 (NumPy agrees)
    with pytest.raises(ValueError):
        np.asarray_chkfinite([1.0, 1e300], dtype=np.float32)


# ----- copyto

def _copyto_both(dst_shape, dst_dtype, src, layout="plain", **kw):
    host = sample(dst_shape, dst_dtype, special=False)
    n, k = host.copy(), layout_data(kd, dst_shape, dst_dtype, layout) if layout != "plain" else kd.asarray(host)
    if layout != "plain":
        n = k.numpy().copy()
    src_np = src.numpy() if isinstance(src, kd.Array) else src
    kw_np = {key: (v.numpy() if isinstance(v, kd.Array) else v) for key, v in kw.items()}
    np.copyto(n, src_np, **kw_np)
    assert kd.copyto(k, src, **kw) is None
    assert k.dtype == n.dtype
    np.testing.assert_array_equal(k.numpy(), n)


@pytest.mark.parametrize("src_shape", [(2, 3), (3,), (1, 3), (), (2, 1)])
@pytest.mark.parametrize("src_dtype", ["float32", "int16", "bool"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_copyto_broadcast_and_cast(src_shape, src_dtype, layout):
    src = kd.asarray(sample(src_shape, src_dtype, seed=3, special=False))
    _copyto_both((2, 3), "float64", src, layout)


@pytest.mark.parametrize("value", [7, -2.5, True])
def test_copyto_python_scalars(value):
    _copyto_both((2, 3), "float32", value)


@pytest.mark.parametrize("where", [True, False, [True, False, True], [[1, 0, 0], [0, 1, 1]]], ids=repr)
def test_copyto_where(where):
    _copyto_both((2, 3), "int32", kd.asarray(sample((2, 3), "int32", seed=5)), where=where)


def test_copyto_where_kdsl_mask_and_view_writes_through():
    a = kd.asarray(np.arange(12, dtype=np.int32).reshape(3, 4))
    n = np.arange(12, dtype=np.int32).reshape(3, 4)
    kd.copyto(a[::2, 1:], kd.asarray([-1, -2, -3], dtype=kd.int32), where=a[::2, 1:] > 5)
    np.copyto(n[::2, 1:], np.array([-1, -2, -3], np.int32), where=n[::2, 1:] > 5)
    np.testing.assert_array_equal(a.numpy(), n)


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@pytest.mark.parametrize("src_dtype,dst_dtype", [("int16", "int32"), ("float64", "float32"), ("float32", "int32"),
                                                 ("int32", "int32"), ("uint8", "int8"), ("bool", "float16")])
def test_copyto_casting(casting, src_dtype, dst_dtype):
    src = sample((4,), src_dtype, special=False, low=0, high=50)
    ok = np.can_cast(src.dtype, np.dtype(dst_dtype), casting)
    if ok:
        _copyto_both((4,), dst_dtype, kd.asarray(src), casting=casting)
    else:
        with pytest.raises(TypeError):
            kd.copyto(kd.zeros(4, dtype=dst_dtype), kd.asarray(src), casting=casting)


@pytest.mark.parametrize("dst,src,kw,exc", [
    ("uint8", 1.5, {}, TypeError), ("uint8", -1, {}, OverflowError), ("int8", 300, {}, OverflowError),
    ("float32", np.ones((2, 3)), {}, ValueError), ("float32", np.ones(4), {}, ValueError),
    ("float32", 1.0, {"casting": "nonsense"}, ValueError)], ids=repr)
def test_copyto_errors(dst, src, kw, exc):
    with pytest.raises(exc):
        np.copyto(np.zeros(3, dtype=dst), src, **kw)
    with pytest.raises(exc):
        kd.copyto(kd.zeros(3, dtype=dst), src, **kw)


def test_copyto_refuses_host_destination_and_int_mask():
    with pytest.raises(TypeError, match="kdsl Array"):
        kd.copyto(np.zeros(3), kd.ones(3))
    with pytest.raises(TypeError, match=r"to dtype\(.bool.\) according to the rule .safe."):
        kd.copyto(kd.zeros(3), kd.ones(3), where=kd.asarray([1, 0, 1]))


def test_np_copyto_dispatches():
    a = kd.zeros((2, 2), dtype=kd.int32)
    np.copyto(a, kd.asarray([3, 4], dtype=kd.int32), where=kd.asarray([True, False]))
    assert a.tolist() == [[3, 0], [3, 0]]


# ----- ndim, shape, size, isscalar

@pytest.mark.parametrize("shape", SHAPES + [(2, 0, 4)])
@pytest.mark.parametrize("layout", ["plain", "transposed"])
def test_ndim_shape_size(shape, layout):
    n = sample(shape, "float32")
    k = kd.asarray(n) if layout == "plain" or len(shape) < 2 else layout_data(kd, shape, "float32", layout)
    n = k.numpy()
    for mod in (kd, np):  # np.* dispatches to kd.*
        assert mod.ndim(k) == np.ndim(n) and mod.shape(k) == np.shape(n) and mod.size(k) == np.size(n)
    for axis in [*range(-len(shape), len(shape)), tuple(range(len(shape)))]:
        assert kd.size(k, axis) == np.size(n, axis) == np.size(k, axis)


@pytest.mark.parametrize("x", [[1, 2, 3], [[1.0], [2.0]], 5, 2.5, (), np.zeros((2, 0))], ids=repr)
def test_ndim_shape_size_host(x):
    assert (kd.ndim(x), kd.shape(x), kd.size(x)) == (np.ndim(x), np.shape(x), np.size(x))


@pytest.mark.parametrize("axis", [2, -3, (0, 0)])
def test_size_bad_axis(axis):
    with pytest.raises((np.exceptions.AxisError, ValueError)):
        np.size(np.zeros((2, 3)), axis)
    with pytest.raises((np.exceptions.AxisError, ValueError)):
        kd.size(kd.zeros((2, 3)), axis)


@pytest.mark.parametrize("x", [3, 2.5, 1j, True, np.float32(1), np.int8(2), "s", b"b", None, [1], (1,),
                               np.zeros(()), np.zeros(2), object()],
                         ids=lambda x: type(x).__name__ if type(x) is object else repr(x))  # (stable ids for xdist)
def test_isscalar_host(x):
    assert kd.isscalar(x) == np.isscalar(x)


@pytest.mark.parametrize("shape", [(), (1,), (2, 2)])
def test_isscalar_array(shape):
    assert kd.isscalar(kd.zeros(shape)) is False  # NumPy: arrays (0-d too) are not scalars
    assert np.isscalar(np.zeros(shape)) is False


# ----- array_equiv

@pytest.mark.parametrize("a,b", [
    ([1, 2], [1, 2]), ([1, 2], [[1, 2], [1, 2]]), ([1, 2], [[1, 2], [1, 3]]), ([1, 2], [1, 2, 3]),
    ([[1], [2]], [[1, 1], [2, 2]]), (3, [3, 3]), ([], []), ([], [[]]), ([np.nan], [np.nan]), ([0.0], [-0.0]),
    ([1, 2], [1.0, 2.0]), ([[1, 2]], [[1], [2]])], ids=repr)
def test_array_equiv(a, b):
    expected = np.array_equiv(a, b)
    got = kd.array_equiv(np.asarray(a), np.asarray(b))
    assert isinstance(got, kd.Array) and got.shape == () and got.dtype == kd.bool
    assert bool(got) == expected
    assert bool(np.array_equiv(kd.asarray(np.asarray(a)), np.asarray(b))) == expected


@pytest.mark.parametrize("layout", LAYOUTS)
def test_array_equiv_views(layout):
    x = layout_data(kd, (2, 3), "int16", layout)
    assert bool(kd.array_equiv(x, x.numpy())) and bool(kd.array_equiv(x[0:1], x.numpy()[0]))
    assert not bool(kd.array_equiv(x, x.numpy() + 1))


# ----- issubdtype, promote_types

ABSTRACT = [np.generic, np.number, np.integer, np.signedinteger, np.unsignedinteger, np.inexact, np.floating,
            np.complexfloating, np.bool_]


@pytest.mark.parametrize("name", ALL_DTYPES + ["complex64", "complex128"])
@pytest.mark.parametrize("other", ABSTRACT + ["float32", "int64", float, int])
def test_issubdtype(name, other):
    other_kd = getattr(kd, other) if isinstance(other, str) else other
    assert kd.issubdtype(getattr(kd, name if name != "bool" else "bool_"), other_kd) == \
        np.issubdtype(np.dtype(name), other)
    assert kd.issubdtype(np.dtype(name), other) == np.issubdtype(np.dtype(name), other)


NAMES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
         "float64", "complex64", "complex128"]


@pytest.mark.parametrize("abstract", ["generic", "number", "integer", "signedinteger", "unsignedinteger",
                                      "inexact", "floating", "complexfloating"])
@pytest.mark.parametrize("name", ["bool_", "int8", "uint32", "float16", "float64", "complex64"])
def test_issubdtype_kdsl_abstract_names(abstract, name):
    assert kd.issubdtype(getattr(kd, name), getattr(kd, abstract)) == \
        np.issubdtype(getattr(np, name), getattr(np, abstract))


@pytest.mark.parametrize("a", NAMES)
@pytest.mark.parametrize("b", NAMES)
def test_promote_types(a, b):
    got = kd.promote_types(kd.dtype.as_dtype(a), b)
    assert isinstance(got, kd.DType)
    assert got.np == np.promote_types(a, b)


def test_promote_types_errors():
    with pytest.raises(TypeError):
        kd.promote_types(kd.float32, "S3")
