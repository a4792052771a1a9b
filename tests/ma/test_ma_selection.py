"""kd.ma's ``take``/``repeat``/``diagonal``/``compress``/``copy``/``trace``/``diff``/``clip``/``nonzero`` (functions,
methods, and ``kd.<name>``/``np.<name>`` of a masked array) against numpy.ma: ``kd.diff(x)``, ``kd.take(x, i)``...
of a masked array computed on the data with the mask silently dropped, and ``np.diff(x)`` was a TypeError."""

import numpy as np
import pytest
from ma_testing import assert_same, pair

import kdsl as kd


@pytest.mark.parametrize("kind", ["some", "nomask", "all"])
@pytest.mark.parametrize("layout", ["contiguous", "strided"])
def test_selections_carry_the_mask(kind, layout):
    n, k = pair((4, 5), np.float64, kind, layout)
    for lib in (kd.ma, kd, np):
        assert_same(lib.take(k, [3, 0, 3], axis=1), np.ma.take(n, [3, 0, 3], axis=1))
        assert_same(lib.take(k, [7, 1]), np.ma.take(n, [7, 1]))
        assert_same(lib.repeat(k, 2, axis=0), np.ma.repeat(n, 2, axis=0))
        assert_same(lib.diagonal(k, 1), np.ma.diagonal(n, 1))
        assert_same(lib.compress([True, False, True], k, axis=1), np.ma.compress([True, False, True], n, axis=1))
        assert_same(lib.trace(k, -1), np.ma.trace(n, -1))
        assert_same(lib.clip(k, -1.0, 1.0), np.ma.clip(n, -1.0, 1.0))
        for got, want in zip(lib.nonzero(k), np.ma.nonzero(n), strict=True):
            np.testing.assert_array_equal(got.numpy(), want)
    assert_same(k.take([2, 0], axis=1), n.take([2, 0], axis=1))
    assert_same(k.repeat([1, 2, 0, 1, 1], axis=1), n.repeat([1, 2, 0, 1, 1], axis=1))
    keep = [False, True, True, False, True]
    assert_same(k.compress(keep, axis=1), n.compress(keep, axis=1))
    assert_same(k.diagonal(), n.diagonal())
    assert_same(k.trace(), n.trace())
    copied = kd.copy(k)
    copied[0, 0] = 99.0
    assert_same(k, n)


@pytest.mark.parametrize("kind", ["some", "nomask"])
@pytest.mark.parametrize("n_order,axis", [(1, -1), (2, -1), (1, 0), (0, 1)])
def test_diff(kind, n_order, axis):
    n, k = pair((4, 6), np.int32, kind)
    for lib in (kd.ma, kd, np):
        assert_same(lib.diff(k, n_order, axis), np.ma.diff(n, n_order, axis))
    # a Python int prepended: int64 in NumPy, the array's int32 in kdsl (weak scalars, documented)
    assert_same(kd.ma.diff(k, axis=axis, prepend=0), np.ma.diff(n, axis=axis, prepend=0), check_dtype=False)
    edge = n[:1] if axis == 0 else n[:, :1]
    kedge = k[:1] if axis == 0 else k[:, :1]
    assert_same(kd.ma.diff(k, axis=axis, append=kedge), np.ma.diff(n, axis=axis, append=edge))
    with pytest.raises(ValueError, match="non-negative"):
        kd.ma.diff(k, -1)
