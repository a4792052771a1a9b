"""Q of a tall, narrow matrix (tens of thousands of rows, a few columns): `np.linalg.lstsq(np.column_stack([x,
np.ones_like(x)]), y)` and `np.polyfit(x, y, 1)` of 40000 points gave values near 0 because Q's rows past ~32768
were wrong (one thread per column walked every row twice per reflector, past lavapipe's loop budget; now one block
reflector applied by gemms, `kdsl/linalg/qr.form_q`)."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize(("m", "n", "dtype"), [(40000, 2, np.float64), (70000, 3, np.float32),
                                               (33000, 5, np.complex64)])
def test_reduced_q_of_tall_matrix(m, n, dtype):
    rng = np.random.default_rng(m)
    a = rng.normal(size=(m, n))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.normal(size=(m, n))
    a = a.astype(dtype)
    q, r = kd.linalg.qr(kd.asarray(a))
    qn, rn = q.numpy(), r.numpy()
    eq, er = np.linalg.qr(a)
    tol = 1e-10 if dtype == np.float64 else 2e-4
    np.testing.assert_allclose(np.abs(rn), np.abs(er), rtol=tol * 10, atol=tol)
    np.testing.assert_allclose(qn.conj().T @ qn, np.eye(n), atol=tol * 10)
    np.testing.assert_allclose(qn @ rn, a, atol=tol * 100)
    assert not np.any(np.all(qn == 0, axis=1))


def test_lstsq_and_polyfit_of_many_points():
    rng = np.random.default_rng(1340)
    x = rng.random(50000)
    y = 3.0 - 2.0 * x + 0.1 * rng.normal(size=50000)
    design = np.column_stack([x, np.ones_like(x)])
    expected = np.linalg.lstsq(design, y, rcond=None)
    got = kd.linalg.lstsq(kd.asarray(design), kd.asarray(y), rcond=None)
    np.testing.assert_allclose(got[0].numpy(), expected[0], rtol=1e-9)
    np.testing.assert_allclose(got[1].numpy(), expected[1], rtol=1e-9)
    np.testing.assert_allclose(kd.polyfit(kd.asarray(x), kd.asarray(y), 1).numpy(), np.polyfit(x, y, 1), rtol=1e-9)


def test_svd_of_tall_matrix_reconstructs():
    rng = np.random.default_rng(1341)
    a = rng.normal(size=(36000, 3))
    u, s, vh = kd.linalg.svd(kd.asarray(a), full_matrices=False)
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(a, compute_uv=False), rtol=1e-10)
    np.testing.assert_allclose((u.numpy() * s.numpy()) @ vh.numpy(), a, atol=1e-9)
