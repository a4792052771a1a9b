"""Sequence: record/eval semantics, eval_async/eval_await (timeouts too), clear, rerecord, timestamps, destroy."""

from __future__ import annotations

import time

import numpy as np
import pytest
from rt_glsl import ADD_PUSH, INCREMENT, SLOW_LCG, lcg_oracle, spirv

import kdsl.kp as kp


@pytest.fixture
def counter(mgr):
    """A uint32[4] tensor of zeros on the device, and a kernel that adds 1 to each element."""
    t = mgr.tensor_t(np.zeros(4, np.uint32))
    mgr.sequence().eval(kp.OpSyncDevice([t]))
    return t, mgr.algorithm([t], spirv(INCREMENT))


def read(mgr, t) -> np.ndarray:
    mgr.sequence().eval(kp.OpSyncLocal([t]))
    return t.data().copy()


def test_mutating_calls_return_the_sequence(mgr, counter):
    t, algo = counter
    seq = mgr.sequence()
    assert seq.record(kp.OpAlgoDispatch(algo)) is seq
    assert seq.eval() is seq
    assert seq.eval(kp.OpAlgoDispatch(algo)) is seq
    assert seq.eval_async(kp.OpAlgoDispatch(algo)) is seq
    assert seq.eval_await() is seq
    assert seq.clear() is seq


def test_eval_replays_what_was_recorded(mgr, counter):
    t, algo = counter
    seq = mgr.sequence().record(kp.OpAlgoDispatch(algo)).record(kp.OpAlgoDispatch(algo))
    seq.eval()
    seq.eval()
    np.testing.assert_array_equal(read(mgr, t), [4] * 4)


def test_record_after_eval_starts_a_fresh_batch(mgr, counter):
    t, algo = counter
    seq = mgr.sequence().record(kp.OpAlgoDispatch(algo)).record(kp.OpAlgoDispatch(algo)).eval()
    seq.record(kp.OpAlgoDispatch(algo)).eval()  # only the one dispatch recorded since the last eval runs
    np.testing.assert_array_equal(read(mgr, t), [3] * 4)


def test_eval_with_op_runs_only_that_op(mgr, counter):
    t, algo = counter
    seq = mgr.sequence().record(kp.OpAlgoDispatch(algo)).record(kp.OpAlgoDispatch(algo))
    seq.eval(kp.OpAlgoDispatch(algo))
    np.testing.assert_array_equal(read(mgr, t), [1] * 4)


def test_clear_forgets_recorded_ops(mgr, counter):
    t, algo = counter
    seq = mgr.sequence().record(kp.OpAlgoDispatch(algo))
    assert seq.is_recording()
    seq.clear()
    assert not seq.is_recording()
    seq.eval()
    np.testing.assert_array_equal(read(mgr, t), [0] * 4)


def test_rerecord_records_every_op_since_clear(mgr, counter):
    t, algo = counter
    seq = mgr.sequence().record(kp.OpAlgoDispatch(algo)).eval()       # 1
    seq.record(kp.OpAlgoDispatch(algo)).record(kp.OpAlgoDispatch(algo)).eval()  # 3
    seq.rerecord().eval()  # all three recorded ops again: 6
    np.testing.assert_array_equal(read(mgr, t), [6] * 4)
    seq.clear().record(kp.OpAlgoDispatch(algo)).eval()  # 7
    seq.rerecord().eval()  # only the op since clear(): 8
    np.testing.assert_array_equal(read(mgr, t), [8] * 4)


def test_eval_async_then_await(mgr, counter):
    t, algo = counter
    seq = mgr.sequence().eval_async(kp.OpAlgoDispatch(algo))
    seq.eval_await()
    assert not seq.is_running()
    seq.record(kp.OpAlgoDispatch(algo)).eval_async()  # no-argument form submits what was recorded
    seq.eval_await()
    np.testing.assert_array_equal(read(mgr, t), [2] * 4)


def test_await_when_nothing_runs_is_a_no_op(mgr):
    seq = mgr.sequence()
    seq.eval_await()
    seq.eval_await(0)
    assert not seq.is_running()


def test_async_sync_local_runs_post_eval_at_await(mgr):
    """OpSyncLocal's host-side effect is visible after eval_await (Kompute's README pattern)."""
    t = mgr.tensor_t(np.arange(3, dtype=np.float32))
    algo = mgr.algorithm([t], spirv(ADD_PUSH), push_consts=np.array([10], np.float32))
    mgr.sequence().record(kp.OpSyncDevice([t])).record(kp.OpAlgoDispatch(algo)).eval()
    seq = mgr.sequence()
    seq.eval_async(kp.OpSyncLocal([t]))
    seq.eval_await()
    np.testing.assert_array_equal(t.data(), [10, 11, 12])


def _fastest_of_two(mgr, algo, push) -> float:
    times = []
    for _ in range(2):
        start = time.perf_counter()
        mgr.sequence().eval(kp.OpAlgoDispatch(algo, push))
        times.append(time.perf_counter() - start)
    return min(times)


@pytest.fixture(scope="module")
def slow(mgr):
    """A kernel that runs for well over 100 ms on this device: its tensor, algorithm and push constants.

    Calibrated once: the inner loop grows to 32 000 steps (below lavapipe's loop cap), then the outer rounds
    double until one dispatch takes > 400 ms (a GPU needs thousands of rounds, lavapipe one), timed as the
    faster of two runs: a run slowed by a compile or by other work on the machine (a CI's other test worker)
    must not stop the calibration at a kernel that later finishes before the test's Ctrl-C arrives.
    """
    n = 64 * 2048
    t = mgr.tensor_t(np.zeros(n, np.uint32))
    push = np.array([2000, 1], np.uint32)
    algo = mgr.algorithm([t], spirv(SLOW_LCG), workgroup=(n // 64, 1, 1), push_consts=push)
    while True:
        if _fastest_of_two(mgr, algo, push) > 0.4 or push[1] >= 1 << 20:
            return t, algo, push
        push = push * np.array([2, 1] if push[0] < 32000 else [1, 2], np.uint32)


def total_steps(push: np.ndarray) -> int:
    return int(push[0]) * int(push[1])


def test_eval_await_timeout_raises_and_a_later_await_completes(mgr, slow):
    t, algo, push = slow
    seq = mgr.sequence().record(kp.OpAlgoDispatch(algo, push))
    seq.record(kp.OpSyncLocal([t]))
    t.data()[:] = 0
    seq.eval_async()
    assert seq.is_running()
    with pytest.raises(TimeoutError):
        seq.eval_await(1_000_000)  # 1 ms
    assert seq.is_running()
    with pytest.raises(RuntimeError):
        seq.record(kp.OpSyncLocal([t]))  # recording while running is refused
    with pytest.raises(RuntimeError):
        seq.eval()
    seq.eval_await()
    assert not seq.is_running()
    np.testing.assert_array_equal(t.data(), lcg_oracle(t.size(), total_steps(push)))


def test_destroying_a_running_sequence_waits_for_it(mgr, slow):
    """Nothing is freed under the GPU: destroy() of a running sequence must not crash or leave errors."""
    t, algo, push = slow
    seq = mgr.sequence().eval_async(kp.OpAlgoDispatch(algo, push))
    seq.destroy()
    assert not seq.is_init()


def test_destroying_a_tensor_in_use_waits_for_the_gpu(mgr, slow):
    t, _, push = slow
    own = mgr.tensor_t(np.zeros(t.size(), np.uint32))
    algo = mgr.algorithm([own], spirv(SLOW_LCG), workgroup=(t.size() // 64, 1, 1), push_consts=push)
    seq = mgr.sequence().record(kp.OpAlgoDispatch(algo)).eval_async()
    own.destroy()  # must wait for the batch, not free memory the GPU is writing
    algo.destroy()
    seq.eval_await()
    assert not own.is_init()


def test_manager_destroy_waits_for_running_sequences(slow):
    m = kp.Manager()
    t = m.tensor_t(np.zeros(64 * 512, np.uint32))
    algo = m.algorithm([t], spirv(SLOW_LCG), workgroup=(512, 1, 1), push_consts=slow[2])
    seq = m.sequence().eval_async(kp.OpAlgoDispatch(algo))
    m.destroy()
    assert not seq.is_init() and not t.is_init()


def test_each_replay_waits_for_its_own_batch(mgr, slow):
    """The two fences a sequence signals by turns (one is reset while the next batch runs): every replay still
    waits for its own batch, and a timed-out await is finished by the next one."""
    import kdsl.runtime as rt

    t, algo, push = slow
    fences = rt.live_objects().get("VkFence", 0)
    seq = mgr.sequence().record(kp.OpAlgoDispatch(algo, push))
    for k in range(4):
        if k == 2:  # one batch through eval_async, a timed-out await, then a full one
            seq.eval_async()
            with pytest.raises(TimeoutError):
                seq.eval_await(1_000_000)
            start = time.perf_counter()
            seq.eval_await()
        else:
            start = time.perf_counter()
            seq.eval()
        assert time.perf_counter() - start > 0.05  # the batch takes > 400 ms: a signalled fence returns at once
    seq.destroy()
    assert rt.live_objects().get("VkFence", 0) == fences


def test_eval_runs_during_while_the_batch_runs(mgr, counter):
    """``eval(during=...)`` calls it after the submission and before the wait; a raise still waits."""
    t, algo = counter
    seq = mgr.sequence().record(kp.OpAlgoDispatch(algo))
    seen = []
    seq.eval(during=lambda: seen.append(seq.is_running()))
    assert seen == [True] and not seq.is_running()

    def fail() -> None:
        raise ValueError("in during")

    with pytest.raises(ValueError, match="in during"):
        seq.eval(during=fail)
    assert not seq.is_running()
    seq.eval()  # still usable: the failed call waited for its batch
    with pytest.raises(ValueError, match="in during"):
        seq.eval(kp.OpAlgoDispatch(algo), during=fail)  # the recording path too
    assert not seq.is_running()
    np.testing.assert_array_equal(read(mgr, t), [4] * 4)


def test_eval_records_push_constants_as_recorded(mgr):
    """eval() replays the push constants that were recorded, even after another sequence overrode them."""
    t = mgr.tensor_t(np.zeros(2, np.float32))
    algo = mgr.algorithm([t], spirv(ADD_PUSH), push_consts=np.array([1], np.float32))
    mgr.sequence().eval(kp.OpSyncDevice([t]))
    five = mgr.sequence().record(kp.OpAlgoDispatch(algo, np.array([5], np.float32)))
    five.eval()
    mgr.sequence().eval(kp.OpAlgoDispatch(algo, np.array([100], np.float32)))
    five.eval()
    np.testing.assert_array_equal(read(mgr, t), [110, 110])


def test_push_override_is_sticky(mgr):
    """Push constants given to OpAlgoDispatch replace the algorithm's stored ones from then on."""
    t = mgr.tensor_t(np.zeros(2, np.float32))
    algo = mgr.algorithm([t], spirv(ADD_PUSH), push_consts=np.array([1], np.float32))
    mgr.sequence().eval(kp.OpSyncDevice([t]))
    mgr.sequence().eval(kp.OpAlgoDispatch(algo, np.array([3], np.float32)))
    np.testing.assert_array_equal(algo.get_push_constants(), [3])
    mgr.sequence().eval(kp.OpAlgoDispatch(algo))  # no push given: the last override (3) is used
    np.testing.assert_array_equal(read(mgr, t), [6, 6])


def test_timestamps(mgr, props, counter):
    if not props["timestamps_supported"]:
        pytest.skip("device has no timestamp queries")
    t, algo = counter
    seq = mgr.sequence(total_timestamps=8)
    seq.record(kp.OpAlgoDispatch(algo)).record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([t])).eval()
    stamps = seq.get_timestamps()
    assert len(stamps) == 4  # one per recorded op, plus the start
    assert np.all(np.diff(stamps) >= 0)
    assert stamps[-1] > stamps[0]


def test_timestamps_not_enabled_raise(mgr, counter):
    seq = mgr.sequence().record(kp.OpAlgoDispatch(counter[1])).eval()
    with pytest.raises(RuntimeError):
        seq.get_timestamps()


def test_destroy_is_idempotent_and_then_refuses_work(mgr, counter):
    seq = mgr.sequence()
    assert seq.is_init()
    seq.destroy()
    seq.destroy()
    assert not seq.is_init()
    with pytest.raises(RuntimeError):
        seq.record(kp.OpAlgoDispatch(counter[1]))
    with pytest.raises(RuntimeError):
        seq.eval()


def test_many_dispatches_in_one_sequence_execute_in_order(mgr, counter):
    t, algo = counter
    seq = mgr.sequence()
    for _ in range(50):
        seq.record(kp.OpAlgoDispatch(algo))
    seq.record(kp.OpSyncLocal([t])).eval()
    np.testing.assert_array_equal(t.data(), [50] * 4)


@pytest.fixture
def spinning(mgr, monkeypatch):
    """The session Manager with fence polling on (the GPU default; CPU devices block at once)."""
    monkeypatch.setattr(mgr._ctx, "spin_ns", 2_000_000)
    return mgr


def test_polling_wait_times_out_and_completes(spinning, slow):
    """With polling, a timeout still raises (the poll is capped by it) and a later await finishes the work."""
    t, algo, push = slow
    seq = spinning.sequence().record(kp.OpAlgoDispatch(algo, push)).record(kp.OpSyncLocal([t]))
    t.data()[:] = 0
    seq.eval_async()
    with pytest.raises(TimeoutError):
        seq.eval_await(1_000_000)  # 1 ms: polls for 1 ms, then a zero-timeout wait
    seq.eval_await()
    np.testing.assert_array_equal(t.data(), lcg_oracle(t.size(), total_steps(push)))


def test_polling_wait_on_the_replay_path(spinning):
    t = spinning.tensor_t(np.arange(3, dtype=np.float32))
    algo = spinning.algorithm([t], spirv(ADD_PUSH), push_consts=np.array([1], np.float32))
    spinning.sequence().eval(kp.OpSyncDevice([t]))
    seq = spinning.sequence().record(kp.OpAlgoDispatch(algo))
    for _ in range(5):
        seq.eval()  # a short kernel: the poll sees the fence signalled
    spinning.sequence().eval(kp.OpSyncLocal([t]))
    np.testing.assert_array_equal(t.data(), [5, 6, 7])


class _CountingPolls:
    """The Vulkan library, counting fence polls (vkGetFenceStatus)."""

    def __init__(self, lib):
        self._lib, self.polls = lib, 0

    def __getattr__(self, name):
        fn = getattr(self._lib, name)
        if name != "vkGetFenceStatus":
            return fn

        def counted(*args):
            self.polls += 1
            return fn(*args)
        return counted


def test_blocking_waits_skip_the_poll(spinning, monkeypatch):
    """A background thread's waits (kdsl.dask's realiser) block at once: its poll would hold the GIL."""
    from kdsl.runtime import sequence_fence, sequence_threads

    counting = _CountingPolls(sequence_fence.lib)
    monkeypatch.setattr(sequence_fence, "lib", counting)
    t = spinning.tensor_t(np.arange(3, dtype=np.float32))
    algo = spinning.algorithm([t], spirv(ADD_PUSH), push_consts=np.array([1], np.float32))
    spinning.sequence().eval(kp.OpSyncDevice([t]))
    seq = spinning.sequence().record(kp.OpAlgoDispatch(algo))
    seq.eval()
    polls = counting.polls
    assert polls > 0  # the default, with spin_ns set: the wait polls first
    with sequence_threads.blocking_waits():
        seq.eval()
        seq.eval()
    assert counting.polls == polls
    seq.eval()
    assert counting.polls > polls  # only inside the block
    spinning.sequence().eval(kp.OpSyncLocal([t]))
    np.testing.assert_array_equal(t.data(), [4, 5, 6])


def test_ctrl_c_interrupts_a_long_wait_and_the_work_can_still_be_awaited(mgr, slow):
    """Waits block in 100 ms slices, so Ctrl-C (SIGINT) reaches Python during a long kernel."""
    import signal
    import threading

    t, algo, push = slow
    seq = mgr.sequence().record(kp.OpAlgoDispatch(algo, push))
    # Ctrl-C as Python sees it whatever ran before in this process (a library may install its own SIGINT
    # handler or block the signal): the default handler, the signal unblocked, sent to the main thread
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
    timer = threading.Timer(0.02, signal.pthread_kill, (threading.main_thread().ident, signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            seq.eval()
    finally:
        timer.cancel()
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        signal.signal(signal.SIGINT, handler)
    assert seq.is_running()
    seq.eval_await()
    assert not seq.is_running()
