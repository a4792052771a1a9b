"""A garbage collection can start at any allocation, and in CPython 3.11 it runs finalisers on the allocating
thread at once. A finaliser that computes with kdsl while kdsl's own thread holds one of its cache locks (the
expression interning, the plan caches, the FFT and linalg caches, the device list) must not wait for that lock
forever: those locks are re-entrant, and the compiler, which must not be re-entered (glslang keeps per-thread
state between its calls), runs with collections paused.

Each case holds a lock and collects garbage whose finaliser needs the lock (a structure never seen before, so
every cache misses). In a subprocess: a deadlock fails by the timeout, not by hanging the suite."""

import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import gc, sys
    import numpy as np, kdsl as kd
    from kdsl.engine import plan
    from kdsl.fft import plan as fft_plan
    from kdsl.ir import expr
    from kdsl.linalg import graph
    from kdsl.runtime import instance
    locks = {"expr": lambda: expr._lock, "plan": lambda: plan._plans_lock, "fft": lambda: fft_plan._lock,
             "linalg": lambda: graph._cache_lock, "devices": lambda: instance._devices_lock}
    seen = []
    class Garbage:
        def __init__(self, n):
            self.n, self.me = n, self  # a cycle: only a collection frees it
        def __del__(self):
            n = self.n
            x = kd.arange(float(n)) * (n + 0.25)
            y = kd.fft.fft(kd.sin(x) ** 3 + kd.cos(x))  # new expressions, a new plan, a new FFT length
            m = kd.linalg.qr(kd.eye(n % 5 + 2) * (n + 1.0) + 0.5)[1]  # a new linalg plan
            seen.append(float(kd.abs(y).sum()) + float(m.sum()) + len(kd.kp.list_devices()))
    float(kd.ones(2).sum())
    name = sys.argv[1]
    for n in (11, 13):
        Garbage(n)
        with locks[name]():
            gc.collect()
    print("ok", len(seen))
""")


@pytest.mark.parametrize("lock", ["expr", "plan", "fft", "linalg", "devices"])
def test_a_finaliser_run_while_kdsl_holds_a_cache_lock_computes(lock):
    run = subprocess.run([sys.executable, "-c", SCRIPT, lock], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "ok 2"


COMPILE = textwrap.dedent("""
    import gc
    import kdsl as kd
    from kdsl.runtime import compiler
    float(kd.ones(2).sum())
    backend = compiler._in_process()
    held = []
    gc.callbacks.append(lambda phase, info: phase == "start" and held.append(backend.lock.locked()))
    gc.set_threshold(1)  # a collection at nearly every allocation
    for n in range(3):
        try:  # the error path allocates its exception inside the lock
            compiler.compile_source("#version 450\\nvoid main() { undefined_%d(); }" % n, cache=False)
        except compiler.ShaderCompileError:
            pass
        compiler.compile_source("#version 450\\nlayout(local_size_x = %d) in;\\nvoid main() {}" % (n + 1), cache=False)
    gc.set_threshold(700)
    print("collections while compiling:", sum(held), "of", len(held))
""")


def test_no_collection_runs_inside_a_compile():
    run = subprocess.run([sys.executable, "-c", COMPILE], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.startswith("collections while compiling: 0 of "), run.stdout
