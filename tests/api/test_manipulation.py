"""Orientation, editing, matrix building and function application against NumPy: ``fliplr flipud rot90
rollaxis append delete insert resize ediff1d diagflat tri vander block row_stack fromfunction
apply_along_axis`` (empty, size-1, strided and transposed inputs; NumPy's exceptions)."""

import warnings

import numpy as np
import pytest
from api_testing import LAYOUTS, layout_data, numpy_kdsl_allclose, sample

import kdsl as kd

# ----- orientation

@numpy_kdsl_allclose()
@pytest.mark.parametrize("fn", ["fliplr", "flipud"])
@pytest.mark.parametrize("shape", [(2, 3), (1, 1), (0, 3), (3, 0, 2), (4, 2, 3)])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_flips(xp, fn, shape, layout):
    return getattr(xp, fn)(layout_data(xp, shape, "int16", layout))


@numpy_kdsl_allclose()
@pytest.mark.parametrize("shape", [(5,), (0,)])
def test_flipud_1d(xp, shape):
    return xp.flipud(layout_data(xp, shape, "float64"))


@pytest.mark.parametrize("fn,shape", [("fliplr", (3,)), ("fliplr", ()), ("flipud", ())])
def test_flip_needs_dims(fn, shape):
    with pytest.raises(ValueError):
        getattr(np, fn)(np.zeros(shape))
    with pytest.raises(ValueError, match="Input must be"):
        getattr(kd, fn)(kd.zeros(shape))


def test_flips_are_views():
    a = kd.asarray(np.arange(6, dtype=np.int32).reshape(2, 3))
    kd.fliplr(a)[0, 0] = 100  # NumPy's fliplr is a view: the write reaches a
    n = np.arange(6, dtype=np.int32).reshape(2, 3)
    np.fliplr(n)[0, 0] = 100
    np.testing.assert_array_equal(a.numpy(), n)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("k", [-5, -1, 0, 1, 2, 3, 4, 7])
@pytest.mark.parametrize("axes", [(0, 1), (1, 0), (2, 0), (-1, -2)])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_rot90(xp, k, axes, layout):
    return xp.rot90(layout_data(xp, (2, 3, 4), "float32", layout), k, axes)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("shape", [(3, 2), (0, 2), (1, 1)])
def test_rot90_2d(xp, k, shape):
    return xp.rot90(layout_data(xp, shape, "uint8"), k)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("k", [1.0, 2.0, -1.0, np.float32(3.0), np.float64(-6.0)])
def test_rot90_float_k(xp, k):
    # NumPy's k % 4 takes floats (1.0 is one turn); kdsl raised TypeError
    return xp.rot90(layout_data(xp, (3, 2), "int32"), k)


def test_rot90_non_integral_k_is_numpy_2_4s():
    # NumPy 2.4's k % 4 == 1.5 matches none of its 0/1/2 branches, so it takes the three-turn one (NumPy 2.5,
    # unreleased, differs: kdsl follows the released NumPy, docs/numpy-api.md)
    a = layout_data(np, (3, 2), "int32")
    np.testing.assert_array_equal(kd.rot90(kd.asarray(a), 1.5).numpy(), np.rot90(a, 3))


@pytest.mark.parametrize("axes", [(0,), (0, 1, 2), (1, 1), (0, 2), (0, -2), (0, 5)])
def test_rot90_bad_axes(axes):
    with pytest.raises(ValueError):
        np.rot90(np.zeros((2, 3)), 1, axes)
    with pytest.raises(ValueError):
        kd.rot90(kd.zeros((2, 3)), 1, axes)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("axis", [0, 1, 3, -1, -4])
@pytest.mark.parametrize("start", [0, 1, 2, 4, -1, -4])
def test_rollaxis(xp, axis, start):
    return xp.rollaxis(layout_data(xp, (2, 3, 1, 4), "int32", "strided"), axis, start)


@pytest.mark.parametrize("axis,start", [(4, 0), (-5, 0), (0, 5), (0, -5)])
def test_rollaxis_errors(axis, start):
    with pytest.raises(np.exceptions.AxisError):
        np.rollaxis(np.zeros((2, 3, 1, 4)), axis, start)
    with pytest.raises(np.exceptions.AxisError):
        kd.rollaxis(kd.zeros((2, 3, 1, 4)), axis, start)


# ----- append, delete, insert, resize, ediff1d

@numpy_kdsl_allclose()
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", [(2, 3), (0, 3), (1, 1)])
def test_append(xp, axis, layout, shape):
    a = layout_data(xp, shape, "float32", layout)
    vshape = tuple(1 if k == (axis or 0) % 2 else n for k, n in enumerate(shape)) if axis is not None else (4,)
    return xp.append(a, layout_data(xp, vshape, "int16", seed=1), axis=axis)


@numpy_kdsl_allclose()
def test_append_scalar_flattens(xp):
    return xp.append(layout_data(xp, (2, 2), "float64"), np.float64(1.5))


def test_append_mismatch():
    with pytest.raises(ValueError):
        np.append(np.zeros((2, 3)), np.zeros((2, 2)), axis=0)
    with pytest.raises(ValueError):
        kd.append(kd.zeros((2, 3)), kd.zeros((2, 2)), axis=0)


DELETE_OBJS = [0, -1, 2, slice(1, 4), slice(None, None, 2), slice(None, None, -3), slice(5, 1), [], [0, 0, 3],
               [-1, 1], np.array([4, 0, 2]), np.array([True, False, True, True, False]), [1, 3], list(range(0, 5, 2))]


@numpy_kdsl_allclose()
@pytest.mark.parametrize("obj", DELETE_OBJS, ids=repr)
@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("layout", ["plain", "transposed"])
def test_delete_axis(xp, obj, axis, layout):
    return xp.delete(layout_data(xp, (5, 5, 2) if axis != -1 else (2, 3, 5), "int32", layout), obj, axis=axis)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("obj", [3, slice(2, 40, 3), [0, 19, 7], np.arange(0, 20, 2)], ids=repr)
def test_delete_flat(xp, obj):
    return xp.delete(layout_data(xp, (4, 5), "float32", "strided"), obj)


def test_delete_kdsl_positions_and_many_runs():
    a = sample((40, 3), "float64")
    idx = np.arange(0, 40, 3)  # 14 scattered positions: more runs than are joined as slices
    np.testing.assert_array_equal(kd.delete(kd.asarray(a), kd.asarray(idx), axis=0).numpy(), np.delete(a, idx, 0))


def test_delete_result_is_new():
    a = kd.asarray(np.arange(5, dtype=np.int32))
    b = kd.delete(a, 4)
    b[0] = 9
    assert a.tolist() == [0, 1, 2, 3, 4] and b.tolist() == [9, 1, 2, 3]


@pytest.mark.parametrize("obj,exc", [(5, IndexError), (-6, IndexError), ([1, 7], IndexError), ([1.0], IndexError),
                                     (np.array([True, False]), ValueError)], ids=repr)
def test_delete_errors(obj, exc):
    with pytest.raises(exc):
        np.delete(np.arange(5), obj)
    with pytest.raises(exc):
        kd.delete(kd.arange(5), obj)


INSERT_CASES = [  # (obj, values, axis) on a (3, 4) array
    (1, 9, None), (0, [7, 8], None), (12, [1, 2, 3], None), (-1, 5, None), ([0, 5, 5, 12], [1, 2, 3, 4], None),
    (1, [7, 8, 9], 1), (1, [[7], [8], [9]], 1), ([1], [[7], [8], [9]], 1), (4, 0, 1), (0, [1, 2, 3, 4], 0),
    (2, [[1, 2, 3, 4], [5, 6, 7, 8]], 0), ([2, 0, 2], 5, 1), ([2, 0, 2], [4, 5, 6], 1), (slice(1, 3), 7, 1),
    (slice(None), [1, 2, 3, 4], 0), ([], 1, 0), ([1], [7, 8, 9], 1), ([1], [[7, 8, 9]], 1), (slice(2, 3), [5, 6], 1),
    (np.array([2]), [[1, 2, 3, 4], [5, 6, 7, 8]], 0), (np.array([False, True]), [4, 5], 1),
    (np.array([True, False]), 3, 1), (-3, [1.5, -2.5, 3.5, 1], -2), ([-1, -5], 7, 1), ([-1, -13], 7, None),
    (slice(0, 2), [[5, 6]], None), (slice(0, 2), [[[5, 6]]], 1),
]


@numpy_kdsl_allclose()
@pytest.mark.parametrize("obj,values,axis", INSERT_CASES, ids=repr)
@pytest.mark.parametrize("dtype", ["float32", "int16"])
@pytest.mark.parametrize("layout", ["plain", "strided"])
def test_insert(xp, obj, values, axis, dtype, layout):
    return xp.insert(layout_data(xp, (3, 4), dtype, layout), obj, values, axis=axis)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("obj", [0, [0, 0]])
def test_insert_empty(xp, obj):
    return xp.insert(layout_data(xp, (0, 3), "float64"), obj, np.float64(2.5), axis=0)


def test_insert_array_values_cast():
    a, v = sample((2, 3), "int8"), sample((2,), "float32", special=False)
    got = kd.insert(kd.asarray(a), 1, kd.asarray(v), axis=1)
    np.testing.assert_array_equal(got.numpy(), np.insert(a, 1, v, axis=1))
    assert got.dtype == kd.int8


@pytest.mark.parametrize("seed", range(4))
def test_insert_delete_random(seed):
    """Random shapes, axes, positions (ints, lists, slices, masks; some out of bounds) and value shapes: the same
    result or the same exception type as NumPy."""
    rng = np.random.default_rng(seed)
    for _ in range(40):
        shape = tuple(int(n) for n in rng.integers(0, 4, rng.integers(1, 4)))
        a = rng.integers(-9, 9, shape).astype(np.int16)
        axis = [None, *range(-len(shape), len(shape))][rng.integers(0, len(shape) + 1)]
        n = a.size if axis is None else shape[axis]
        objs = [int(rng.integers(-n - 1, n + 2)), rng.integers(-n - 1, n + 2, rng.integers(0, 4)).tolist(),
                slice(int(rng.integers(-2, 3)), None, int(rng.choice([1, 2, -1]))), rng.integers(0, 2, n) > 0]
        obj = objs[rng.integers(0, 4)]
        v = rng.integers(-9, 9, [(), (1,), (2,), (1, 2), (2, 1), (1, 1, 3)][rng.integers(0, 6)])
        for fn, args in (("insert", (obj, v)), ("delete", (obj,))):
            try:
                expected = getattr(np, fn)(a, *args, axis=axis)
            except (IndexError, ValueError) as exc:
                with pytest.raises(type(exc)):
                    getattr(kd, fn)(kd.asarray(a), *args, axis=axis)
                continue
            got = getattr(kd, fn)(kd.asarray(a), *args, axis=axis)
            assert got.shape == expected.shape and got.dtype == expected.dtype, (fn, shape, axis, obj, v.shape)
            np.testing.assert_array_equal(got.numpy(), expected)


@pytest.mark.parametrize("obj,values,axis,exc", [
    (13, 1, None, IndexError), (-13, 1, None, IndexError), ([1, 13], 1, None, IndexError),
    ([[1]], 1, None, ValueError), (1, [[1, 2]], 0, ValueError), ([0, 1], [1, 2, 3], 1, ValueError),
    (0, 1, 2, np.exceptions.AxisError)], ids=repr)
def test_insert_errors(obj, values, axis, exc):
    with pytest.raises(exc):
        np.insert(np.zeros((3, 4)), obj, values, axis=axis)
    with pytest.raises(exc):
        kd.insert(kd.zeros((3, 4)), obj, values, axis=axis)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("new_shape", [5, (2, 4), (3, 1, 2), 0, (0, 3), 1, (7,)])
@pytest.mark.parametrize("shape", [(3,), (2, 2), (0,), (1,)])
@pytest.mark.parametrize("layout", ["plain", "strided"])
def test_resize(xp, new_shape, shape, layout):
    return xp.resize(layout_data(xp, shape, "int64", layout), new_shape)


def test_resize_negative():
    with pytest.raises(ValueError, match="non-negative"):
        kd.resize(kd.ones(3), (2, -1))
    with pytest.raises(ValueError):
        np.resize(np.ones(3), (2, -1))


@numpy_kdsl_allclose()
@pytest.mark.parametrize("shape", [(6,), (2, 3), (1,), (0,), (3, 1, 2)])
@pytest.mark.parametrize("dtype", ["float32", "int8", "uint16", "float64"])
@pytest.mark.parametrize("layout", ["plain", "strided"])
def test_ediff1d(xp, shape, dtype, layout):
    return xp.ediff1d(layout_data(xp, shape, dtype, layout))


@numpy_kdsl_allclose()
@pytest.mark.parametrize("to_begin", [None, 5, [1, 2], np.array([[3], [4]], np.int8)], ids=repr)
@pytest.mark.parametrize("to_end", [None, -1, np.array([7, 9], np.int16)], ids=repr)
def test_ediff1d_edges(xp, to_begin, to_end):
    return xp.ediff1d(layout_data(xp, (2, 3), "int16"), to_end=to_end, to_begin=to_begin)


@pytest.mark.parametrize("kw", [{"to_begin": 1.5}, {"to_end": np.array([2.5])}, {"to_end": [1.0]}], ids=repr)
def test_ediff1d_edge_dtype(kw):
    with pytest.raises(TypeError):
        np.ediff1d(np.arange(4, dtype=np.int32), **kw)
    with pytest.raises(TypeError, match="same_kind"):
        kd.ediff1d(kd.arange(4), **kw)


def test_ediff1d_bool():
    with pytest.raises(TypeError):
        np.ediff1d(np.array([True, False]))
    with pytest.raises(TypeError, match="boolean"):
        kd.ediff1d(kd.asarray([True, False]))


# ----- matrices

@numpy_kdsl_allclose()
@pytest.mark.parametrize("k", [0, 1, -2, 5])
@pytest.mark.parametrize("shape", [(3,), (2, 2), (0,), (1,)])
@pytest.mark.parametrize("layout", ["plain", "strided"])
def test_diagflat(xp, k, shape, layout):
    return xp.diagflat(layout_data(xp, shape, "float32", layout), k)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("n,m,k", [(3, None, 0), (3, 5, 1), (4, 2, -1), (0, 3, 0), (1, 1, 0), (3, 3, -5),
                                   (3, 3, 9)])
@pytest.mark.parametrize("dtype", ["float32", "int32", "bool", "uint8"])
def test_tri(xp, n, m, k, dtype):
    return xp.tri(n, m, k, dtype=dtype)


def test_tri_default_dtype():
    assert kd.tri(2).dtype == kd.float32  # kdsl's default float (NumPy's is float64), as kd.eye
    np.testing.assert_array_equal(kd.tri(3, 4, 1).numpy(), np.tri(3, 4, 1))


@pytest.mark.parametrize("args,exc", [((2.0,), TypeError)])  # negative sizes: empty, as NumPy (test_array_lengths)
def test_tri_errors(args, exc):
    with pytest.raises(exc):
        kd.tri(*args)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("n", [None, 0, 1, 4])
@pytest.mark.parametrize("increasing", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
@pytest.mark.parametrize("layout", ["plain", "strided"])
def test_vander(xp, n, increasing, dtype, layout):
    x = xp.asarray(sample((5,), dtype, special=False, low=-3, high=3))
    if layout == "strided":
        x = xp.asarray(np.repeat(sample((5,), dtype, special=False, low=-3, high=3), 2))[::2]
    return xp.vander(x, n, increasing)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("increasing", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_vander_special_values(xp, dtype, increasing):
    """x ** 1 is x itself (NaN and inf components included): x ** 0 does not enter the running product."""
    x = np.empty(8, dtype)
    x[:] = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5, -2.0, 0.5]
    if x.dtype.kind == "c":
        x.imag = [0.5, np.inf, 1.0, -0.0, np.nan, 2.0, 0.0, -1.0]
    return xp.vander(xp.asarray(x), 4, increasing)


@pytest.mark.parametrize("dtype,expected", [("int8", "int32"), ("int32", "int32"), ("uint32", "int64"),
                                            ("bool", "int32"), ("float32", "float64")])
def test_vander_dtype(dtype, expected):
    x = sample((4,), dtype, special=False, low=0, high=3)
    got = kd.vander(kd.asarray(x))
    assert got.dtype == expected  # x's dtype with kdsl's default int (int32; NumPy's int64)
    np.testing.assert_array_equal(got.numpy(), np.vander(x))


def test_vander_needs_1d():
    with pytest.raises(ValueError, match="one-dimensional"):
        kd.vander(kd.ones((2, 2)))


@numpy_kdsl_allclose()
@pytest.mark.parametrize("case", range(7))
def test_block(xp, case):
    a = layout_data(xp, (2, 2), "float32")
    b = layout_data(xp, (2, 3), "int16", "strided", seed=1)
    c = layout_data(xp, (1, 5), "float32", "transposed", seed=2)
    v = layout_data(xp, (3,), "int32", seed=3)
    cases = [
        lambda: xp.block([[a, b], [c]]),
        lambda: xp.block([v, v, layout_data(xp, (0,), "int32")]),
        lambda: xp.block([[v], [v]]),
        lambda: xp.block(a),
        lambda: xp.block([[[a]], [[a]]]),  # depth 3: 2-d blocks gain a leading axis
        lambda: xp.block([[layout_data(xp, (2, 1, 2), "float32"), layout_data(xp, (2, 1, 3), "float32")]]),
        lambda: xp.block([[xp.asarray(np.float32(1)), xp.asarray(np.float32(2))], [xp.asarray(np.float32(3)),
                                                                                   xp.asarray(np.float32(4))]]),
    ]
    return cases[case]()


@pytest.mark.parametrize("arrays,exc", [
    (([1], [2]), TypeError), ([[1], 2], ValueError), ([], ValueError), ([[1], []], ValueError),
    ([[np.zeros((2, 2))], [np.zeros((3, 3))]], ValueError)], ids=repr)
def test_block_errors(arrays, exc):
    with pytest.raises(exc):
        np.block(arrays)
    with pytest.raises(exc):
        kd.block(arrays)


@numpy_kdsl_allclose()
def test_row_stack(xp):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        # (NumPy 2.5 removed row_stack, an alias of vstack: then vstack is the oracle)
        stack = getattr(xp, "row_stack", xp.vstack)
        return stack([layout_data(xp, (3,), "float32"), layout_data(xp, (2, 3), "float32", "strided")])


def test_row_stack_warns():
    with pytest.warns(DeprecationWarning, match="vstack"):
        kd.row_stack([kd.ones(2)])


# ----- fromfunction, apply_along_axis

@numpy_kdsl_allclose()
@pytest.mark.parametrize("shape", [(2, 3), (4,), (0, 2), (1, 1, 3)])
@pytest.mark.parametrize("dtype", ["float32", "int32", "float64"])
def test_fromfunction(xp, shape, dtype):
    return xp.fromfunction(lambda *idx: sum(i * 10 ** k for k, i in enumerate(idx)) + idx[0] * 0.5, shape,
                           dtype=dtype)


@numpy_kdsl_allclose()
def test_fromfunction_kwargs_and_tuple_result(xp):
    def f(i, j, scale):
        return i * scale, i >= j
    return list(xp.fromfunction(f, (3, 3), dtype=xp.int32, scale=3))


def test_fromfunction_calls_once_with_lazy_indices():
    calls = []

    def f(i, j):
        calls.append((type(i), i.shape, i.dtype))
        return i - j
    out = kd.fromfunction(f, (2, 5))
    assert calls == [(kd.Array, (2, 5), kd.float32)]  # dtype=float: kdsl's float32
    np.testing.assert_array_equal(out.numpy(), np.fromfunction(lambda i, j: i - j, (2, 5)).astype(np.float32))


def _span(x, xp):
    return xp.max(x) - xp.min(x)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("axis", [0, 1, 2, -1])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("fn", ["span", "reverse", "outer", "cumsum_first2"])
def test_apply_along_axis(xp, axis, layout, fn):
    a = layout_data(xp, (2, 3, 4), "float32", layout)
    funcs = {"span": lambda x: _span(x, xp), "reverse": lambda x: x[::-1],
             "outer": lambda x: x[:, None] * x[None, :2], "cumsum_first2": lambda x: xp.cumsum(x)[:2]}
    return xp.apply_along_axis(funcs[fn], axis, a)


@numpy_kdsl_allclose()
def test_apply_along_axis_args_and_1d(xp):
    a = layout_data(xp, (5,), "int32")
    return [xp.apply_along_axis(lambda x, s, t=0: x * s + t, 0, a, 3, t=1),
            xp.apply_along_axis(lambda x: x.sum(), 1, layout_data(xp, (3, 1), "int16"))]


def test_apply_along_axis_errors():
    with pytest.raises(ValueError):
        np.apply_along_axis(np.sum, 0, np.ones((2, 0)))
    with pytest.raises(ValueError, match="iteration dimensions are 0"):
        kd.apply_along_axis(kd.sum, 0, kd.ones((2, 0)))
    with pytest.raises(ValueError, match="same shape"):
        kd.apply_along_axis(lambda x: x[:int(x[0])], 1, kd.asarray([[1, 0], [2, 0]]))
    with pytest.raises(np.exceptions.AxisError):
        kd.apply_along_axis(kd.sum, 2, kd.ones((2, 2)))


# ----- through NumPy's dispatch

def test_numpy_dispatch():
    a = kd.asarray(sample((3, 4), "float32"))
    for name, args in [("fliplr", ()), ("flipud", ()), ("rot90", (3,)), ("rollaxis", (1,)), ("append", ([1.0],)),
                       ("delete", (1, 1)), ("insert", (2, 0.0, 0)), ("resize", ((5, 2),)), ("ediff1d", ()),
                       ("diagflat", (1,))]:
        got = getattr(np, name)(a, *args)
        assert isinstance(got, kd.Array), name
        np.testing.assert_array_equal(got.numpy(), getattr(np, name)(a.numpy(), *args), err_msg=name)
    got = np.block([[a, a]])
    assert isinstance(got, kd.Array) and got.shape == (3, 8)
    got = np.apply_along_axis(lambda r: r[::2], 1, a)
    assert isinstance(got, kd.Array)
    np.testing.assert_array_equal(got.numpy(), a.numpy()[:, ::2])


@pytest.mark.parametrize("obj", [np.array([2, 0]), np.array([True, False, False, True]), np.array(3)], ids=repr)
def test_kdsl_positions_and_values(obj):
    a = sample((3, 4), "float32")
    v = sample((3, 1), "float32", seed=4)
    got = kd.insert(kd.asarray(a), kd.asarray(obj), kd.asarray(v), axis=1)
    np.testing.assert_array_equal(got.numpy(), np.insert(a, obj, v, axis=1))
    got = kd.delete(kd.asarray(a), kd.asarray(obj), axis=1)
    np.testing.assert_array_equal(got.numpy(), np.delete(a, obj, axis=1))
