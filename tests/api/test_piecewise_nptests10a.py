"""kd.piecewise reads numeric conditions as truth values (nonzero holds), as NumPy's does: an integer array,
a list holding one, and the int a product of two Python comparisons gives (``(x > 3) * (x <= 5)``)."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("cond", [np.array([1, 0, 2, 0]), [np.array([0, 3, 0, -1])], np.array([0.5, 0.0, 0, 1.0]),
                                  [np.array([1, 0, 0, 1], np.uint8), np.array([0, 0, 1, 1], np.int64)]])
def test_numeric_conditions(cond):
    x = np.array([5, 6, 7, 8], np.int32)
    funcs = [10, 20][:len(cond) if isinstance(cond, list) else 1]
    want = np.piecewise(x, cond, funcs)
    kcond = [kd.asarray(c) for c in cond] if isinstance(cond, list) else kd.asarray(cond)
    np.testing.assert_array_equal(kd.piecewise(kd.asarray(x), kcond, funcs).numpy(), want)


@pytest.mark.parametrize("x", [2, 4, 7])
def test_python_comparisons_of_a_scalar(x):
    conds = [x <= 3, (x > 3) * (x <= 5), x > 5]
    want = np.piecewise(x, conds, [1, 2, 3])
    np.testing.assert_array_equal(kd.piecewise(x, conds, [1, 2, 3]).numpy(), want)
