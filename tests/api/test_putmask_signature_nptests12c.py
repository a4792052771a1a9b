"""putmask's first parameter is positional-only, as NumPy's ``putmask(a, /, mask, values)``."""
import numpy as np
import pytest

import kdsl as kd


def test_putmask_keywords_as_numpy():
    for m in (np, kd):
        x = m.asarray(np.array([0, 0]))
        m.putmask(x, values=[-1, -2], mask=[False, True])
        np.testing.assert_array_equal(np.asarray(x), [0, -2])
        with pytest.raises(TypeError):
            m.putmask(a=x, values=[-1, -2], mask=[False, True])


def test_putmask_view_nan_and_empty():
    data = np.array([1.0, np.nan, 3.0, np.inf, 5.0, 6.0])
    x = kd.asarray(data)
    view = x[::2]
    kd.putmask(view, view > 2, np.nan)
    want = data.copy()
    np.putmask(want[::2], want[::2] > 2, np.nan)
    np.testing.assert_array_equal(np.asarray(x), want)
    e = kd.zeros((0, 2))
    kd.putmask(e, kd.zeros((0, 2), dtype=bool), 1.0)
    assert e.shape == (0, 2)
