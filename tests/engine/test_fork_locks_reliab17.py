"""fork while another parent thread holds one of kdsl's module-level locks: the child renews every such lock
(docs/concurrency.md), so its first use of what the lock guards does not wait forever. Each scenario runs in a
fresh interpreter; the forked child is killed and reported as "hung" if it is not done in time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import kdsl as kd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the fork helper lives in tests/
from fork_child import IMPORT as FORKING  # noqa: E402

# A parent thread holds ``LOCK`` (an expression naming it) while the main thread forks; the child runs ``BODY``.
HELD = FORKING + """
import threading
import numpy as np, kdsl as kd
{setup}
held, done = threading.Event(), threading.Event()
def hold():
    with {lock}:
        held.set()
        done.wait()
t = threading.Thread(target=hold)
t.start()
held.wait()
def child():
{body}
print("child", fork_and_wait(child, 60), flush=True)
done.set()
t.join()
"""


def _child_status(setup: str, lock: str, body: str) -> str:
    code = HELD.format(setup=setup, lock=lock, body="\n".join("    " + line for line in body.strip().splitlines()))
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired as exc:  # a hang of the parent is a failure too
        pytest.fail(f"timed out: {exc.stdout!r} {exc.stderr!r}")
    assert out.returncode == 0, out.stdout + out.stderr[-3000:]
    return out.stdout.strip().splitlines()[-1]


def _forks_devices() -> bool:
    """Whether the driver can open a device in a forked child (lavapipe can; NVIDIA's cannot, and kdsl says so)."""
    return kd.device().info["vendor_id"] != 0x10DE


def test_child_probes_fma_while_a_parent_thread_held_the_probe_lock():
    """Before: the FMA probe's lock (now every device probe's: kdsl.engine.device_probe) was not renewed after
    fork, so a child forked while a parent thread was probing (a device not probed yet) hung at its first kernel
    that used the answer."""
    if not _forks_devices():
        pytest.skip("this driver cannot open a device in a forked child (kdsl raises the 'spawn' error)")
    setup = """
from kdsl.engine import device_probe, fma_probe
assert float(kd.ones(3).sum()) == 3.0  # GPU use in the parent
device_probe._known.clear()  # the device not probed yet: the child must take the lock to probe it
"""
    body = """
assert fma_probe.widths(kd.device()) <= {"f", "d"}
x = np.linspace(-4, 4, 9, dtype=np.float32)
np.testing.assert_allclose(kd.sin(kd.asarray(x)).numpy(), np.sin(x), rtol=1e-6, atol=1e-6)
"""
    assert _child_status(setup, "device_probe._lock", body) == "child 0"


def test_child_uses_the_dask_realiser_whose_condition_a_parent_thread_held():
    """Before: the shared realiser's condition was not renewed after fork (the parent's background thread holds
    it between batches), so the child's first put or flush hung."""
    pytest.importorskip("dask", reason="dask is an optional extra (pip install kdsl[dask])")
    if not _forks_devices():
        pytest.skip("this driver cannot open a device in a forked child (kdsl raises the 'spawn' error)")
    setup = """
from kdsl.dask import realiser
r = realiser.shared()
y = kd.ones(4) * 3
r.put(y)
assert r.flush(60) and y.tolist() == [3.0] * 4
"""
    body = """
z = kd.asarray(np.arange(5, dtype=np.float32)) * 2
r.put(z)
assert r.flush(30) and r.arrays >= 1
np.testing.assert_array_equal(z.numpy(), np.arange(5, dtype=np.float32) * 2)
sys.exit(0)  # through the exit hooks (the realiser's close among them)
"""
    assert _child_status(setup, "r._cond", body) == "child 0"
