"""Hostile usage of the array DSL, each case in a fresh interpreter with the validation layer on (a crash or a
hang fails its test, not the suite): daemon threads still computing at interpreter exit, KeyboardInterrupt
arriving in the middle of computations. Results are checked against NumPy."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

# First in every script: an exit hook registered before kdsl's runs after them (atexit runs in reverse order), so
# it sees the validation messages of kdsl's own teardown.
PRELUDE = """
import atexit, sys
def _report():
    from kdsl.runtime import validation
    if validation.errors():
        print("VALIDATION:", validation.errors()[:3], file=sys.stderr, flush=True)
atexit.register(_report)
import threading, time
import numpy as np, kdsl as kd
"""


def _run(body: str, tmp_path, timeout: float = 90) -> str:
    """Run ``PRELUDE + body``; it must exit with status 0, print no traceback and no validation message, and
    its stdout (returned) must end with "done"."""
    script = tmp_path / "script.py"  # a file: @kd.kernel reads its function's source
    script.write_text(PRELUDE + body)
    try:
        out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=timeout,
                             env={**os.environ, "KDSL_VALIDATION": "1"})
    except subprocess.TimeoutExpired as exc:  # a hang (at exit too) is a failure, not a stuck suite
        pytest.fail(f"timed out after {timeout} s: {exc.stdout!r} {exc.stderr!r}")
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-4000:]
    assert "VALIDATION:" not in out.stderr and "Traceback" not in out.stderr, out.stderr[-4000:]
    assert out.stdout.strip().endswith("done"), out.stdout[-2000:]
    return out.stdout


DAEMONS_AT_EXIT = """
@kd.kernel
def scale(x: kd.f32[:], out: kd.f32[:], k: kd.f32):
    i = kd.global_id()
    out[i] = x[i] * k

@kd.jit
def step(w, x):
    return w - 0.01 * (w * x).sum() * x

working = [threading.Event() for _ in range(3)]

def kernels():
    x, o = kd.ones(4096), kd.zeros(4096)
    while True:
        x = x * 1.0001 + 1e-6
        scale[4096](x, o, 0.5)
        float(o[:4].sum())
        working[0].set()

def jitted():
    w, x = kd.ones(256), kd.ones(256) * 0.5
    while True:
        w = step(w, x)
        w.numpy()
        working[1].set()

def mixed():
    a = kd.asarray(np.arange(64, dtype=np.float32))
    while True:
        kd.fft.fft(a).numpy()
        (kd.ones((16, 16)) @ kd.ones((16, 16))).numpy()
        working[2].set()

for fn in (kernels, jitted, mixed):
    threading.Thread(target=fn, daemon=True).start()
assert all(w.wait(60) for w in working)
time.sleep(0.1)
print("done", flush=True)
"""


def test_daemon_threads_computing_at_exit_stop_quietly(tmp_path):
    """Before: the exit hook destroyed the devices under the daemon threads, whose next call raised
    RuntimeError("... was destroyed"), printed as a traceback per thread. Now such a thread gets SystemExit,
    which ``threading`` ends quietly, as CPython stops daemon threads at shutdown."""
    _run(DAEMONS_AT_EXIT, tmp_path)


# What the daemon threads above do one run in a few hundred (seen in CI): CPython ends a daemon thread that takes
# the GIL after the exit hooks where it stands, here inside the engine's lock; the last garbage collection then
# freed arrays whose buffers waited for that lock forever. This thread holds it to the end, every time.
LOCK_HELD_AT_FINALIZATION = """
from kdsl.engine.state import state
import gc
gc.disable()  # the cycle below is garbage for the interpreter's last collection, as in that run
kept = [kd.ones(1000) * i for i in range(8)]
assert all((k.numpy() == i).all() for i, k in enumerate(kept))  # (realised: each holds a buffer)
kept.append(kept)
del kept
held = threading.Event()

def hold():
    with state(kd.device()).lock:
        held.set()
        threading.Event().wait()

threading.Thread(target=hold, daemon=True).start()
assert held.wait(60)
print("done", flush=True)
"""


def test_a_lock_held_by_a_daemon_thread_at_finalization_does_not_hang_the_exit(tmp_path):
    _run(LOCK_HELD_AT_FINALIZATION, tmp_path, timeout=60)


# Ctrl-C lands wherever the main thread is; most often inside the long calls: a sequence's wait (the wait blocks
# in slices so that Ctrl-C gets through) and the queue submission. The scripts raise KeyboardInterrupt at those
# exact points (patched in), then check that the next computations work and give NumPy's answers.
WORKLOADS = """
@kd.kernel
def scale(x: kd.f32[:], out: kd.f32[:], k: kd.f32):
    i = kd.global_id()
    out[i] = x[i] * k

@kd.jit
def step(w, x):
    return w - 0.01 * (w * x).sum() * x

a = np.linspace(-1, 1, 64, dtype=np.float32)

def upload():
    return kd.asarray(a).numpy()

def reduce():
    return float((kd.asarray(a) * 2).sum())

def replay():
    w = kd.ones(64)
    for _ in range(3):
        w = step(w, kd.asarray(a))
    return w.numpy()

def kernel():
    o = kd.zeros(64)
    scale[64](kd.asarray(a), o, 3.0)
    return o.numpy()

def fft():
    return kd.fft.fft(kd.asarray(a)).numpy()

wn = np.ones(64, np.float32)
for _ in range(3):
    wn = wn - np.float32(0.01) * (wn * a).sum(dtype=np.float32) * a
expected = {upload: a, reduce: a.sum(dtype=np.float64) * 2, replay: wn, kernel: a * 3, fft: np.fft.fft(a)}

def check_all():
    for fn, want in expected.items():
        np.testing.assert_allclose(fn(), want, rtol=1e-4, atol=1e-4)

def interrupt_each(arm):  # each workload with a KeyboardInterrupt armed (arm()), then again on what it left
    check_all()  # compiled, traced and recorded: the interrupts land in replays too
    for fn, want in expected.items():
        arm()
        try:
            fn()
        except KeyboardInterrupt:
            pass
        np.testing.assert_allclose(fn(), want, rtol=1e-4, atol=1e-4)  # on the sequence left behind
    check_all()
    print("done", flush=True)
"""

WAIT_INTERRUPTED = WORKLOADS + """
from kdsl.runtime.sequence_fence import SequenceFence
real_wait, armed = SequenceFence.wait_fence, [0]

def wait_fence(self, *args):
    if armed[0]:  # Ctrl-C inside the wait's slices: the batch still runs, the sequence stays running
        armed[0] = 0
        raise KeyboardInterrupt
    return real_wait(self, *args)

SequenceFence.wait_fence = wait_fence
interrupt_each(lambda: armed.__setitem__(0, 1))
"""


def test_ctrl_c_during_a_wait_leaves_no_running_sequence_behind(tmp_path):
    """Before: the engine's cached sequence stayed running, and every later upload, download or replay on it
    raised RuntimeError("cannot evaluate while the sequence is running; call eval_await() first")."""
    _run(WAIT_INTERRUPTED, tmp_path)


SUBMIT_INTERRUPTED = WORKLOADS + """
from kdsl.runtime import sequence_eval

class Lib:  # the Vulkan functions, vkQueueSubmit interrupted as it returns when armed
    def __init__(self, real):
        self.real, self.armed = real, 0
    def __getattr__(self, name):
        return getattr(self.real, name)
    def vkQueueSubmit(self, *args):
        res = self.real.vkQueueSubmit(*args)
        if self.armed:
            self.armed = 0
            raise KeyboardInterrupt
        return res

sequence_eval.lib = lib = Lib(sequence_eval.lib)
interrupt_each(lambda: setattr(lib, "armed", 1))
"""


def test_ctrl_c_as_a_batch_is_submitted_leaves_it_registered(tmp_path):
    """Before: the batch was on the queue but the sequence not marked running, so the next eval submitted the
    same fence again while it was busy: lavapipe aborted the process ("std::future_error: Promise already
    satisfied"), or the validation layer reported the fence in use."""
    _run(SUBMIT_INTERRUPTED, tmp_path)


RANDOM_CTRL_C = WORKLOADS + """
import _thread, random
rnd = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
timers = []
for i in range(8):
    timers.append(threading.Timer(rnd.uniform(0, 0.03), _thread.interrupt_main))
    try:  # (the interrupt may land anywhere in here, the finally block included)
        try:
            timers[-1].start()
            n = 40 + i  # new shapes each time: device start-up, first compiles (glslang's load) and traces
            x = kd.asarray(np.arange(n, dtype=np.float32))
            float((kd.sin(x) * 2 + x @ x).sum())
            step(kd.ones(n), x).numpy()
            time.sleep(0.05)  # the interrupt lands here when the work was quicker
        finally:
            timers[-1].cancel()
            timers[-1].join()
    except KeyboardInterrupt:
        pass
try:  # a late timer's interrupt, raised here rather than in the checks below
    for timer in timers:
        timer.join()
    time.sleep(0.01)
except KeyboardInterrupt:
    pass
check_all()
print("done", flush=True)
"""


def test_ctrl_c_at_random_points_of_start_up_compiles_and_runs(tmp_path):
    """Before, besides the two cases above: an interrupt inside glslang's first load left ``pycparser`` half
    imported (every later compile: AttributeError "module 'pycparser' has no attribute 'c_ast'"), and one
    between the device's creation and its Manager leaked the VkDevice (reported by the validation layer)."""
    _run(RANDOM_CTRL_C, tmp_path)


OUT_OF_MEMORY = """
from vulkan import VK_ERROR_OUT_OF_DEVICE_MEMORY
from kdsl.runtime import OutOfMemoryError, VulkanError, buffer
class FullDevice:
    # the driver's functions, but after `skip` vkAllocateMemory calls the next `failures` fail as a full device's
    # do (a real memory limit on this process also fails lavapipe's and the layer's own C++ allocations: aborts)
    def __init__(self, lib):
        self.lib, self.skip, self.failures = lib, 0, 0
    def __getattr__(self, name):
        return getattr(self.lib, name)
    def vkAllocateMemory(self, *args):
        if self.skip:
            self.skip -= 1
        elif self.failures:
            self.failures -= 1
            return VK_ERROR_OUT_OF_DEVICE_MEMORY
        return self.lib.vkAllocateMemory(*args)
device = buffer.lib = FullDevice(buffer.lib)
float(kd.asarray(np.arange(8, dtype=np.float32)).sum())  # the device started, its kernels compiled
device.failures = 10**9
try:
    kd.asarray(np.arange(3001, dtype=np.float32)).numpy()  # a new size: no pooled buffer serves it
    raise AssertionError("allocated on a full device")
except MemoryError as exc:  # as NumPy's "Unable to allocate" and CuPy's OutOfMemoryError are
    assert isinstance(exc, OutOfMemoryError) and isinstance(exc, VulkanError), type(exc).__mro__
    assert "out of memory: free tensors or allocate less" in str(exc), str(exc)
# one failure: kdsl frees its pool and retries, for the device buffer (allocated first for a new size) and for
# the host staging buffer (second)
for skip, size in ((0, 5003), (1, 7001)):
    device.skip, device.failures = skip, 1
    host = np.arange(size, dtype=np.float32)
    np.testing.assert_array_equal((kd.asarray(host) * 2).numpy(), host * 2)
device.failures = 0
np.testing.assert_allclose(float((kd.asarray(np.arange(100.0)) * 2).sum()), 9900.0)
print("done", flush=True)
"""


def test_out_of_device_memory_is_a_memory_error_and_recoverable(tmp_path):
    """Before: a VulkanError (a RuntimeError only), which ``except MemoryError`` missed, and a host staging buffer
    that failed to allocate was not retried after freeing kdsl's pool. The device is made full by failing its
    allocations (a real memory limit on the process made lavapipe abort in a C++ allocation now and then)."""
    _run(OUT_OF_MEMORY, tmp_path)


LATE_EXIT_HOOK = """
def late():  # registered before kdsl's own exit hook (imported below), so it runs after it
    try:
        float(kd.ones(3).sum())
    except RuntimeError as exc:
        print("late:", exc, flush=True)
atexit.register(late)
import kdsl as kd
print(float(kd.ones(3).sum()), "done", flush=True)
"""


def test_an_exit_hook_computing_after_kdsls_teardown_says_how_to_order_them(tmp_path):
    """Before: "this Manager was destroyed; create a new kp.Manager()", about a Manager kd users never made."""
    script = tmp_path / "late.py"
    script.write_text("import atexit\n" + LATE_EXIT_HOOK)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr[-3000:]
    assert out.stdout.startswith("3.0 done\nlate: "), out.stdout
    assert "register it with atexit after importing kdsl" in out.stdout, out.stdout
