"""Integer-array indexing along axis 0 (``a[idx]``, issue 9's start): a lazy gather fused into the kernel that
reads it, against NumPy on several shapes, dtypes, index kinds and views; out-of-bounds indices raise IndexError."""

import numpy as np
import pytest
from kd_testing import sample

import kdsl as kd

SHAPES = [(7,), (5, 3), (4, 1, 6), (1,)]


def _index(n, kind, rng):
    idx = rng.integers(-n, n, size=9)
    return {"list": idx.tolist(), "int32": idx.astype(np.int32), "int64": idx.astype(np.int64),
            "kd int32": kd.asarray(idx.astype(np.int32)), "kd int64": kd.asarray(idx.astype(np.int64)),
            "kd uint32": kd.asarray((idx % n).astype(np.uint32)), "2-d": idx[:8].reshape(2, 4)}[kind], idx


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("kind", ["list", "int32", "int64", "kd int32", "kd int64", "kd uint32", "2-d"])
def test_gather_matches_numpy(shape, kind):
    rng = np.random.default_rng(len(shape) * 10 + len(kind))
    host = sample(shape, "float32")
    index, raw = _index(shape[0], kind, rng)
    want = host[np.asarray(raw % shape[0] if kind == "kd uint32" else raw)[: 8 if kind == "2-d" else None]
                .reshape(np.shape(index) if not isinstance(index, kd.Array) else index.shape)]
    np.testing.assert_array_equal(kd.asarray(host)[index].numpy(), want)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "int64", "float16", "float64"])
def test_gather_dtypes(dtype):
    host = sample((6, 2), dtype)
    idx = [5, 0, -1, 3, 3]
    got = kd.asarray(host)[idx]
    assert got.dtype.name == dtype
    np.testing.assert_array_equal(got.numpy(), host[idx])


def test_gather_fuses_with_expressions_views_and_reductions():
    host = np.arange(24, dtype=np.float32).reshape(4, 6)
    a = kd.asarray(host)
    idx = kd.asarray([3, -1, 0])
    np.testing.assert_array_equal(((a * 2 + 1)[idx]).numpy(), (host * 2 + 1)[[3, -1, 0]])
    np.testing.assert_array_equal(a.T[idx].numpy(), host.T[[3, -1, 0]])
    np.testing.assert_array_equal(a[:, ::-2][idx].numpy(), host[:, ::-2][[3, -1, 0]])
    np.testing.assert_array_equal(a[idx, 1::2].numpy(), host[[3, -1, 0], 1::2])
    np.testing.assert_allclose(a[idx * 0 + 2].sum(axis=1).numpy(), host[[2, 2, 2]].sum(axis=1))
    np.testing.assert_array_equal((a[idx] - a[kd.asarray([0, 1, 2])]).numpy(), host[[3, -1, 0]] - host[[0, 1, 2]])
    onehot = kd.eye(4)[kd.asarray([2, 0])]
    np.testing.assert_array_equal(onehot.numpy(), np.eye(4, dtype=np.float32)[[2, 0]])


def test_gather_is_a_copy_and_empty_cases():
    a = kd.zeros((3, 2))
    g = a[[0, 1]]
    g[0, 0] = 5  # advanced indexing copies: a is unchanged
    assert a.numpy().sum() == 0 and g.numpy()[0, 0] == 5
    assert a[[]].shape == (0, 2) and kd.zeros((0, 2))[[]].shape == (0, 2)
    assert a[np.array(1)].shape == (2,)


@pytest.mark.parametrize("index", [[3], [-4], np.array([0, 7]), "kd"])
def test_gather_out_of_bounds_raises(index):
    a = kd.ones((3, 2))
    index = kd.asarray([1, -4, 0]) if isinstance(index, str) else index
    with pytest.raises(IndexError, match="out of bounds for axis 0 with size 3"):
        a[index]


@pytest.mark.parametrize("index", [[1.0], np.array([0.5]), kd.asarray([0.0])])
def test_gather_float_index_raises_like_numpy(index):
    # NumPy's words: "arrays used as indices must be of integer (or boolean) type" for arrays, "only integers,
    # slices ..." for a list of floats
    with pytest.raises(IndexError) as want:
        np.ones(2)[index.numpy() if isinstance(index, kd.Array) else index]
    with pytest.raises(IndexError) as got:
        kd.ones(2)[index]
    assert str(got.value) == str(want.value)


def test_boolean_mask_mixed_with_integer_arrays_is_numpys():  # its nonzero indices: tests/masks/
    host = np.arange(4.0).reshape(2, 2)
    np.testing.assert_array_equal(kd.asarray(host)[[True, False], [0]].numpy(), host[[True, False], [0]])


def test_gather_errors_for_0d_and_assignment():
    with pytest.raises(IndexError, match="0-dimensional"):
        kd.asarray(1.0)[[0]]
    with pytest.raises(IndexError, match="out of bounds"):
        kd.zeros((3, 3))[[0, 3], 1:] = 1.0


def test_gather_in_jit():
    @kd.jit
    def pick(x, i):
        return x[i] * 2

    x = kd.asarray(np.arange(5, dtype=np.float32))
    for idx in ([4, 0], [1, 1]):
        np.testing.assert_array_equal(pick(x, kd.asarray(idx)).numpy(), np.arange(5, dtype=np.float32)[idx] * 2)


def test_gather_of_a_reduction_is_not_absorbed_as_its_epilogue():
    """A reduction's kernel can compute an elementwise consumer in its epilogue from the accumulator of the same
    row; a gather reads its source at *other* rows, so the source must be stored first."""
    h = np.arange(12, dtype=np.float32).reshape(4, 3)
    x = kd.asarray(h)
    rows = h.sum(axis=1)
    np.testing.assert_array_equal(x.sum(axis=1)[kd.asarray([3, 2, 1, 0])].numpy(), rows[[3, 2, 1, 0]])
    np.testing.assert_array_equal((x.sum(axis=1) * 2)[kd.asarray([3, 2, 1, 0])].numpy(), (rows * 2)[[3, 2, 1, 0]])
    s = x.sum(axis=1)
    i = (s > 5).astype(kd.int32) * 3
    hi = (rows > 5).astype(np.int32) * 3
    np.testing.assert_array_equal((s[i] + i).numpy(), rows[hi] + hi)
    a = np.array([10.0, 20.0, 30.0], np.float32)  # the index may come from the reduction (argmax): fine
    np.testing.assert_array_equal(kd.asarray(a)[x.argmax(axis=1)].numpy(), a[h.argmax(axis=1)])


KEYS = [
    lambda xp: (xp.arange(3), [2, 0, 1]),  # P[arange(m), y]: the ML case
    lambda xp: (0, [1, 2]), lambda xp: ([1, -1], 0), lambda xp: ([[0], [3]], [0, 2, -1]),
    lambda xp: ([1, 2], [0, 1], [1, 0]), lambda xp: ([3, 1], [0, -1], slice(None, None, -1)),
    lambda xp: ([1], slice(1, None)), lambda xp: (xp.asarray([3, 0]), xp.asarray([[1], [2]]), 1),
]


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("view", ["contiguous", "strided", "expression"])
def test_gather_several_index_arrays_match_numpy(key, view):
    host = np.arange(24, dtype=np.float32).reshape(4, 3, 2)
    a = kd.asarray(host)
    if view == "strided":
        host, a = host[::-1], a[::-1]
    elif view == "expression":
        host, a = host * 3 - 1, a * 3 - 1
    np.testing.assert_array_equal(a[key(kd)].numpy(), host[key(np)])


@pytest.mark.parametrize("key,match", [(([1, 2], [0, 1, 2]), "shape mismatch"),
                                       (([0], 5), "index 5 is out of bounds for axis 1 with size 3"),
                                       (([0], [0], [0], [0]), "too many indices"),
                                       ((slice(None), [3]), "out of bounds")])
def test_gather_several_index_arrays_errors(key, match):
    with pytest.raises(IndexError, match=match):
        kd.zeros((4, 3, 2))[key]


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint32", "uint64"])
def test_gather_narrow_and_unsigned_device_indices(dtype):
    host = np.arange(300 * 2, dtype=np.float32).reshape(300, 2)
    rows = np.array([5, 0, 99], dtype)
    cols = np.array([1, 0, 1], dtype)
    a = kd.asarray(host)
    np.testing.assert_array_equal(a[kd.asarray(rows), kd.asarray(cols)].numpy(), host[rows, cols])
    np.testing.assert_array_equal(a[kd.asarray(rows)].numpy(), host[rows])
