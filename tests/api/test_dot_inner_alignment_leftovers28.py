"""``kd.dot`` and ``kd.inner`` of operands whose summed axes differ raise NumPy's ValueError word for word:
``shapes (2,3,4) and (3,) not aligned: 4 (dim 2) != 3 (dim 0)`` (kdsl named matmul's gufunc signature or
tensordot's axes, and ``dot`` of two vectors left out the sizes)."""

import numpy as np
import pytest

import kdsl as kd

PAIRS = [((3, 4), (3,)), ((4,), (2, 3)), ((4,), (5,)), ((2, 3, 4), (5, 2, 3)), ((2, 4), (5, 6, 7, 3)),
         ((2, 4), (5, 6, 3, 7)), ((3,), (2, 4, 5)), ((0, 3), (0,)), ((2, 0), (3, 2)), ((2, 3, 4), (3,)),
         ((1,), (2,))]


@pytest.mark.parametrize("name", ["dot", "inner"])
@pytest.mark.parametrize("shapes", PAIRS, ids=str)
def test_misaligned_operands_raise_numpys_message(name, shapes):
    a, b = (np.ones(s) for s in shapes)
    with pytest.raises(ValueError) as expected:
        getattr(np, name)(a, b)
    with pytest.raises(ValueError) as got:
        getattr(kd, name)(kd.asarray(a), kd.asarray(b))
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("shapes", [((3, 4), (4,)), ((2, 3, 4), (4,)), ((4,), (4, 2)), ((2, 3, 4), (5, 4, 2)),
                                    ((0,), (0,)), ((2, 0), (0, 3))], ids=str)
def test_aligned_operands_still_multiply(shapes):
    rng = np.random.default_rng(5)
    a, b = (rng.standard_normal(s) for s in shapes)
    got = kd.dot(kd.asarray(a), kd.asarray(b))
    np.testing.assert_allclose(np.asarray(got), np.dot(a, b), rtol=1e-12, atol=1e-12)
    assert kd.asarray(a).dot(kd.asarray(b)).shape == np.dot(a, b).shape
