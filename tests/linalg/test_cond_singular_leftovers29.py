"""cond of singular matrices, order by order, against NumPy 2.4 (docs/linalg.md, ``cond``):

* ``1 -1 inf -inf 'fro'``: NumPy's LU finds an exact zero pivot and gives ``inf``; kdsl's LU finds the same
  zero for matrices whose elimination is exact (a zero matrix, a zero row or column, proportional rows with
  exact multipliers), so the results are equal.
* ``'nuc'``: NumPy raises ``LinAlgError`` ("SVD did not converge": its SVD of the NaN inverse); kdsl gives
  ``inf``, the value the same rule gives the other orders (no read back to raise from).
* ``None``/``2``: ``s_max / s_min`` with a smallest singular value that is 0 in exact arithmetic: NumPy's
  LAPACK leaves rounding noise (a huge finite number, 1e16 and more), kdsl's Jacobi SVD an exact 0 (``inf``) or
  other noise; both are at least ``1 / eps`` of the dtype. ``-2`` is the reciprocal: 0 or rounding-small
  (the zero matrix: ``0 / 0``, ``inf`` in both).
"""

import math

import numpy as np
import pytest
from linalg_testing import layouts, well_conditioned

import kdsl as kd

INVERSE_ORDERS = [1, -1, math.inf, -math.inf, "fro"]
SINGULAR = {
    "zero": np.zeros((3, 3)),
    "zero_row": np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0], [4.0, 5.0, 7.0]]),
    "zero_column": np.array([[1.0, 0.0], [3.0, 0.0]]),
    "proportional_rows": np.array([[1.0, 2.0], [2.0, 4.0]]),
    "ones": np.ones((4, 4)),
    "size_one_zero": np.zeros((1, 1)),
}


def _as(a: np.ndarray, dtype: str) -> np.ndarray:
    return (a * (1 - 1j) if dtype.startswith("complex") else a).astype(dtype)


@pytest.mark.parametrize("name", SINGULAR)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("p", INVERSE_ORDERS, ids=str)
def test_inverse_orders_give_numpys_inf(name, dtype, p):
    host = _as(SINGULAR[name], dtype)
    with np.errstate(all="ignore"):
        want = np.linalg.cond(host, p)
    got = kd.linalg.cond(kd.asarray(host), p)
    assert np.isinf(want) and got.dtype == want.dtype
    assert float(got) == want


@pytest.mark.parametrize("name", SINGULAR)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_nuclear_order_is_inf_where_numpy_raises(name, dtype):
    host = _as(SINGULAR[name], dtype)
    with np.errstate(all="ignore"), pytest.raises(np.linalg.LinAlgError, match="SVD did not converge"):
        np.linalg.cond(host, "nuc")
    assert np.isinf(kd.linalg.cond(kd.asarray(host), "nuc").numpy())


@pytest.mark.parametrize("name", SINGULAR)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_singular_value_orders_are_beyond_one_over_eps(name, dtype):
    host = _as(SINGULAR[name], dtype)
    big = 1 / np.finfo(dtype).eps
    with np.errstate(all="ignore"):
        for p in (None, 2):
            want, got = np.linalg.cond(host, p), kd.linalg.cond(kd.asarray(host), p).numpy()
            assert want >= big and got >= big, (p, want, got)
        small, want_small = kd.linalg.cond(kd.asarray(host), -2).numpy(), np.linalg.cond(host, -2)
        if np.isinf(want_small):  # the zero matrix: 0 / 0 is NaN, which both make inf
            assert np.isinf(small)
        else:
            assert want_small <= 1 / big and small <= 1 / big, (want_small, small)


@pytest.mark.parametrize("p", [None, 1, math.inf, "fro", -2], ids=str)
def test_a_batch_of_singular_and_regular_matrices_in_every_layout(p):
    host = np.stack([np.ones((3, 3)), well_conditioned((3, 3), "float64", seed=5), np.zeros((3, 3)),
                     np.array([[2.0, 4.0, 0.0], [1.0, 2.0, 0.0], [0.0, 0.0, 1.0]])])
    with np.errstate(all="ignore"):
        want = np.linalg.cond(host, p)
    for label, view, ref in layouts(host):
        got = kd.linalg.cond(view, p).numpy()
        with np.errstate(all="ignore"):
            assert np.array_equal(np.isinf(got), np.isinf(np.linalg.cond(ref, p))) or p is None, label
        np.testing.assert_allclose(got[1], want[1], rtol=1e-10, err_msg=label)
        if p in (1, math.inf, "fro"):
            assert np.isinf(got[[0, 2, 3]]).all(), label
