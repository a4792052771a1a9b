"""Generator.shuffle of a Python list with an axis other than 0: NumPy's NotImplementedError (kdsl raised
AxisError); axis 0 still shuffles the list in place, and arrays take any valid axis."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("axis", [1, -1, 5])
def test_list_axis_not_zero(axis):
    for g in (np.random.default_rng(0), kd.random.default_rng(0)):
        with pytest.raises(NotImplementedError, match="only supported on ndarray"):
            g.shuffle([[1, 2], [3, 4]], axis)


@pytest.mark.parametrize("items", [[], [7], [[1, 2], [3, 4], [5, 6]], [1.5, np.nan, np.inf, -0.0]])
def test_list_axis_zero_in_place(items):
    x = list(items)
    kd.random.default_rng(3).shuffle(x, 0)
    assert len(x) == len(items) and sorted(map(repr, x)) == sorted(map(repr, items))


@pytest.mark.parametrize("axis", [1, -1])
def test_arrays_take_the_axis(axis):
    a = np.arange(12.0).reshape(3, 4)
    kd.random.default_rng(1).shuffle(a, axis)
    assert sorted(a[0].tolist()) == [0.0, 1.0, 2.0, 3.0] and (np.diff(a[:, 0]) == 4).all()
    k = kd.asarray(np.arange(12, dtype=np.int32).reshape(3, 4))
    kd.random.default_rng(1).shuffle(k, axis)
    assert sorted(k.numpy()[1].tolist()) == [4, 5, 6, 7]
