"""Arrays too large for the device: NumPy raises MemoryError ("Unable to allocate 36.4 TiB...") for data that
large, so kdsl's error is a MemoryError too (and stays the ValueError it was), never a Vulkan error. NumPy is
not called here: on a host with terabytes of memory its allocation could succeed and take minutes."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.errors import TooLargeError

V5 = np.array([3.0, 1.0, 4.0, 1.0, 5.0], np.float32)

CASES = [
    ("tile", lambda: kd.tile(kd.asarray(V5), 10**12)),
    ("repeat", lambda: kd.repeat(kd.asarray(V5), 10**12)),
    ("pad", lambda: kd.pad(kd.asarray(V5), 10**12)),
    ("eye", lambda: kd.eye(10**7)),
    ("outer", lambda: kd.outer(kd.ones(10**6, dtype=kd.float32), kd.ones(10**6, dtype=kd.float32))),
    ("kron", lambda: kd.kron(kd.ones(10**5, dtype=kd.float32), kd.ones(10**6, dtype=kd.float32))),
    ("random", lambda: kd.random.default_rng(0).random(10**12)),
    ("arange", lambda: kd.arange(10**13)),
]


@pytest.mark.parametrize("call", [pytest.param(c, id=i) for i, c in CASES])
def test_too_large_is_a_memory_error(call):
    with pytest.raises(MemoryError) as err:
        np.asarray(call())  # lazy: the size shows when the array is planned or its buffer made
    assert isinstance(err.value, ValueError) and isinstance(err.value, TooLargeError)
    assert "split" in str(err.value)  # the message says what to do


def test_a_large_array_that_fits_still_runs():
    assert kd.tile(kd.asarray(V5), 1000).shape == (5000,)
    assert float(kd.repeat(kd.asarray(V5), 1000).sum()) == pytest.approx(14000.0)
