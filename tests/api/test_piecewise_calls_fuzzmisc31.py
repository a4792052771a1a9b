"""``kd.piecewise`` calls a function only where NumPy does, and counts the conditions before it checks their
shape (found by differential fuzzing): an element-wise function was called on the whole of ``x`` even where its
condition selects nothing, so one that fails on piecewise's extra ``*args`` (``lambda v: v * 2`` beside
``lambda v, s: v * s``) raised TypeError where NumPy, which makes no call there, returns; and a 2-d array of
conditions of the wrong count raised IndexError (its rows against ``x``'s shape) instead of NumPy's ValueError."""

import numpy as np
import pytest

import kdsl as kd

X = np.arange(6.0).reshape(3, 2) - 2.5


def _both(make):
    """NumPy's and kdsl's result (or exception class) of ``make(xp, x)``."""
    out = []
    for xp, x in ((np, X), (kd, kd.asarray(X))):
        try:
            out.append(np.asarray(make(xp, x)))
        except Exception as e:  # noqa: BLE001 - the class is compared
            out.append(type(e))
    return out


CASES = {
    "unselected one-argument function": lambda xp, x: xp.piecewise(x, [x > 10, x > 0],
                                                                    [lambda v: v * 2, lambda v, s: v - s], 3),
    "otherwise selects nothing": lambda xp, x: xp.piecewise(x, [x > -10], [lambda v, s: v * s, lambda v: -v], 2.0),
    "selected one-argument function": lambda xp, x: xp.piecewise(x, [x > 0], [lambda v, s: v * s, lambda v: v], 2),
    "function failing on empty input": lambda xp, x: xp.piecewise(x, [x > 10], [lambda v: v + v.max(), 1.5]),
    "2-d condition array, wrong count": lambda xp, x: xp.piecewise(x, x > 0, [lambda v: v * 2]),
    "2-d condition array, its count": lambda xp, x: xp.piecewise(x, x[:, :1] > 0, [lambda v: v * 2] * 3),
    "leading-axis condition": lambda xp, x: xp.piecewise(x, [x[:, 0] > 0], [lambda v: v * 2]),
}


@pytest.mark.parametrize("name", CASES)
def test_matches_numpy(name):
    want, got = _both(CASES[name])
    if isinstance(want, type):
        assert got is want, (name, got)
        return
    assert not isinstance(got, type), (name, got)
    assert (got.shape, got.dtype) == (want.shape, want.dtype)
    np.testing.assert_array_equal(got, want)

