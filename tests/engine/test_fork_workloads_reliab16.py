"""fork after heavy use of every subsystem (warm plan and program caches, pooled buffers, recorded batches and
jit traces, FFT tables and programs, linalg plans, conv2d's window tables): a forked child computes the same
workloads afresh and checks them against NumPy; multiprocessing pools map a kdsl function; a child that never
touches kdsl exits cleanly. Each scenario runs in a subprocess with a timeout (docs/concurrency.md), so a crash
or a hang fails the test instead of killing pytest."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import kdsl as kd

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # the fork helper lives in tests/
from fork_child import IMPORT as FORKING  # noqa: E402

# The parent runs every workload (twice, so jit traces replay and batches are recorded), keeps some arrays alive
# (one of them lazy), and then forks. ``CHILD`` is the child's body; it ends with os._exit or sys.exit.
PARENT = FORKING + """
import os, sys, threading, time
import numpy as np
sys.path.insert(0, {here!r})
import kdsl as kd
from reliab16_workloads import WORKLOADS

def everything(seed):
    rng = np.random.default_rng(seed)
    for i in (1, 2):
        for w in WORKLOADS:
            w(rng, i)

everything(0)
kept = [kd.ones(1000) * 3, kd.asarray(np.arange(10.0)) + 1]
kd.realize(kept[0])

def child():
{child}

pid = fork(child)
print("child", wait(pid, 150), flush=True)
everything(7)  # the parent's caches still work
assert float(kept[1].sum()) == 55.0
print("parent ok", flush=True)
"""


def _run(child: str, timeout: float = 280) -> str:
    code = PARENT.format(here=HERE, child=textwrap.indent(textwrap.dedent(child), " " * 4))
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:  # a hang is a failure, not a stuck suite
        pytest.fail(f"timed out after {timeout} s: {exc.stdout!r} {exc.stderr!r}")
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-4000:]
    assert "parent ok" in out.stdout, out.stdout
    return out.stdout + out.stderr


def _forks_devices() -> bool:
    """Whether the driver can open a device in a forked child (lavapipe can; NVIDIA's cannot, and kdsl says so)."""
    return kd.device().info["vendor_id"] != 0x10DE


def test_forked_child_runs_every_workload_after_heavy_parent_use():
    """Before: the child's first kd.fft call (cached twiddle tables and programs), its first call of a kd.jit
    function traced in the parent, and its first conv2d or pooling (cached window tables) raised "this Manager
    was created in the parent process before fork()"."""
    if not _forks_devices():
        pytest.skip("this driver cannot open a device in a forked child (kdsl raises the 'spawn' error)")
    out = _run("""
        everything(5)
        os._exit(0)
    """)
    assert "child 0" in out, out


# Replaces the parent's fork: three threads run workloads, the fork lands in the middle of their work.
BUSY_THREADS = """
stop = threading.Event()
def busy(seed):
    rng = np.random.default_rng(seed)
    i = 0
    while not stop.is_set():
        WORKLOADS[(seed + i) % len(WORKLOADS)](rng, i)
        i += 1
threads = [threading.Thread(target=busy, args=(s,)) for s in range(3)]
for t in threads:
    t.start()
time.sleep(0.5)
pid = fork(child)
stop.set()
for t in threads:
    t.join()
"""


def test_forked_child_while_parent_threads_are_computing():
    """Threads of the parent are inside kdsl (holding the engine's, compiler's and caches' locks) when it forks:
    the child must not wait for a lock that no thread of its own will release."""
    if not _forks_devices():
        pytest.skip("this driver cannot open a device in a forked child (kdsl raises the 'spawn' error)")
    code = PARENT.replace("pid = fork(child)\n", BUSY_THREADS)
    child = textwrap.indent(textwrap.dedent("""
        everything(9)
        os._exit(0)
    """), " " * 4)
    code = code.format(here=HERE, child=child)
    for _ in range(2):  # the fork lands at a different point of the threads' work each time
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=280)
        assert out.returncode == 0 and "child 0" in out.stdout, out.stdout[-2000:] + out.stderr[-4000:]


def test_forked_child_that_never_touches_kdsl_exits_cleanly():
    out = _run("""
        global kept
        del kept  # the parent's arrays die in the child (their buffers go back to the parent's orphaned pool)
        sys.exit(0)  # through the interpreter's exit hooks
    """)
    assert "child 0" in out, out
    out = _run("""
        os._exit(0)
    """)
    assert "child 0" in out, out


POOL = """
import multiprocessing as mp, sys
import numpy as np
sys.path.insert(0, {here!r})
import kdsl as kd
from reliab16_workloads import WORKLOADS

def work(k):
    try:
        rng = np.random.default_rng(k)
        for w in WORKLOADS:
            w(rng, k)
        return float(kd.fft.rfft(kd.arange(8.0) * k)[0].real)
    except RuntimeError as exc:  # a driver that cannot open a device in a forked child (NVIDIA): the clear error
        return "refused" if "'spawn'" in str(exc) else repr(exc)

if __name__ == "__main__":
    for k in (1, 2):
        work(k)  # heavy GPU use in the parent before the pool starts
    with mp.get_context("{method}").Pool(2) as pool:
        print(pool.map_async(work, range(4)).get(timeout=200))
"""


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_multiprocessing_pool_maps_workloads_after_heavy_parent_use(method, tmp_path):
    script = tmp_path / "pool_script.py"  # a file: spawned workers import __main__ from it
    script.write_text(POOL.format(here=HERE, method=method))
    try:
        out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=280)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"timed out: {exc.stdout!r} {exc.stderr!r}")
    assert out.returncode == 0, out.stderr[-4000:]
    if method == "fork" and not _forks_devices():
        assert "['refused', 'refused', 'refused', 'refused']" in out.stdout, out.stdout
    else:
        assert "[0.0, 28.0, 56.0, 84.0]" in out.stdout, out.stdout


HELD_LOCKS = FORKING + """
import os, threading, time
import numpy as np, kdsl as kd
from kdsl.fft import plan as fft_plan
from kdsl.linalg import graph as linalg_graph
from kdsl.runtime import compiler
a = np.eye(3, dtype=np.float32) * 2
print(kd.linalg.solve(kd.asarray(a), kd.ones(3)).tolist(), kd.fft.fft(kd.ones(8))[0].real.item(), flush=True)
held, done = threading.Event(), threading.Event()
def hold():  # another parent thread inside these caches at fork time
    with compiler._stats_lock, linalg_graph._cache_lock, fft_plan._lock:
        held.set()
        done.wait()
t = threading.Thread(target=hold)
t.start()
held.wait()
def child():
    ok = kd.linalg.solve(kd.asarray(a * 2), kd.ones(3)).tolist() == [0.25] * 3  # a new plan: the cache's lock
    ok &= kd.fft.fft(kd.ones(16))[0].real.item() == 16.0  # a new FFT length: the FFT caches' lock
    ok &= float(kd.cbrt(kd.asarray([27.0]))[0]) == 3.0  # a new kernel: the compiler's statistics lock
    os._exit(0 if ok else 3)
print("child", fork_and_wait(child), flush=True)
done.set()
t.join()
"""


def test_forked_child_does_not_wait_for_cache_locks_a_parent_thread_held():
    """Before: a parent thread holding the linalg plan cache's, the FFT caches' or the compiler's statistics lock
    at fork time left the child waiting forever at its first new plan, FFT length or kernel."""
    if not _forks_devices():
        pytest.skip("this driver cannot open a device in a forked child (kdsl raises the 'spawn' error)")
    out = subprocess.run([sys.executable, "-c", HELD_LOCKS], capture_output=True, text=True, timeout=200)
    assert out.returncode == 0 and "child 0" in out.stdout, out.stdout + out.stderr[-3000:]
