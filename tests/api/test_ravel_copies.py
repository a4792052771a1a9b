"""ravel() is NumPy's: a view of a C-contiguous array (writes reach it both ways) and a copy of anything else,
even where reshape(-1) could be a view (a[:, ::2].ravel(), x[::2].ravel(), a column); ravel('F'/'A') and
reshape(order='F') are views of Fortran-contiguous arrays (a.T). Each case writes into the result and then into
the source, and both arrays must match NumPy's."""

import numpy as np
import pytest

import kdsl as kd

EXPRESSIONS = [
    "a.ravel()", "a[1:].ravel()", "a[:, ::2].ravel()", "a[:, 1].ravel()", "a[:, :1].ravel()", "a[::-1].ravel()",
    "a[:, 1:3].ravel()", "a.T.ravel()", "a[0].ravel()", "a[0, ::2].ravel()", "a[None].ravel()",
    "a.reshape(3, 1, 4)[:, 0].ravel()", "np.ravel(a[:, ::2])", "np.ravel(a.T)", "a[:, ::2].reshape(-1)",
    "a.T.ravel('F')", "a.T.ravel('A')", "a.ravel('F')", "a[:, ::2].ravel('F')", "a.T.reshape((2, 6), order='F')",
    "a.reshape((2, 6), order='F')", "a[0].ravel('F')", "a.T.reshape(-1)", "a[::2].reshape(-1)",
]


@pytest.mark.parametrize("expr", EXPRESSIONS)
@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_writes_reach_the_source_only_where_numpy_views(expr, dtype):
    results = []
    for mod in (np, kd):
        host = np.arange(12, dtype=dtype).reshape(3, 4)
        a = host if mod is np else kd.asarray(host)
        b = eval(expr, {"np": mod, "a": a})
        b[1] = -1  # into the result: reaches `a` only through a view
        a[0, 0] = 50  # into the source: shows in `b` only through a view
        results.append((np.asarray(a if mod is np else a.numpy()), np.asarray(b if mod is np else b.numpy())))
    (na, nb), (ka, kb) = results
    np.testing.assert_array_equal(ka, na)
    np.testing.assert_array_equal(kb, nb)


@pytest.mark.parametrize("shape,index", [((10,), np.s_[::2]), ((10,), np.s_[::-1]), ((10,), np.s_[2:7]),
                                         ((2, 3, 4), np.s_[:, ::2, :]), ((2, 3, 4), np.s_[:, :, 1]),
                                         ((2, 3, 4), np.s_[1:]), ((0, 3), np.s_[:, ::2])])
def test_ravel_of_slices_matches_numpy(shape, index):
    host = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    a = kd.asarray(host)
    na, ka = host.copy(), a
    nb, kb = na[index].ravel(), ka[index].ravel()
    if nb.size:
        nb[0] = 99
        kb[0] = 99
    np.testing.assert_array_equal(ka.numpy(), na)
    np.testing.assert_array_equal(kb.numpy(), nb)
    assert kb.shape == nb.shape


def test_ravel_copy_is_independent_of_later_sorts_and_in_place_ops():
    host = np.array([[3.0, 1.0, 2.0], [9.0, 7.0, 8.0]])
    for mod in (np, kd):
        a = host.copy() if mod is np else kd.asarray(host)
        flat = a.T.ravel()
        flat.sort()
        flat -= flat.mean()
        got = a if mod is np else a.numpy()
        np.testing.assert_array_equal(got, host)
