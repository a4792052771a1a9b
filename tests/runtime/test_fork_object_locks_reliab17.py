"""fork while another parent thread is inside a kp object (a Sequence's eval, a Manager making a tensor, an
Algorithm recording a dispatch): the child's exit hook and garbage collection forget the inherited objects, and
before this fix they waited forever for the locks that thread held at fork time. Each scenario runs in a fresh
interpreter; the forked child is killed and reported as "hung" if it is not done in time."""

from __future__ import annotations

import sys
from pathlib import Path

from rt_util import run_python

import kdsl.kp as kp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the fork helper lives in tests/
from fork_child import IMPORT as FORKING  # noqa: E402

SCENARIO = FORKING + '''
import gc, os, threading
import numpy as np
import kdsl.kp as kp

SOURCE = kp.compile_source("""#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer X { float x[]; };
void main() { x[gl_GlobalInvocationID.x] = 2.0 * x[gl_GlobalInvocationID.x] + 1.0; }""")


def run(mgr, values):
    t = mgr.tensor(values)
    algo = mgr.algorithm([t], SOURCE)
    seq = mgr.sequence().record(kp.OpSyncDevice([t])).record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([t]))
    seq.eval()
    return t, algo, seq


mgr = kp.Manager()
t, algo, seq = run(mgr, [1, 2, 3])
assert t.data().tolist() == [3, 5, 7]
held, done = threading.Event(), threading.Event()


def hold():  # a parent thread inside all three objects at fork time
    with seq._busy, mgr._lock, algo._lock:
        held.set()
        done.wait()


thread = threading.Thread(target=hold)
thread.start()
held.wait()


def exits():
    sys.exit(0)  # the exit hook destroys the inherited Manager: only forgets its objects


def drops_and_computes():
    global t, algo, seq
    del t, algo, seq  # collected here: their destroy only forgets them
    gc.collect()
    try:
        mine = kp.Manager()
    except RuntimeError as exc:  # drivers that cannot open a device in a forked child (NVIDIA)
        assert "'spawn'" in str(exc), exc
        sys.exit(0)
    x = np.arange(6, dtype=np.float32)
    out = run(mine, x)[0].data()
    np.testing.assert_array_equal(out, 2 * x + 1)
    mine.destroy()
    sys.exit(0)


def uses_the_parents():
    try:
        seq.eval()
    except RuntimeError as exc:  # the fork error, not "being used by another thread"
        assert "created in the parent process before fork()" in str(exc), exc
        os._exit(0)
    os._exit(5)


for case in (exits, drops_and_computes, uses_the_parents):
    print(case.__name__, fork_and_wait(case, 60), flush=True)
done.set()
thread.join()
t2 = run(mgr, [4])[0]
assert t2.data().tolist() == [9]  # the parent is unaffected
print("parent ok", flush=True)
'''


def test_child_forgets_kp_objects_a_parent_thread_was_inside():
    out = run_python(SCENARIO, timeout=180).stdout
    assert out.split() == ["exits", "0", "drops_and_computes", "0", "uses_the_parents", "0", "parent", "ok"], out


def test_renewed_locks_are_new_objects():
    """What the fork hook calls: each lock is replaced (the held one is left to the parent's thread)."""
    mgr = kp.Manager()
    try:
        seq = mgr.sequence()
        before = (mgr._lock, seq._busy, seq._fence_lock)
        mgr.renew_locks()
        after = (mgr._lock, seq._busy, seq._fence_lock)
        assert all(a is not b for a, b in zip(before, after, strict=True))
    finally:
        mgr.destroy()
