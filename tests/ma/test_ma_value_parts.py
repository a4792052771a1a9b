"""``x.fill(v)``, ``x.real``/``x.imag``, ``x.set_fill_value(v)``/``x.get_fill_value()`` and
``kd.ma.set_fill_value(x, v)`` against numpy.ma (AttributeError before)."""

import numpy as np
from ma_testing import assert_same, pair

import kdsl as kd


def test_fill_keeps_the_mask():
    n, k = pair((3, 4), np.float64, "some")
    n.fill(2.5)
    k.fill(2.5)
    assert_same(k, n, masked_data=True)


def test_real_and_imag_parts_with_the_mask():
    data = np.array([1 + 2j, -3 + 0.5j, 4 - 1j])
    n = np.ma.array(data, mask=[0, 1, 0])
    k = kd.ma.array(kd.asarray(data), mask=[0, 1, 0])
    assert_same(k.real, n.real)
    assert_same(k.imag, n.imag)


def test_set_and_get_fill_value():
    n, k = pair((2, 3), np.float64, "some")
    np.ma.set_fill_value(n, -7.0)
    kd.ma.set_fill_value(k, -7.0)
    assert_same(k, n)
    np.testing.assert_array_equal(k.filled().numpy(), n.filled())
    k.set_fill_value(3.0)
    n.set_fill_value(3.0)
    assert k.get_fill_value() == n.get_fill_value() == 3.0
    kd.ma.set_fill_value(kd.ones(2), 5.0)  # not a masked array: nothing, as NumPy's
