"""kd.grad through kd.linalg's factorisations (kdsl/linalg/derivatives.py) against central differences in
float64: single and batched matrices, vector and matrix right-hand sides, both triangles, gradients of
gradients; the factorisations without a rule raise instead of giving a gradient that silently misses them."""

import numpy as np
import pytest
from autodiff_check import check_grad

import kdsl as kd
from kdsl.fft import transforms as fft_kernels

RNG = np.random.default_rng(11)


def _spd(x):
    """A symmetric positive-definite matrix (stack) built from ``x``: a perturbation of x keeps it symmetric,
    as the rules of the symmetric factorisations assume."""
    return x @ kd.linalg.matrix_transpose(x) + 3 * kd.eye(x.shape[-1], dtype=x.dtype)


def _square(*lead, n=3):
    return RNG.standard_normal((*lead, n, n)) + 2 * np.eye(n)


@pytest.mark.parametrize("lead", [(), (2,), (2, 1)])
def test_inv_det_slogdet(lead):
    a = _square(*lead)
    check_grad(kd.linalg.inv, a)
    check_grad(kd.linalg.det, a)
    check_grad(lambda m: kd.linalg.slogdet(m).logabsdet, a)


@pytest.mark.parametrize("b_shape", [(3,), (3, 2), (2, 3, 1)])
def test_solve_both_arguments(b_shape):
    a, b = _square(2), RNG.standard_normal(b_shape)
    check_grad(kd.linalg.solve, a, b)


@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("lead", [(), (3,)])
def test_cholesky(lead, upper):
    check_grad(lambda x: kd.linalg.cholesky(_spd(x), upper=upper), RNG.standard_normal((*lead, 4, 4)))


@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh_values_and_vectors(uplo):
    x = RNG.standard_normal((2, 4, 4))
    check_grad(lambda m: kd.linalg.eigvalsh(_spd(m), UPLO=uplo), x)
    check_grad(lambda m: kd.linalg.eigh(_spd(m), UPLO=uplo).eigenvalues, x)
    # an eigenvector's sign is arbitrary: differentiate something that does not depend on it
    check_grad(lambda m: kd.linalg.eigh(_spd(m), UPLO=uplo).eigenvectors ** 2, x)


@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 4, 4)])
def test_singular_values(shape):
    x = RNG.standard_normal(shape)
    check_grad(kd.linalg.svdvals, x)
    check_grad(lambda m: kd.linalg.svd(m, compute_uv=False), x)


@pytest.mark.parametrize("f", [lambda m: kd.linalg.norm(m, 2), lambda m: kd.linalg.norm(m, "nuc"),
                               lambda m: kd.linalg.matrix_norm(m, ord=-2), lambda m: kd.linalg.cond(m)],
                         ids=["2-norm", "nuclear", "-2", "cond"])
def test_norms_through_the_singular_values(f):
    check_grad(f, RNG.standard_normal((4, 3)))


def test_positional_options():
    x = RNG.standard_normal((3, 3))
    check_grad(lambda m: kd.linalg.eigvalsh(_spd(m), "U"), x)
    check_grad(lambda m: kd.linalg.qr(m, "r"), x)


def test_gradients_of_gradients():
    x = RNG.standard_normal((3, 3))
    check_grad(lambda m: kd.grad(lambda y: kd.linalg.inv(_spd(y)).sum())(m), x)
    check_grad(lambda m: kd.grad(lambda y: kd.linalg.det(_spd(y)))(m), x)
    check_grad(lambda m: kd.grad(lambda y: (kd.linalg.cholesky(_spd(y)) ** 2).sum())(m), x)


def test_a_float32_gradient_matches_float64():
    x = RNG.standard_normal((3, 3)) + 3 * np.eye(3)
    g64 = kd.grad(lambda m: kd.linalg.inv(m).sum())(kd.asarray(x)).numpy()
    g32 = kd.grad(lambda m: kd.linalg.inv(m).sum())(kd.asarray(x.astype(np.float32))).numpy()
    assert g32.dtype == np.float32
    np.testing.assert_allclose(g32, g64, rtol=1e-4, atol=1e-5)


def test_results_outside_a_gradient_are_the_plain_functions():
    a = _square()
    np.testing.assert_allclose(kd.linalg.inv(kd.asarray(a)).numpy(), np.linalg.inv(a), rtol=1e-12)
    assert kd.linalg.inv.__doc__ and "inverse" in kd.linalg.inv.__doc__


@pytest.mark.parametrize("shape", [(5, 3), (4, 4), (2, 3, 5)])
def test_qr_both_factors(shape):
    x = RNG.standard_normal(shape)
    check_grad(lambda m: kd.linalg.qr(m).Q, x)
    check_grad(lambda m: kd.linalg.qr(m).R, x)
    check_grad(lambda m: kd.linalg.qr(m, "r"), x)
    if shape[-2] <= shape[-1]:
        check_grad(lambda m: kd.linalg.qr(m, mode="complete").Q, x)


def test_qr_complete_of_a_tall_matrix_has_no_derivative():
    with pytest.raises(NotImplementedError, match="mode='reduced'"):
        kd.grad(lambda m: kd.linalg.qr(m, "complete").Q.sum())(kd.asarray(RNG.standard_normal((4, 2))))


@pytest.mark.parametrize("f", [lambda m: kd.linalg.qr(m, "raw")[0], lambda m: fft_kernels.fft(m).real],
                         ids=["qr-raw", "fft-kernels"])
def test_functions_without_a_rule_raise_instead_of_a_silent_zero(f):
    x = kd.asarray(RNG.standard_normal((4, 3)))
    with pytest.raises(NotImplementedError, match="kd.stop_gradient"):
        kd.grad(lambda m: f(m).sum())(x)
    # stopped: no derivative asked, none missing
    g = kd.grad(lambda m: f(kd.stop_gradient(m)).sum() + (m ** 2).sum())(x)
    np.testing.assert_allclose(g.numpy(), 2 * x.numpy())


def test_the_error_names_the_function():
    # kd.fft.fft's kernels without its derivative (kdsl.fft.transforms: the function kd.fft wraps)
    with pytest.raises(NotImplementedError, match=r"kd\.fft\.fft runs custom GPU kernels"):
        kd.grad(lambda m: fft_kernels.fft(m).real.sum())(kd.asarray(RNG.standard_normal((3, 3))))


def test_matrix_rank_is_a_constant_to_the_gradient():
    """An integer count, constant between its jumps: as torch.linalg.matrix_rank's result, no derivative."""
    m = kd.asarray(RNG.standard_normal((2, 4, 3)))
    g = kd.grad(lambda m: (kd.linalg.matrix_rank(m)[:, None, None] * m).sum())(m)
    np.testing.assert_array_equal(g.numpy(), np.full((2, 4, 3), 3.0))


def test_a_derivative_of_eigvalsh_is_not_differentiated_again():
    with pytest.raises(NotImplementedError, match="not differentiable again"):
        kd.grad(lambda m: kd.grad(lambda y: (kd.linalg.eigvalsh(_spd(y)) ** 2).sum())(m).sum())(
            kd.asarray(RNG.standard_normal((3, 3))))
