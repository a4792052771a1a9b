"""kd.diagonal, a.diagonal() and kd.diag of a 2-d array are views in NumPy: a write into the array shows in
them (numpy's diagonal returns a read-only view). kdsl's kept the values of the moment they were made."""

import numpy as np
import pytest

import kdsl as kd

CASES = [  # (shape, offset, axis1, axis2)
    ((4, 4), 0, 0, 1), ((4, 6), 2, 0, 1), ((5, 3), -2, 0, 1), ((3, 3), 5, 0, 1), ((2, 3, 4), 1, 2, 0),
    ((2, 3, 4), -1, -1, -2), ((1, 1), 0, 0, 1), ((0, 3), 0, 0, 1),
]


def _write(x, dtype):
    """A few writes into ``x``, the same on NumPy's and kdsl's side."""
    flat = tuple(0 for _ in x.shape)
    if x.size:
        x[flat] = -1 if np.dtype(dtype).kind in "iu" else np.nan
        x[tuple(s - 1 for s in x.shape)] = 7 if np.dtype(dtype).kind in "iu" else np.inf
    x[...] = x * 2


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float64])
@pytest.mark.parametrize("case", CASES)
def test_diagonal_follows_writes_into_its_array(case, dtype):
    shape, offset, axis1, axis2 = case
    host = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
    a = kd.asarray(host)
    views = [kd.diagonal(a, offset, axis1, axis2), a.diagonal(offset, axis1, axis2)]
    _write(host, dtype)
    _write(a, dtype)
    for v in views:
        np.testing.assert_array_equal(v.numpy(), np.diagonal(host, offset, axis1, axis2))


@pytest.mark.parametrize("k", [0, 1, -2])
def test_diag_of_a_view_follows_its_base(k):
    host = np.arange(30, dtype=np.float32).reshape(5, 6)
    a = kd.asarray(host)
    view_np, view_kd = host[::2, 1:], a[::2, 1:]  # a strided view: its diagonal follows its base's writes
    d = kd.diag(view_kd, k)
    host[2, 3] = -0.0
    a[2, 3] = -0.0
    host[0, 1 + max(k, 0)] = np.inf
    a[0, 1 + max(k, 0)] = np.inf
    np.testing.assert_array_equal(d.numpy(), np.diag(view_np, k))


def test_a_write_into_the_diagonal_keeps_its_own_values():
    a = kd.arange(9, dtype=kd.float32).reshape(3, 3)
    d = kd.diagonal(a)
    d[0] = 100.0  # NumPy's view is read-only; kdsl's is writeable (documented) and does not reach a
    a[1, 1] = -4.0
    assert d.tolist() == [100.0, 4.0, 8.0] and a.tolist()[1][1] == -4.0
