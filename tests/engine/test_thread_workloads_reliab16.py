"""Several threads running *different* kdsl workloads at once on the default device (docs/concurrency.md):
every result is checked against NumPy inside its thread, with the validation layer on. Also arrays passed
between threads, a thread dropping arrays while others allocate (the buffer pool), and ``kd.empty_cache()``
called while other threads work. ``KDSL_STRESS_ITERS`` scales the iterations (default 6 per workload)."""

from __future__ import annotations

import os
import queue
import sys
import threading
import time
import traceback

import numpy as np
from reliab16_workloads import WORKLOADS, close

import kdsl as kd

ITERS = int(os.environ.get("KDSL_STRESS_ITERS", "6"))
TIMEOUT = 60 * max(1, ITERS / 3)  # seconds for all threads of a test (they take ~7 s at 6 iterations)


def _run_threads(targets) -> list[str]:
    errors: list[str] = []

    def guarded(fn, *args):
        try:
            fn(*args)
        except BaseException:  # reported by the main thread
            errors.append(f"{fn.__name__}: {traceback.format_exc()}")

    threads = [threading.Thread(target=guarded, args=t) for t in targets]
    for th in threads:
        th.start()
    deadline = time.monotonic() + TIMEOUT
    for th in threads:
        th.join(timeout=max(0.0, deadline - time.monotonic()))
    hung = [th for th in threads if th.is_alive()]
    frames = sys._current_frames()
    assert not hung, "hung threads:\n" + "\n".join("".join(traceback.format_stack(frames[th.ident]))
                                                    for th in hung if th.ident in frames)
    return errors


def _worker(t: int) -> None:
    rng = np.random.default_rng(t)
    for i in range(ITERS * len(WORKLOADS)):
        WORKLOADS[(t + i) % len(WORKLOADS)](rng, i)


def test_threads_run_different_workloads_at_once():
    _reference = [w(np.random.default_rng(99), 1) for w in WORKLOADS]  # warm: compile every kernel once
    del _reference
    errors = _run_threads([(_worker, t) for t in range(6)])
    assert not errors, "\n".join(errors[:3])


def test_arrays_made_in_one_thread_are_consumed_in_another():
    q: queue.Queue = queue.Queue(maxsize=8)
    n = 40 * ITERS

    def producer():
        for i in range(n):
            x = np.arange(100 + i % 7, dtype=np.float32) + i
            q.put((x, kd.asarray(x) * 2 + 1))  # lazy: the consumer realises it
        q.put(None)

    def consumer():
        while (item := q.get()) is not None:
            x, a = item
            close(kd.sqrt(a).sum(), np.sqrt(x * 2 + 1).sum(), rtol=1e-5)

    errors = _run_threads([(producer,), (consumer,)])
    assert not errors, "\n".join(errors[:3])


def _dropper(stop: threading.Event) -> None:
    kept = []
    i = 0
    while not stop.is_set():
        kept.append(kd.ones(1000 + i % 5) * i)
        if len(kept) > 6:
            kd.realize(*kept)
            kept.clear()  # every buffer goes back to the pool while the other threads take from it
        i += 1


def _emptier(stop: threading.Event) -> None:
    while not stop.is_set():
        kd.empty_cache()
        stop.wait(0.005)


def test_pool_traffic_and_empty_cache_while_threads_compute():
    stop = threading.Event()

    def workers(t):
        try:
            _worker(t)
        finally:
            if t == 0:
                stop.set()

    errors = _run_threads([(workers, t) for t in range(4)] + [(_dropper, stop), (_emptier, stop)])
    assert not errors, "\n".join(errors[:3])


_READERS = [lambda a, want: close(a, want, rtol=1e-5, atol=1e-3),
            lambda a, want: close(a + 0, want, rtol=1e-5, atol=1e-3),
            lambda a, want: close([float(a[i]) for i in range(0, 3000, 500)], want[::500], rtol=1e-5),
            lambda a, want: close(a[::-1].numpy()[::-1], want, rtol=1e-5, atol=1e-3)]


def test_one_lazy_array_read_by_several_threads_at_once():
    """Four threads read one unrealised sort (whole, through another expression, element by element, through
    a reversed view): whichever realises it first, every reader sees the same values."""
    for rep in range(8 * ITERS):
        x = np.arange(3000, dtype=np.float32) * (rep + 1)
        base = kd.asarray(x)
        lazy = kd.sort(kd.sin(base) * 2 + base[::-1])
        want = np.sort(np.sin(x) * 2 + x[::-1])
        errors = _run_threads([(r, lazy, want) for r in _READERS])
        assert not errors, "\n".join(errors[:3])
