"""NumPy's ufuncs called on a kdsl array and a nested list (``np.matmul(list, a)``, ``np.add(a, list)``) return a
kdsl array, as with a NumPy operand: NumPy hands the list to ``__array_ufunc__`` unconverted, and kdsl
returned ``NotImplemented`` (TypeError)."""

import numpy as np
import pytest

import kdsl as kd


def _same(got, want):
    assert isinstance(got, kd.Array)
    got = np.asarray(got)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-6)


SHAPES = [((2, 3), (3, 4)), ((3,), (3, 2)), ((2, 3), (3,)), ((1, 1), (1, 1)), ((2, 0), (0, 3)), ((2, 2, 3), (3, 1))]


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float64])
@pytest.mark.parametrize("sa, sb", SHAPES, ids=str)
def test_matmul_list_and_array(dtype, sa, sb):
    rng = np.random.default_rng(1)
    a, b = (rng.integers(-4, 5, s).astype(dtype) for s in (sa, sb))
    la, lb = a.tolist(), b.tolist()  # NumPy's oracle takes the same lists ([] of a (0, 3) array is 1-d)
    _same(np.matmul(la, kd.asarray(b)), np.matmul(la, b))
    _same(np.matmul(kd.asarray(a), lb), np.matmul(a, lb))
    _same(np.matmul(a, kd.asarray(b)), np.matmul(a, b))
    _same(la @ kd.asarray(b), np.matmul(la, b))
    _same(np.dot(la, kd.asarray(b)), np.dot(la, b))


def test_elementwise_and_views():
    host = np.array([[1.0, np.nan, -np.inf], [0.5, 2.0, np.inf]], np.float32)
    x = kd.asarray(host)
    _same(np.add([1.0, 2.0, 3.0], x), np.add([1.0, 2.0, 3.0], host))
    _same(np.maximum(x[:, ::2], ((0.0, 1.0),)), np.maximum(host[:, ::2], ((0.0, 1.0),)))
    _same(np.multiply.outer([1.0, 2.0], x[0]), np.multiply.outer([1.0, 2.0], host[0]))
    _same(np.matmul([[], []], x[:0]), np.matmul([[], []], host[:0]))
    _same(np.inner([1.0, 2.0, 3.0], x[1]), np.inner([1.0, 2.0, 3.0], host[1]))
    _same(np.outer([1.0, 2.0], x[1]), np.outer([1.0, 2.0], host[1]))
    _same(np.vdot([1.0, 2.0, 3.0], x[1]), np.vdot([1.0, 2.0, 3.0], host[1]))
