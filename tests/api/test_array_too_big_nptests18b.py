"""Arrays whose bytes overflow intp raise NumPy's ValueError when they are built (numpy/lib/tests/
test_regression.py's ``test_large_fancy_indexing``).

kdsl built lazy nodes of any shape: ``a[np.ix_(i, i, i, i, i)]`` with 7132 indices each (7132**5 elements, past
2**63) returned an array, and ``a[np.ix_(...)] = 0`` went through; ``broadcast_to(x, (2**62, 8))`` too. NumPy
raises ValueError for all of them ("array is too big" or "iterator is too large"); kdsl now raises NumPy's
"array is too big" ValueError from any node whose shape's bytes pass 2**63 - 1.
"""

import numpy as np
import pytest

import kdsl as kd

N = int((2**64) ** (1.0 / 5.0) + 1)  # numpy's test: n**5 elements overflow a 64-bit intp


def _index():
    return np.random.default_rng(0).integers(0, 3, size=N)


@pytest.mark.parametrize("dtype", [kd.float32, kd.int8, kd.complex64])
def test_fancy_index_read_and_write(dtype):
    a = kd.ones((3,) * 5, dtype=dtype)
    i = _index()
    with pytest.raises(ValueError, match="array is too big"):
        a[np.ix_(i, i, i, i, i)]
    with pytest.raises(ValueError, match="array is too big"):
        a[np.ix_(i, i, i, i, i)] = 0
    with pytest.raises(ValueError, match="array is too big"):
        a[kd.ix_(*[kd.asarray(i)] * 5)]
    np.testing.assert_array_equal(a.numpy(), np.ones((3,) * 5))  # nothing was written


def test_broadcasts_and_outer_products():
    with pytest.raises(ValueError):
        np.broadcast_to(np.ones(1), (2**62, 8))
    with pytest.raises(ValueError, match="array is too big"):
        kd.broadcast_to(kd.ones(1), (2**62, 8))
    x = kd.ones(2**21)
    with pytest.raises(ValueError, match="array is too big"):
        x[:, None, None] * x[None, :, None] * x[None, None, :]


def test_itemsize_counts():
    # 2**60 int8 elements fit in intp bytes; 2**60 float64 elements do not
    assert kd.broadcast_to(kd.zeros((), kd.int8), (2**30, 2**30)).shape == (2**30, 2**30)
    with pytest.raises(ValueError, match="array is too big"):
        kd.broadcast_to(kd.zeros((), kd.float64), (2**30, 2**30, 8))


def test_ordinary_shapes_still_work():
    a = kd.asarray(np.arange(24.0).reshape(2, 3, 4))
    i = np.array([0, 1])
    np.testing.assert_array_equal(a[np.ix_(i, i, i)].numpy(), np.arange(24.0).reshape(2, 3, 4)[np.ix_(i, i, i)])
    assert kd.zeros((0, 2**40)).shape == (0, 2**40)
    assert a[:, ::2][..., None].shape == (2, 2, 4, 1)
