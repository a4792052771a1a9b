"""Uploads and downloads borrow cached host tensors (kdsl.engine.staging): right data, bounded, reused."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.engine import staging
from kdsl.engine.state import state


def test_small_transfers_reuse_one_host_tensor_and_stay_right():
    st = state(kd.device())
    first = None
    for i in range(50):
        host = np.arange(16, dtype=np.float32) * i
        got = kd.asarray(host) + 1  # upload, then a download of the same size below
        np.testing.assert_array_equal(got.numpy(), host + 1)
        cached = st.staging[(16, np.dtype(np.float32).str)]
        first = cached if first is None else first
        assert cached is first  # the same host tensor every time: no allocation per transfer


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8, np.bool_, np.float16])
def test_cache_is_bounded_and_evicted_tensors_are_freed(dtype):
    st = state(kd.device())
    evicted = []
    for n in range(1, staging.STAGING_PER_DEVICE + 6):
        a = (np.arange(n) % 3).astype(dtype)
        np.testing.assert_array_equal(kd.asarray(a).numpy(), a)
        evicted += [t for t in list(st.staging.values())]
        assert len(st.staging) <= staging.STAGING_PER_DEVICE
    gone = [t for t in evicted if t not in st.staging.values()]
    assert gone and all("destroyed" in repr(t) for t in gone)


def test_large_transfers_do_not_enter_the_cache():
    st = state(kd.device())
    n = staging.STAGING_BYTES // 4 + 1
    a = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    np.testing.assert_array_equal(kd.asarray(a).numpy(), a)
    assert (n, np.dtype(np.float32).str) not in st.staging
