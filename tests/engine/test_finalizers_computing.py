"""Garbage collections that run user finalisers computing with kdsl in the middle of kdsl's own work (a low
collection threshold makes one run inside nearly every allocation). Before the fix, the constant conversion's
``np.errstate`` (a ContextVar.set) was interrupted by such a finaliser that entered its own, and CPython 3.11
crashed with a segfault in about half the runs. In a subprocess, so that a crash fails the test."""

import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import gc, sys
    import numpy as np, kdsl as kd
    seen = []
    class Obj:
        def __init__(self, i):
            self.i, self.a = i, kd.ones(8) * i
            self.me = self  # a cycle: only the collector frees it, inside whatever runs then
        def __del__(self):
            seen.append(float((kd.sin(self.a) * (self.i + 0.25) + self.i).sum()))
    float(kd.ones(2).sum())
    gc.set_threshold(int(sys.argv[1]))
    for step in range(150):
        Obj(step)
        x = kd.arange(float(step % 13 + 3))
        y = kd.cos(x * (step + 0.5)) + kd.exp(x / (step + 1.0)) - step  # new constants every step
        float(y.sum())
    gc.set_threshold(700)
    gc.collect()
    print("ok", len(seen))
""")


@pytest.mark.parametrize("threshold", [13, 61])
def test_finalisers_computing_during_collections_do_not_crash(threshold):
    for _ in range(2):
        run = subprocess.run([sys.executable, "-c", SCRIPT, str(threshold)], capture_output=True, text=True,
                             timeout=240)
        assert run.returncode == 0, run.stderr[-2000:]
        assert run.stdout.strip() == "ok 150"
