"""``lexsort``'s axis is checked as NumPy's (numpy/_core/tests/test_regression.py's test_lexsort_invalid_axis):
AxisError past the keys' dimensions, 0-d keys included (their one order takes axis -1 or 0 only); kdsl
returned 0 for 0-d keys whatever the axis."""

import numpy as np
import pytest

import kdsl as kd

KEYS = [(np.arange(1),), (np.array([]),), (np.array(1),), (np.array(1.5), np.array(2)), (np.ones((2, 3)),),
        (np.array([[3, 1, 2]]), np.array([[0, 0, 1]]))]


def _lexsort(lib, keys, axis):
    try:
        return np.asarray(lib.lexsort(keys, axis=axis)).tolist()
    except (np.exceptions.AxisError, TypeError) as e:
        return type(e)


@pytest.mark.parametrize("i", range(len(KEYS)))
@pytest.mark.parametrize("axis", [-3, -2, -1, 0, 1, 2, 10])
def test_axis_as_numpy(i, axis):
    keys = KEYS[i]
    assert _lexsort(kd, tuple(kd.asarray(k) for k in keys), axis) == _lexsort(np, keys, axis)
