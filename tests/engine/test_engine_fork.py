"""fork, array side: a forked child forgets its parent's devices and engine state and builds its own Vulkan
objects on first use (docs/concurrency.md). Each case runs in a subprocess with a timeout, so a hang fails."""

import os
import subprocess
import sys
import textwrap

import pytest

import kdsl as kd

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTS)
from fork_child import IMPORT as FORKING  # noqa: E402 - the tests folder first: the fork helper lives there

CHILD_AFTER_FORK = FORKING + """
import os, sys
import numpy as np, kdsl as kd
assert float(kd.asarray(np.arange(5, dtype=np.float32)).sum()) == 10.0  # GPU use in the parent
def child():
    try:
        ok = int((kd.arange(10) * 2).sum()) == 90
    except RuntimeError as exc:  # a driver that cannot open a device in a forked child (NVIDIA): the clear error
        ok = "'spawn'" in str(exc)
        print("refused", flush=True)
    os._exit(0 if ok else 3)
print("child", fork_and_wait(child))
print("parent", float((kd.arange(4) + 1).sum()))
"""

POOL = """
import multiprocessing as mp
import numpy as np, kdsl as kd

def work(k):
    try:
        return float((kd.arange(k + 1) * 2).sum())
    except RuntimeError as exc:  # a driver that cannot open a device in a forked child (NVIDIA): the clear error
        return "refused" if "'spawn'" in str(exc) else str(exc)

if __name__ == "__main__":
    assert float(kd.ones(3).sum()) == 3.0  # GPU use in the parent before the pool starts
    with mp.get_context("{method}").Pool(2) as pool:
        print(pool.map(work, range(4)))
"""


def _run(code: str, tmp_path, timeout: float = 120) -> str:
    script = tmp_path / "script.py"  # a file: spawned workers import __main__ from it
    script.write_text(textwrap.dedent(code))
    try:
        out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:  # a hang is a failure, not a stuck suite
        pytest.fail(f"timed out after {timeout} s: {exc.stdout!r} {exc.stderr!r}")
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def _forks_devices() -> bool:
    """Whether the driver can open a device in a forked child (lavapipe can; NVIDIA's cannot, and kdsl says so)."""
    return kd.device().info["vendor_id"] != 0x10DE


def test_forked_child_computes_and_exits(tmp_path):
    out = _run(CHILD_AFTER_FORK, tmp_path)
    assert "child 0" in out and "parent 10.0" in out
    assert ("refused" in out) != _forks_devices(), out


# The child exits through the interpreter (atexit hooks), which must not wait on the parent's fences (the
# runtime makes inherited Vulkan objects inert in the child).
def test_forked_child_exits_through_atexit(tmp_path):
    out = _run(CHILD_AFTER_FORK.replace("os._exit(", "sys.exit("), tmp_path, timeout=60)
    assert "child 0" in out


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_multiprocessing_pool_maps_a_kdsl_function(method, tmp_path):
    out = _run(POOL.replace("{method}", method), tmp_path)
    if method == "fork" and not _forks_devices():
        assert "['refused', 'refused', 'refused', 'refused']" in out, out
    else:
        assert "[0.0, 2.0, 6.0, 12.0]" in out, out


HELD_LOCK = FORKING + """
import os, threading, time
import numpy as np, kdsl as kd
from kdsl.engine.state import state
x = kd.asarray(np.arange(4, dtype=np.float32)) + 1
kd.realize(x)  # a pooled buffer made in the parent
held, done = threading.Event(), threading.Event()
def hold():
    with state(kd.device()).lock:  # another parent thread inside the engine at fork time
        held.set()
        done.wait()
t = threading.Thread(target=hold)
t.start()
held.wait()
def child():
    global x
    del x  # its buffer goes back to the parent's (orphaned) pool: must not wait for the parent's lock
    os._exit(0)
status = fork_and_wait(child)
done.set()
t.join()
print("child", status)
"""


def test_child_drops_a_parent_array_while_a_parent_thread_held_the_engine_lock(tmp_path):
    assert "child 0" in _run(HELD_LOCK, tmp_path, timeout=60)
