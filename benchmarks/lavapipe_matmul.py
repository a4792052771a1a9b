"""float32 n x n matmul on the current device (made for lavapipe, Mesa's CPU Vulkan driver) against NumPy in the
same process: checks the result first, then prints the warm medians, their ratio and the first call's compile.

Timing: ``kd.realize(a @ b)`` (the kernel already compiled) and ``ha @ hb``, each in blocks of ``--repeat``
calls, the two alternating ``--rounds`` times, each kdsl block after a pause (``SPIN_S``: NumPy's BLAS threads
spin a while after a call); the medians are over all calls. The first call (``(a @ b).numpy()``) compiles the
kernel: glslang, then the driver's LLVM. Both are cached on disk between runs (kdsl's SPIR-V cache, Mesa's
shader cache), so by default this script points kdsl at a fresh cache and turns Mesa's off to time a cold
compile; ``--warm-cache`` keeps them.

Run: python benchmarks/lavapipe_matmul.py [--n 1024] [--repeat 5] [--rounds 3] [--warm-cache]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

# After a call, OpenBLAS's worker threads spin for ~0.1 s before sleeping: kdsl timed in that window runs ~1.5x
# slower on 2 cores (lavapipe's threads lose a core to the spinning one), so every kdsl block waits this long.
SPIN_S = 0.5


def timed(fn, repeat: int) -> tuple[list[float], list[float]]:
    """Wall and process-CPU seconds of ``repeat`` calls of ``fn``."""
    wall, cpu = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return wall, cpu


def main(n: int, repeat: int, rounds: int) -> dict[str, float]:
    """Check, time and print; returns the figures in seconds (``kdsl``, ``numpy``, ``first``)."""
    import dsl_common  # noqa: F401 (puts this checkout first on sys.path)
    import numpy as np

    import kdsl as kd

    rng = np.random.default_rng(0)
    ha, hb = (rng.uniform(-1, 1, (n, n)).astype(np.float32) for _ in range(2))
    a, b = kd.asarray(ha), kd.asarray(hb)
    want = ha @ hb
    kd.realize(a + 0, b + 0)  # uploads and the runtime's start-up, outside the compile figure
    time.sleep(SPIN_S)
    t0 = time.perf_counter()
    got = (a @ b).numpy()
    first = time.perf_counter() - t0
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * n ** 0.5)
    kd_wall, kd_cpu, np_wall = [], [], []
    for _ in range(rounds):
        time.sleep(SPIN_S)
        w, c = timed(lambda: kd.realize(a @ b), repeat)
        kd_wall += w
        kd_cpu += c
        np_wall += timed(lambda: ha @ hb, repeat)[0]
    t_kd, t_np = statistics.median(kd_wall), statistics.median(np_wall)
    print(f"device: {kd.device().name}; {n} x {n} float32, medians of {repeat * rounds} calls")
    print(f"kdsl   {t_kd * 1e3:8.1f} ms  (process CPU {statistics.median(kd_cpu) * 1e3:.1f} ms)")
    print(f"NumPy  {t_np * 1e3:8.1f} ms")
    print(f"ratio  {t_kd / t_np:8.1f}x")
    print(f"first call {first:.2f} s: compile ~{first - t_kd:.2f} s")
    return {"kdsl": t_kd, "numpy": t_np, "first": first}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--warm-cache", action="store_true", help="keep kdsl's and Mesa's shader caches")
    args = parser.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory(prefix="kdsl-bench-") as cache:
        if not args.warm_cache:  # read when the driver and kdsl start: set before either is imported
            os.environ["KDSL_CACHE_DIR"] = cache
            os.environ["MESA_SHADER_CACHE_DISABLE"] = "true"
        main(args.n, args.repeat, args.rounds)
