"""cond, tensorinv and tensorsolve against NumPy: every norm order, batches, dtypes, singular and
ill-conditioned input, empty input and errors."""

import math

import numpy as np
import pytest
from linalg_testing import gaussian, layouts, well_conditioned

import kdsl as kd

ORDERS = [None, 2, -2, 1, -1, math.inf, -math.inf, "fro", "nuc"]
RTOL = {"float32": 2e-4, "float64": 1e-10, "complex64": 2e-3, "complex128": 1e-9}


@pytest.mark.parametrize("p", ORDERS, ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("shape", [(3, 3), (4, 5, 5), (2, 1, 4, 4)])
def test_cond_matches_numpy(shape, dtype, p):
    a = gaussian(shape, dtype, seed=shape[-1])
    got = kd.linalg.cond(kd.asarray(a), p)
    want = np.linalg.cond(a, p)
    assert got.shape == np.shape(want) and got.dtype.name == np.asarray(want).dtype.name
    np.testing.assert_allclose(got.numpy(), want, rtol=RTOL[dtype] * 10)


@pytest.mark.parametrize("p", [None, 2, -2], ids=str)
def test_cond_rectangular_and_views(p):
    a = gaussian((3, 4, 6), "float64", seed=2)
    for name, view, host in layouts(a):
        np.testing.assert_allclose(kd.linalg.cond(view, p).numpy(), np.linalg.cond(host, p), rtol=1e-9,
                                   err_msg=name)


@pytest.mark.parametrize("p", [None, 2, -2, 1, -1, math.inf, -math.inf, "fro"], ids=str)
def test_cond_singular_is_inf_like_numpy(p):
    a = np.stack([np.ones((3, 3)), well_conditioned((3, 3), "float64"), np.zeros((3, 3))])
    got = kd.linalg.cond(kd.asarray(a), p).numpy()
    with np.errstate(all="ignore"):
        want = np.linalg.cond(a, p)
    if p == -2:  # 1 / cond: zero (NumPy) or rounding-small for a singular matrix
        np.testing.assert_allclose(got, want, atol=1e-15)
    else:
        assert np.isinf(got[0]) == np.isinf(want[0]) or want[0] > 1e15
        np.testing.assert_allclose(got[1], want[1], rtol=1e-10)
        assert np.isinf(got[2]) and np.isinf(want[2])


def test_cond_nuc_of_singular_is_inf():  # NumPy's own svd of the NaN inverse fails to converge here
    assert np.isinf(kd.linalg.cond(kd.asarray(np.ones((3, 3))), "nuc").numpy())


def test_cond_nan_input_stays_nan():
    a = np.array([[1.0, np.nan], [0.0, 1.0]])
    assert np.isnan(kd.linalg.cond(kd.asarray(a), 1).numpy()) and np.isnan(np.linalg.cond(a, 1))


@pytest.mark.parametrize("n", [5, 8])
def test_cond_ill_conditioned_hilbert(n):
    h = 1.0 / (np.arange(n)[:, None] + np.arange(n)[None, :] + 1.0)
    for p in (None, 1, math.inf, "fro"):
        np.testing.assert_allclose(kd.linalg.cond(kd.asarray(h), p).numpy(), np.linalg.cond(h, p), rtol=1e-3)


def test_cond_empty_batches_and_errors():
    assert kd.linalg.cond(kd.zeros((0, 3, 3))).shape == np.linalg.cond(np.zeros((0, 3, 3))).shape == (0,)
    assert kd.linalg.cond(kd.zeros((0, 3, 3)), 1).shape == (0,)
    with pytest.raises(np.linalg.LinAlgError, match="empty"):
        kd.linalg.cond(kd.zeros((0, 0)))
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        kd.linalg.cond(kd.ones((2, 3)), 1)
    with pytest.raises(np.linalg.LinAlgError, match="two-dimensional"):
        kd.linalg.cond(kd.ones(3))
    with pytest.raises(ValueError, match="norm order"):
        kd.linalg.cond(kd.ones((2, 2)), 3)


def test_cond_integer_input_and_dispatch():
    a = np.array([[1, 2], [3, 4]])
    got = np.linalg.cond(kd.asarray(a), 1)
    assert isinstance(got, kd.Array) and got.dtype.name == "float64"
    np.testing.assert_allclose(got.numpy(), np.linalg.cond(a, 1), rtol=1e-12)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("shape,ind", [((6, 2, 3), 1), ((4, 6, 8, 3), 2), ((2, 3, 6), 2), ((24, 2, 3, 4), 1)])
def test_tensorinv_matches_numpy(shape, ind, dtype):
    rows = math.prod(shape[:ind])
    a = (gaussian(shape, dtype, seed=ind).reshape(rows, -1) + 3 * np.sqrt(rows) * np.eye(rows)).reshape(shape)
    a = a.astype(dtype)
    got = kd.linalg.tensorinv(kd.asarray(a), ind=ind)
    want = np.linalg.tensorinv(a, ind=ind)
    assert got.shape == want.shape and got.dtype.name == want.dtype.name
    np.testing.assert_allclose(got.numpy(), want, rtol=RTOL[dtype] * 10, atol=RTOL[dtype] * 10)


def test_tensorinv_errors():
    with pytest.raises(ValueError, match="ind"):
        kd.linalg.tensorinv(kd.ones((2, 2)), ind=0)
    with pytest.raises(np.linalg.LinAlgError):
        kd.linalg.tensorinv(kd.ones((2, 3)), ind=1)
    with pytest.raises(np.linalg.LinAlgError, match="Singular"):
        kd.linalg.tensorinv(kd.ones((2, 2, 4)), ind=2)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("ashape,bshape,axes", [((2, 3, 6), (2, 3), None), ((6, 2, 3), (6,), None),
                                                ((2, 6, 3), (2, 3), (1,)), ((3, 4, 2, 6), (2, 6), (0, 1)),
                                                ((4, 4), (4,), None)])
def test_tensorsolve_matches_numpy(ashape, bshape, axes, dtype):
    rng = np.random.default_rng(7)
    a = rng.standard_normal(ashape).astype(dtype)
    b = rng.standard_normal(bshape).astype(dtype)
    got = kd.linalg.tensorsolve(kd.asarray(a), kd.asarray(b), axes=axes)
    want = np.linalg.tensorsolve(a, b, axes=axes)
    assert got.shape == want.shape and got.dtype.name == want.dtype.name
    # random (not diagonally dominant) systems: LU's error bound scales with the condition number
    c = np.linalg.cond(want.reshape(-1, 1) if want.ndim == 0 else a.reshape(b.size, -1)
                       if axes is None else np.moveaxis(a, axes, range(a.ndim - len(axes), a.ndim)).reshape(b.size, -1))
    np.testing.assert_allclose(got.numpy(), want, rtol=RTOL[dtype] * c, atol=RTOL[dtype] * c)


def test_tensorsolve_errors():
    with pytest.raises(np.linalg.LinAlgError, match="prod"):
        kd.linalg.tensorsolve(kd.ones((2, 3, 4)), kd.ones((2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="Singular"):
        kd.linalg.tensorsolve(kd.ones((2, 2)), kd.ones(2))


def test_numpy_tensor_functions_dispatch():
    a = well_conditioned((6, 6), "float64").reshape(6, 2, 3)
    got = np.linalg.tensorinv(kd.asarray(a), ind=1)
    assert isinstance(got, kd.Array)
    np.testing.assert_allclose(got.numpy(), np.linalg.tensorinv(a, ind=1), rtol=1e-10)
    b = np.arange(6.0)
    got = np.linalg.tensorsolve(kd.asarray(a), kd.asarray(b))
    assert isinstance(got, kd.Array)
    np.testing.assert_allclose(got.numpy(), np.linalg.tensorsolve(a, b), rtol=1e-10)
