"""partition/argpartition of empty arrays take any integer ``kth`` (NumPy has nothing to partition)."""
import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("shape", [(0,), (3, 0), (0, 3), (3, 2, 1, 0)])
@pytest.mark.parametrize("kth", [0, -1, 5, np.int8(2), [0, 7]])
@pytest.mark.parametrize("fn", ["partition", "argpartition"])
def test_empty_partition_any_kth(shape, kth, fn):
    a = np.zeros(shape, np.float32)
    for axis in list(range(-a.ndim, a.ndim)) + [None]:
        want = getattr(np, fn)(a, kth, axis=axis)
        got = getattr(kd, fn)(kd.asarray(a), kth, axis=axis)
        assert got.shape == want.shape


def test_empty_partition_still_checks_kth_type_and_nonempty_bounds():
    with pytest.raises(TypeError):
        kd.partition(kd.zeros((0, 3)), 1.5)
    for m in (np, kd):
        with pytest.raises(ValueError):
            m.partition(m.arange(10), 10)
        with pytest.raises(ValueError):
            m.arange(10).argpartition(-11)
