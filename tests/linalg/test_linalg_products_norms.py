"""The linalg extension's products, views and norms against NumPy, and np.linalg dispatching to kd.linalg."""

import math

import numpy as np
import pytest
from linalg_testing import DTYPES, tol

import kdsl as kd

RNG = np.random.default_rng(5)
X = RNG.standard_normal((2, 3, 4))


def test_the_namespace_is_importable_both_ways():
    import kdsl.linalg

    assert kd.linalg is kdsl.linalg and kd.linalg.solve is kdsl.linalg.solve
    assert issubclass(kd.linalg.LinAlgError, np.linalg.LinAlgError)
    for name in ("cholesky", "cross", "det", "diagonal", "eigh", "eigvalsh", "inv", "matmul", "matrix_norm",
                 "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv", "qr", "slogdet", "solve",
                 "svd", "svdvals", "tensordot", "trace", "vecdot", "vector_norm", "norm", "lstsq", "multi_dot"):
        assert callable(getattr(kd.linalg, name)), name


def test_products_and_views():
    a = kd.asarray(X)
    np.testing.assert_allclose(kd.linalg.matmul(a, kd.linalg.matrix_transpose(a)).numpy(), X @ np.swapaxes(X, 1, 2))
    np.testing.assert_allclose(kd.linalg.diagonal(a, offset=1).numpy(), np.linalg.diagonal(X, offset=1))
    np.testing.assert_allclose(kd.linalg.trace(a, offset=-1).numpy(), np.linalg.trace(X, offset=-1))
    np.testing.assert_allclose(kd.linalg.outer(a[0, 0], a[1, 1]).numpy(), np.outer(X[0, 0], X[1, 1]))
    np.testing.assert_allclose(kd.linalg.vecdot(a, a[0], axis=-1).numpy(), np.linalg.vecdot(X, X[0]))
    np.testing.assert_allclose(kd.linalg.tensordot(a, a, axes=([1, 2], [1, 2])).numpy(),
                               np.linalg.tensordot(X, X, axes=([1, 2], [1, 2])))
    with pytest.raises(ValueError, match="must be one-dimensional"):
        kd.linalg.outer(a, a)


def test_cross_broadcasts_along_any_axis():
    u, v = RNG.standard_normal((4, 3)), RNG.standard_normal((3,))
    np.testing.assert_allclose(kd.linalg.cross(kd.asarray(u), kd.asarray(v)).numpy(), np.cross(u, v))
    w = RNG.standard_normal((3, 5))
    np.testing.assert_allclose(kd.linalg.cross(kd.asarray(w), kd.asarray(w[::-1]), axis=0).numpy(),
                               np.linalg.cross(w, w[::-1], axis=0))
    with pytest.raises(ValueError, match="3-dimensional vectors"):
        kd.linalg.cross(kd.ones(2), kd.ones(2))


@pytest.mark.parametrize("n", [0, 1, 2, 5, -1, -3])
def test_matrix_power(n):
    a = np.array([[[2.0, 1.0], [1.0, 1.0]], [[1.0, 0.5], [0.0, 2.0]]])
    np.testing.assert_allclose(kd.linalg.matrix_power(kd.asarray(a), n).numpy(), np.linalg.matrix_power(a, n),
                               **tol("float64"))


def test_matrix_power_refuses_non_integers():
    with pytest.raises(TypeError, match="integer"):
        kd.linalg.matrix_power(kd.eye(2), 1.5)


def test_multi_dot_chooses_an_order_and_keeps_numpys_shapes():
    a, b, c, d = RNG.standard_normal(6), RNG.standard_normal((6, 2)), RNG.standard_normal((2, 7)), \
        RNG.standard_normal(7)
    np.testing.assert_allclose(kd.linalg.multi_dot([kd.asarray(a), kd.asarray(b), kd.asarray(c), kd.asarray(d)])
                               .numpy(), np.linalg.multi_dot([a, b, c, d]))
    np.testing.assert_allclose(kd.linalg.multi_dot([kd.asarray(b), kd.asarray(c)]).numpy(), b @ c)
    with pytest.raises(ValueError, match="two"):
        kd.linalg.multi_dot([kd.asarray(b)])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ord", [2, 1, 0, math.inf, -math.inf, 3, 0.5])
@pytest.mark.parametrize("axis", [None, -1, (0, 2)])
def test_vector_norm(ord, axis, dtype):
    x = X.astype(dtype)
    x[0, 0, 0] = 0.0
    got = kd.linalg.vector_norm(kd.asarray(x), axis=axis, ord=ord, keepdims=True)
    want = np.linalg.vector_norm(x, axis=axis, ord=ord, keepdims=True)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, **tol(dtype))


@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf])
def test_matrix_norm(ord):
    got = kd.linalg.matrix_norm(kd.asarray(X), ord=ord, keepdims=True)
    want = np.linalg.matrix_norm(X, ord=ord, keepdims=True)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, **tol("float64"))
    with pytest.raises(ValueError, match="order"):
        kd.linalg.matrix_norm(kd.asarray(X), ord=3)


@pytest.mark.parametrize("ord,axis", [(None, None), (None, 1), (2, 1), (1, (0, 1)), ("fro", (2, 1)), ("nuc", (1, 2)),
                                      (math.inf, (0, 2))])
def test_numpys_norm(ord, axis):
    got = kd.linalg.norm(kd.asarray(X), ord=ord, axis=axis, keepdims=True)
    want = np.linalg.norm(X, ord=ord, axis=axis, keepdims=True)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, **tol("float64"))
    m = X[0]
    for o in (None, 1, 2, "fro", -math.inf):
        np.testing.assert_allclose(kd.linalg.norm(kd.asarray(m), o).numpy(), np.linalg.norm(m, o), **tol("float64"))
    np.testing.assert_allclose(kd.linalg.norm(kd.asarray([3, 4])).numpy(), 5.0)


def test_numpy_linalg_dispatches_to_kd_linalg():
    a = np.array([[4.0, 1.0], [1.0, 3.0]])
    ka = kd.asarray(a)
    got = np.linalg.solve(ka, kd.asarray([1.0, 2.0]))
    assert isinstance(got, kd.Array)
    np.testing.assert_allclose(got.numpy(), np.linalg.solve(a, [1.0, 2.0]))
    np.testing.assert_allclose(np.linalg.inv(ka).numpy(), np.linalg.inv(a))
    np.testing.assert_allclose(np.linalg.svd(ka, compute_uv=False).numpy(), np.linalg.svd(a, compute_uv=False))
    np.testing.assert_allclose(np.linalg.pinv(ka, 1e-3).numpy(), np.linalg.pinv(a, 1e-3))
    w = np.linalg.eigh(ka)
    assert isinstance(w, kd.linalg.EighResult)
