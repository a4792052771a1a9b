"""NumPy's argument rules in kd.linalg: pinv's default cutoff (rcond=1e-15) and its rcond/rtol conflict,
matrix_rank's tol/rtol conflict, lowercase UPLO, and NumPy's messages for cross, matrix_transpose and outer
(found with NumPy's linalg/tests/test_linalg.py)."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd


def _graded() -> np.ndarray:
    """An 8 x 8 signed permutation matrix scaled to singular values 1 ... 1.4e-15 (exact for any SVD): the
    smallest lies between NumPy's default cutoff 1e-15 and the array API's 8 * eps = 1.8e-15."""
    s = np.array([1.0, 0.5, 0.25, 1e-3, 1e-6, 1e-9, 1e-12, 1.4e-15])
    perm = np.eye(8)[[3, 0, 6, 1, 7, 2, 5, 4]] * np.array([1, -1, 1, 1, -1, 1, -1, 1])
    return perm * s


@pytest.mark.parametrize("kwargs", [{}, {"rcond": 1e-3}, {"rtol": None}, {"rtol": 1e-3}, {"rcond": 0.5}])
def test_pinv_cutoffs_follow_numpy(kwargs) -> None:
    a = _graded()
    want = np.linalg.pinv(a, **kwargs)
    got = kd.linalg.pinv(kd.asarray(a), **kwargs).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=0)


def test_pinv_default_keeps_values_above_1e_15() -> None:
    a = _graded()
    assert np.abs(kd.linalg.pinv(kd.asarray(a)).numpy()).max() > 1e14
    assert np.abs(kd.linalg.pinv(kd.asarray(a), rtol=None).numpy()).max() < 1e14


def test_pinv_of_a_stack_and_a_view() -> None:
    a = np.random.default_rng(4).standard_normal((2, 3, 8))[:, :, ::2]
    got = kd.linalg.pinv(kd.asarray(np.random.default_rng(4).standard_normal((2, 3, 8)))[:, :, ::2]).numpy()
    np.testing.assert_allclose(got, np.linalg.pinv(a), rtol=1e-8, atol=1e-10)


def test_rcond_and_rtol_together_raise() -> None:
    a = np.eye(3)
    with pytest.raises(ValueError, match="can't be both set"):
        np.linalg.pinv(a, rcond=1e-3, rtol=1e-3)
    with pytest.raises(ValueError, match="`rtol` and `rcond` can't be both set"):
        kd.linalg.pinv(kd.asarray(a), rcond=1e-3, rtol=1e-3)
    with pytest.raises(ValueError, match="`rtol` and `rcond` can't be both set"):
        kd.linalg.pinv(kd.asarray(a), rcond=1e-3, rtol=None)


def test_tol_and_rtol_together_raise() -> None:
    a = np.eye(3)
    with pytest.raises(ValueError, match="`tol` and `rtol` can't be both set"):
        np.linalg.matrix_rank(a, tol=1e-3, rtol=1e-3)
    with pytest.raises(ValueError, match="`tol` and `rtol` can't be both set"):
        kd.linalg.matrix_rank(kd.asarray(a), tol=1e-3, rtol=1e-3)
    assert int(kd.linalg.matrix_rank(kd.asarray(a), tol=1e-3)) == 3


@pytest.mark.parametrize("uplo", ["l", "u", "L", "U"])
@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_lowercase_uplo(uplo, dtype) -> None:
    rng = np.random.default_rng(5)
    a = rng.standard_normal((3, 3)).astype(dtype)
    a = a + np.triu(a, 1) * 7  # the triangles differ, so the triangle read matters
    want = np.linalg.eigvalsh(a, UPLO=uplo)
    tol = 1e-4 if dtype == np.float32 else 1e-10
    np.testing.assert_allclose(kd.linalg.eigvalsh(kd.asarray(a), UPLO=uplo).numpy(), want, rtol=tol, atol=tol)
    w, _ = kd.linalg.eigh(kd.asarray(a), UPLO=uplo)
    np.testing.assert_allclose(w.numpy(), want, rtol=tol, atol=tol)
    with pytest.raises(ValueError, match="UPLO argument must be 'L' or 'U'"):
        kd.linalg.eigvalsh(kd.asarray(a), UPLO="x")


def _same_error(np_call, kd_call) -> None:
    with pytest.raises(ValueError) as want:
        np_call()
    with pytest.raises(ValueError) as got:
        kd_call()
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("shapes, axis", [(((2,), (2,)), -1), (((3,), (2,)), -1), (((3, 2), (3, 4)), -1),
                                          (((0,), (3,)), 0)])
def test_cross_message(shapes, axis) -> None:
    a, b = np.ones(shapes[0]), np.ones(shapes[1])
    _same_error(lambda: np.linalg.cross(a, b, axis=axis), lambda: kd.linalg.cross(kd.asarray(a), kd.asarray(b),
                                                                                      axis=axis))


@pytest.mark.parametrize("shape", [(), (3,), (0,)])
def test_matrix_transpose_message(shape) -> None:
    a = np.ones(shape)
    _same_error(lambda: np.linalg.matrix_transpose(a), lambda: kd.linalg.matrix_transpose(kd.asarray(a)))
    _same_error(lambda: np.matrix_transpose(a), lambda: kd.matrix_transpose(kd.asarray(a)))


@pytest.mark.parametrize("shapes", [((2, 2), (2,)), ((3,), ()), ((1, 1), (1, 1))])
def test_outer_message(shapes) -> None:
    a, b = np.ones(shapes[0]), np.ones(shapes[1])
    _same_error(lambda: np.linalg.outer(a, b), lambda: kd.linalg.outer(kd.asarray(a), kd.asarray(b)))


def test_products_still_work_on_views() -> None:
    a = np.arange(24.0).reshape(4, 6)[:, ::2]
    np.testing.assert_allclose(kd.linalg.matrix_transpose(kd.asarray(np.arange(24.0).reshape(4, 6))[:, ::2]).numpy(),
                               np.linalg.matrix_transpose(a))
    np.testing.assert_allclose(kd.linalg.cross(kd.asarray(a[:3]), kd.asarray(a[1:]), axis=0).numpy(),
                               np.linalg.cross(a[:3], a[1:], axis=0))
    np.testing.assert_allclose(kd.linalg.outer(kd.asarray(a[:, 0]), kd.asarray([np.nan, np.inf])).numpy(),
                               np.linalg.outer(a[:, 0], [np.nan, np.inf]))
