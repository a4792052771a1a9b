"""kd.kron / np.kron of masked arrays (numpy/lib/tests/test_shape_base.py's test_kron_ma): a masked array whose
entries are masked where either factor is, as NumPy's kron gives for np.ma arrays (kdsl dropped the masks)."""

import numpy as np
import pytest
from ma_testing import assert_same, pair

import kdsl as kd

SHAPES = [((2, 2), (2, 2)), ((3,), (2,)), ((2, 3), (3,)), ((1, 4), (2, 1, 2)), ((0, 2), (2, 2)), ((1,), (1, 1))]


@pytest.mark.parametrize("kinds", [("some", "some"), ("some", "nomask"), ("all", "none"), ("nomask", "nomask")])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float64])
@pytest.mark.parametrize("shapes", SHAPES)
def test_kron_of_masked_arrays_is_numpys(shapes, dtype, kinds):
    (na, ka), (nb, kb) = pair(shapes[0], dtype, kinds[0]), pair(shapes[1], dtype, kinds[1], seed=3)
    expected = np.kron(na, nb)
    assert_same(kd.kron(ka, kb), expected)
    assert_same(np.kron(ka, kb), expected)  # NumPy's function dispatches to kdsl's


@pytest.mark.parametrize("layout", ["transposed", "strided"])
def test_views_and_a_plain_factor(layout):
    na, ka = pair((3, 4), np.float32, "some", layout)
    plain = np.array([[1.0, np.nan], [np.inf, -0.0]], np.float32)
    assert_same(kd.kron(ka, kd.asarray(plain)), np.kron(na, plain))
    assert_same(kd.kron(kd.asarray(plain), ka), np.kron(plain, na))


def test_numpys_example():
    x = kd.ma.array([[1, 2], [3, 4]], mask=[[0, 1], [1, 0]])
    k = kd.kron(x, x)
    assert isinstance(k, kd.ma.MaskedArray)
    assert k.tolist() == [[1, None, None, None], [None, 4, None, None], [None, None, 4, None], [None, None, None, 16]]
