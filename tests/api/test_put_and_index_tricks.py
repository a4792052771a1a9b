"""put, put_along_axis, putmask, place, fill_diagonal (in place, as NumPy's), unravel_index, ravel_multi_index,
indices, ix_, tril/triu_indices(_from), diag_indices(_from), choose and select, against NumPy."""

import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(7)
DTYPES = [np.float32, np.float64, np.int32, np.int64, np.uint8, np.int16, np.bool_, np.complex64]


def _data(shape, dtype):
    x = np.asarray(RNG.integers(-50, 50, size=shape))
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.integers(-5, 5, size=shape)
    elif dtype == np.bool_:
        x = x > 0
    elif np.dtype(dtype).kind == "u":
        x = np.abs(x)
    return np.asarray(x).astype(dtype)


def _same(k, e):
    """A kdsl result (Array or tuple of them) equals NumPy's, dtype included (intp is int64)."""
    if isinstance(e, tuple):
        assert isinstance(k, tuple) and len(k) == len(e)
        for x, y in zip(k, e, strict=True):
            _same(x, y)
        return
    if isinstance(e, np.generic):
        assert isinstance(k, np.generic) and k.dtype == e.dtype and k == e
        return
    assert isinstance(k, kd.Array)
    got = k.numpy()
    assert got.dtype == e.dtype, (got.dtype, e.dtype)
    assert got.shape == e.shape
    np.testing.assert_array_equal(got, e)


def _inplace(fn, e, *args, view=None, **kwargs):
    """Run kd.fn and np.fn in place on copies of ``e`` (through ``view``, a function making a view) and compare
    the arrays (and the bases of views) afterwards."""
    a = kd.asarray(e.copy())
    n = e.copy()
    ka = view(a) if view else a
    na = view(n) if view else n
    kargs = [kd.asarray(x) if isinstance(x, np.ndarray) and x.dtype != object else x for x in args]
    assert getattr(kd, fn)(ka, *kargs, **kwargs) is None
    getattr(np, fn)(na, *args, **kwargs)
    _same(ka, na)
    _same(a, n)


# ----- put

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,ind", [((5,), [0, 3, -1]), ((2, 3), [[1, 5], [0, -6]]), ((4, 1, 2), [7]),
                                       ((1,), [0, 0, -1]), ((), [0])])
def test_put_matches_numpy(dtype, shape, ind):
    e = _data(shape, dtype)
    v = _data((len(np.ravel(ind)),), dtype)
    _inplace("put", e, ind, v)
    _inplace("put", e, np.array(ind), v)  # a NumPy index array; values from a kdsl array


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("ind", [[0, 2, 4], [-1, -5, 3], [1, 1, 1, 2], [[0, 4], [2, 2]]])
def test_put_modes_and_repeats(mode, ind):
    e = _data((5,), np.float32)
    _inplace("put", e, ind, np.arange(1, 10, dtype=np.float32)[:np.size(ind)], mode=mode)


@pytest.mark.parametrize("mode", ["wrap", "clip"])
@pytest.mark.parametrize("ind", [[-7, 12, 5, -1], [100, -100], [6, 6, 11]])
def test_put_out_of_range_modes(mode, ind):
    e = _data((2, 3), np.int32)
    _inplace("put", e, np.array(ind), np.arange(len(ind), dtype=np.int32), mode=mode)
    a = kd.asarray(e.copy())  # the same with the indices on the device
    kd.put(a, kd.asarray(np.array(ind)), np.arange(len(ind), dtype=np.int32), mode=mode)
    n = e.copy()
    np.put(n, ind, np.arange(len(ind), dtype=np.int32), mode=mode)
    _same(a, n)


@pytest.mark.parametrize("v", [5, 2.75, [1, 2], [7, 8, 9, 10, 11, 12, 13], np.array([[1.5], [2.5]]), True])
def test_put_values_repeat_cast_and_broadcast(v):
    """v is flattened and repeated (or cut) to the number of indices, cast as assignment casts."""
    for dtype in (np.int32, np.float64):
        _inplace("put", _data((6,), dtype), [0, 2, 4, 5], v)


def test_put_last_write_wins_with_device_indices():
    idx = np.array([3, 1, 3, 3, 0, 1])
    e = np.zeros(5, np.int64)
    a = kd.asarray(e.copy())
    kd.put(a, kd.asarray(idx), kd.arange(6, dtype=kd.int64))
    np.put(e, idx, np.arange(6))
    _same(a, e)


def test_put_through_views_writes_the_base():
    e = _data((4, 6), np.float32)
    _inplace("put", e, [0, 5, -1], [1.0, 2.0, 3.0], view=lambda x: x[::2, 1:])
    _inplace("put", e, [1, 4], [9.0, 8.0], view=lambda x: x.T)
    _inplace("put", e, [2], -1.0, view=lambda x: x[1])


def test_put_lazy_target_and_values():
    a = kd.arange(6, dtype=kd.float32) * 2
    kd.put(a, [1, 2], kd.asarray([10.0, 20.0]) + 1)
    assert a.tolist() == [0.0, 11.0, 21.0, 6.0, 8.0, 10.0]


@pytest.mark.parametrize("ind,v", [([], [1.0]), ([0, 1], []), (np.zeros(0, np.int64), 3.0)])
def test_put_nothing_to_put(ind, v):
    _inplace("put", _data((3,), np.float64), ind, v)


def test_put_empty_array():
    for mode in ("raise", "wrap", "clip"):
        with pytest.raises(IndexError, match="empty array"):
            kd.put(kd.zeros(0), [0], [1.0], mode=mode)
    a = kd.zeros((0, 3))
    kd.put(a, [], [1.0])
    assert a.shape == (0, 3)
    with pytest.raises(IndexError, match="empty array"):
        kd.put(kd.zeros(0), [0], [])
    with pytest.raises(IndexError, match="empty array"):
        np.put(np.zeros(0), [0], [])
    _inplace("put", np.zeros(3), [100], [])  # no values: NumPy checks no bounds


@pytest.mark.parametrize("ind", [[5], [-6], [0, 9]])
def test_put_raise_out_of_bounds(ind):
    for index in (ind, kd.asarray(np.array(ind))):
        a = kd.arange(5)
        with pytest.raises(IndexError) as k:
            kd.put(a, index, 1)
        with pytest.raises(IndexError) as n:
            np.put(np.arange(5), ind, 1)
        assert str(k.value) == str(n.value)
        assert a.tolist() == [0, 1, 2, 3, 4]  # nothing written


def test_put_bad_input():
    with pytest.raises(TypeError, match="kdsl Array"):
        kd.put([1, 2, 3], [0], [5])
    with pytest.raises(ValueError, match="clipmode"):
        kd.put(kd.arange(3), [0], [5], mode="bogus")
    with pytest.raises(TypeError, match="safe"):
        kd.put(kd.arange(3), np.array([1.0]), [5])
    with pytest.raises(TypeError, match="safe"):
        kd.put(kd.arange(3), kd.asarray([1.0]), [5])
    with pytest.raises(OverflowError):
        kd.put(kd.zeros(3, dtype=kd.int32), [0], [2**40])
    with pytest.raises(ValueError, match="NaN"):
        kd.put(kd.zeros(3, dtype=kd.int32), [0], float("nan"))


# ----- put_along_axis

@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_])
@pytest.mark.parametrize("shape,axis,ishape", [((3, 4), 1, (3, 2)), ((3, 4), 0, (1, 4)), ((3, 4), -1, (3, 1)),
                                               ((2, 3, 4), 1, (2, 5, 4)), ((2, 3, 4), 2, (1, 3, 2)),
                                               ((1, 4), 1, (3, 2)), ((5,), 0, (3,)), ((3, 0), 0, (2, 0))])
def test_put_along_axis_matches_numpy(dtype, shape, axis, ishape):
    e = _data(shape, dtype)
    n = shape[axis]
    ind = RNG.integers(-n, n, size=ishape) if n else np.zeros(ishape, np.int64)
    _inplace("put_along_axis", e, ind, _data(np.broadcast_shapes(ishape, tuple(1 if k == axis % len(shape) else m
                                                                               for k, m in enumerate(shape))),
                                             dtype), axis=axis)
    _inplace("put_along_axis", e, ind, _data((), dtype).item(), axis=axis)  # a scalar value


def test_put_along_axis_argmax_and_none():
    e = _data((4, 5), np.float32)
    i = np.argmax(e, axis=1)[:, None]
    _inplace("put_along_axis", e, i, -1.0, axis=1)
    _inplace("put_along_axis", e, np.array([0, 19, -1, 0]), np.array([1.0, 2.0, 3.0, 4.0], np.float32), axis=None)
    _inplace("put_along_axis", e, np.array([[0], [-1]]), 7.0, axis=0, view=lambda x: x.T[1:3])


@pytest.mark.parametrize("view", [lambda x: x.T, lambda x: x[:, ::2], lambda x: x[::-1, 1:]])
def test_put_along_axis_none_writes_through_a_non_contiguous_view(view):
    """A deliberate difference (docs/numpy-api.md): NumPy 2.4 refuses axis=None on a non-contiguous array
    ("assignment destination is read-only": its flattened copy), kdsl writes the flat positions (C order) through
    to the base, as NumPy's ``view.flat[idx] = values`` does."""
    e = _data((4, 6), np.float32)
    a, n = kd.asarray(e.copy()), e.copy()
    with pytest.raises(ValueError, match="read-only"):
        np.put_along_axis(view(e.copy()), np.array([0, 5]), 9.0, axis=None)
    idx = np.array([0, 5, -1])
    kd.put_along_axis(view(a), kd.asarray(idx), kd.asarray(np.array([-1.0, -2.0, -3.0], np.float32)), axis=None)
    view(n).flat[idx % view(n).size] = [-1.0, -2.0, -3.0]
    _same(a, n)


def test_array_methods_put_and_choose():
    e = _data((3, 4), np.int32)
    a, n = kd.asarray(e.copy()), e.copy()
    assert a.put([0, -1], [7, 8], mode="clip") is None
    n.put([0, -1], [7, 8], mode="clip")
    _same(a, n)
    i = np.array([0, 1, 1, 0])
    _same(kd.asarray(i).choose([a[0], a[1]]), i.choose([n[0], n[1]]))


def test_put_along_axis_values_with_leading_ones():
    e = _data((2, 3), np.float32)
    _inplace("put_along_axis", e, np.array([[0], [2]]), np.array([[[1.0], [2.0]]], np.float32), axis=1)


def test_put_along_axis_device_indices_and_view():
    base = _data((4, 6), np.int32)
    a = kd.asarray(base.copy())
    v = a[:, ::2]
    ind = np.array([[2, 0], [1, 1], [0, 2], [-1, -3]])
    kd.put_along_axis(v, kd.asarray(ind), kd.asarray(np.arange(8, dtype=np.int32).reshape(4, 2)), axis=1)
    n = base.copy()
    np.put_along_axis(n[:, ::2], ind, np.arange(8, dtype=np.int32).reshape(4, 2), axis=1)
    _same(a, n)


def test_put_along_axis_errors():
    a = kd.zeros((3, 4))
    with pytest.raises(ValueError, match="same number of dimensions"):
        kd.put_along_axis(a, np.array([0]), 1.0, axis=1)
    with pytest.raises(ValueError, match="single dimension"):
        kd.put_along_axis(a, np.array([[0]]), 1.0, axis=None)
    with pytest.raises(IndexError, match="integer array"):
        kd.put_along_axis(a, np.array([[0.5]]), 1.0, axis=1)
    with pytest.raises(IndexError, match="out of bounds for axis 1 with size 4"):
        kd.put_along_axis(a, np.array([[4]]), 1.0, axis=1)
    with pytest.raises(IndexError, match="out of bounds"):
        kd.put_along_axis(a, kd.asarray(np.array([[-5]])), 1.0, axis=1)
    with pytest.raises(ValueError, match="shape mismatch"):
        kd.put_along_axis(a, np.array([[0, 1]]), np.ones(3), axis=1)
    with pytest.raises(np.exceptions.AxisError):
        kd.put_along_axis(a, np.array([[0]]), 1.0, axis=2)
    with pytest.raises(TypeError, match="kdsl Array"):
        kd.put_along_axis(np.zeros((3, 4)), np.array([[0]]), 1.0, axis=1)
    assert a.sum().item() == 0


# ----- putmask and place

MASKS = [lambda e: e > 0, lambda e: np.zeros(e.shape, bool), lambda e: np.ones(e.shape, bool)]


@pytest.mark.parametrize("fn", ["putmask", "place"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64, np.complex64])
@pytest.mark.parametrize("shape", [(7,), (3, 4), (2, 1, 3), (1,)])
@pytest.mark.parametrize("make_mask", MASKS)
@pytest.mark.parametrize("nvals", [1, 2, 5, 30])
def test_putmask_place_match_numpy(fn, dtype, shape, make_mask, nvals):
    e = _data(shape, dtype)
    mask = make_mask(e.real if e.dtype.kind == "c" else e)
    _inplace(fn, e, mask, _data((nvals,), dtype))


@pytest.mark.parametrize("fn", ["putmask", "place"])
def test_putmask_place_masks_values_and_views(fn):
    e = _data((4, 6), np.float64)
    _inplace(fn, e, (e > 0).reshape(3, 8), [1.5, -2.5])  # any shape of the right size
    _inplace(fn, e, (e > 0).astype(np.int8), 9.0)  # non-zero counts as true
    _inplace(fn, e, [True, False] * 12, np.nan)
    _inplace(fn, e, np.ones(12, bool), np.array([1.0, 2.0, 3.0]), view=lambda x: x[::2])
    _inplace(fn, e, np.arange(24).reshape(6, 4) % 3 == 0, np.array([-0.0, np.inf]), view=lambda x: x.T)


@pytest.mark.parametrize("fn", ["putmask", "place"])
def test_putmask_place_device_mask_and_values(fn):
    e = _data((3, 5), np.int32)
    a, n = kd.asarray(e.copy()), e.copy()
    getattr(kd, fn)(a, a > 3, (kd.arange(4, dtype=kd.int32) - 10))
    getattr(np, fn)(n, n > 3, np.arange(4, dtype=np.int32) - 10)
    _same(a, n)


def test_putmask_place_empty():
    for fn in ("putmask", "place"):
        _inplace(fn, np.zeros((0, 3), np.float32), np.zeros((0, 3), bool), [1.0])
        _inplace(fn, np.arange(4.0), np.zeros(4, bool), [])
    _inplace("putmask", np.arange(4.0), np.ones(4, bool), [])  # NumPy: no values, nothing written
    with pytest.raises(ValueError, match="Cannot insert from an empty array"):
        kd.place(kd.arange(4), kd.arange(4) > 2, [])


@pytest.mark.parametrize("fn", ["putmask", "place"])
def test_putmask_place_errors(fn):
    a = kd.zeros(5, dtype=kd.int32)
    with pytest.raises(ValueError, match="mask and data must be the same size"):
        getattr(kd, fn)(a, [True, False], [1])
    with pytest.raises(TypeError, match="safe"):  # NumPy: array values must cast safely
        getattr(kd, fn)(a, np.ones(5, bool), np.array([2.5]))
    with pytest.raises(TypeError, match="safe"):
        getattr(kd, fn)(kd.zeros(5), np.ones(5, bool), kd.asarray(np.array([2.5])))
    with pytest.raises(OverflowError):
        getattr(kd, fn)(a, np.ones(5, bool), [2**40])
    with pytest.raises(TypeError, match="kdsl Array"):
        getattr(kd, fn)([1, 2], [True, False], [1])
    assert a.tolist() == [0] * 5
    b = kd.zeros(3, dtype=kd.int32)  # Python scalars convert as assignment converts them
    getattr(kd, fn)(b, [True, False, True], 2.5)
    assert b.tolist() == [2, 0, 2]


# ----- fill_diagonal

@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_, np.complex64])
@pytest.mark.parametrize("shape", [(3, 3), (5, 3), (3, 5), (1, 1), (7, 2), (2, 2, 2), (3, 3, 3, 3), (0, 0), (0, 3)])
@pytest.mark.parametrize("wrap", [False, True])
def test_fill_diagonal_matches_numpy(dtype, shape, wrap):
    e = _data(shape, dtype)
    _inplace("fill_diagonal", e, _data((), dtype).item(), wrap=wrap)
    _inplace("fill_diagonal", e, _data((2,), dtype), wrap=wrap)  # values repeat along the diagonal
    _inplace("fill_diagonal", e, _data((9,), dtype), wrap=wrap)


def test_fill_diagonal_values_and_views():
    e = _data((4, 6), np.float64)
    _inplace("fill_diagonal", e, np.array([[1.0, 2.0], [3.0, 4.0]]))
    _inplace("fill_diagonal", e, [])
    _inplace("fill_diagonal", e, np.nan, view=lambda x: x.T)
    _inplace("fill_diagonal", e, [-0.0, np.inf], view=lambda x: x[::2, 1::2])
    _inplace("fill_diagonal", e, 7.0, wrap=True, view=lambda x: x[:, :2])
    a = kd.zeros((3, 3)) + 1  # a lazy array
    kd.fill_diagonal(a, kd.asarray([5.0, 6.0, 7.0]) * 2)
    assert a.numpy().tolist() == [[10.0, 1.0, 1.0], [1.0, 12.0, 1.0], [1.0, 1.0, 14.0]]


def test_fill_diagonal_errors():
    with pytest.raises(ValueError, match="at least 2-d"):
        kd.fill_diagonal(kd.zeros(3), 1.0)
    with pytest.raises(ValueError, match="equal length"):
        kd.fill_diagonal(kd.zeros((3, 3, 2)), 1.0)
    with pytest.raises(TypeError, match="kdsl Array"):
        kd.fill_diagonal(np.zeros((2, 2)), 1.0)
    with pytest.raises(OverflowError):
        kd.fill_diagonal(kd.zeros((2, 2), dtype=kd.int8), 300)


# ----- unravel_index and ravel_multi_index

@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 4), (7,), (1, 1, 5), (2, 1)])
@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.int16])
def test_unravel_index_matches_numpy(order, shape, dtype):
    size = int(np.prod(shape))
    idx = RNG.integers(0, size, size=(2, 3)).astype(dtype)
    _same(kd.unravel_index(kd.asarray(idx), shape, order=order), np.unravel_index(idx, shape, order=order))
    _same(kd.unravel_index(idx, shape, order=order), np.unravel_index(idx, shape, order=order))
    _same(kd.unravel_index(list(idx[0]), shape, order), np.unravel_index(list(idx[0]), shape, order))
    s = int(idx[0, 0])
    _same(kd.unravel_index(s, shape, order=order), np.unravel_index(s, shape, order=order))


def test_unravel_index_edges():
    _same(kd.unravel_index(kd.asarray(np.zeros(0, np.int32)), (3, 4)), np.unravel_index(np.zeros(0, np.int32),
                                                                                         (3, 4)))
    _same(kd.unravel_index(0, ()), np.unravel_index(0, ()))
    _same(kd.unravel_index(4, 5), np.unravel_index(4, 5))
    _same(kd.unravel_index(kd.arange(12)[::3], (3, 4)), np.unravel_index(np.arange(12)[::3], (3, 4)))
    _same(kd.unravel_index(np.array([True]), (3,)), np.unravel_index(np.array([True]), (3,)))
    i, j = kd.unravel_index(kd.argmax(kd.asarray(np.arange(12.0).reshape(3, 4))), (3, 4))
    assert (i.ndim, int(i), int(j)) == (0, 2, 3)


@pytest.mark.parametrize("bad", [12, -1, [0, 12], np.array([-3, 2])])
def test_unravel_index_out_of_bounds(bad):
    for index in (bad, kd.asarray(np.asarray(bad))):
        with pytest.raises(ValueError) as k:
            kd.unravel_index(index, (3, 4))
        with pytest.raises(ValueError) as n:
            np.unravel_index(bad, (3, 4))
        assert str(k.value) == str(n.value)


def test_unravel_index_bad_input():
    with pytest.raises(TypeError):
        kd.unravel_index(np.array([1.0]), (3, 4))
    with pytest.raises(TypeError):
        kd.unravel_index(kd.asarray([1.0]), (3, 4))
    with pytest.raises(TypeError, match="integral"):
        kd.unravel_index([], (3, 4))
    with pytest.raises(ValueError, match="'C' or 'F'"):
        kd.unravel_index(1, (3, 4), order="K")
    with pytest.raises(ValueError, match="out of bounds for array with size 0"):
        kd.unravel_index(0, (3, 0))
    with pytest.raises(ValueError, match="non-negative"):
        kd.unravel_index(1, (3, -4))


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("dims", [(3, 4), (2, 3, 4), (5,), (1, 6)])
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip", "per-axis"])
def test_ravel_multi_index_matches_numpy(order, dims, mode):
    lo, hi = (0, 1) if mode == "raise" else (-3, 3)
    coords = tuple(RNG.integers(lo * n, hi * n, size=(2, 3)) for n in dims)
    m = tuple(["wrap", "clip", "raise"][k % 3] if k % 3 != 2 else "wrap" for k in range(len(dims))) \
        if mode == "per-axis" else mode
    e = np.ravel_multi_index(coords, dims, mode=m, order=order)
    _same(kd.ravel_multi_index(tuple(kd.asarray(c) for c in coords), dims, mode=m, order=order), e)
    _same(kd.ravel_multi_index(coords, dims, mode=m, order=order), e)
    scalar = tuple(int(c[0, 0]) for c in coords)
    _same(kd.ravel_multi_index(scalar, dims, mode=m, order=order), np.ravel_multi_index(scalar, dims, mode=m,
                                                                                         order=order))


def test_ravel_multi_index_broadcasting_and_forms():
    rows, cols = np.array([[0], [2]]), np.array([1, 3, 0])
    _same(kd.ravel_multi_index((kd.asarray(rows), cols), (3, 4)), np.ravel_multi_index((rows, cols), (3, 4)))
    m = np.array([[1, 2], [2, 3]])
    _same(kd.ravel_multi_index(kd.asarray(m), (3, 4)), np.ravel_multi_index(m, (3, 4)))
    _same(kd.ravel_multi_index((np.zeros(0, np.int64), np.zeros(0, np.int64)), (3, 4)),
          np.ravel_multi_index((np.zeros(0, np.int64), np.zeros(0, np.int64)), (3, 4)))
    _same(kd.ravel_multi_index((np.array([1], np.int8), kd.asarray(np.array([2], np.uint16))), (3, 4)),
          np.ravel_multi_index((np.array([1], np.int8), np.array([2], np.uint16)), (3, 4)))
    flat = kd.asarray(np.array([0, 5, 11, 7]))
    _same(kd.ravel_multi_index(kd.unravel_index(flat, (3, 4)), (3, 4)), np.array([0, 5, 11, 7]))


@pytest.mark.parametrize("coords", [([1, 2], [2, 4]), ([1, -1], [2, 3])])
def test_ravel_multi_index_raise(coords):
    for c in (coords, tuple(kd.asarray(np.array(x)) for x in coords)):
        with pytest.raises(ValueError, match="invalid entry in coordinates array"):
            kd.ravel_multi_index(c, (3, 4))
    with pytest.raises(ValueError, match="invalid entry in coordinates array"):
        np.ravel_multi_index(coords, (3, 4))


def test_ravel_multi_index_bad_input():
    with pytest.raises(ValueError, match="sequence of length 2"):
        kd.ravel_multi_index(([1, 2],), (3, 4))
    with pytest.raises(ValueError, match="clipmode"):
        kd.ravel_multi_index(([1], [1]), (3, 4), mode="x")
    with pytest.raises(ValueError, match="wrong length"):
        kd.ravel_multi_index(([1], [1]), (3, 4), mode=("clip",))
    with pytest.raises(ValueError, match="zero entries"):
        kd.ravel_multi_index(([1], [0]), (3, 0), mode="wrap")
    with pytest.raises(TypeError):
        kd.ravel_multi_index(([1.0], [1]), (3, 4))
    with pytest.raises(ValueError, match="'C' or 'F'"):
        kd.ravel_multi_index(([1], [1]), (3, 4), order="A")
    with pytest.raises(ValueError, match="broadcast"):
        kd.ravel_multi_index((kd.asarray([0, 1]), kd.asarray([0, 1, 2])), (3, 4))


# ----- indices and ix_

@pytest.mark.parametrize("dims", [(2, 3), (4,), (2, 1, 3), (2, 0), (1,), ()])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("dtype", [int, np.int32, np.float32, np.int16])
def test_indices_matches_numpy(dims, sparse, dtype):
    _same(kd.indices(dims, dtype=dtype, sparse=sparse), np.indices(dims, dtype=dtype, sparse=sparse))


def test_indices_grid_indexes_like_numpy():
    e = _data((3, 4), np.float32)
    rows, cols = kd.indices((3, 4))
    assert np.array_equal(kd.asarray(e)[rows.reshape(-1), cols.reshape(-1)].numpy(), e.reshape(-1))
    with pytest.raises(TypeError, match="sequence"):
        kd.indices(3)


@pytest.mark.parametrize("dims", [(2, 3), (4,), (2, 0, 3), ()])
@pytest.mark.parametrize("make", [iter, lambda d: (n for n in d), lambda d: map(int, d)])
def test_indices_of_an_iterator_matches_numpy(dims, make):
    # cartesian products write np.indices(len(x) for x in arrays) (numpy-100, exercise 90)
    _same(kd.indices(make(dims)), np.indices(make(dims)))
    _same(kd.indices(make(dims), sparse=True), np.indices(make(dims), sparse=True))


@pytest.mark.parametrize("args", [([0, 1], [2, 3]), ([True, False, True],), ([],), ([2, 0], [1], [3, 1, 0]),
                                  (np.array([1, 2], np.int8),), (np.array([1.5, 2.0]),), ()])
def test_ix_matches_numpy(args):
    _same(kd.ix_(*args), np.ix_(*args))
    _same(kd.ix_(*[kd.asarray(np.asarray(x)) for x in args if len(x)]),
          np.ix_(*[np.asarray(x) for x in args if len(x)]))


def test_ix_selects_like_numpy():
    e = _data((4, 5), np.int32)
    sel = (np.array([3, 0]), np.array([True, False, True, True, False]))
    got = kd.asarray(e)[kd.ix_(kd.asarray(sel[0]), kd.asarray(sel[1]))]
    _same(got, e[np.ix_(*sel)])


def test_ix_errors():
    with pytest.raises(ValueError, match="1 dimensional"):
        kd.ix_([[1]])
    with pytest.raises(ValueError, match="1 dimensional"):
        kd.ix_(kd.asarray(np.array(1)))


# ----- triangles and diagonals

@pytest.mark.parametrize("fn", ["tril_indices", "triu_indices"])
@pytest.mark.parametrize("n", [0, 1, 4, 6])
@pytest.mark.parametrize("k", [-7, -2, 0, 1, 3, 9])
@pytest.mark.parametrize("m", [None, 0, 1, 3, 8])
def test_triangle_indices_match_numpy(fn, n, k, m):
    _same(getattr(kd, fn)(n, k, m), getattr(np, fn)(n, k, m))


@pytest.mark.parametrize("fn", ["tril_indices_from", "triu_indices_from"])
@pytest.mark.parametrize("shape", [(4, 4), (3, 6), (6, 2), (1, 1), (0, 3)])
@pytest.mark.parametrize("k", [-1, 0, 2])
def test_triangle_indices_from_match_numpy(fn, shape, k):
    e = _data(shape, np.float32)
    got = getattr(kd, fn)(kd.asarray(e), k=k)
    _same(got, getattr(np, fn)(e, k=k))
    _same(kd.asarray(e)[got], e[getattr(np, fn)(e, k=k)])
    _same(getattr(kd, fn)(e, k), getattr(np, fn)(e, k))  # a NumPy array: only its shape is read


def test_triangle_indices_from_needs_a_matrix():
    for fn in ("tril_indices_from", "triu_indices_from"):
        with pytest.raises(ValueError, match="2-d"):
            getattr(kd, fn)(kd.zeros(3))
        with pytest.raises(ValueError, match="2-d"):
            getattr(kd, fn)(kd.zeros((2, 2, 2)))


@pytest.mark.parametrize("n,ndim", [(3, 2), (4, 3), (0, 2), (1, 1), (2, 4)])
def test_diag_indices_match_numpy(n, ndim):
    _same(kd.diag_indices(n, ndim), np.diag_indices(n, ndim))
    e = _data((n,) * max(ndim, 2), np.int32)
    _same(kd.diag_indices_from(kd.asarray(e)), np.diag_indices_from(e))
    _same(kd.asarray(e)[kd.diag_indices_from(kd.asarray(e))], e[np.diag_indices_from(e)])


def test_diag_indices_from_errors():
    with pytest.raises(ValueError, match="at least 2-d"):
        kd.diag_indices_from(kd.zeros(3))
    with pytest.raises(ValueError, match="equal length"):
        kd.diag_indices_from(kd.zeros((3, 2)))


# ----- choose and select

@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64, np.bool_, np.complex64, np.uint8])
@pytest.mark.parametrize("ashape,cshape", [((6,), (6,)), ((2, 3), (3,)), ((3, 1), (1, 4)), ((), (5,)),
                                           ((0,), (0,)), ((4,), ())])
def test_choose_matches_numpy(mode, dtype, ashape, cshape):
    n = 3
    lo, hi = (0, n) if mode == "raise" else (-2 * n, 2 * n)
    a = RNG.integers(lo, hi, size=ashape)
    choices = [_data(cshape, dtype) for _ in range(n)]
    e = np.choose(a, choices, mode=mode)
    _same(kd.choose(kd.asarray(np.asarray(a)), [kd.asarray(c) for c in choices], mode=mode), np.asarray(e))
    _same(kd.choose(np.asarray(a), np.stack(choices), mode=mode), np.asarray(e))


def test_choose_mixed_dtypes_scalars_views_and_out():
    a = np.array([[0, 1, 2], [2, 1, 0]])
    c = [np.arange(3, dtype=np.int16), np.array([1.5, -0.0, np.nan], np.float32), np.float32(7)]
    e = np.choose(a, c)
    _same(kd.choose(kd.asarray(a), [kd.asarray(np.asarray(x)) for x in c]), e)
    x = _data((4, 6), np.float64)
    _same(kd.choose(kd.asarray(a).T % 2, [kd.asarray(x)[::2, ::2].T, kd.asarray(x)[1::2, 1::2].T]),
          np.choose(a.T % 2, [x[::2, ::2].T, x[1::2, 1::2].T]))
    out = kd.zeros((2, 3), dtype=kd.float32)
    assert kd.choose(kd.asarray(a), [kd.asarray(np.asarray(v)) for v in c], out=out) is out
    _same(out, e)


def test_choose_many_choices():
    a = RNG.integers(0, 40, size=(5, 7))
    choices = [RNG.standard_normal((5, 7)).astype(np.float32) for _ in range(40)]
    _same(kd.choose(kd.asarray(a), [kd.asarray(c) for c in choices]), np.choose(a, choices))


@pytest.mark.parametrize("bad", [[0, 3], [-1, 0]])
def test_choose_raise(bad):
    for a in (bad, kd.asarray(np.array(bad))):
        with pytest.raises(ValueError, match="invalid entry in choice array"):
            kd.choose(a, [kd.zeros(2), kd.ones(2), kd.ones(2)])
    with pytest.raises(ValueError, match="invalid entry in choice array"):
        np.choose(bad, [np.zeros(2), np.ones(2), np.ones(2)])


def test_choose_errors():
    with pytest.raises(ValueError, match="0-length sequence"):
        kd.choose([0, 1], [])
    with pytest.raises(ValueError, match="clipmode"):
        kd.choose([0, 1], [kd.zeros(2)], mode="x")
    with pytest.raises(TypeError, match="safe"):
        kd.choose(kd.asarray([0.0, 1.0]), [kd.zeros(2), kd.ones(2)])
    with pytest.raises(ValueError, match="broadcast"):
        kd.choose([0, 1, 0], [kd.zeros(2), kd.ones(2)])


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64, np.bool_, np.complex64])
@pytest.mark.parametrize("shape", [(6,), (2, 3), (0,), (1,), ()])
@pytest.mark.parametrize("ncases", [1, 2, 4])
def test_select_matches_numpy(dtype, shape, ncases):
    x = _data(shape, np.int32)
    conds = [x > t for t in (-10, 20, 0, -40)[:ncases]]
    choices = [_data(shape, dtype) for _ in range(ncases)]
    default = _data((), dtype)[()]
    e = np.select(conds, choices, default)
    _same(kd.select([kd.asarray(c) for c in conds], [kd.asarray(c) for c in choices], kd.asarray(default)), e)
    _same(kd.select(conds, choices, default), e)


def test_select_broadcasting_scalars_and_nan():
    x = np.arange(-3.0, 3.0, dtype=np.float32)
    k = kd.asarray(x)
    _same(kd.select([k < -1, k > 1], [-k, k * k], np.nan), np.select([x < -1, x > 1], [-x, x * x], np.nan))
    _same(kd.select([k[:, None] < 0], [k[None, :]], -0.0), np.select([x[:, None] < 0], [x[None, :]], -0.0))
    _same(kd.select([True, k > 0], [k, 2 * k]), np.select([True, x > 0], [x, 2 * x]))
    _same(kd.select([k[::2] > -2], [k[::-2]]), np.select([x[::2] > -2], [x[::-2]]))
    i = np.arange(6, dtype=np.int8)
    _same(kd.select([kd.asarray(i) < 3], [kd.asarray(i)]), np.select([i < 3], [i]))  # default 0 is weak


def test_select_errors():
    x = kd.arange(6)
    with pytest.raises(ValueError, match="same length"):
        kd.select([x < 3], [x, x])
    with pytest.raises(ValueError, match="empty condition list"):
        kd.select([], [])
    with pytest.raises(TypeError, match="invalid entry 1 in condlist"):
        kd.select([x < 3, x], [x, x])
    with pytest.raises(ValueError, match="broadcast"):
        kd.select([x < 3], [x], default=kd.asarray([1, 2]))


# ----- NumPy's dispatch and the public names

def test_numpy_functions_dispatch_to_kdsl():
    e = _data((3, 4), np.float32)
    a = kd.asarray(e.copy())
    np.put(a, [0, 5], [1.0, 2.0])
    np.putmask(a, a > 10, 0.0)
    np.place(a, a < -10, [5.0])
    np.fill_diagonal(a, -1.0)
    np.put_along_axis(a, np.zeros((3, 1), np.int64), 9.0, axis=1)
    n = e.copy()
    np.put(n, [0, 5], [1.0, 2.0])
    np.putmask(n, n > 10, 0.0)
    np.place(n, n < -10, [5.0])
    np.fill_diagonal(n, -1.0)
    np.put_along_axis(n, np.zeros((3, 1), np.int64), 9.0, axis=1)
    _same(a, n)
    idx = kd.asarray(np.array([1, 7]))
    assert isinstance(np.unravel_index(idx, (3, 4))[0], kd.Array)
    assert isinstance(np.ravel_multi_index((idx, idx), (8, 8)), kd.Array)
    assert isinstance(np.choose(kd.asarray([0, 1]), [a[0, :2], a[1, :2]]), kd.Array)
    assert isinstance(np.select([a > 0], [a]), kd.Array)
    assert isinstance(np.ix_(idx)[0], kd.Array)
    assert isinstance(np.tril_indices_from(a)[0], kd.Array)
    assert isinstance(np.diag_indices_from(a[:, :3])[0], kd.Array)


@pytest.mark.parametrize("name", ["put", "put_along_axis", "putmask", "place", "fill_diagonal", "unravel_index",
                                  "ravel_multi_index", "indices", "ix_", "tril_indices", "triu_indices",
                                  "tril_indices_from", "triu_indices_from", "diag_indices", "diag_indices_from",
                                  "choose", "select"])
def test_public_names(name):
    assert name in kd.__all__ and callable(getattr(kd, name))
