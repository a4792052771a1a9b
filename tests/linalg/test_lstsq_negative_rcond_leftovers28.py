"""``kd.linalg.lstsq(a, b, rcond=-1)`` (NumPy's documented "machine precision", LAPACK's rule for any negative
``rcond``): **kdsl kept every singular value, zeros included, and returned inf** for a rank-deficient ``a``;
it now cuts at ``eps * largest`` as NumPy, giving the minimum-norm solution and NumPy's rank."""

import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(28)
MATRICES = {
    "singular_square": np.array([[1.0, 2.0], [2.0, 4.0]]),
    "tall_rank_one": np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]]),
    "wide_rank_one": np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]]),
    "zero_column": np.array([[1.0, 0.0], [0.0, 0.0], [2.0, 0.0]]),
    "full_rank_tall": RNG.standard_normal((6, 3)),
    "complex_singular": np.array([[1 + 1j, 2.0], [2 + 2j, 4.0]]),
    "strided": np.array([[1.0, 9.0, 2.0], [2.0, 9.0, 4.0], [3.0, 9.0, 6.0]])[:, ::2],
    "zeros": np.zeros((3, 2)),
}


@pytest.mark.parametrize("name", list(MATRICES))
@pytest.mark.parametrize("rcond", [-1, -0.5, -1e-3])
@pytest.mark.parametrize("columns", [None, 2])
def test_negative_rcond_is_machine_precision(name, rcond, columns):
    a = MATRICES[name]
    b = np.arange(1.0, a.shape[0] + 1) if columns is None else np.arange(1.0, 2 * a.shape[0] + 1).reshape(-1, 2)
    b = b.astype(np.result_type(a.dtype, b.dtype))
    x, res, rank, s = np.linalg.lstsq(a, b, rcond=rcond)
    gx, gres, grank, gs = kd.linalg.lstsq(kd.asarray(a), kd.asarray(b), rcond=rcond)
    assert int(grank) == int(rank)
    assert gx.shape == x.shape and gres.shape == res.shape
    np.testing.assert_allclose(gx.numpy(), x, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(gres.numpy(), res, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(gs.numpy(), s, rtol=1e-10, atol=1e-12)


def test_zero_and_positive_rcond_unchanged():
    a, b = MATRICES["tall_rank_one"], np.array([1.0, 2.0, 4.0])
    for rcond in (None, 0.5, 1e-3):
        x, _, rank, _ = np.linalg.lstsq(a, b, rcond=rcond)
        gx, _, grank, _ = kd.linalg.lstsq(kd.asarray(a), kd.asarray(b), rcond=rcond)
        assert int(grank) == int(rank)
        np.testing.assert_allclose(gx.numpy(), x, rtol=1e-10)
