"""kd.shares_memory: NumPy's exact overlap answer for views of one array."""

import numpy as np
import pytest

import kdsl as kd

VIEWS = [lambda a: a, lambda a: a[:2], lambda a: a[2:], lambda a: a[::2], lambda a: a[1::2], lambda a: a[:, 0],
         lambda a: a[:, 1:3], lambda a: a.T, lambda a: a.T[1], lambda a: a[1], lambda a: a[3, ::-1],
         lambda a: a.reshape(6, 4)[0], lambda a: a.reshape(6, 4)[5], lambda a: a[1:3][0], lambda a: a[..., -1],
         lambda a: a[0:0]]


@pytest.mark.parametrize("i", range(len(VIEWS)))
@pytest.mark.parametrize("j", range(0, len(VIEWS), 3))
def test_matches_numpy_for_views(i, j):
    host = np.arange(24).reshape(4, 6)
    a = kd.asarray(host)
    want = np.shares_memory(VIEWS[i](host), VIEWS[j](host))
    assert kd.shares_memory(VIEWS[i](a), VIEWS[j](a)) == want
    assert np.shares_memory(VIEWS[i](a), VIEWS[j](a)) == want  # NumPy's function dispatches to kdsl's
    assert kd.may_share_memory(VIEWS[i](a), VIEWS[j](a)) >= want
    np.testing.assert_array_equal(a.numpy(), host)  # the test writes nothing into a


def test_unrelated_arrays_and_host_data():
    a = kd.arange(6)
    assert not kd.shares_memory(a, kd.arange(6))
    assert not kd.shares_memory(a, a + 0)
    assert not kd.shares_memory(a, np.arange(6))
    # NumPy's MAY_SHARE_BOUNDS: the views' extents only; where they overlap the question stays open: NumPy's
    # TooHardError (kdsl answered may_share_memory's True until leftovers28)
    h = np.arange(6)
    assert kd.shares_memory(a[:3], a[3:], max_work=0) == np.shares_memory(h[:3], h[3:], max_work=0)
    for x, y in ((a[::2], a[1::2]), (a, a), (a[1:], a.reshape(2, 3))):
        with pytest.raises(np.exceptions.TooHardError, match="Exceeded max_work"):
            kd.shares_memory(x, y, max_work=0)
    with pytest.raises(np.exceptions.TooHardError, match="Exceeded max_work"):
        np.shares_memory(h[::2], h[1::2], max_work=0)
    with pytest.raises(TypeError):
        kd.shares_memory(a, a, max_work="x")


def test_bitcast_views_share():
    host = np.arange(6, dtype=np.float32)
    a = kd.asarray(host)
    v = a.view(kd.int32)
    assert kd.may_share_memory(a, v) == np.may_share_memory(host, host.view(np.int32))
    assert kd.shares_memory(v, a) and kd.shares_memory(a[::2].view(kd.uint32), a)
    assert not kd.shares_memory(v, kd.arange(6))
    np.testing.assert_array_equal(a.numpy(), host)  # nothing written into a
