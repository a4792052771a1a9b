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
    kd.realize(y)  # (reading an unrealised result copies it in the batch computing it: no readback recorded)
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
    kd.realize(*arrays)  # (an unrealised result is copied in the batch computing it: no readback recorded)
    for i, a in enumerate(arrays):
        np.testing.assert_array_equal(a.numpy(), np.full(8, i, np.float32))
    assert len(st.readbacks) == readback.READBACKS_PER_DEVICE
    _, src, host = next(reversed(st.readbacks.values()))
    for k in [k for k, v in st.staging.items() if v is host]:
        del st.staging[k]
    host.destroy()  # as the staging cache does on eviction: the entry must be recorded again, not replayed
    np.testing.assert_array_equal(arrays[-1].numpy(), np.full(8, len(arrays) - 1, np.float32))


def test_cached_views_are_bounded_and_belong_to_cached_tensors():
    st = state(kd.device())
    for n in range(1, 2 * staging.STAGING_PER_DEVICE + 3):
        a = np.arange(n, dtype=np.int32) - 3
        np.testing.assert_array_equal((kd.asarray(a) * 2).numpy(), a * 2)
        assert len(st.staging_views) <= staging.STAGING_PER_DEVICE
        cached = list(st.staging.values())
        assert all(any(host is t for t in cached) for host, _ in st.staging_views.values())


def test_downloads_through_a_cached_view_are_independent_copies():
    x = kd.asarray(np.zeros(16, np.float32))
    first = (x + 1).numpy()
    second = (x + 2).numpy()  # the same staging tensor and view: the first result must not change
    np.testing.assert_array_equal(first, np.ones(16, np.float32))
    np.testing.assert_array_equal(second, np.full(16, 2, np.float32))
    second[:] = -1  # writing a result never reaches the staging memory
    np.testing.assert_array_equal((x + 3).numpy(), np.full(16, 3, np.float32))


@pytest.mark.parametrize("direction", ["download", "upload"])
def test_a_destroyed_cached_tensor_is_replaced_with_its_view(direction):
    st = state(kd.device())
    a = np.arange(24, dtype=np.float32)
    y = kd.asarray(a) + 1
    np.testing.assert_array_equal(y.numpy(), a + 1)
    key = (24, np.dtype(np.float32).str)
    old = st.staging[key]
    old.destroy()  # (a device teardown frees it with the manager's other objects)
    if direction == "download":
        np.testing.assert_array_equal(y.numpy(), a + 1)
    else:
        np.testing.assert_array_equal(kd.asarray(a * 3).numpy(), a * 3)
    new = st.staging[key]
    assert new is not old and not new._destroyed and st.staging_views[key][0] is new
