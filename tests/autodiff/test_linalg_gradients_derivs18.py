"""kd.grad through svd's factors, eig, eigvals, pinv, lstsq, cond's other norms and negative matrix powers
(kdsl/linalg/derivatives_spectral.py, derivatives_least_squares.py) against central differences in float64:
real and complex input (built from real numbers, results compared as their parts), one matrix and a batch,
gradients of gradients, and the losses that have no derivative (an arbitrary phase or basis) raising.

Cheap by design: every argument has more than 12 elements (autodiff_check then checks 2 random directions,
4 evaluations, instead of every element) and each check differentiates several results at once."""

import math

import numpy as np
import pytest
from autodiff_check import check_grad

import kdsl as kd

RNG = np.random.default_rng(18)


def _z(x):
    """A complex matrix (stack) from a real array with a leading axis of 2 (real and imaginary parts)."""
    return kd.complex_from_parts(x[0], x[1])


def _cat(*ys):
    """Several results (complex ones as their parts) as one real vector."""
    parts = [p for y in ys for p in ((kd.real(y), kd.imag(y)) if y.dtype.kind == "c" else (y,))]
    return kd.concat([p.reshape(-1) for p in parts])


def _sym(x):
    return x + kd.linalg.matrix_transpose(x)


def _svd_results(r, w):
    """U, Vh and U diag(w) Vh scaled by the largest singular value: |.|^2 of the factors (phase-invariant for
    complex input) and a product in which the phases of U and Vh cancel."""
    return _cat(kd.abs(r.U) ** 2, kd.abs(r.Vh) ** 2, (r.U * w) @ r.Vh * r.S[..., :1, None])


@pytest.mark.parametrize("shape", [(5, 3), (2, 2, 4)])
def test_svd_factors_real(shape):
    w = kd.asarray(RNG.standard_normal(min(shape[-2:])))
    check_grad(lambda m: (lambda r: _cat(r.U, _svd_results(r, w)))(kd.linalg.svd(m, False)), RNG.standard_normal(shape))


@pytest.mark.parametrize("shape", [(3, 3), (2, 2, 3)])
def test_svd_factors_complex(shape):
    w = kd.asarray(RNG.standard_normal(min(shape[-2:])))
    check_grad(lambda m: _svd_results(kd.linalg.svd(_z(m), False), w), RNG.standard_normal((2, *shape)))


def test_svd_full_matrices_uses_the_leading_columns_and_refuses_the_others():
    x = RNG.standard_normal((2, 4, 2))
    check_grad(lambda m: (lambda r: _cat(r.U[..., :2], r.S, r.Vh))(kd.linalg.svd(m)), x)
    with pytest.raises(ValueError, match="full_matrices=False"):
        kd.grad(lambda m: kd.linalg.svd(m).U.sum())(kd.asarray(x))


def test_svd_hermitian():
    x = RNG.standard_normal((2, 3, 3)) + 3 * np.eye(3)  # eigenvalues of x + x^T apart from 0 and each other
    check_grad(lambda m: _cat(kd.linalg.svd(_sym(m), hermitian=True).U ** 2,
                              kd.linalg.svd(_sym(m), compute_uv=False, hermitian=True)), x)


def _eig_results(m):
    return _cat(kd.linalg.eigvals(m), kd.abs(kd.linalg.eig(m).eigenvectors) ** 2)  # |V|^2: phase-invariant


@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 3)])
def test_eig_and_eigvals_real_input_complex_spectrum(shape):
    check_grad(_eig_results, RNG.standard_normal(shape))


def test_eig_real_spectrum_and_complex_input():
    upper = np.triu(RNG.standard_normal((4, 4)), 1) + np.diag([1.0, 2.0, 4.0, 7.0])
    check_grad(lambda m: kd.linalg.eig(m).eigenvectors, upper + 0.1 * RNG.standard_normal((4, 4)))
    check_grad(lambda m: _eig_results(_z(m)), RNG.standard_normal((2, 2, 3, 3)))


def test_eig_a_phase_dependent_loss_raises():
    with pytest.raises(ValueError, match="phase"):
        kd.grad(lambda m: kd.real(kd.linalg.eig(_z(m)).eigenvectors).sum())(kd.asarray(RNG.standard_normal((2, 3, 3))))


def test_pinv():
    """Real: one matrix here, a batch in the hermitian test below; complex: a batch."""
    check_grad(kd.linalg.pinv, RNG.standard_normal((5, 3)))
    check_grad(lambda m: _cat(kd.linalg.pinv(_z(m))), RNG.standard_normal((2, 2, 3, 4)))


def test_pinv_rank_deficient_and_hermitian():
    """A rank-2 5x3 matrix B C (perturbing B and C keeps the rank): finite, not NaN."""
    check_grad(lambda x: kd.linalg.pinv(x[:10].reshape(5, 2) @ x[10:].reshape(2, 3), rcond=1e-10),
               RNG.standard_normal(16))
    check_grad(lambda m: kd.linalg.pinv(_sym(m), hermitian=True, rtol=None), RNG.standard_normal((2, 3, 3)))


@pytest.mark.parametrize("columns", [0, 2])
def test_lstsq_solution_residuals_and_singular_values(columns):
    """a (5x3) and b (a vector, or 2 columns) packed in one argument."""
    def f(packed):
        a, b = packed[:15].reshape(5, 3), packed[15:].reshape((5, columns) if columns else (5,))
        x, residuals, _, s = kd.linalg.lstsq(a, b)
        return _cat(x, residuals, s)
    check_grad(f, RNG.standard_normal(15 + 5 * max(columns, 1)))


def test_lstsq_complex_and_underdetermined():
    check_grad(lambda m: _cat(*kd.linalg.lstsq(_z(m), _z(m)[:, 0] + 1, None)[:2]), RNG.standard_normal((2, 4, 2)))
    check_grad(lambda x: kd.linalg.lstsq(x[:12].reshape(3, 4), x[12:])[0], RNG.standard_normal(15))  # minimum norm


def test_cond_in_the_other_norms_and_negative_powers():
    orders = [-math.inf, "nuc"]  # (the inverse's derivative is the same for all: two kinds of norm)
    check_grad(lambda m: _cat(*[kd.linalg.cond(m, p) for p in orders], kd.linalg.matrix_power(m, -3)),
               RNG.standard_normal((2, 3, 3)) + 2 * np.eye(3))


def test_gradients_of_gradients():
    x = RNG.standard_normal((2, 3, 3)) + 2 * np.eye(3)
    check_grad(lambda m: kd.grad(lambda y: (kd.linalg.svd(y).U ** 2 * kd.arange(3.0)).sum())(m), x)
    check_grad(lambda m: kd.grad(lambda y: (kd.linalg.pinv(y) ** 2).sum())(m), x)
    check_grad(lambda m: kd.grad(lambda y: kd.real(kd.linalg.eig(y).eigenvalues ** 2).sum())(m), x)
