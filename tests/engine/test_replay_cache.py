"""The host fast path (issue 12, host overhead): a cached plan runs from its templates, and its batch is
replayed by (plan, bound tensors, push words) without looking up programs or Algorithms. These tests check
that the replay follows new buffers and new scalars, re-records when an Algorithm was rebound, stays bounded,
keeps the objects its key names alive, and holds under threads."""

import sys
import threading

import numpy as np
import pytest

import kdsl as kd
import kdsl.kp as kp
from kdsl import dtype as dt
from kdsl.engine import plan as plan_mod
from kdsl.engine.plan import _words, word_bytes
from kdsl.engine.programs import _ALGOS_PER_PROGRAM, _BATCHES_PER_DEVICE, Batches, batches, debug_level
from kdsl.engine.state import cache_limits, set_cache_limits, state
from kdsl.ir.graph import Node

INC = """#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { float x[]; };
void main() { x[0] += 1.0; }
"""


def test_replays_follow_new_buffers_and_scalars():
    # More buffer sets than one program keeps bound: its Algorithms get rebound, recorded batches go stale
    xs = [kd.asarray(np.full(16, k, np.float32)) for k in range(_ALGOS_PER_PROGRAM + 3)]
    for rnd in range(3):
        for k, x in enumerate(xs):
            y = x * float(rnd % 2) + 1.5
            kd.realize(y)
            np.testing.assert_array_equal(y.numpy(), np.full(16, k * (rnd % 2) + 1.5, np.float32))


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float16])
def test_a_cached_plan_packs_each_calls_scalar(dtype):
    """A float32 scalar's push word is packed by the runner itself (Template.scalar); other dtypes go through
    word_bytes. Either way every call of the one cached plan sees its own value, specials included."""
    x = kd.asarray(np.arange(-3, 5).astype(dtype))
    # (no subnormal scalar: an H200 flushes float32 subnormals)
    values = [2, -1, 0, 7] if dtype == np.int32 else [1.5, -0.0, 0.0, np.inf, -np.inf, np.nan, 3.0e38, 1e-30, 2.5]
    templates = None
    for v in values:
        y = x * v
        kd.realize(y)
        with np.errstate(all="ignore"):
            expected = x.numpy() * dtype(v)  # (a weak Python scalar takes the array's dtype)
        got = y.numpy()
        np.testing.assert_array_equal(got, expected)
        real = ~np.isnan(expected)  # (a NaN's sign is the device's: 0 * inf is -nan on x86, +nan on an H200)
        assert np.array_equal(np.signbit(got[real]), np.signbit(expected[real]))
        key = plan_mod.signature([(x * v)._node])[0]
        templates = plan_mod._plans[key] if templates is None else templates
        assert plan_mod._plans[key] is templates  # one plan for every value
        assert templates[0].scalar == (-1 if dtype != np.float32 else templates[0].sources[0][0])


def test_one_buffer_set_in_a_loop_replays():
    x = kd.asarray(np.arange(16, dtype=np.float32))
    kd.realize(x + 1)
    kd.realize(x + 1)  # the first run of the cached plan records under its replay key
    before = kd.stats()["replays"]
    for _ in range(5):
        y = x + 1
        kd.realize(y)
        np.testing.assert_array_equal(y.numpy(), np.arange(16, dtype=np.float32) + 1)
    assert kd.stats()["replays"] - before >= 5


def test_same_key_with_another_algorithm_of_equal_version_is_recorded_again():
    """A replay key names tensors, not Algorithms: the same key may resolve to another Algorithm whose version
    number happens to equal the recorded one. Replaying would dispatch the old Algorithm."""
    dev = kd.device()
    mgr = dev.manager
    spirv = kp.compile_source(INC)
    ta, tb = mgr.tensor_t(np.zeros(1, np.float32)), mgr.tensor_t(np.zeros(1, np.float32))
    a, b = mgr.algorithm([ta], spirv, workgroup=(1, 1, 1)), mgr.algorithm([tb], spirv, workgroup=(1, 1, 1))
    mgr.sequence().eval(kp.OpSyncDevice([ta, tb]))  # the device buffers start as zeros
    cache = Batches(dev)
    words = np.zeros(0, np.uint32)
    try:
        cache.submit([([a, 0], words)], [], key=("k",))
        cache.submit([([b, 0], words)], [], key=("k",))  # same key, same version, another Algorithm
        mgr.sequence().eval(kp.OpSyncLocal([ta, tb]))
        assert ta.data()[0] == 1.0 and tb.data()[0] == 1.0
        assert cache.replay(("k",))  # now recorded with b: replaying runs b
        mgr.sequence().eval(kp.OpSyncLocal([ta, tb]))
        assert ta.data()[0] == 1.0 and tb.data()[0] == 2.0
    finally:
        cache.clear()
        a.destroy(), b.destroy(), ta.destroy(), tb.destroy()


def test_replay_refuses_a_rebound_algorithm():
    dev = kd.device()
    mgr = dev.manager
    spirv = kp.compile_source(INC)
    ta = mgr.tensor_t(np.zeros(1, np.float32))
    a = mgr.algorithm([ta], spirv, workgroup=(1, 1, 1))
    mgr.sequence().eval(kp.OpSyncDevice([ta]))
    entry = [a, 0]
    cache = Batches(dev)
    try:
        cache.submit([(entry, np.zeros(0, np.uint32))], [], key=("k",))
        assert cache.replay(("k",))
        entry[1] += 1  # what Program.algorithm does when it rebinds the Algorithm to other tensors
        assert not cache.replay(("k",))
    finally:
        cache.clear()
        a.destroy(), ta.destroy()


def test_recorded_batches_stay_bounded():
    x = kd.asarray(np.ones(16, np.float32))
    for k in range(_BATCHES_PER_DEVICE + 10):  # as many distinct push words, so as many batches
        y = x + float(k)
        kd.realize(y)
        assert float(y[3]) == 1.0 + k
    assert len(batches(kd.device()).recorded) <= _BATCHES_PER_DEVICE


def test_a_replay_key_names_only_objects_its_entry_keeps_alive():
    x = kd.asarray(np.ones(8, np.float32))
    for _ in range(3):
        kd.realize(kd.exp(x) * 2)
    for _ in range(3):  # a fused download (of a cached plan from the second call on): its key names the staging
        float(kd.exp(x).sum())  # tensor, which the entry holds
    bound = [(k, entries, versions, plan, host)
             for k, (_, versions, entries, plan, host) in batches(kd.device()).recorded.items() if plan is not None]
    assert bound and any(host is not None for *_, host in bound)
    for key, entries, versions, plan, host in bound:
        assert key[0] == id(plan)  # the cached plan's templates, kept alive by the entry
        if all(e[1] == v for e, v in zip(entries, versions, strict=True)):  # it can hit: its Algorithms hold
            held = {id(t) for e in entries for t in e[0].get_mem_objects()}  # the tensors the key names
            assert set(key[1]) <= held | {id(None)}
        assert key[3:] == ((id(host),) if host is not None else ())


def test_program_eviction_forgets_recorded_batches():
    old = cache_limits()
    set_cache_limits(programs=1)
    try:
        x = kd.asarray(np.arange(8, dtype=np.float32))
        for _ in range(3):  # two kernels alternating on a one-program cache: each run evicts the other
            y, z = kd.sin(x) + 1, kd.cos(x) * 2
            kd.realize(y)
            kd.realize(z)
            np.testing.assert_allclose(y.numpy(), np.sin(np.arange(8)) + 1, rtol=1e-6)
            np.testing.assert_allclose(z.numpy(), np.cos(np.arange(8)) * 2, rtol=1e-6)
        assert len(state(kd.device()).programs) <= 1
    finally:
        set_cache_limits(**old)


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8, np.float64, np.int64, np.complex64])
def test_push_word_bytes_match_the_words(dtype):
    d = dt.as_dtype(dtype)
    if not kd.device().supports(d):
        pytest.skip(f"{d.name} is not supported by this device")
    for value in (0, 1, -3, 2.5, 1e30, -0.0) if d.kind == "f" else ((1 + 2j), 0) if d.kind == "c" else (0, 7, 200):
        v = np.array(value).astype(d.np)[()].item()
        n = Node("const", (), d, (), v)
        assert word_bytes(((0, "const"),), [n]) == _words(((0, "const"),), [n]).tobytes()


def test_float32_beyond_range_packs_as_inf():
    n = Node("const", (), dt.float32, (), 1e300)
    with np.errstate(over="ignore"):  # both paths cast through NumPy past struct's range
        assert word_bytes(((0, "const"),), [n]) == _words(((0, "const"),), [n]).tobytes()
        assert np.frombuffer(word_bytes(((0, "const"),), [n]), np.float32)[0] == np.inf


def test_debug_level_follows_the_environment(monkeypatch):
    monkeypatch.delenv("KDSL_DEBUG", raising=False)
    assert debug_level() == 0
    monkeypatch.setenv("KDSL_DEBUG", "2")
    assert debug_level() == 2
    monkeypatch.setenv("KDSL_DEBUG", "yes")
    assert debug_level() == 1


def test_jit_all_array_calls_share_the_traces():
    f = kd.jit(lambda a, b: (a * b + 1) * 0.5)
    x, y = kd.asarray(np.arange(4, dtype=np.float32)), kd.asarray(np.ones(4, np.float32))
    for _ in range(3):
        np.testing.assert_array_equal(f(x, y).numpy(), (np.arange(4) + 1) * 0.5)
    assert len(f.traces) == 1 and len(f.array_traces) == 1
    before = kd.stats()["replays"]
    for _ in range(4):  # the trace's own replay key finds what the first run recorded under it
        f(x, y)
    assert kd.stats()["replays"] - before >= 3
    assert next(iter(f.array_traces.values())) is next(iter(f.traces.values()))
    lazy = x + 1  # an unrealised argument is computed first
    np.testing.assert_array_equal(f(lazy, y).numpy(), (np.arange(4) + 2) * 0.5)
    view = kd.asarray(np.arange(8, dtype=np.float32))[::2]  # a strided view is copied first
    np.testing.assert_array_equal(f(view, y).numpy(), (np.arange(0, 8, 2) + 1) * 0.5)
    z = kd.asarray(np.ones(3, np.float32))
    np.testing.assert_array_equal(f(z, z).numpy(), np.ones(3))  # another shape: another trace
    assert len(f.traces) == 2 and len(f.array_traces) == 2
    np.testing.assert_array_equal(f(x, 2.0).numpy(), (np.arange(4) * 2 + 1) * 0.5)  # a scalar: no array key
    assert len(f.array_traces) == 2


def test_threads_replay_their_own_buffers():
    errors: list[str] = []
    f = kd.jit(lambda a, b: a * b + 1)

    def worker(t: int) -> None:
        try:
            x = kd.asarray(np.full(16, t, np.float32))
            for i in range(60):
                y = x * float(i % 3) + 1
                kd.realize(y)
                np.testing.assert_array_equal(y.numpy(), np.full(16, t * (i % 3) + 1, np.float32))
                np.testing.assert_array_equal(f(x, x).numpy(), np.full(16, t * t + 1, np.float32))
        except Exception as exc:  # reported by the main thread
            errors.append(f"thread {t}: {exc!r}")

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors[:3]
    assert len(plan_mod._plans) <= cache_limits()["plans"]


def test_threads_share_a_traces_intermediates():
    """Calls of one jit trace from several threads, on two inputs, share its intermediates (here the centred rows,
    read by two kernels) and its recorded batches, and each gets its own input's result."""
    errors: list[str] = []
    f = kd.jit(lambda a: (a - a.mean(axis=1, keepdims=True)).sum(axis=1) + (a - a.mean(axis=1, keepdims=True)).max())
    base = np.arange(64, dtype=np.float32).reshape(8, 8)
    inputs = [kd.asarray(base * (k + 1)) for k in range(2)]  # two threads per input

    def worker(t: int) -> None:
        try:
            x = inputs[t % 2]
            want = ((base * (t % 2 + 1)) - (base * (t % 2 + 1)).mean(axis=1, keepdims=True))
            for _ in range(30):
                np.testing.assert_allclose(f(x).numpy(), want.sum(axis=1) + want.max(), rtol=1e-5, atol=1e-3)
        except Exception as exc:  # reported by the main thread
            errors.append(f"thread {t}: {exc!r}")

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(4)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch often: calls overlap
    try:
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        sys.setswitchinterval(interval)
    assert not errors, errors[:3]
    trace = next(iter(f.traces.values()))
    assert trace.fast and trace.made_temp  # the function has intermediates of the trace's own
