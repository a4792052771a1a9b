"""kdsl.kp (Kompute's model) under stress: one Sequence recorded once and evaluated thousands of times (no
growth in live Vulkan objects or Python memory); threads with their own Sequences on one shared Manager, with
``eval_async``/``eval_await``; Managers made and destroyed by several threads at once (each Vulkan object freed
exactly once); tensors and algorithms destroyed while a Sequence that uses them is alive or running; a forked
child that makes its own Manager while parent threads are evaluating. Results are checked against NumPy.

Each scenario runs in a fresh interpreter (its live-object counts are its own) with the validation layer on;
the script prints the layer's messages last and the test fails on any."""

from __future__ import annotations

import gc
import re
import sys
from pathlib import Path

import pytest
from rt_util import run_python

import kdsl.kp as kp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the fork helper lives in tests/
from fork_child import IMPORT as FORKING  # noqa: E402

PRELUDE = FORKING + '''
import gc, threading, time, tracemalloc
import numpy as np
import kdsl.kp as kp
from kdsl.runtime import live_objects, validation

AXPY = kp.compile_source("""#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform P { float k; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < y.length()) y[i] = y[i] * k + x[i];
}""")

errors = []


def guarded(fn, *args):
    try:
        fn(*args)
    except BaseException as exc:  # reported by the main thread
        import traceback
        traceback.print_exc()
        errors.append(exc)


def run_threads(targets):
    threads = [threading.Thread(target=guarded, args=t) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    assert not errors, errors


def axpy(mgr, xs, ys, k):
    """(tensors, algorithm) computing y = y * k + x."""
    x, y = mgr.tensor(xs), mgr.tensor(ys)
    return x, y, mgr.algorithm([x, y], AXPY, ((len(ys) + 63) // 64, 1, 1), push_consts=[k])


def settled():
    gc.collect()
    return live_objects()
'''

END = '''
print("validation", validation.errors()[:3], flush=True)
'''


def _run(body: str) -> str:
    out = run_python(PRELUDE + body + END, timeout=120).stdout
    assert out.strip().endswith("validation []"), out[-3000:]
    return out


def test_one_sequence_recorded_once_and_evaluated_thousands_of_times():
    _run("""
mgr = kp.Manager()
n = 1000
xs = np.linspace(-1, 1, n, dtype=np.float32)
x, y, algo = axpy(mgr, xs, np.zeros(n, np.float32), 0.5)
mgr.sequence().eval(kp.OpSyncDevice([x, y]))
seq = mgr.sequence().record(kp.OpAlgoDispatch(algo))
for _ in range(100):  # warm-up
    seq.eval()
before = settled()
tracemalloc.start()
start = tracemalloc.get_traced_memory()[0]
for _ in range(3000):
    seq.eval()
grown = tracemalloc.get_traced_memory()[0] - start
tracemalloc.stop()
assert settled() == before, (before, live_objects())
assert grown < 64 << 10, f"Python memory grew by {grown} bytes over 3000 evaluations"
mgr.sequence().eval(kp.OpSyncLocal([y]))
expected = np.zeros(n, np.float32)
for _ in range(3100):
    expected = expected * np.float32(0.5) + xs
np.testing.assert_allclose(y.data(), expected, rtol=1e-6, atol=1e-6)
mgr.destroy()
""")


def test_threads_with_their_own_sequences_on_one_manager_eval_async_and_await():
    _run("""
base = settled()
mgr = kp.Manager()

def work(seed):
    rng = np.random.default_rng(seed)
    seq = mgr.sequence()
    for step in range(30):
        n = int(rng.integers(1, 3000))
        xs, ys = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
        k = float(rng.integers(-2, 3))
        x, y, algo = axpy(mgr, xs, ys, k)
        seq.record(kp.OpSyncDevice([x, y])).record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([y]))
        seq.eval_async()
        expected = ys * np.float32(k) + xs  # host work while the device runs
        seq.eval_await()
        np.testing.assert_allclose(y.data(), expected, rtol=1e-6, atol=1e-6)
        seq.clear()
        if step % 4 == 0:  # a new command pool now and then, made and freed while other threads submit
            seq.destroy()
            seq = mgr.sequence()
        if step % 2:
            for obj in (algo, x, y):
                obj.destroy()  # the others are left to the garbage collector

run_threads([(work, s) for s in range(6)])
mgr.destroy()
assert settled() == base, (base, live_objects())
""")


def test_managers_made_and_destroyed_by_several_threads_at_once():
    _run("""
base = settled()

def managers(seed):
    rng = np.random.default_rng(seed)
    for i in range(6):
        mgr = kp.Manager()
        xs = rng.standard_normal(100).astype(np.float32)
        x, y, algo = axpy(mgr, xs, np.ones(100, np.float32), 2.0)
        mgr.sequence().record(kp.OpSyncDevice([x, y])).record(kp.OpAlgoDispatch(algo)) \\
            .record(kp.OpSyncLocal([y])).eval()
        np.testing.assert_allclose(y.data(), 2 + xs, rtol=1e-6)
        if i % 2:
            mgr.destroy()  # then its objects: each freed once
            algo.destroy()
            x.destroy()
        del mgr, x, y, algo  # the rest: by the garbage collector

run_threads([(managers, s) for s in range(3)])
assert settled() == base, (base, live_objects())
""")


def test_objects_destroyed_while_a_sequence_that_uses_them_is_alive_or_running():
    out = _run("""
mgr = kp.Manager()
n = 1 << 14
xs = np.arange(n, dtype=np.float32)
for what in ("tensor", "algorithm", "tensor from a thread", "algorithm from a thread"):
    x, y, algo = axpy(mgr, xs, np.ones(n, np.float32), 3.0)
    seq = mgr.sequence().record(kp.OpSyncDevice([x, y])).record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([y]))
    victim = x if what.startswith("tensor") else algo
    if what.endswith("thread"):  # while it runs: the destroying thread waits for the device first
        seq.eval_async()
        t = threading.Thread(target=victim.destroy)
        t.start()
        t.join(30)
        assert not t.is_alive()
        seq.eval_await()
        np.testing.assert_array_equal(y.data(), 3 + xs)
    else:
        seq.eval()
        victim.destroy()
    try:
        seq.eval()
    except RuntimeError as exc:
        assert "was destroyed; record the operations again" in str(exc), exc
        print(what, "refused", flush=True)
    else:
        raise AssertionError(f"{what}: evaluated with a destroyed object")
    seq.destroy()
mgr.destroy()
""")
    for what in ("tensor", "algorithm", "tensor from a thread", "algorithm from a thread"):
        assert f"{what} refused\n" in out, out


def test_forked_child_makes_its_own_manager_while_parent_threads_evaluate():
    out = _run("""
mgr = kp.Manager()
stop = threading.Event()

def evaluate(seed):
    rng = np.random.default_rng(seed)
    seq = mgr.sequence()
    while not stop.is_set():
        xs = rng.standard_normal(500).astype(np.float32)
        x, y, algo = axpy(mgr, xs, np.zeros(500, np.float32), 1.0)
        seq.record(kp.OpSyncDevice([x, y])).record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([y])).eval()
        np.testing.assert_allclose(y.data(), xs, rtol=1e-6)
        seq.clear()

def child():
    try:
        mine = kp.Manager()
    except RuntimeError as exc:  # drivers that cannot open a device in a forked child (NVIDIA)
        assert "'spawn'" in str(exc), exc
        sys.exit(0)
    xs = np.arange(10, dtype=np.float32)
    x, y, algo = axpy(mine, xs, np.full(10, 2, np.float32), -1.0)
    mine.sequence().record(kp.OpSyncDevice([x, y])).record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([y])) \\
        .eval()
    np.testing.assert_array_equal(y.data(), xs - 2)
    sys.exit(0)  # through the exit hooks, which forget the parent's Manager (its threads' locks too)

threads = [threading.Thread(target=guarded, args=(evaluate, s)) for s in range(3)]
for t in threads:
    t.start()
time.sleep(0.3)
statuses = [fork_and_wait(child, 60) for _ in range(3)]  # each fork lands elsewhere in the threads' work
stop.set()
for t in threads:
    t.join(30)
assert not errors, errors
print("children", statuses, flush=True)
mgr.destroy()
""")
    assert "children [0, 0, 0]" in out, out


def test_a_call_while_another_thread_destroys_the_sequence_says_destroyed():
    """Before: a thread calling into its Sequence while another thread destroyed it (``seq.destroy()``, or
    ``mgr.destroy()`` at shutdown), which waits for the running batch, got "this Sequence is being used by another
    thread ... make one Sequence per thread" although it never shared the Sequence; it now waits for the destroy
    and gets "this sequence was destroyed"."""
    out = _run("""
SLOW = kp.compile_source('''#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Y { float y[]; };
void main() {
    float s = y[gl_GlobalInvocationID.x];
    for (int j = 0; j < 4000; j++) s = s * 0.5 + 1.0;
    y[gl_GlobalInvocationID.x] = s;
}''')
mgr = kp.Manager()
y = mgr.tensor(np.zeros(1 << 16, np.float32))
algo = mgr.algorithm([y], SLOW, ((1 << 16) // 64, 1, 1))
seq = mgr.sequence().record(kp.OpSyncDevice([y])).record(kp.OpAlgoDispatch(algo))
seq.eval_async()
destroyer = threading.Thread(target=mgr.destroy)  # waits for the running batch, inside the sequence
destroyer.start()
while not seq._destroying:
    time.sleep(0.001)
messages = []
for call in (lambda: seq.record(kp.OpSyncLocal([y])), lambda: seq.eval()):
    try:
        call()
    except RuntimeError as exc:
        messages.append(str(exc))
destroyer.join(30)
assert not destroyer.is_alive()
print(messages, flush=True)
""")
    for action in ("record", "evaluate"):
        assert f"cannot {action}: this sequence was destroyed" in out, out
    assert "another thread" not in out, out


def test_objects_of_a_garbage_collected_manager_say_why_they_are_destroyed():
    """A Manager that no variable holds any more is collected and frees every object it made (Kompute's rule).
    Before, its tensor said "it was freed by destroy()", which the user never called; the errors now name the
    Manager and what to do."""

    def make():
        mgr = kp.Manager()
        t = mgr.tensor([1.0, 2.0])
        algo = mgr.algorithm([t], kp.compile_source("""#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer X { float x[]; };
void main() { x[0] += 1.0; }"""))
        return t, algo, mgr.sequence()

    t, algo, seq = make()
    gc.collect()
    why = re.escape("its Manager was destroyed, by Manager.destroy(), at interpreter exit, or by garbage collection")
    with pytest.raises(RuntimeError, match=f"cannot read a destroyed tensor: {why}"):
        t.data()
    with pytest.raises(RuntimeError, match=f"cannot evaluate: this sequence was destroyed: {why}"):
        seq.eval(kp.OpAlgoDispatch(algo))
    with pytest.raises(RuntimeError, match=f"this algorithm was destroyed: {why}"):
        algo.update_bindings([t])
    mgr = kp.Manager()  # an explicit destroy() of one object keeps the short message
    try:
        own = mgr.tensor([1.0])
        own.destroy()
        with pytest.raises(RuntimeError, match=r"cannot read a destroyed tensor: it was freed by destroy\(\)"):
            own.data()
    finally:
        mgr.destroy()
