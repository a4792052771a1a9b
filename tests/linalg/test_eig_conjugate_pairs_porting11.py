"""The complex eigenvalues of a real matrix come in exact conjugate pairs, as NumPy's (LAPACK's real Schur form):
``np.roots([1, 2, 5])`` gave ``-1+2j`` and ``-1.0000000000000002-2j`` (the complex Schur form is conjugate only
to rounding), so ``w[0] == np.conj(w[1])`` and ``np.isin(w, np.conj(w))`` were False where NumPy's are True. The
pair's eigenvectors are exact conjugates too (kdsl/linalg/conjugate_pairs.py)."""

import numpy as np
import pytest

import kdsl as kd


def _closed_under_conjugation(w):
    """Every eigenvalue's conjugate is (exactly) one of them, with the same multiplicity."""
    w = np.asarray(w)
    return np.array_equal(np.sort_complex(w), np.sort_complex(np.conj(w)))


def _random_real(n, seed, dtype):
    return np.random.default_rng(seed).normal(size=(n, n)).astype(dtype)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_eigvals_pairs_are_exact_conjugates(n, dtype):
    a = _random_real(n, 10 + n, dtype)
    w = kd.linalg.eigvals(kd.asarray(a)).numpy()
    expected = np.linalg.eigvals(a)
    assert _closed_under_conjugation(expected)
    assert _closed_under_conjugation(w)
    # real when every eigenvalue is, as NumPy 2.4's eigvals (2.5's, on the GPU machine, is complex always)
    assert w.dtype.kind == ("c" if np.any(np.imag(expected) != 0) else "f")
    tol = 1e-4 if dtype == "float32" else 1e-10
    np.testing.assert_allclose(np.sort_complex(w), np.sort_complex(expected.astype(w.dtype)), rtol=tol, atol=tol)


@pytest.mark.parametrize("coeffs", [[1, 2, 5], [1.0, 0, 0, 0, 1], [1, -2, 3, -4, 5, -6], [2.0, 0, 1]])
def test_roots_pairs(coeffs):
    c = np.asarray(coeffs, dtype=np.float64)  # (a list of Python floats is float32 in kdsl)
    w = kd.roots(kd.asarray(c)).numpy()
    expected = np.roots(c)
    assert _closed_under_conjugation(w)
    assert bool(np.all(np.isin(w, np.conj(w)))) == bool(np.all(np.isin(expected, np.conj(expected))))
    np.testing.assert_allclose(np.sort_complex(w), np.sort_complex(expected), rtol=1e-10, atol=1e-12)


def test_eig_vectors_of_a_pair_are_conjugate_and_batched():
    rng = np.random.default_rng(3)
    a = rng.normal(size=(4, 5, 5))
    a[1] = [[0, -1, 0, 0, 0], [1, 0, 0, 0, 0], [0, 0, 2, 0, 0], [0, 0, 0, 3, 1], [0, 0, 0, -1, 3]]
    w, v = kd.linalg.eig(kd.asarray(a))
    w, v = w.numpy(), v.numpy()
    for b in range(a.shape[0]):
        assert _closed_under_conjugation(w[b])
        np.testing.assert_allclose(a[b] @ v[b], v[b] * w[b], atol=1e-10)
        for i in np.flatnonzero(w[b].imag < 0):
            j = int(np.flatnonzero(w[b] == np.conj(w[b, i]))[0])
            np.testing.assert_array_equal(v[b][:, i], np.conj(v[b][:, j]))


def test_real_and_mixed_spectra_keep_their_values():
    rot = np.array([[0.0, -2.0], [2.0, 0.0]])  # +-2j: real part exactly 0
    w = kd.linalg.eigvals(kd.asarray(rot)).numpy()
    assert _closed_under_conjugation(w)
    np.testing.assert_allclose(np.sort_complex(w), [-2j, 2j], atol=1e-12)
    real = np.array([[2.0, 1.0], [0.0, 3.0]])  # a real spectrum stays real
    wr = kd.linalg.eigvals(kd.asarray(real))
    assert wr.dtype == kd.float64
    np.testing.assert_allclose(np.sort(wr.numpy()), [2.0, 3.0])
    repeated = np.kron(np.eye(2), np.array([[1.0, -1.0], [1.0, 1.0]]))  # 1 +- 1j twice
    wp = kd.linalg.eigvals(kd.asarray(repeated)).numpy()
    assert _closed_under_conjugation(wp)
    np.testing.assert_allclose(np.sort_complex(wp), [1 - 1j, 1 - 1j, 1 + 1j, 1 + 1j], atol=1e-7)


def test_complex_input_and_empty_are_unchanged():
    z = np.array([[1 + 1j, 2], [0, 3 - 1j]])  # complex input: no pairing (its spectrum has no such rule)
    np.testing.assert_allclose(np.sort_complex(kd.linalg.eigvals(kd.asarray(z)).numpy()), [1 + 1j, 3 - 1j])
    assert kd.linalg.eigvals(kd.asarray(np.zeros((0, 0)))).shape == (0,)
    one = kd.linalg.eigvals(kd.asarray(np.array([[4.0]]))).numpy()
    np.testing.assert_array_equal(one, [4.0])


def test_distinct_values_with_opposite_tiny_imaginary_parts_are_not_paired():
    """Two real eigenvalues left with rounding-sized imaginary parts of opposite signs (a companion matrix's 0.1
    and 0.4) are no conjugate pair: pairing them would move both to their mean, 0.25."""
    from kdsl.linalg.conjugate_pairs import exact_pairs

    w = np.array([[0.1 + 1e-9j, 0.4 - 1e-9j, -1 + 2j, -1.0000000000000002 - 2j]])
    got, _ = exact_pairs(kd.asarray(w), None)
    got = got.numpy()
    np.testing.assert_array_equal(got[0, :2], w[0, :2])
    assert got[0, 2] == np.conj(got[0, 3])
