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


def test_reading_a_buffer_again_replays_its_recorded_copy_and_sees_new_data():
    from kdsl.engine import readback
    st = state(kd.device())
    base = kd.asarray(np.arange(16, dtype=np.float32))
    y = base * 2
    np.testing.assert_array_equal(y.numpy(), np.arange(16) * 2)
    seq = next(reversed(st.readbacks.values()))[0]
    np.testing.assert_array_equal(y.numpy(), np.arange(16) * 2)
    assert next(reversed(st.readbacks.values()))[0] is seq  # replayed, not recorded anew
    for i in range(20):  # a loop's results: the pool hands their buffers out again; every read is fresh
        z = base + float(i)
        np.testing.assert_array_equal(z.numpy(), np.arange(16) + i)
        del z
    assert len(st.readbacks) <= readback.READBACKS_PER_DEVICE


def test_readbacks_are_bounded_and_skip_destroyed_tensors():
    from kdsl.engine import readback
    st = state(kd.device())
    arrays = [kd.asarray(np.full(8, i, np.float32)) * 1 for i in range(readback.READBACKS_PER_DEVICE + 4)]
    for i, a in enumerate(arrays):
        np.testing.assert_array_equal(a.numpy(), np.full(8, i, np.float32))
    assert len(st.readbacks) == readback.READBACKS_PER_DEVICE
    _, src, host = next(reversed(st.readbacks.values()))
    for k in [k for k, v in st.staging.items() if v is host]:
        del st.staging[k]
    host.destroy()  # as the staging cache does on eviction: the entry must be recorded again, not replayed
    np.testing.assert_array_equal(arrays[-1].numpy(), np.full(8, len(arrays) - 1, np.float32))
