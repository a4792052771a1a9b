"""``det`` of a singular matrix is NumPy's +0.0 (NumPy's det is ``sign * exp(logdet)``, with sign 0 for a zero
pivot), not the LU product's -0.0 after an odd number of row swaps: ``print(det([[1., 2.], [2., 4.]]))`` shows
``0.0`` as NumPy's (kdsl/linalg/lu.det)."""

import numpy as np
import pytest

import kdsl as kd

SINGULAR = [
    [[1.0, 2.0], [2.0, 4.0]],  # one row swap, then a zero pivot
    [[0.0, 0.0], [0.0, 0.0]],
    [[0.0, 1.0], [0.0, 1.0]],
    [[2.0, 1.0], [4.0, 2.0]],
    [[0.0, 1.0, 2.0], [0.0, 3.0, 4.0], [0.0, 5.0, 6.0]],
    [[0.0]],
    [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [2.0, 2.0, 2.0]],
]
DTYPES = [np.float64, np.float32, np.complex64, np.complex128]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize("m", SINGULAR, ids=str)
def test_singular_is_positive_zero(m, dtype):
    a = np.array(m, dtype=dtype)
    got = kd.linalg.det(kd.asarray(a))
    expected = np.linalg.det(a)
    assert got.dtype == expected.dtype
    assert got.item() == 0
    assert not np.signbit(np.real(got.item())) and not np.signbit(np.imag(got.item()))
    assert str(got) == str(np.asarray(expected))


def test_a_stack_keeps_the_other_determinants():
    stack = np.array([[[1.0, 2.0], [2.0, 4.0]], [[0.0, 1.0], [1.0, 0.0]], [[3.0, 0.0], [0.0, 2.0]],
                      [[1.0, 2.0], [3.0, 4.0]]])
    got = kd.linalg.det(kd.asarray(stack)).numpy()
    np.testing.assert_allclose(got, np.linalg.det(stack), rtol=1e-12)
    assert not np.signbit(got[0])
    assert got[1] == -1.0  # a swap of a non-singular matrix keeps its sign


def test_views_empty_stacks_nan_and_inf():
    base = np.array([[2.0, 9.0, 4.0], [4.0, 9.0, 8.0], [1.0, 9.0, 2.0]])
    view = kd.asarray(base)[:, ::2][:2]  # [[2, 4], [4, 8]]: singular, non-contiguous, with a row swap
    assert kd.linalg.det(view).item() == 0 and not np.signbit(kd.linalg.det(view).item())
    assert kd.linalg.det(kd.zeros((0, 3, 3), dtype=kd.float64)).shape == (0,)
    assert kd.linalg.det(kd.zeros((0, 0), dtype=kd.float64)).item() == 1.0
    # (a NaN pivot is left out: LAPACK's idamax skips NaN, so NumPy's value there is its pivot order's accident)
    special = np.array([[[1.0, np.inf], [1.0, 1.0]], [[np.inf, 1.0], [1.0, 1.0]]])
    np.testing.assert_array_equal(kd.linalg.det(kd.asarray(special)).numpy(), np.linalg.det(special))
    one = np.array([[5.0]])  # NumPy's exp(log(5)) is 5.000000000000001; kdsl's product is 5.0
    np.testing.assert_allclose(kd.linalg.det(kd.asarray(one)).numpy(), np.linalg.det(one), rtol=1e-15)
