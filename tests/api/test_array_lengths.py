"""Sizes and diagonal offsets given as 0-d integer arrays (kdsl's or NumPy's) or NumPy integers, as NumPy takes
them: tri tril triu eye identity diag diagflat diagonal trace."""

import numpy as np
import pytest

import kdsl as kd

HOST = np.array([1, 3, 2], np.int64)


def wrap(kind, v):
    """``v`` as a kdsl 0-d array (a lazy reduction result), a NumPy 0-d array or a NumPy integer."""
    if kind == "kdsl":
        return kd.asarray(np.array([v, -100], np.int64)).max()
    if kind == "ndarray":
        return np.array(v, np.int64)
    return np.int32(v)


KINDS = ["kdsl", "ndarray", "npint"]


def same(got, ref):
    assert isinstance(got, kd.Array)
    assert got.shape == ref.shape and all(type(d) is int for d in got.shape)
    np.testing.assert_array_equal(got.numpy(), ref)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("n", "m", "k"), [(3, None, 0), (3, 2, 1), (0, 3, -1), (1, 1, 0), (4, 5, -2)])
def test_tri_eye_take_array_sizes(kind, n, m, k):
    def w(v):
        return v if v is None else wrap(kind, v)

    same(kd.tri(w(n), w(m), k=w(k), dtype=kd.float64), np.tri(n, m, k=k))
    same(kd.eye(w(n), w(m), k=w(k), dtype=kd.float64), np.eye(n, m, k=k))
    same(kd.identity(w(n), dtype=kd.int32), np.identity(n, dtype=np.int32))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("k", [0, 1, -2])
def test_offsets_take_arrays(kind, k):
    host = np.arange(12.0).reshape(3, 4)
    a = kd.asarray(host)
    same(kd.tril(a, wrap(kind, k)), np.tril(host, k))
    same(kd.triu(a.T, wrap(kind, k)), np.triu(host.T, k))
    same(kd.diag(a, wrap(kind, k)), np.diag(host, k))
    same(kd.diag(a[0], wrap(kind, k)), np.diag(host[0], k))
    same(kd.diagflat(a[:2, :2], wrap(kind, k)), np.diagflat(host[:2, :2], k))
    same(kd.diagonal(a[:, ::2], wrap(kind, k)), np.diagonal(host[:, ::2], k))
    same(a.diagonal(wrap(kind, k)), host.diagonal(k))
    same(kd.trace(a, wrap(kind, k)), np.asarray(np.trace(host, k)))


@pytest.mark.parametrize(("n", "m"), [(-1, None), (3, -2), (-2, 3), (0, 0)])
def test_tri_negative_sizes_are_empty(n, m):
    same(kd.tri(n, m, dtype=kd.float64), np.tri(n, m))


def test_sizes_of_other_kinds_raise_as_numpy():
    for bad in (kd.asarray(2.0), kd.asarray([2]), kd.asarray(True)):
        with pytest.raises(TypeError):
            kd.tri(bad)
        with pytest.raises(TypeError):
            kd.eye(bad)
    with pytest.raises(ValueError, match="negative"):
        kd.eye(-1)
    with pytest.raises(ValueError):
        np.eye(-1)
