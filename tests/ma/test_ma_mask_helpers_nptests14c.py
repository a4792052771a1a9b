"""numpy.ma's ``is_mask``, ``common_fill_value``, ``harden_mask`` and ``soften_mask`` functions on kd.ma (they
were missing: AttributeError), against numpy.ma on several dtypes and inputs."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("value", [[True, False], [1, 0], [0.5], [], [[True], [False]]])
def test_is_mask(value):
    host = np.array(value) if value else np.array([], bool)
    assert kd.ma.is_mask(kd.asarray(host)) == np.ma.is_mask(host)
    assert kd.ma.is_mask(kd.ma.array(kd.asarray(host))) == np.ma.is_mask(np.ma.array(host))
    assert kd.ma.is_mask(value) == np.ma.is_mask(value)  # a list has no dtype: False
    assert kd.ma.is_mask(kd.ma.nomask) == np.ma.is_mask(np.ma.nomask)


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.float32])
def test_common_fill_value(dtype):
    kx = kd.ma.array(kd.asarray(np.array([1, 2], dtype)), fill_value=3)
    ky = kd.ma.array(kd.asarray(np.array([0, 1], dtype)), fill_value=3)
    nx, ny = np.ma.array(np.array([1, 2], dtype), fill_value=3), np.ma.array(np.array([0, 1], dtype), fill_value=3)
    assert kd.ma.common_fill_value(kx, ky) == np.ma.common_fill_value(nx, ny)
    plain = np.array([np.nan, np.inf], dtype) if np.issubdtype(dtype, np.floating) else np.array([1], dtype)
    assert kd.ma.common_fill_value(kx, kd.asarray(plain)) == np.ma.common_fill_value(nx, plain)
    kz = kd.ma.array(kd.asarray(np.array([5], dtype)))
    assert kd.ma.common_fill_value(kz, kd.asarray(plain)) == np.ma.common_fill_value(np.ma.array(plain[:1]), plain)


def test_harden_soften_functions():
    k, n = kd.ma.array([1, 2, 3], mask=[1, 0, 0]), np.ma.array([1, 2, 3], mask=[1, 0, 0])
    assert kd.ma.harden_mask(k) is k and np.ma.harden_mask(n) is n
    k[0], n[0] = 9, 9
    assert k.tolist() == n.tolist() and k.hardmask == n.hardmask
    assert kd.ma.soften_mask(k[::2]).hardmask is False  # a view: its own setting
    assert kd.ma.soften_mask(k) is k and np.ma.soften_mask(n) is n
    k[0], n[0] = 9, 9
    assert k.tolist() == n.tolist() and k.hardmask == n.hardmask
