"""fork() after GPU use: the child never touches the parent's Vulkan objects.

Before the fix, a child forked after any GPU use hung forever, even one that only called ``sys.exit(0)`` (the
exit hook waited on a fence of the parent's device), so ``multiprocessing`` with the fork context hung. Every
scenario runs in a fresh interpreter whose parent kills a child that is not done in time, and the interpreter
itself runs under a timeout: these tests can fail, never hang the suite.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rt_util import run_python

import kdsl.kp as kp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the fork helper lives in tests/
from fork_child import IMPORT as FORKING  # noqa: E402

# The parent uses the GPU (a kernel in flight is awaited, one sequence is left submitted and not awaited:
# the worst case for an exit hook), then forks children that run ``child(mode)`` and reports their status.
_SCENARIO = FORKING + '''
import os, sys
import numpy as np
import kdsl.kp as kp

DOUBLE = kp.compile_source("""#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer X { float x[]; };
void main() { x[gl_GlobalInvocationID.x] *= 2.0; }""")


def double(mgr, values):
    t = mgr.tensor(values)
    algo = mgr.algorithm([t], DOUBLE)
    mgr.sequence().record(kp.OpSyncDevice([t])).record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([t])).eval()
    return t.data().tolist()


parent = kp.Manager()
assert double(parent, [1, 2, 3]) == [2, 4, 6]
t = parent.tensor([1, 2, 3])
pending = parent.sequence().record(kp.OpSyncDevice([t])).eval_async()


def child(mode):
    if mode == "exit":
        sys.exit(0)  # atexit and garbage collection of the parent's objects must not wait on its fences
    if mode == "new":
        try:
            mgr = kp.Manager()
        except RuntimeError as exc:  # drivers that cannot open a device in a forked child (NVIDIA)
            assert "cannot start a device in a forked child" in str(exc) and "'spawn'" in str(exc), exc
            print("child refused", flush=True)
            sys.exit(0)
        print("child", double(mgr, [5, 6]), flush=True)
        sys.exit(0)
    if mode == "status":
        sys.exit(3)  # the exit status survives the exit hook that skips the drivers' C exit handlers
    if mode == "old":
        for use in (lambda: pending.eval_await(), lambda: double(parent, [1]), lambda: t.data(),
                    lambda: parent.sequence()):
            try:
                use()
            except RuntimeError as exc:
                assert "created in the parent process before fork()" in str(exc), exc
                assert "'spawn'" in str(exc), exc
            else:
                os._exit(5)
        parent.destroy()  # only forgets the parent's objects
        sys.exit(0)


for mode in sys.argv[1:] or MODES:
    print(mode, fork_and_wait(lambda: child(mode), timeout=60), flush=True)
pending.eval_await()
assert double(parent, [4]) == [8]  # the parent is unaffected
'''


def _run(modes: str) -> str:
    code = _SCENARIO.replace("sys.argv[1:] or MODES", repr(modes.split()))
    return run_python(code, timeout=180).stdout


def _forks_devices() -> bool:
    """Whether this device's driver can open a device in a forked child (lavapipe can, NVIDIA's cannot)."""
    return kp.list_devices()[0]["vendor_id"] != 0x10DE


def test_forked_child_exits_cleanly_creates_its_own_manager_and_refuses_the_parents():
    out = _run("exit new old status")
    assert "exit 0\n" in out, out
    expected = "child [10.0, 12.0]\nnew 0\n" if _forks_devices() else "child refused\nnew 0\n"
    assert expected in out, out
    assert "old 0\n" in out, out
    assert "status 3\n" in out, out


_POOL = '''
import multiprocessing as mp
import numpy as np
import kdsl.kp as kp

SOURCE = """#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer X { float x[]; };
void main() { x[gl_GlobalInvocationID.x] += 1.0; }"""


def work(i):
    mgr = kp.Manager()
    t = mgr.tensor([i, 2 * i])
    algo = mgr.algorithm([t], kp.compile_source(SOURCE))
    mgr.sequence().record(kp.OpSyncDevice([t])).record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([t])).eval()
    return t.data().tolist()


if __name__ == "__main__":
    parent = kp.Manager()  # GPU use in the parent before the pool forks
    work(0)
    pool = mp.get_context(METHOD).Pool(2)
    try:
        print(pool.map_async(work, range(4)).get(timeout=120))
    except RuntimeError as exc:  # a driver that cannot open a device in a forked child: the clear error
        print("refused:", exc)
    finally:
        pool.terminate()
        pool.join()
'''


def _pool(method: str) -> str:
    import os
    import tempfile

    # spawn re-imports the main module, so the script must be a file.
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "pool_script.py")
        with open(path, "w") as f:
            f.write(_POOL.replace("METHOD", repr(method)))
        return run_python(f"import runpy; runpy.run_path({path!r}, run_name='__main__')", timeout=240).stdout


def test_multiprocessing_pool_with_fork_runs_kernels_in_the_workers():
    out = _pool("fork").strip()
    if _forks_devices():
        assert out == "[[1.0, 1.0], [2.0, 3.0], [3.0, 5.0], [4.0, 7.0]]"
    else:
        assert out.startswith("refused: this process was forked from one that had a NVIDIA Vulkan device"), out


def test_multiprocessing_pool_with_spawn_runs_kernels_in_the_workers():
    assert _pool("spawn").strip() == "[[1.0, 1.0], [2.0, 3.0], [3.0, 5.0], [4.0, 7.0]]"
