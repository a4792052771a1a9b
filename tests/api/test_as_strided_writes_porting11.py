"""Writes into ``np.lib.stride_tricks.as_strided(x, shape, strides)`` reach ``x`` when the view's elements do not
overlap and ``x`` is C-contiguous, as NumPy's: ``v = as_strided(a, (3,), (2 * a.itemsize,)); v[1] = 100`` set
``a[2]`` in NumPy and nothing in kdsl (the view silently kept its own values). Self-overlapping views (NumPy's
writes there depend on the order it visits memory) keep their own values, as before
(kdsl/frontend/array/sliding_window.as_strided)."""

import numpy as np
import pytest

import kdsl as kd


def _both(make, write, dtype="float64", n=24):
    """``write(make(x))`` on a NumPy and a kdsl array of ``n`` values; both arrays and views afterwards."""
    out = []
    for xp in (np, kd):
        a = xp.asarray(np.arange(n).astype(dtype))
        ast = xp.lib.stride_tricks.as_strided
        v = make(ast, a)
        write(v)
        out.append((np.asarray(a.numpy() if xp is kd else a), np.asarray(v.numpy() if xp is kd else v)))
    return out


CASES = [  # (shape, strides in elements)
    ((3,), (2,)), ((4, 3), (6, 2)), ((3, 4), (1, 6)), ((2, 2, 3), (12, 3, 1)), ((1, 5), (7, 3)), ((6, 1), (4, 1)),
    ((0, 3), (3, 1)), ((24,), (1,)),
]


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "uint8", "int64"])
@pytest.mark.parametrize(("shape", "steps"), CASES)
def test_writes_reach_the_array(shape, steps, dtype):
    def make(ast, a):
        return ast(a, shape=shape, strides=tuple(s * a.itemsize for s in steps))

    def write(v):
        if v.size:
            v[(0,) * v.ndim] = 99
            v[..., -1] = 7
        v += 1

    (na, nv), (ka, kv) = _both(make, write, dtype)
    np.testing.assert_array_equal(ka, na)
    np.testing.assert_array_equal(kv, nv)


def test_views_follow_later_writes_and_nan():
    a = kd.zeros(12)
    v = kd.lib.stride_tricks.as_strided(a, shape=(4,), strides=(3 * a.itemsize,))
    v[2] = np.nan
    a[0] = 5.0
    assert np.isnan(a.numpy()[6])
    assert v.tolist()[0] == 5.0 and np.isnan(v.tolist()[2])
    b = kd.zeros((3, 4), dtype=kd.int32)
    col = kd.lib.stride_tricks.as_strided(b, shape=(3,), strides=(b.strides[0],))  # the first column
    col[:] = [1, 2, 3]
    assert b.numpy()[:, 0].tolist() == [1, 2, 3]


def test_overlapping_and_non_contiguous_bases_keep_their_own_values():
    a = kd.arange(6)
    w = kd.lib.stride_tricks.as_strided(a, shape=(4, 3), strides=(a.itemsize, a.itemsize))  # windows: overlap
    w[0, 1] = 100
    assert a.tolist() == list(range(6))
    base = kd.arange(12)
    x = base[::2]  # a strided base: its data positions are not its elements
    v = kd.lib.stride_tricks.as_strided(x, shape=(3,), strides=(x.strides[0],))
    v[0] = -1
    assert base.tolist() == list(range(12))
    ro = kd.lib.stride_tricks.as_strided(kd.arange(4), shape=(2,), strides=(8,), writeable=False)
    with pytest.raises(ValueError):
        ro[0] = 1


@pytest.mark.parametrize("make", [lambda xp: xp.zeros(12), lambda xp: xp.full((3, 4), 2.5), lambda xp: xp.ones((2, 6))])
def test_lazy_constants_have_numpys_layout(make):
    """``as_strided(np.zeros(12), ...)`` raised "reaches outside the array's data (1 elements)": an unwritten
    constant is one value broadcast, so its copy stands for the memory NumPy's strides describe."""
    results = []
    for xp in (np, kd):
        a = make(xp)
        v = xp.lib.stride_tricks.as_strided(a, shape=(3, 2), strides=(4 * a.itemsize, a.itemsize))
        v[1, 1] = -3
        results.append((np.asarray(a.numpy() if xp is kd else a), np.asarray(v.numpy() if xp is kd else v)))
    (na, nv), (ka, kv) = results
    np.testing.assert_array_equal(ka, na)
    np.testing.assert_array_equal(kv, nv)
