"""float32 and complex64 `eig`/`eigvals` computed in double and rounded, as NumPy's (LAPACK on the converted
matrix): each eigenvalue, also one 1e-6 of the largest, matches NumPy's to float32's rounding; dtypes, real
spectra, conjugate pairs, batches, views and sizes 0 and 1 as NumPy's (tests/porting: a stiff system's
`np.linalg.eigvals(J)` of a float32 Jacobian)."""

import numpy as np
import pytest
from linalg_testing import matched

import kdsl as kd


def _stiff(n, spectrum, seed, dtype):
    rng = np.random.default_rng(seed)
    q, _ = np.linalg.qr(rng.normal(size=(n, n)))
    t = np.triu(rng.normal(size=(n, n)), 1) * 0.1 + np.diag(spectrum)
    return (q @ t @ q.T).astype(dtype)


SPECTRA = [[1e3, 200.0, 5.0, 1.0, 0.01, 1e-3], [-1e4, -10.0, -0.5, -1e-2], [1e2, 1e-4, 3.0], [7.0]]


@pytest.mark.parametrize("spectrum", SPECTRA, ids=str)
def test_float32_eigvals_each_match_numpy(spectrum):
    a = _stiff(len(spectrum), spectrum, 311, np.float32)
    got, want = kd.linalg.eigvals(kd.asarray(a)), np.linalg.eigvals(a)
    assert got.dtype.name == "float32"  # real spectra stay real: NumPy 2.4's rule (2.5 always gives complex)
    np.testing.assert_allclose(matched(got.numpy(), want), want, rtol=2e-5, atol=0)


def test_float32_eig_vectors_and_batch():
    a = np.stack([_stiff(5, [300.0, 2.0, 1.0, 0.05, 1e-3], s, np.float32) for s in (1, 2, 3)])
    w, v = kd.linalg.eig(kd.asarray(a))
    want = np.linalg.eigvals(a)
    assert w.dtype == np.float32 and v.dtype == np.float32
    for k in range(3):
        np.testing.assert_allclose(matched(w.numpy()[k], want[k]), want[k], rtol=2e-5)
    a64 = a.astype(np.float64)
    resid = np.abs(a64 @ v.numpy() - v.numpy() * w.numpy()[:, None, :]).max(axis=(1, 2))
    assert np.all(resid < 1e-4 * np.abs(a64).max(axis=(1, 2)))


def test_complex_pairs_and_complex64():
    rot = np.array([[0.0, -2.0, 0.0], [2.0, 0.0, 0.0], [0.0, 0.0, 1e-4]], np.float32)
    got, want = kd.linalg.eigvals(kd.asarray(rot)), np.linalg.eigvals(rot)
    assert got.dtype.name == want.dtype.name == "complex64"
    g = got.numpy()
    np.testing.assert_allclose(np.sort_complex(g), np.sort_complex(want), rtol=1e-6, atol=1e-10)
    assert sorted(g.imag.tolist()) == sorted((-g.imag).tolist())  # exact conjugates
    c = (_stiff(4, [1e3, 1.0, 1e-2, 1e-3], 313, np.float64) + 1j * np.diag([0.0, 1e-3, 0.0, 2e-3])).astype(np.complex64)
    got, want = kd.linalg.eigvals(kd.asarray(c)), np.linalg.eigvals(c)
    assert got.dtype.name == "complex64"
    np.testing.assert_allclose(matched(got.numpy(), want), want, rtol=2e-5)


def test_view_empty_and_float64_unchanged():
    a = _stiff(6, SPECTRA[0], 314, np.float32)
    big = np.zeros((12, 6), np.float32)
    big[::2] = a
    got = kd.linalg.eigvals(kd.asarray(big)[::2])
    np.testing.assert_allclose(matched(got.numpy(), np.linalg.eigvals(a)), np.linalg.eigvals(a), rtol=2e-5)
    empty = kd.linalg.eigvals(kd.zeros((0, 0), dtype=kd.float32))
    assert empty.shape == (0,)
    a64 = _stiff(6, SPECTRA[0], 315, np.float64)
    got = kd.linalg.eigvals(kd.asarray(a64))
    assert got.dtype == np.float64
    np.testing.assert_allclose(matched(got.numpy(), np.linalg.eigvals(a64)), np.linalg.eigvals(a64), rtol=1e-10)
