"""Joining, splitting, tiling, padding, meshgrid and diff against NumPy (empty, size-1 and strided inputs)."""

import numpy as np
import pytest
from api_testing import layout_data, numpy_kdsl_allclose, sample

import kdsl as kd


def _data(xp, shape, dtype="float32", strided=False, seed=0):
    return layout_data(xp, shape, dtype, "strided" if strided else "plain", seed)


SHAPES = [(0, 3), (1, 1), (2, 5), (3, 4, 2)]


@numpy_kdsl_allclose()
@pytest.mark.parametrize("fn", ["vstack", "hstack", "dstack", "column_stack"])
@pytest.mark.parametrize("shape", [(3,), (1, 1), (2, 5), (2, 3, 2)])
@pytest.mark.parametrize("strided", [False, True])
def test_stacks(xp, fn, shape, strided):
    a = _data(xp, shape, strided=strided)
    b = _data(xp, shape, "int16", seed=1)
    return getattr(xp, fn)([a, b, a])


@numpy_kdsl_allclose()
@pytest.mark.parametrize("fn", ["atleast_1d", "atleast_2d", "atleast_3d"])
def test_atleast(xp, fn):
    f32 = xp.float32
    one = getattr(xp, fn)(xp.asarray(np.float32(2.0)))
    many = getattr(xp, fn)(xp.asarray(np.float32(2.0)), xp.ones(3, dtype=f32), xp.ones((2, 3), dtype=f32),
                           xp.ones((1, 2, 3, 1), dtype=f32))
    return [one, *many]


@numpy_kdsl_allclose()
@pytest.mark.parametrize("fn,arg,axis", [("split", 2, 1), ("split", [1, -1, 9], 0), ("array_split", 3, -1),
                                         ("array_split", [0, 0, 2], 1), ("array_split", 4, 0)])
@pytest.mark.parametrize("strided", [False, True])
def test_splits(xp, fn, arg, axis, strided):
    return list(getattr(xp, fn)(_data(xp, (3, 4, 5), strided=strided), arg, axis=axis))


@numpy_kdsl_allclose()
def test_h_v_dsplit(xp):
    a = _data(xp, (4, 6, 2))
    return [*xp.hsplit(a, 3), *xp.vsplit(a, [1]), *xp.dsplit(a, 2), *xp.hsplit(a[0, :, 0], 2)]


@pytest.mark.parametrize("fn,args", [("split", (kd.ones(5), 2)), ("vsplit", (kd.ones(4), 2)),
                                     ("dsplit", (kd.ones((2, 2)), 2)), ("array_split", (kd.ones(3), 0))])
def test_split_errors(fn, args):
    with pytest.raises(ValueError):
        getattr(kd, fn)(*args)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_unstack(axis):
    a = sample((2, 3, 4), "int32")
    got = kd.unstack(kd.asarray(a), axis=axis)
    assert isinstance(got, tuple)
    expected = [np.take(a, i, axis=axis) for i in range(a.shape[axis])]
    assert len(got) == len(expected)
    assert all(np.array_equal(g.numpy(), e) for g, e in zip(got, expected, strict=True))
    with pytest.raises(ValueError):
        kd.unstack(kd.asarray(1.0))


@numpy_kdsl_allclose()
@pytest.mark.parametrize("reps", [2, (2, 1), (1, 3, 2), (0, 2), (2, 1, 1, 2)])
@pytest.mark.parametrize("shape", [(3,), (2, 3), (0, 2)])
@pytest.mark.parametrize("strided", [False, True])
def test_tile(xp, reps, shape, strided):
    return xp.tile(_data(xp, shape, "int8", strided=strided), reps)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("repeats,axis", [(2, None), (3, 0), (0, 1), ([1, 0, 2], 1), ([2, 2, 1], -1),
                                          (np.array([1, 3]), 0)])
@pytest.mark.parametrize("strided", [False, True])
def test_repeat(xp, repeats, axis, strided):
    a = _data(xp, (2, 3), "float32", strided=strided)
    return xp.repeat(a, repeats, axis=axis)


def test_repeat_errors():
    with pytest.raises(ValueError, match="counts"):
        kd.repeat(kd.ones(3), [1, 2])
    with pytest.raises(ValueError, match="non-negative"):
        kd.repeat(kd.ones(3), -1)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("shift,axis", [(2, None), (-7, None), (1, 0), (5, -1), ((1, -2), (0, 1)),
                                        (3, (0, 0)), (0, 1), (1, ()), ((), 0), ((), ())])  # (no axis: as given)
@pytest.mark.parametrize("shape", [(3, 4), (1, 5), (0, 3)])
def test_roll(xp, shift, axis, shape):
    return xp.roll(_data(xp, shape, "int32", strided=True), shift, axis=axis)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap"])
@pytest.mark.parametrize("width", [2, (1, 3), ((0, 1), (4, 7)), ((9, 0), (0, 0))])
@pytest.mark.parametrize("shape", [(3, 4), (1, 2), (2, 1)])
def test_pad(xp, mode, width, shape):
    return xp.pad(_data(xp, shape, "float32", strided=True), width, mode=mode)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("values", [0, -1.5, (1, 2), ((1, 2), (3, 4))])
@pytest.mark.parametrize("dtype", ["float32", "int16", "uint8"])
def test_pad_constant_values(xp, values, dtype):
    return xp.pad(_data(xp, (2, 3), dtype), ((1, 1), (2, 0)), constant_values=values)


_PAD_INPUTS = {"int_row": ((5,), "int32", False), "float_grid": ((3, 4), "float32", True),
               "int16_grid": ((2, 3), "int16", True), "single": ((1, 3), "float64", False),
               "cube": ((2, 3, 2), "float32", True)}


@numpy_kdsl_allclose()
@pytest.mark.parametrize("mode", ["maximum", "minimum", "mean", "median"])
@pytest.mark.parametrize("width,stat_length", [(2, None), ((1, 3), 2), (3, (1, 2)), (((0, 1),), ((2, 1),)),
                                               (4, 100)])
@pytest.mark.parametrize("data", _PAD_INPUTS)
def test_pad_statistic_modes(xp, mode, width, stat_length, data):
    """np.pad(a, 2, 'mean') and friends (NumPy's docstring examples): rounded half to even into integers."""
    shape, dtype, strided = _PAD_INPUTS[data]
    return xp.pad(_data(xp, shape, dtype, strided=strided), width, mode, stat_length=stat_length)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("width,end_values", [((2, 3), (5, -4)), (3, 0), (1, 2.5), (((1, 2),), ((7, -7),))])
@pytest.mark.parametrize("data", _PAD_INPUTS)
def test_pad_linear_ramp(xp, width, end_values, data):
    shape, dtype, strided = _PAD_INPUTS[data]
    return xp.pad(_data(xp, shape, dtype, strided=strided), width, "linear_ramp", end_values=end_values)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
@pytest.mark.parametrize("width", [1, (2, 3), 5, (0, 9), (17, 2)])
@pytest.mark.parametrize("data", _PAD_INPUTS)
def test_pad_odd_reflection(xp, mode, width, data):
    """reflect_type='odd' (2 * edge - mirror), chunk by chunk as NumPy's for pads wider than the axis."""
    shape, dtype, strided = _PAD_INPUTS[data]
    return xp.pad(_data(xp, shape, dtype, strided=strided), width, mode, reflect_type="odd")


@numpy_kdsl_allclose()
@pytest.mark.parametrize("width", [{1: (1, 2)}, {-1: 2}, {0: (3, 0)}, {0: (3, 0), 1: 2}, {}])
@pytest.mark.parametrize("mode", ["constant", "edge", "mean"])
def test_pad_dict_widths(xp, width, mode):
    return xp.pad(_data(xp, (2, 3), "int32", strided=True), width, mode)


def _pad_with(vector, pad_width, iaxis, kwargs):
    value = kwargs.get("padder", 10)
    vector[:pad_width[0]] = value
    vector[-pad_width[1]:] = value


@numpy_kdsl_allclose()
@pytest.mark.parametrize("width", [2, ((1, 2), (0, 1))])
@pytest.mark.parametrize("kwargs", [{}, {"padder": 100}])
def test_pad_callable_mode(xp, width, kwargs):
    return xp.pad(_data(xp, (2, 3), "int32"), width, _pad_with, **kwargs)


@numpy_kdsl_allclose()
def test_pad_empty_and_empty_arrays(xp):
    f32 = xp.float32
    return xp.pad(xp.ones((0, 2), dtype=f32), 1), xp.pad(xp.ones(2, dtype=f32), 0), \
        xp.pad(xp.ones(2, dtype=f32), 1, mode="empty").shape  # NumPy leaves "empty" padding uninitialised


@numpy_kdsl_allclose()
@pytest.mark.parametrize("mode", ["maximum", "minimum", "mean", "median"])
@pytest.mark.parametrize("stat_length", [None, 1, 2, (1, 3), ((2, 1), (9, 0))])
@pytest.mark.parametrize("dtype", ["float32", "int16", "uint8"])
@pytest.mark.parametrize("strided", [False, True])
def test_pad_statistics(xp, mode, stat_length, dtype, strided):
    if stat_length is not None and 0 in np.ravel(stat_length) and mode in ("maximum", "minimum"):
        stat_length = 1  # a zero length raises for these two (test_pad_statistic_errors)
    a = _data(xp, (3, 5), dtype, strided=strided)
    return xp.pad(a, ((1, 2), (3, 1)), mode=mode, stat_length=stat_length), \
        xp.pad(a[0], 4, mode=mode, stat_length=stat_length if np.ndim(stat_length) < 2 else 2)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("end_values", [0, -3, (2, 9), ((1, -1), (5, 100))])
@pytest.mark.parametrize("dtype", ["float32", "int32", "uint8"])
@pytest.mark.parametrize("width", [1, (2, 5), ((3, 0), (0, 4))])
def test_pad_linear_ramp_dtypes(xp, end_values, dtype, width):
    a = _data(xp, (2, 4), dtype, strided=True)
    if dtype == "uint8":
        end_values = np.abs(np.asarray(end_values)).tolist()
    return xp.pad(a, width, mode="linear_ramp", end_values=end_values)


@numpy_kdsl_allclose()
def test_pad_statistics_nan_size_one_and_empty(xp):
    a = xp.asarray([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]], dtype=xp.float32)
    return xp.pad(a, 1, mode="mean"), xp.pad(a, (0, 2), mode="maximum", stat_length=1), \
        xp.pad(xp.ones((1, 1), dtype=xp.int32) * 7, 2, mode="median"), \
        xp.pad(xp.ones((0, 3), dtype=xp.float32), ((0, 0), (1, 1)), mode="mean"), \
        xp.pad(xp.asarray([2, 4], dtype=xp.int32), 3, mode="linear_ramp", end_values=(-7, 7))


def test_pad_statistic_errors():
    with pytest.raises(ValueError, match="stat_length of 0"):
        kd.pad(kd.ones((2, 2)), 1, mode="maximum", stat_length=0)
    with pytest.raises(ValueError, match="negative"):
        kd.pad(kd.ones(3), 1, mode="mean", stat_length=-1)
    with pytest.raises(ValueError, match="keyword"):
        kd.pad(kd.ones(3), 1, mode="mean", end_values=1)
    with pytest.raises(ValueError, match="empty axis"):
        kd.pad(kd.ones((0, 2)), 1, mode="median")


@pytest.mark.parametrize("values,error", [(200, OverflowError), ((1, 200), OverflowError), (np.nan, ValueError),
                                          (np.inf, OverflowError)])
def test_pad_constant_value_out_of_int8(values, error):
    """NumPy refuses a pad value int8 cannot hold (it was stored as -56, NaN as 0); uint8 wraps -1 as NumPy does."""
    a = np.arange(3, dtype=np.int8)
    with pytest.raises(error):
        np.pad(a, 1, constant_values=values)
    with pytest.raises(error):
        kd.pad(kd.asarray(a), 1, constant_values=values)
    u = np.arange(3, dtype=np.uint8)
    assert kd.pad(kd.asarray(u), 1, constant_values=-1).tolist() == np.pad(u, 1, constant_values=-1).tolist()


def test_pad_errors():
    with pytest.raises(ValueError, match="empty axis"):
        kd.pad(kd.ones((0, 2)), 1, mode="reflect")
    with pytest.raises(ValueError, match="mode"):
        kd.pad(kd.ones(2), 1, mode="mirror")


        kd.pad(kd.ones(2), 1, mode="average")
    with pytest.raises(ValueError, match="empty axis"):
        kd.pad(kd.ones((0, 2)), 1, mode="median")
    with pytest.raises(ValueError, match="stat_length of 0"):
        kd.pad(kd.ones(3), 1, mode="maximum", stat_length=0)
    with pytest.raises(ValueError, match="reflect_type"):
        kd.pad(kd.ones(3), 1, mode="reflect", reflect_type="bad")
    with pytest.raises(TypeError, match="pad_width"):
        kd.pad(kd.ones(3), {0: 1.5})
    with pytest.raises(ValueError, match="axis"):
        kd.pad(kd.ones(3), {1: 2})
    with pytest.raises(ValueError, match="negative"):
        kd.pad(kd.ones(2), -1)
    with pytest.raises(ValueError, match="keyword"):
        kd.pad(kd.ones(2), 1, mode="edge", constant_values=3)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_meshgrid(xp, indexing, sparse, n):
    vecs = [xp.asarray(sample((k + 2,), "float32", seed=k)) for k in range(n)]
    return list(xp.meshgrid(*vecs, indexing=indexing, sparse=sparse))


def test_meshgrid_returns_a_list():
    assert isinstance(kd.meshgrid(kd.ones(2), kd.ones(3)), list)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("n", [0, 1, 2, 5])
@pytest.mark.parametrize("axis", [0, -1])
@pytest.mark.parametrize("dtype", ["float32", "int16", "uint8", "bool"])
def test_diff(xp, n, axis, dtype):
    return xp.diff(_data(xp, (3, 4), dtype, strided=True), n=n, axis=axis)


@numpy_kdsl_allclose()
def test_diff_prepend_append(xp):
    a = _data(xp, (2, 3), "float32")
    f32 = xp.float32
    return xp.diff(a, prepend=np.float32(0.5), append=xp.ones((2, 2), dtype=f32)), xp.diff(xp.ones(0, dtype=f32)), \
        xp.diff(xp.ones((2, 0), dtype=f32), axis=0)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("source,destination", [(0, -1), ((0, 2), (2, 0)), ((), ()), ([1, 0], [0, 2])])
def test_moveaxis_takes_tuples(xp, source, destination):
    return xp.moveaxis(_data(xp, (2, 3, 4), "int8", strided=True), source, destination)


def test_moveaxis_errors():
    with pytest.raises(ValueError, match="same number"):
        kd.moveaxis(kd.ones((2, 3)), (0, 1), (0,))
    with pytest.raises(ValueError, match="repeated"):
        kd.moveaxis(kd.ones((2, 3)), (0, 0), (0, 1))


COUNTS = [np.array(3), np.array(1), np.int64(2), np.array([2, 1]), np.array([1, 3, 1])[::2], (np.int64(2), 1)]


@pytest.mark.parametrize("as_kdsl", [False, True])
@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("layout", ["plain", "strided", "transposed"])
def test_tile_and_broadcast_to_take_integer_arrays(count, as_kdsl, layout):
    # np.tile(a, np.sum(mask)), np.broadcast_to(a, np.int64(n)): a 0-d integer array is one count, as in NumPy
    arg = kd.asarray(count) if as_kdsl and isinstance(count, np.ndarray) else count
    host = np.arange(6, dtype=np.float32).reshape(2, 3)
    src = {"plain": host[:1, :1], "strided": host[:1, ::2][:, :1], "transposed": host.T[:1, :1]}[layout]
    np.testing.assert_array_equal(kd.tile(kd.asarray(src), arg).numpy(), np.tile(src, count))
    want = np.broadcast_to(src[0, :1], count)
    got = kd.broadcast_to(kd.asarray(src)[0, :1], arg)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("fn", ["split", "array_split", "hsplit", "vsplit"])
@pytest.mark.parametrize("as_kdsl", [False, True])
@pytest.mark.parametrize("count", [np.array(2), np.array(1), np.int64(2)])
def test_split_count_from_a_0d_integer_array(fn, count, as_kdsl):
    host = np.arange(16, dtype=np.int32).reshape(4, 4)
    arg = kd.asarray(count) if as_kdsl and isinstance(count, np.ndarray) else count
    want = getattr(np, fn)(host, count)
    got = getattr(kd, fn)(kd.asarray(host), arg)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g.numpy(), w)


@pytest.mark.parametrize("bad", [[2.0], np.array(2.5), np.array([2.0])])
def test_tile_and_broadcast_to_refuse_float_counts(bad):
    for np_fn, kd_fn in ((np.tile, kd.tile), (np.broadcast_to, kd.broadcast_to)):
        with pytest.raises(TypeError):
            np_fn(np.arange(1), bad)
        with pytest.raises(TypeError):
            kd_fn(kd.arange(1), kd.asarray(bad) if isinstance(bad, np.ndarray) else bad)
