"""NumPy's remaining module-level names on kd: ufunc, flatiter, broadcast, nditer, True_/False_, ScalarType,
typecodes, sctypeDict, little_endian, format_float_*, the non-numeric scalar types and isnat, against NumPy."""

import sys

import numpy as np
import pytest

import kdsl as kd

VIEWS = {"owner": lambda x: x, "T": lambda x: x.T, "reversed": lambda x: x[::-1], "cols": lambda x: x[:, ::-2],
         "permuted": lambda x: x.reshape(3, 2).T[::-1], "empty": lambda x: x[:0]}


@pytest.mark.parametrize("name", ["add", "subtract", "sin", "sqrt", "maximum", "isnan", "logical_and", "divmod",
                                  "matmul", "arctan2", "bitwise_count", "ldexp"])
def test_ufunc_type(name):
    assert isinstance(getattr(kd, name), kd.ufunc) == isinstance(getattr(np, name), np.ufunc)
    assert not isinstance(kd.sum, kd.ufunc) and not isinstance(kd.where, kd.ufunc)


def test_flatiter_type():
    assert type(kd.arange(4).flat) is kd.flatiter
    assert isinstance(kd.zeros((2, 2)).T.flat, kd.flatiter)


@pytest.mark.parametrize("shapes", [[(3,), (2, 1)], [(4, 1, 3), (5, 1), ()], [(0, 3), (3,)], [(2, 3)], [()]])
def test_broadcast_matches_numpy(shapes):
    hosts = [np.arange(int(np.prod(s))).reshape(s) * (i + 1) for i, s in enumerate(shapes)]
    got = kd.broadcast(*[kd.asarray(h) for h in hosts])
    want = np.broadcast(*hosts)
    assert (got.shape, got.nd, got.ndim, got.size, got.numiter, got.index) == \
        (want.shape, want.nd, want.ndim, want.size, want.numiter, want.index)
    assert [tuple(map(int, t)) for t in got] == [tuple(map(int, t)) for t in want]
    assert got.index == want.index
    got.reset()
    assert got.index == 0
    assert len(got.iters) == len(shapes)


def test_broadcast_mixed_operands_and_errors():
    got = kd.broadcast(kd.arange(3), 5, [[1], [2]])
    want = np.broadcast(np.arange(3), 5, [[1], [2]])
    assert got.shape == want.shape and [tuple(map(int, t)) for t in got] == [tuple(map(int, t)) for t in want]
    with pytest.raises(ValueError, match="shape mismatch"):
        kd.broadcast(kd.arange(3), kd.arange(4))
    assert kd.broadcast(kd.broadcast(kd.arange(3), kd.zeros((2, 1))), kd.arange(3)).shape == (2, 3)


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("order", ["K", "C", "F"])
def test_nditer_one_operand(view, order):
    host = np.arange(6).reshape(2, 3).copy()
    a = kd.asarray(host)
    h, k = VIEWS[view](host), VIEWS[view](a)
    if h.size == 0:  # NumPy refuses an empty operand without the zerosize_ok flag
        with pytest.raises(ValueError):
            np.nditer(h)
        with pytest.raises(ValueError):
            kd.nditer(k)
        assert list(kd.nditer(k, flags=["zerosize_ok"])) == []
        return
    assert [int(x) for x in kd.nditer(k, order=order)] == [int(x) for x in np.nditer(h, order=order)]


@pytest.mark.parametrize("flags", [["multi_index"], ["c_index"], ["f_index"]])
def test_nditer_indices(flags):
    host = np.arange(6.0).reshape(2, 3)
    got, want = kd.nditer(kd.asarray(host).T, flags=flags), np.nditer(host.T, flags=flags)
    attr = "multi_index" if flags == ["multi_index"] else "index"
    seen, expected = [], []
    while not got.finished:
        seen.append((float(got[0]), getattr(got, attr)))
        got.iternext()
    while not want.finished:
        expected.append((float(want[0]), getattr(want, attr)))
        want.iternext()
    assert seen == expected


def test_nditer_several_operands_and_context():
    a, b = np.arange(6).reshape(2, 3), np.array([10, 20, 30])
    with kd.nditer([kd.asarray(a), kd.asarray(b)]) as it:
        got = [(int(x), int(y)) for x, y in it]
    assert got == [(int(x), int(y)) for x, y in np.nditer([a, b])]
    it = kd.nditer([kd.asarray(a), kd.asarray(b)], flags=["external_loop"], order="C")
    for got_chunk, want_chunk in zip(it, np.nditer([a, b], flags=["external_loop"], order="C"), strict=True):
        np.testing.assert_array_equal(got_chunk[0], want_chunk[0])
    assert kd.nditer(kd.asarray(a)).itersize == np.nditer(a).itersize


@pytest.mark.parametrize("view", ["owner", "T", "reversed", "cols"])
@pytest.mark.parametrize("context", [True, False])
def test_nditer_writes_back(view, context):
    host = np.arange(6).reshape(2, 3).copy()
    a = kd.asarray(host)
    h, k = VIEWS[view](host), VIEWS[view](a)
    for target, make in ((h, np.nditer), (k, kd.nditer)):
        it = make(target, op_flags=["readwrite"])
        if context:
            with it:
                for x in it:
                    x[...] = 3 * x + 1
        else:
            for x in it:
                x[...] = 3 * x + 1
    np.testing.assert_array_equal(a.numpy(), host)


def test_nditer_allocates_and_casts():
    def square(mod, a):
        with mod.nditer([a, None]) as it:
            for x, y in it:
                y[...] = x * x
            return it.operands[1]

    host = np.arange(5.0)
    got = square(kd, kd.asarray(host))
    assert isinstance(got, kd.Array)
    np.testing.assert_array_equal(got.numpy(), square(np, host))
    a, h = kd.asarray(np.arange(4.0)), np.arange(4.0)
    for target, make in ((h, np.nditer), (a, kd.nditer)):
        with make(target, op_flags=["readwrite"], flags=["buffered"], op_dtypes=["float32"],
                  casting="same_kind") as it:
            for x in it:
                x[...] = x * 2.5
    np.testing.assert_array_equal(a.numpy(), h)
    a, h = kd.asarray(np.arange(4.0)), np.arange(4.0)
    for target, make in ((h, np.nditer), (a, kd.nditer)):
        it = make(target, op_flags=["writeonly"], flags=["c_index"])
        while not it.finished:
            it[0] = 7.0 * it.index
            it.iternext()
    np.testing.assert_array_equal(a.numpy(), h)


def test_constants():
    assert kd.True_ is np.True_ and kd.False_ is np.False_ and bool(kd.True_) and not kd.False_
    assert kd.ScalarType == np.ScalarType and isinstance(np.float32(1), kd.ScalarType)
    assert kd.typecodes == np.typecodes and kd.typecodes is not np.typecodes
    assert kd.sctypeDict == np.sctypeDict
    assert kd.little_endian == np.little_endian == (sys.byteorder == "little")
    with pytest.raises(kd.exceptions.AxisError):
        kd.sort(kd.zeros(3), axis=2)


@pytest.mark.filterwarnings("ignore:overflow")
@pytest.mark.parametrize("value", [0.1, -0.0, 1e-20, 123456.789, float("inf"), float("nan")])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("kwargs", [{}, {"precision": 3}, {"unique": False, "precision": 5}, {"sign": True}])
def test_format_float(value, dtype, kwargs):
    host = np.array(value, dtype=dtype)
    k = kd.asarray(host)
    assert kd.format_float_positional(k, **kwargs) == np.format_float_positional(host[()], **kwargs)
    assert kd.format_float_scientific(k, **kwargs) == np.format_float_scientific(host[()], **kwargs)
    assert kd.format_float_positional(float(value)) == np.format_float_positional(float(value))


def test_format_float_refuses_arrays():
    with pytest.raises(TypeError, match="single value"):
        kd.format_float_positional(kd.zeros(3))


@pytest.mark.parametrize(("name", "hint"), [("object_", "numbers"), ("str_", "strings"), ("bytes_", "uint8"),
                                            ("void", "field"), ("datetime64", "int64 counts"),
                                            ("timedelta64", "int64 counts"), ("longdouble", "float64"),
                                            ("clongdouble", "complex128")])
def test_unsupported_scalar_types(name, hint):
    t = getattr(kd, name)
    assert t is getattr(np, name)
    with pytest.raises(TypeError, match=hint):
        kd.zeros(2, dtype=t)
    with pytest.raises(TypeError, match=hint):
        kd.asarray(np.zeros(2, dtype=t))
    assert not kd.issubdtype(kd.float32, t)


def test_abstract_types_and_isnat():
    assert kd.issubdtype(np.str_, kd.character) and kd.issubdtype(np.void, kd.flexible)
    dates = np.array(["NaT", "2020-01-01"], dtype="datetime64[D]")
    np.testing.assert_array_equal(kd.isnat(dates), np.isnat(dates))
    with pytest.raises(TypeError, match="isnat"):
        kd.isnat(kd.zeros(2))
    with pytest.raises(TypeError):
        np.isnat(np.zeros(2))
    with pytest.raises(TypeError, match="datetime"):
        kd.asarray(dates)


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("value", [[1, 2], [7], list(range(6)), list(range(9)), "gen", "kd", 3.5, []])
def test_assign_flat(view, value):
    """a.flat = v writes v's elements in C order, repeated as needed (np.broadcast's docstring: out.flat = ...)."""
    host = np.arange(6, dtype=np.float32).reshape(2, 3)
    a = kd.asarray(host)
    hv, kv = VIEWS[view](host), VIEWS[view](a)
    if value == "gen":  # NumPy takes no generator here
        with pytest.raises(TypeError):
            hv.flat = (x * 2 for x in range(4))
        with pytest.raises(TypeError):
            kv.flat = (x * 2 for x in range(4))
    elif value == "kd":
        hv.flat, kv.flat = np.arange(3.0), kd.arange(3.0)
    else:
        hv.flat, kv.flat = value, value
    np.testing.assert_array_equal(kv.numpy(), hv)
    np.testing.assert_array_equal(a.numpy(), host)


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("key", [0, -1, slice(1, 4), [0, 2], slice(None)])
def test_flat_setitem_reaches_the_array(view, key):
    host = np.arange(6, dtype=np.int32).reshape(2, 3)
    a = kd.asarray(host)
    hv, kv = VIEWS[view](host), VIEWS[view](a)
    if hv.size == 0 and key != slice(None) and not isinstance(key, slice):
        with pytest.raises(IndexError):
            hv.flat[key] = 9
        with pytest.raises(IndexError):
            kv.flat[key] = 9
        return
    hv.flat[key] = 9
    kv.flat[key] = 9
    np.testing.assert_array_equal(kv.numpy(), hv)
    np.testing.assert_array_equal(a.numpy(), host)
