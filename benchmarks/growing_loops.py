"""Loops whose arrays change length every step, cold: kernels built and time, with kdsl's size-generic kernels
(``kdsl/engine/size_generic.py``) and with every size baked in (as before them), against NumPy.

Each (variant, loop) runs in its own process with an empty ``KDSL_CACHE_DIR`` (no SPIR-V from an earlier run),
so the time includes every kernel the loop compiles; the device is started and probed before the clock starts.
Each result is checked against NumPy.

    python3 benchmarks/growing_loops.py [--steps 200]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from dsl_common import table

VARIANTS = ("generic", "baked")  # as shipped; size-generic kernels switched off (every length its own kernel)


def appends(xp, steps):
    """``a = append(a, v)``: one element more a step."""
    a = xp.asarray(np.zeros(0, np.float32))
    for i in range(steps):
        a = xp.append(a, i * 0.5)
    return a


def row_joins(xp, steps):
    """``a = concatenate((a, row))`` onto an (n, 8) matrix."""
    a, row = xp.asarray(np.zeros((1, 8), np.float32)), xp.asarray(np.ones((1, 8), np.float32))
    for _ in range(steps):
        a = xp.concatenate((a, row))
    return a


def prefix_sums(xp, steps):
    """``s += x[:i].sum()``, each sum read back (a Python float)."""
    x = xp.asarray(np.arange(steps, dtype=np.float32))
    s = 0.0
    for i in range(1, steps):
        s += float(x[:i].sum())
    return np.float64(s)


def suffix_scales(xp, steps):
    """``y = x[i:] * 2`` read back every step."""
    x = xp.asarray(np.arange(steps, dtype=np.float32))
    total = 0.0
    for i in range(1, steps):
        total += float(np.asarray(x[i:] * 2)[0])
    return np.float64(total)


def resizes(xp, steps):
    """``a = resize(a, n)``: NumPy's repeating growth, one element a step."""
    a = xp.asarray(np.arange(3, dtype=np.float32))
    for n in range(4, steps):
        a = xp.resize(a, n)
    return a


CASES = {"append": appends, "concatenate rows": row_joins, "x[:i].sum()": prefix_sums,
         "x[i:] * 2": suffix_scales, "resize": resizes}


def _run_kdsl(variant: str, label: str, steps: int) -> dict[str, float]:
    import kdsl as kd
    from kdsl.engine import size_generic

    if variant == "baked":
        size_generic.STREAK = 1 << 30  # no run of lengths is ever long enough: every length keeps its kernel
    kd.asarray(np.ones(4, np.float32)).sum().numpy()  # start and probe the device outside the timing
    fn = CASES[label]
    before = kd.stats()["programs"]
    t0 = time.perf_counter()
    got = np.asarray(fn(kd, steps))
    ms = (time.perf_counter() - t0) * 1e3
    np.testing.assert_allclose(got, np.asarray(fn(np, steps)), rtol=1e-5)
    return {"ms": ms, "programs": kd.stats()["programs"] - before}


def _child(variant: str, label: str, steps: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, KDSL_CACHE_DIR=cache)
        out = subprocess.run([sys.executable, __file__, "--variant", variant, "--case", label, "--steps", str(steps)],
                             check=True, capture_output=True, text=True, env=env).stdout
    return json.loads(out.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--variant", choices=VARIANTS, help=argparse.SUPPRESS)
    parser.add_argument("--case", choices=tuple(CASES), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.variant:  # a child process: one loop of one variant, cold
        print(json.dumps(_run_kdsl(args.variant, args.case, args.steps)))
        return
    rows = []
    for label, fn in CASES.items():
        new, old = (_child(v, label, args.steps) for v in VARIANTS)
        t0 = time.perf_counter()
        fn(np, args.steps)
        numpy_ms = (time.perf_counter() - t0) * 1e3
        rows.append([label, new["ms"], int(new["programs"]), old["ms"], int(old["programs"]), old["ms"] / new["ms"],
                     numpy_ms])
    table(f"growing loops of {args.steps} steps, cold (an empty kernel cache)",
          ["loop", "kdsl ms", "kernels", "baked ms", "baked kernels", "baked/kdsl", "numpy ms"], rows)


if __name__ == "__main__":
    main()
