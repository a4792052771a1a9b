"""kd.grad through svd's factors, eig, eigvals, pinv, lstsq, cond's other norms and negative matrix powers
(kdsl/linalg/derivatives_spectral.py, derivatives_least_squares.py) against central differences in float64:
real and complex input (built from real numbers, results compared as their parts), one matrix and a batch,
gradients of gradients, and the losses that have no derivative (an arbitrary phase or basis) raising."""

import math

import numpy as np
import pytest
from autodiff_check import check_grad

import kdsl as kd

RNG = np.random.default_rng(18)


def _z(x):
    """A complex matrix (stack) from a real array with a leading axis of 2 (real and imaginary parts)."""
    return kd.complex_from_parts(x[0], x[1])


def _parts(y):
    return kd.stack([kd.real(y), kd.imag(y)])


def _sym(x):
    return x + kd.linalg.matrix_transpose(x)


@pytest.mark.parametrize("shape", [(4, 3), (2, 2, 3)])
def test_svd_factors_real(shape):
    x = RNG.standard_normal(shape)
    w = kd.asarray(RNG.standard_normal(min(shape[-2:])))
    check_grad(lambda m: kd.linalg.svd(m, full_matrices=False).U, x)
    check_grad(lambda m: kd.linalg.svd(m, full_matrices=False).Vh, x)
    check_grad(lambda m: (lambda r: (r.U * w) @ r.Vh * r.S[..., :1, None])(kd.linalg.svd(m, False)), x)


@pytest.mark.parametrize("shape", [(3, 2), (2, 2, 3)])
def test_svd_factors_complex(shape):
    """Functions invariant under the columns' phases: |U|^2, |Vh|^2 and U diag(w) Vh (which couples them)."""
    x = RNG.standard_normal((2, *shape))
    w = kd.asarray(RNG.standard_normal(min(shape[-2:])))
    check_grad(lambda m: kd.abs(kd.linalg.svd(_z(m), full_matrices=False).U) ** 2, x)
    check_grad(lambda m: kd.abs(kd.linalg.svd(_z(m), full_matrices=False).Vh) ** 2, x)
    check_grad(lambda m: _parts((lambda r: (r.U * w) @ r.Vh)(kd.linalg.svd(_z(m), False))), x)


def test_svd_full_matrices_uses_the_leading_columns_and_refuses_the_others():
    x = RNG.standard_normal((4, 2))
    check_grad(lambda m: (lambda r: kd.concat([r.U[:, :2], r.Vh]))(kd.linalg.svd(m)), x)
    with pytest.raises(ValueError, match="full_matrices=False"):
        kd.grad(lambda m: kd.linalg.svd(m).U.sum())(kd.asarray(x))


def test_svd_hermitian():
    x = RNG.standard_normal((3, 3)) + 3 * np.eye(3)  # eigenvalues of x + x^T well apart from 0 and each other
    check_grad(lambda m: kd.linalg.svd(_sym(m), hermitian=True).U ** 2, x)
    check_grad(lambda m: kd.linalg.svd(_sym(m), compute_uv=False, hermitian=True), x)


@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 3)])
def test_eig_and_eigvals_real_input_complex_spectrum(shape):
    x = RNG.standard_normal(shape)
    check_grad(lambda m: _parts(kd.linalg.eigvals(m)), x)
    check_grad(lambda m: kd.abs(kd.linalg.eig(m).eigenvectors) ** 2, x)  # phase-invariant


def test_eig_real_spectrum_and_complex_input():
    upper = np.triu(RNG.standard_normal((3, 3)), 1) + np.diag([1.0, 2.0, 4.0])
    check_grad(lambda m: kd.linalg.eig(m).eigenvectors, upper + 0.1 * RNG.standard_normal((3, 3)))
    x = RNG.standard_normal((2, 2, 3, 3))
    check_grad(lambda m: _parts(kd.linalg.eigvals(_z(m))), x)
    check_grad(lambda m: kd.abs(kd.linalg.eig(_z(m)).eigenvectors) ** 2, x)


def test_eig_a_phase_dependent_loss_raises():
    with pytest.raises(ValueError, match="phase"):
        kd.grad(lambda m: kd.real(kd.linalg.eig(_z(m)).eigenvectors).sum())(kd.asarray(RNG.standard_normal((2, 3, 3))))


@pytest.mark.parametrize("shape", [(4, 3), (2, 2, 3)])
def test_pinv(shape):
    check_grad(kd.linalg.pinv, RNG.standard_normal(shape))
    check_grad(lambda m: _parts(kd.linalg.pinv(_z(m))), RNG.standard_normal((2, *shape)))


def test_pinv_rank_deficient_and_hermitian():
    """A rank-2 4x3 matrix (B C, perturbations of B and C keep the rank): finite, not NaN."""
    check_grad(lambda b, c: kd.linalg.pinv(b @ c, rcond=1e-10), RNG.standard_normal((4, 2)),
               RNG.standard_normal((2, 3)))
    check_grad(lambda m: kd.linalg.pinv(_sym(m), hermitian=True, rtol=None), RNG.standard_normal((3, 3)))


@pytest.mark.parametrize("b_shape", [(4,), (4, 2)])
def test_lstsq_solution_residuals_and_singular_values(b_shape):
    a, b = RNG.standard_normal((4, 2)), RNG.standard_normal(b_shape)
    check_grad(lambda m, y: kd.linalg.lstsq(m, y)[0], a, b)
    check_grad(lambda m, y: kd.linalg.lstsq(m, y)[1], a, b)
    check_grad(lambda m, y: kd.linalg.lstsq(m, y, None)[3], a, b, argnums=(0,))


def test_lstsq_complex_and_underdetermined():
    x = RNG.standard_normal((2, 4, 2))
    check_grad(lambda m: _parts(kd.linalg.lstsq(_z(m), _z(m)[:, 0] + 1)[0]), x)
    check_grad(lambda m: kd.linalg.lstsq(_z(m), _z(m)[:, 0] + 1)[1], x)
    check_grad(lambda m: kd.linalg.lstsq(m.T, m[0, :2] + m[1, :2] ** 2)[0], x[0])  # 2x4: minimum norm


@pytest.mark.parametrize("p", [1, -math.inf, "fro", "nuc"])
def test_cond_in_the_other_norms(p):
    check_grad(lambda m: kd.linalg.cond(m, p), RNG.standard_normal((2, 3, 3)) + 2 * np.eye(3))


def test_negative_matrix_power():
    check_grad(lambda m: kd.linalg.matrix_power(m, -3), RNG.standard_normal((3, 3)) + 3 * np.eye(3))


def test_gradients_of_gradients():
    x = RNG.standard_normal((3, 3)) + 2 * np.eye(3)
    check_grad(lambda m: kd.grad(lambda y: (kd.linalg.svd(y).U ** 2 * kd.arange(3.0)).sum())(m), x)
    check_grad(lambda m: kd.grad(lambda y: (kd.linalg.pinv(y) ** 2).sum())(m), x)
    check_grad(lambda m: kd.grad(lambda y: kd.real(kd.linalg.eig(y).eigenvalues ** 2).sum())(m), x)
