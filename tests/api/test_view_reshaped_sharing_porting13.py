"""``b = a.view(); b.shape = (2, 3)`` (or ``b.dtype = ...``): ``b`` is still NumPy's view of ``a``, so
``np.may_share_memory(a, b)`` and ``np.shares_memory(a, b)`` are True and writes into ``b`` reach ``a``. The shape
and dtype setters re-wrapped the view's write-back and lost the weak link to a bitcast view's base (False before)."""

import numpy as np
import pytest

import kdsl as kd

RESHAPES = {
    "view_shape": lambda a: _set(a.view(), shape=(2, 3)),
    "view_column": lambda a: _set(a.view(), shape=(6, 1)),
    "view_dtype": lambda a: _set(a.view(), dtype=np.uint32 if a.dtype.itemsize == 4 else np.uint64),
    "view_shape_then_dtype": lambda a: _set(_set(a.view(), shape=(3, 2)), dtype=a.dtype),
    "slice_view_shape": lambda a: _set(a[1:].view(), shape=(5, 1)),
}


def _set(v, **attrs):
    for name, value in attrs.items():
        setattr(v, name, value)
    return v


@pytest.mark.parametrize("name", sorted(RESHAPES))
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.int64])
def test_reshaped_view_shares_like_numpy(name, dtype):
    h = np.arange(6, dtype=dtype)
    a = kd.asarray(h)
    hv, kv = RESHAPES[name](h), RESHAPES[name](a)
    assert kd.may_share_memory(a, kv) == np.may_share_memory(h, hv) is True
    assert kd.shares_memory(a, kv) == np.shares_memory(h, hv) is True
    assert kd.shares_memory(a[:1], kv) == np.shares_memory(h[:1], hv)
    assert np.may_share_memory(kv, a)  # NumPy's function dispatches to kdsl


@pytest.mark.parametrize("name", sorted(RESHAPES))
def test_reshaped_view_writes_reach_base(name):
    h = np.arange(6, dtype=np.int32)
    a = kd.asarray(h)
    hv, kv = RESHAPES[name](h), RESHAPES[name](a)
    hv.reshape(-1)[-1] = 40  # the view's last element, whatever its shape
    kv[(-1,) * kv.ndim] = 40
    np.testing.assert_array_equal(a.numpy(), h)
    np.testing.assert_array_equal(kv.numpy(), hv)


def test_unrelated_reshaped_copy_shares_nothing():
    a = kd.arange(6)
    b = a.copy()
    b.shape = (2, 3)
    assert not kd.may_share_memory(a, b)
    assert not kd.shares_memory(a, b)
