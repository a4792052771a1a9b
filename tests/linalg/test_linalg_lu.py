"""solve, inv, det, slogdet (LU with partial pivoting) against NumPy."""

import numpy as np
import pytest
from linalg_testing import DTYPES, layouts, tol, well_conditioned

import kdsl as kd
from kdsl.linalg import blocked, kernels

SHAPES = [(1, 1), (3, 3), (2, 5, 5), (3, 2, 8, 8), (2, 33, 33)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_solve_inv_det_match_numpy(shape, dtype):
    a = well_conditioned(shape, dtype, seed=len(shape))
    b = np.random.default_rng(1).standard_normal(shape[:-1] + (3,)).astype(dtype)
    x = kd.linalg.solve(kd.asarray(a), kd.asarray(b))
    assert x.dtype.name == dtype and x.shape == b.shape
    np.testing.assert_allclose(x.numpy(), np.linalg.solve(a, b), **tol(dtype))
    np.testing.assert_allclose(kd.linalg.inv(kd.asarray(a)).numpy(), np.linalg.inv(a), **tol(dtype))
    np.testing.assert_allclose(kd.linalg.det(kd.asarray(a)).numpy(), np.linalg.det(a), rtol=tol(dtype)["rtol"])
    sign, logdet = kd.linalg.slogdet(kd.asarray(a))
    want = np.linalg.slogdet(a)
    np.testing.assert_array_equal(sign.numpy(), want.sign)
    np.testing.assert_allclose(logdet.numpy(), want.logabsdet, **tol(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_inputs_in_any_layout(dtype):
    a = well_conditioned((2, 6, 6), dtype)
    for name, view, host in layouts(a):
        np.testing.assert_allclose(kd.linalg.inv(view).numpy(), np.linalg.inv(host), **tol(dtype), err_msg=name)
    b = np.arange(24, dtype=dtype).reshape(2, 6, 2)
    np.testing.assert_allclose(kd.linalg.solve(kd.asarray(a), kd.asarray(b)[:, ::-1]).numpy(),
                               np.linalg.solve(a, b[:, ::-1]), **tol(dtype))


def test_vector_right_hand_sides_and_broadcasting():
    a = well_conditioned((3, 4, 4), "float64")
    b1 = np.arange(4.0)
    np.testing.assert_allclose(kd.linalg.solve(kd.asarray(a), kd.asarray(b1)).numpy(),
                               np.linalg.solve(a, b1[:, None])[..., 0], **tol("float64"))
    b = np.ones((2, 1, 4, 2))
    np.testing.assert_allclose(kd.linalg.solve(kd.asarray(a), kd.asarray(b)).numpy(), np.linalg.solve(a, b),
                               **tol("float64"))
    with pytest.raises(ValueError, match="rows"):
        kd.linalg.solve(kd.asarray(a), kd.asarray(np.ones((3, 5, 1))))
    with pytest.raises(ValueError, match="rows"):  # NumPy 2: only a 1-d x2 is a vector, (3, 4) is one matrix
        kd.linalg.solve(kd.asarray(a), kd.asarray(np.ones((3, 4))))


def test_empty_batches_and_empty_matrices():
    assert kd.linalg.inv(kd.zeros((0, 3, 3))).shape == (0, 3, 3)
    assert kd.linalg.det(kd.zeros((0, 2, 2))).shape == (0,)
    assert kd.linalg.solve(kd.zeros((0, 2, 2)), kd.zeros((0, 2, 1))).shape == (0, 2, 1)
    np.testing.assert_array_equal(kd.linalg.det(kd.zeros((2, 0, 0))).numpy(), np.linalg.det(np.zeros((2, 0, 0))))
    assert kd.linalg.inv(kd.zeros((2, 0, 0))).shape == (2, 0, 0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_singular_matrices_raise_where_numpy_does(dtype):
    a = np.array([[[1, 2, 3], [2, 4, 6], [1, 0, 1]], [[1, 0, 0], [0, 1, 0], [0, 0, 1]]], dtype)
    for fn in (kd.linalg.inv, lambda x: kd.linalg.solve(x, kd.ones(x.shape[:-1] + (1,), dtype=dtype))):
        with pytest.raises(kd.linalg.LinAlgError, match="Singular matrix"):
            fn(kd.asarray(a))
        with pytest.raises(np.linalg.LinAlgError):
            fn(kd.asarray(np.zeros((1, 1), dtype)))
    np.testing.assert_array_equal(kd.linalg.det(kd.asarray(a)).numpy(), [0.0, 1.0])
    sign, logdet = kd.linalg.slogdet(kd.asarray(a))
    assert sign.numpy().tolist() == [0.0, 1.0] and logdet.numpy()[0] == -np.inf


def test_ill_conditioned_hilbert_matrix():
    n = 8  # condition number ~1.5e10: float64 keeps about 6 digits, as LAPACK does
    h = 1.0 / (np.arange(n)[:, None] + np.arange(n)[None, :] + 1.0)
    b = h @ np.ones(n)
    x = kd.linalg.solve(kd.asarray(h), kd.asarray(b)).numpy()
    np.testing.assert_allclose(x, np.linalg.solve(h, b), rtol=1e-4)
    np.testing.assert_allclose(kd.linalg.det(kd.asarray(h)).numpy(), np.linalg.det(h), rtol=1e-5)


def test_pivoting_is_needed_and_done():
    a = np.array([[0.0, 1.0], [1.0, 0.0]])  # a zero leading entry: without row swaps this fails
    np.testing.assert_array_equal(kd.linalg.inv(kd.asarray(a)).numpy(), a)
    assert float(kd.linalg.det(kd.asarray(a))) == -1.0


def test_integer_input_is_computed_in_float64():
    a = np.array([[2, 1], [1, 3]])
    got = kd.linalg.inv(kd.asarray(a))
    assert got.dtype.name == "float64"
    np.testing.assert_allclose(got.numpy(), np.linalg.inv(a), **tol("float64"))


def test_many_dispatches_when_the_loop_budget_is_small(monkeypatch):
    monkeypatch.setattr(kernels, "loop_budget", lambda: 8)  # every step its own dispatch
    a = well_conditioned((2, 7, 7), "float64")
    b = np.ones((2, 7, 2))
    np.testing.assert_allclose(kd.linalg.solve(kd.asarray(a), kd.asarray(b)).numpy(), np.linalg.solve(a, b),
                               **tol("float64"))


def test_bad_input_is_refused():
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        kd.linalg.inv(kd.ones((2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="two-dimensional"):
        kd.linalg.det(kd.ones(3))
    with pytest.raises(TypeError, match="float16"):
        kd.linalg.inv(kd.ones((2, 2), dtype=kd.float16))


def test_blocked_factorisations_match_the_unblocked(monkeypatch):
    monkeypatch.setattr(blocked, "BLOCK", 3)  # 10 columns: panels of 3, triangular solves and matmul updates
    a = well_conditioned((2, 10, 10), "float64")
    np.testing.assert_allclose(kd.linalg.inv(kd.asarray(a)).numpy(), np.linalg.inv(a), **tol("float64"))
    np.testing.assert_allclose(kd.linalg.det(kd.asarray(a)).numpy(), np.linalg.det(a), rtol=1e-10)
    s = a @ np.swapaxes(a, -1, -2)
    np.testing.assert_allclose(kd.linalg.cholesky(kd.asarray(s)).numpy(), np.linalg.cholesky(s), **tol("float64"))
    singular = a.copy()
    singular[1, :, 7] = 0.0  # an exactly zero pivot in the third panel (NumPy raises only on exact zeros)
    with pytest.raises(kd.linalg.LinAlgError):
        kd.linalg.solve(kd.asarray(singular), kd.ones((2, 10, 1), dtype=kd.float64))
