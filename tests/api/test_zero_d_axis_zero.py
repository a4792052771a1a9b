"""NumPy's 0-d arrays take ``axis=0`` (or -1) in ``repeat``, ``take`` and ``squeeze``, as one element:
``np.repeat(total, n, axis=0)`` of a reduction's 0-d result is ``n`` copies, ``np.take(a0, [0, 0], axis=0)``
two; other axes are NumPy's AxisError (kdsl raised AxisError for all of them)."""

import numpy as np
import pytest

import kdsl as kd

CALLS = {
    "repeat axis 0": lambda m, a: m.repeat(a, 3, axis=0),
    "repeat axis -1, counts": lambda m, a: m.repeat(a, [2], axis=-1),
    "repeat method": lambda m, a: a.repeat(2, axis=0),
    "take axis 0": lambda m, a: m.take(a, 0, axis=0),
    "take axis -1, list": lambda m, a: m.take(a, [0, 0], axis=-1),
    "squeeze axis 0": lambda m, a: m.squeeze(a, axis=0),
    "squeeze method -1": lambda m, a: a.squeeze(-1),
}
REFUSED = {
    "repeat axis 1": lambda m, a: m.repeat(a, 2, axis=1),
    "take axis 1": lambda m, a: m.take(a, 0, axis=1),
    "take index 1": lambda m, a: m.take(a, 1, axis=0),
    "squeeze axis 1": lambda m, a: m.squeeze(a, axis=1),
    "squeeze axis tuple": lambda m, a: m.squeeze(a, axis=(0,)),
}


@pytest.mark.parametrize("name", CALLS)
def test_axis_zero_of_a_0d_array(name):
    expected = CALLS[name](np, np.array(2.5))
    got = CALLS[name](kd, kd.asarray(2.5))
    assert got.shape == np.shape(expected)
    np.testing.assert_array_equal(got.numpy(), expected)


@pytest.mark.parametrize("name", REFUSED)
def test_other_axes_are_numpys_errors(name):
    with pytest.raises((IndexError, np.exceptions.AxisError)) as expected:
        REFUSED[name](np, np.array(2.5))
    with pytest.raises(type(expected.value)) as got:
        REFUSED[name](kd, kd.asarray(2.5))
    assert str(got.value) == str(expected.value)
