"""One kp.Manager shared by several threads: every piece of shared runtime state is locked.

Before the locks, four threads raised KeyError in PipelineCache.release and crashed when another thread cleared
the pipeline cache. The stress test runs ``KDSL_STRESS_SECONDS`` (default 3 s; 60 for a soak run) with the
validation layer on, whose thread-safety checks report any unsynchronised use of a queue, pool or command buffer.
"""

from __future__ import annotations

import os
import sys
import threading
import time

import numpy as np
import pytest

import kdsl.kp as kp
from kdsl.runtime import vk

THREADS = 8
SECONDS = float(os.environ.get("KDSL_STRESS_SECONDS", "3"))

# A few shaders shared by all threads, so they contend for the same cached pipelines.
SHADERS = [kp.compile_source(f"""#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer A {{ float a[]; }};
layout(set = 0, binding = 1) readonly buffer B {{ float b[]; }};
layout(set = 0, binding = 2) writeonly buffer O {{ float o[]; }};
layout(push_constant) uniform P {{ float k; uint n; }};
void main() {{
    uint i = gl_GlobalInvocationID.x;
    if (i < n) o[i] = a[i] * k + b[i] + {variant}.0;
}}""") for variant in range(4)]


def _worker(mgr: kp.Manager, seed: int, deadline: float, errors: list, counts: list) -> None:
    rng = np.random.default_rng(seed)
    seq = mgr.sequence()
    steps = 0
    try:
        while time.monotonic() < deadline:
            n = int(rng.integers(1, 300))
            variant = int(rng.integers(len(SHADERS)))
            a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
            k = float(rng.integers(-3, 4))
            ta, tb, to = mgr.tensor(a), mgr.tensor(b), mgr.tensor_empty(n, memory_type=kp.MemoryTypes.device)
            algo = mgr.algorithm([ta, tb, to], SHADERS[variant], ((n + 31) // 32, 1, 1), push_consts=_push(k, n))
            if steps % 5 == 0:  # a fresh sequence now and then: command pools made and freed concurrently
                seq.destroy()
                seq = mgr.sequence()
            seq.record(kp.OpSyncDevice([ta, tb])).record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([to]))
            seq.eval()
            seq.eval()  # the replay path too
            np.testing.assert_allclose(to.data(), a * np.float32(k) + b + variant, rtol=1e-6, atol=1e-6)
            seq.clear()
            for obj in (algo, ta, tb, to) if steps % 2 else ():
                obj.destroy()  # the other half is left to the garbage collector
            steps += 1
    except BaseException as exc:  # reported by the main thread
        errors.append(exc)
    finally:
        counts.append(steps)


def _push(k: float, n: int) -> np.ndarray:
    """The push block {float k; uint n;} as 8 bytes."""
    out = np.zeros(2, np.uint32)
    out[0] = np.array([k], np.float32).view(np.uint32)[0]
    out[1] = n
    return out


def _clearer(mgr: kp.Manager, deadline: float, errors: list) -> None:
    """What crashed the process before: destroying idle pipelines while other threads take and return them."""
    try:
        while time.monotonic() < deadline:
            mgr.clear_pipeline_cache()
            time.sleep(0.002)
    except BaseException as exc:
        errors.append(exc)


def test_threads_share_one_manager():
    before = vk.live_objects()
    mgr = kp.Manager()
    deadline = time.monotonic() + SECONDS
    errors: list = []
    counts: list = []
    threads = [threading.Thread(target=_worker, args=(mgr, seed, deadline, errors, counts))
               for seed in range(THREADS)]
    threads.append(threading.Thread(target=_clearer, args=(mgr, deadline, errors)))
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=SECONDS + 120)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    if errors:
        raise errors[0]
    assert len(counts) == THREADS and min(counts) > 0, counts
    mgr.destroy()
    assert vk.live_objects() == before  # nothing leaked, nothing freed twice


def test_sequence_used_by_two_threads_at_once_is_a_clear_error(mgr):
    """A Sequence is used by one thread at a time: a second thread entering it gets an error, not corruption."""
    seq = mgr.sequence()
    entered, release = threading.Event(), threading.Event()
    t = mgr.tensor([1.0])

    class Slow(kp.OpBase):
        def record(self, cmd):
            entered.set()
            release.wait(10)

    thread = threading.Thread(target=lambda: seq.record(Slow()))
    thread.start()
    try:
        assert entered.wait(10)
        with pytest.raises(RuntimeError, match="used by another thread.*one thread at a time"):
            seq.record(kp.OpSyncDevice([t]))
    finally:
        release.set()
        thread.join(10)
    seq.record(kp.OpSyncDevice([t])).eval()  # free again once the other thread left
    seq.destroy()


def test_tensor_destroyed_by_another_thread_waits_for_the_running_sequence(mgr):
    """wait_for_users from a second thread: it waits for the fence, and the owner's eval_await still runs
    the host steps (OpCopy's host copy) afterwards."""
    a, b, c = mgr.tensor([1.0, 2.0, 3.0]), mgr.tensor([0.0, 0.0, 0.0]), mgr.tensor([0.0, 0.0, 0.0])
    seq = mgr.sequence().record(kp.OpCopy([a, b, c]))
    seq.eval_async()
    thread = threading.Thread(target=c.destroy)
    thread.start()
    thread.join(30)
    assert not thread.is_alive()
    assert seq.is_running() and not seq._running  # the other thread waited for the GPU; host steps remain
    seq.eval_await()
    np.testing.assert_array_equal(b.data(), [1.0, 2.0, 3.0])
    assert not seq.is_running()
    seq.destroy()


@pytest.mark.parametrize("reentry", ["check_deps", "track"])
def test_a_destroy_run_by_the_garbage_collector_inside_a_submission_does_not_deadlock(mgr, monkeypatch, reentry):
    """The collector may run a dead tensor's ``__del__`` at any point of Python code, also inside the submit
    lock or the live-object counter's lock. Its destroy takes both again on the same thread: this once hung the
    H200 suite (``Sequence._check_deps`` -> ``Memory.__del__`` -> ``wait_for_users``). Simulated here by
    destroying an unrelated tensor from inside those critical sections; the eval runs on a thread so that a
    deadlock fails the test instead of hanging it."""
    used, dead = mgr.tensor([1.0, 2.0]), mgr.tensor([5.0])
    seq = mgr.sequence().record(kp.OpSyncDevice([used]))
    if reentry == "check_deps":
        check_deps = seq._check_deps

        def collect_then_check() -> None:
            if sys._getframe(1).f_code.co_name == "_submit_batch":  # the call made under the submit lock
                dead.destroy()
            check_deps()
        monkeypatch.setattr(seq, "_check_deps", collect_then_check)
    else:
        track, fired = vk.track, []

        def track_and_collect(kind: str, delta: int) -> None:
            with vk._live_lock:
                track(kind, delta)
                if not fired:
                    fired.append(kind)
                    dead.destroy()
        monkeypatch.setattr("kdsl.runtime.buffer.track", track_and_collect)
    errors: list[BaseException] = []

    def evaluate() -> None:
        try:
            if reentry == "track":
                mgr.tensor([0.0]).destroy()  # its creation or release calls track
            seq.eval()
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)
    thread = threading.Thread(target=evaluate, daemon=True)
    thread.start()
    thread.join(60)
    assert not thread.is_alive(), "deadlock: a destroy inside a kdsl critical section waited for itself"
    assert not errors, errors
    assert dead.is_init() is False
    np.testing.assert_array_equal(used.data(), [1.0, 2.0])
    seq.destroy()
