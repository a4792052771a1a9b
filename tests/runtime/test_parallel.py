"""Sequences on several queues: what the device offers works concurrently; what it lacks raises.

lavapipe has one queue family with ONE queue, so there a second queue must raise and the two-queue tests
skip; on a GPU (several compute queues, several families) they run.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest
from rt_glsl import INCREMENT, SLOW_LCG, lcg_oracle, spirv

import kdsl.kp as kp

STEPS = 3000
N = 64 * 256


def compute_families(props) -> list[tuple[int, int]]:
    """(family index, queue count) of every family with compute."""
    return [(i, f["queue_count"]) for i, f in enumerate(props["queue_families"]) if f["compute"]]


def run_concurrently(manager, queue_indices: list[int]) -> None:
    """One slow LCG batch per queue, all submitted before any is awaited; each checked against NumPy."""
    jobs = []
    for q in queue_indices:
        t = manager.tensor_t(np.zeros(N, np.uint32))
        algo = manager.algorithm([t], spirv(SLOW_LCG), workgroup=(N // 64, 1, 1),
                                 push_consts=np.array([STEPS + q, 1], np.uint32))
        seq = manager.sequence(queue_index=q).record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([t]))
        jobs.append((q, t, seq))
    for _, _, seq in jobs:
        seq.eval_async()
    assert all(seq.is_running() for _, _, seq in jobs)
    for q, t, seq in jobs:
        seq.eval_await()
        np.testing.assert_array_equal(t.data(), lcg_oracle(N, STEPS + q))


def test_default_manager_has_one_queue(mgr):
    mgr.sequence(queue_index=0)
    with pytest.raises(RuntimeError, match="queue"):
        mgr.sequence(queue_index=1)


def test_two_sequences_on_one_queue_run_async(mgr):
    run_concurrently(mgr, [0, 0])


def test_family_listed_more_often_than_it_has_queues_raises(props):
    family, count = compute_families(props)[0]
    with pytest.raises(RuntimeError, match="queue"):
        kp.Manager(0, [family] * (count + 1))


def test_two_queues_of_one_family(props):
    families = [f for f, count in compute_families(props) if count >= 2]
    if not families:
        pytest.skip("no queue family with two compute queues (lavapipe has one queue)")
    m = kp.Manager(0, [families[0], families[0]])
    try:
        run_concurrently(m, [0, 1])
        with pytest.raises(RuntimeError, match="queue"):
            m.sequence(queue_index=2)
    finally:
        m.destroy()


def test_queues_of_two_families(props):
    families = compute_families(props)
    if len(families) < 2:
        pytest.skip("this device has one compute queue family only (lavapipe has one)")
    m = kp.Manager(0, [families[0][0], families[1][0]])
    try:
        run_concurrently(m, [0, 1])
    finally:
        m.destroy()


def test_tensor_shared_between_queues(props):
    """A tensor uploaded on queue 0, copied on queue 1 and read back on queue 0 holds the data."""
    families = [f for f, count in compute_families(props) if count >= 2]
    if not families:
        pytest.skip("no queue family with two compute queues")
    m = kp.Manager(0, [families[0], families[0]])
    try:
        a = np.arange(16, dtype=np.float32)
        t, u = m.tensor_t(a), m.tensor_t(np.zeros(16, np.float32))
        m.sequence(queue_index=0).eval(kp.OpSyncDevice([t]))
        t.data()[:] = 0  # OpCopy's host-side copy now copies zeros; only the device copy holds `a`
        m.sequence(queue_index=1).eval(kp.OpCopy([t, u]))
        m.sequence(queue_index=0).eval(kp.OpSyncLocal([u]))
        np.testing.assert_array_equal(u.data(), a)
    finally:
        m.destroy()


def test_sequences_evaluated_from_several_threads(mgr):
    """Four threads, each replaying its own sequence 200 times on the one queue: every dispatch counted."""
    tensors = [mgr.tensor_t(np.zeros(64, np.uint32)) for _ in range(4)]
    algos = [mgr.algorithm([t], spirv(INCREMENT)) for t in tensors]
    mgr.sequence().eval(kp.OpSyncDevice(tensors))
    errors = []

    def work(i):
        try:
            seq = mgr.sequence().record(kp.OpAlgoDispatch(algos[i]))
            for _ in range(200):
                seq.eval()
        except Exception as exc:  # reported below: an exception in a thread would be lost
            errors.append(repr(exc))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    mgr.sequence().eval(kp.OpSyncLocal(tensors))
    for t in tensors:
        np.testing.assert_array_equal(t.data(), np.full(64, 200))
