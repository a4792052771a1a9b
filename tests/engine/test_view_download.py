"""Reading a small part of a large realised array copies that part out on the device first (``x[-1].item()`` of
a gigabyte array must not download the gigabyte); larger parts are read from the downloaded base."""

import numpy as np
import pytest

import kdsl as kd

HOST = np.arange(2**19, dtype=np.float32).reshape(512, 1024)  # 2 MiB: past the small-part threshold


@pytest.mark.parametrize("key", [(-1, -1), (5,), (slice(None), 3), (slice(None, None, -7), slice(1, 9)),
                                 (slice(100, 300), slice(None)), (slice(None, None, 2),)])
def test_parts_of_a_large_array_read_as_numpy(key):
    x = kd.asarray(HOST)
    kd.realize(x)
    np.testing.assert_array_equal(x[key].numpy(), HOST[key])
    np.testing.assert_array_equal(x.T[key].numpy(), HOST.T[key])


def test_a_small_part_is_copied_on_the_device():
    x = kd.asarray(HOST)
    kd.realize(x)
    kd.stats(reset=True)
    assert x[-1, -1].item() == HOST[-1, -1]
    assert kd.stats()["kernels"] == 1  # the one-element copy; the base itself is not downloaded
    kd.stats(reset=True)
    np.testing.assert_array_equal(x[::2].numpy(), HOST[::2])  # half the base: downloaded and read on the host
    assert kd.stats()["kernels"] == 0
