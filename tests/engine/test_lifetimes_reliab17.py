"""The array DSL under unusual lifetimes: arrays, pending lazy work, ``kd.jit`` functions and ``@kd.kernel``
launches still alive when the interpreter exits (also with a daemon thread still computing); arrays freed by
``weakref.finalize`` callbacks and ``__del__`` methods of user objects during garbage collection while another
thread computes; exceptions raised inside ``kd.jit`` functions and kernel calls in one thread while others work;
threads each on their own device (``KDSL_VIRTUAL_DEVICES=2``). Every scenario runs in a fresh interpreter with
the validation layer on; a validation message, a crash or a hang fails it. Results are checked against NumPy."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

# First in every script: an exit hook registered before kdsl's runs after them (atexit runs in reverse order), so
# it sees the validation messages of kdsl's own teardown (devices destroyed at exit).
PRELUDE = """
import atexit, sys
def _report():
    from kdsl.runtime import validation
    if validation.errors():
        print("VALIDATION:", validation.errors()[:3], file=sys.stderr, flush=True)
atexit.register(_report)
import gc, threading, time, weakref
import numpy as np, kdsl as kd

@kd.jit
def step(w, x):
    return w - 0.01 * (w * x).sum() * x

@kd.kernel
def scale(x: kd.f32[:], out: kd.f32[:], k: kd.f32):
    i = kd.global_id()
    out[i] = x[i] * k

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
"""


def _run(body: str, tmp_path, env: dict | None = None, timeout: float = 90) -> subprocess.CompletedProcess:
    script = tmp_path / "script.py"  # a file: @kd.kernel reads its function's source
    script.write_text(PRELUDE + body)
    try:
        out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                             timeout=timeout, env={**os.environ, "KDSL_VALIDATION": "1", **(env or {})})
    except subprocess.TimeoutExpired as exc:  # a hang (at exit too) is a failure, not a stuck suite
        pytest.fail(f"timed out after {timeout} s: {exc.stdout!r} {exc.stderr!r}")
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-4000:]
    assert "VALIDATION:" not in out.stderr, out.stderr[-4000:]
    return out


LEFT_AT_EXIT = """
w = kd.ones(256)
x = kd.asarray(np.linspace(-1, 1, 256, dtype=np.float32))
for _ in range(3):
    w = step(w, x)  # traced, then replayed
pending = (w * 2 + 1).sum()  # lazy, never computed
out = kd.zeros(256)
scale[256](x, out, 2.0)
kept = [kd.ones((32, 32)) @ kd.ones((32, 32)), kd.fft.fft(kd.ones(16)), out]

class Holder:  # a user object whose __del__ drops an array at exit
    def __init__(self):
        self.a = kd.ones(10) * 3
    def __del__(self):
        self.a = None

h = Holder()
cycle = [kd.ones(5) + 1]
cycle.append(cycle)  # freed by the collector, if at all, during shutdown
weakref.finalize(h, lambda a=kd.zeros(7) + 1: None)
np.testing.assert_allclose(out.numpy(), np.linspace(-1, 1, 256, dtype=np.float32) * 2, rtol=1e-6)
print("done", flush=True)
"""


def test_interpreter_exit_with_live_arrays_pending_work_jit_and_kernels(tmp_path):
    out = _run(LEFT_AT_EXIT, tmp_path)
    assert out.stdout.strip() == "done" and "Traceback" not in out.stderr, out.stderr[-3000:]


DAEMON_AT_EXIT = """
working = threading.Event()

def busy():
    x = kd.ones(4096)
    o = kd.zeros(4096)
    while True:
        x = x * 1.0001 + 1e-6
        scale[4096](x, o, 0.5)
        float(o[:4].sum())
        working.set()

threading.Thread(target=busy, daemon=True).start()
assert working.wait(60)
time.sleep(0.2)
print("done", flush=True)
"""


def test_interpreter_exit_while_a_daemon_thread_is_computing(tmp_path):
    """The exit hook destroys the devices while the daemon thread still submits: it may get an exception
    ("destroyed"), but the process neither crashes nor hangs, and the validation layer reports nothing."""
    for _ in range(2):  # the exit lands at a different point of the thread's work each time
        assert _run(DAEMON_AT_EXIT, tmp_path).stdout.strip() == "done"


FINALIZERS = """
class Obj:
    def __init__(self, i):
        self.i, self.a = i, kd.ones(100) * i
        self.me = self  # a reference cycle: only the collector frees it
    def __del__(self):
        seen.append(float((self.a + 1)[0]))  # new lazy work and a read inside __del__
        self.a = None

seen, finals = [], []
objs = [Obj(i) for i in range(100)]
for o in objs:
    weakref.finalize(o, lambda x=kd.zeros(10) + 2: finals.append(float(x.sum())))
del objs, o

def churn(seed):
    rng = np.random.default_rng(seed)
    for i in range(40):
        a = rng.standard_normal(300).astype(np.float32)
        np.testing.assert_allclose(float(kd.asarray(a).sum()), a.sum(dtype=np.float64), rtol=1e-4, atol=1e-4)

t = threading.Thread(target=guarded, args=(churn, 1))
t.start()
gc.collect()  # runs every __del__ and finalizer on this thread while the other one computes
t.join(60)
assert not errors, errors
assert sorted(seen) == [float(i + 1) for i in range(100)], seen
assert finals == [20.0] * 100, finals
print("done", flush=True)
"""


def test_arrays_freed_by_user_finalizers_during_garbage_collection(tmp_path):
    assert _run(FINALIZERS, tmp_path).stdout.strip() == "done"


EXCEPTIONS = """
@kd.jit
def raises(x):
    y = x * 2
    if float(y.sum()) > -1e30:  # a read inside the traced function, then an error
        raise ValueError("raised inside the jit function")
    return y

@kd.jit
def mismatched(x, y):
    return x + y

def raiser():
    for _ in range(10):
        for call, kind in ((lambda: raises(kd.ones(8)), ValueError),
                           (lambda: mismatched(kd.ones(3), kd.ones(4)), ValueError),
                           (lambda: scale[8](kd.ones(8, dtype=kd.int32), kd.zeros(8), 1.0), TypeError)):
            try:
                call()
            except kind:
                pass
            else:
                raise AssertionError(f"{call} raised nothing")

def worker(seed):
    rng = np.random.default_rng(seed)
    w, wn = kd.ones(64), np.ones(64, np.float32)
    for _ in range(25):
        a = rng.standard_normal(64).astype(np.float32)
        x = kd.asarray(a)
        w = step(w, x)
        wn = wn - np.float32(0.01) * (wn * a).sum(dtype=np.float32) * a
        o = kd.zeros(64)
        scale[64](x, o, 3.0)
        np.testing.assert_allclose(o.numpy(), a * 3, rtol=1e-6)
    np.testing.assert_allclose(w.numpy(), wn, rtol=1e-4, atol=1e-5)

run_threads([(raiser,)] + [(worker, s) for s in range(3)])
print("done", flush=True)
"""


def test_exceptions_in_jit_functions_and_kernels_while_other_threads_work(tmp_path):
    assert _run(EXCEPTIONS, tmp_path).stdout.strip() == "done"


VIRTUAL = """
devices = kd.devices()
assert len(devices) == 2, devices

def on_device(index, seed):
    rng = np.random.default_rng(seed)
    with kd.device(index) as d:
        w, wn = kd.ones(64), np.ones(64, np.float32)
        for i in range(20):
            a = rng.standard_normal(64).astype(np.float32)
            x = kd.asarray(a)
            assert x.device is d
            w = step(w, x)  # one jit function traced per device
            wn = wn - np.float32(0.01) * (wn * a).sum(dtype=np.float32) * a
            o = kd.zeros(64)
            scale[64](x, o, 3.0)
            np.testing.assert_allclose(o.numpy(), a * 3, rtol=1e-6)
            if i % 5 == 0:
                np.testing.assert_allclose(kd.fft.fft(x).numpy(), np.fft.fft(a), rtol=1e-3, atol=1e-3)
                back = x.to_device(devices[1 - index])  # a copy to the other thread's device
                np.testing.assert_array_equal(back.numpy(), a)
        assert w.device is d
        np.testing.assert_allclose(w.numpy(), wn, rtol=1e-4, atol=1e-5)

run_threads([(on_device, s % 2, s) for s in range(4)])
print("done", flush=True)
"""


def test_threads_each_on_their_own_virtual_device(tmp_path):
    env = {"KDSL_VIRTUAL_DEVICES": "2", "KDSL_DEVICE": ""}
    assert _run(VIRTUAL, tmp_path, env=env).stdout.strip() == "done"


# A collection that lands inside the device's start-up (its Manager being made) runs user finalizers there; one
# that computes with kdsl re-entered the start-up. The script makes the garbage, and asks for a collection at the
# next allocation, from inside the first Manager's constructor.
STARTUP = """
import kdsl.runtime as rt
made, seen = [], []

class Obj:
    def __init__(self, i):
        self.i, self.me = i, self  # a reference cycle: only the collector frees it
    def __del__(self):
        seen.append(float((kd.arange(4.0) * self.i).sum()))  # computes (and reads) on the starting device

real_init = rt.Manager.__init__

def init(self, *args, **kwargs):
    made.append(1)
    if len(made) == 1:
        for i in range(5):
            Obj(i)
        gc.set_threshold(1)  # the next allocation collects: inside this constructor
    try:
        real_init(self, *args, **kwargs)
    finally:
        gc.set_threshold(700)

rt.Manager.__init__ = init
x = kd.asarray(np.arange(3, dtype=np.float32)) * 2  # the device starts here
np.testing.assert_array_equal(x.numpy(), [0, 2, 4])
gc.collect()
assert len(made) == 1, f"{len(made)} Managers made for one device"
assert sorted(seen) == [6.0 * i for i in range(5)], seen
print("done", flush=True)
"""


def test_finalizers_computing_during_the_device_start_up(tmp_path):
    """Before: the finalizers ran inside the first Manager's constructor and made a second Manager of the device
    (its instance without the validation layer); the first one replaced it, and its collection destroyed the
    sequences and buffers the finalizers' work had recorded into the device's shared state."""
    out = _run(STARTUP, tmp_path)
    assert out.stdout.strip() == "done" and "Exception ignored" not in out.stderr, out.stderr[-3000:]
