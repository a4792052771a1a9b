"""Long lazy loops (no ``kd.realize`` inside the loop) with and without kdsl's periodic cuts
(``kdsl/engine/periodic.py``), against NumPy and PyTorch eager, warm.

Each program runs its loop on the device and brings the result to the host. Every variant runs in its own
process (plans and kernels are cached per process): "kdsl" as shipped, "kdsl, limits only" with the periodic
anchors switched off (the fusion limits alone cut the loop, as before the periodic cuts), the loop under
``kd.jit`` (traced once, replayed without building the graph), NumPy, and PyTorch eager on the GPU when it is
installed. The ratios are of kdsl as shipped. Each is checked against NumPy first, warmed up by ``--warmup`` untimed
runs, then timed: medians of ``--repeat`` runs.

    python3 benchmarks/lazy_loops.py [--repeat 10] [--warmup 3]
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys

import numpy as np
from dsl_common import median_ms, table, torch_module, torch_sync

SIZE = 1 << 16
VARIANTS = ("periodic", "limits", "jit")  # kdsl as shipped; without the periodic anchors; the loop under kd.jit


def logistic(xp, x, steps):
    """The logistic map, a one-value state: ``x = r x (1 - x)`` (r = 2.9: not chaotic, so float32 follows float64)."""
    for _ in range(steps):
        x = 2.9 * x * (1 - x)
    return x


def rk4(xp, y, steps, h=0.01):
    """Classical Runge-Kutta steps of the damped, driven oscillator ``y'' = -y - 0.1 y' + sin(t)`` on many starts."""
    def f(t, u, v):
        return v, -u - 0.1 * v + math.sin(t)  # t is a Python float: the same scalar for every module
    u, v = y[0], y[1]
    for i in range(steps):
        t = i * h
        a = f(t, u, v)
        b = f(t + h / 2, u + h / 2 * a[0], v + h / 2 * a[1])
        c = f(t + h / 2, u + h / 2 * b[0], v + h / 2 * b[1])
        d = f(t + h, u + h * c[0], v + h * c[1])
        u = u + h / 6 * (a[0] + 2 * b[0] + 2 * c[0] + d[0])
        v = v + h / 6 * (a[1] + 2 * b[1] + 2 * c[1] + d[1])
    return xp.stack([u, v])


CASES = {f"logistic, {n} steps": (logistic, n, 1) for n in (24, 100, 400)} | \
    {f"RK4, {n} steps": (rk4, n, 2) for n in (24, 100)}


def _start(rows: int) -> np.ndarray:
    return np.random.default_rng(0).uniform(0.1, 0.9, (rows, SIZE)).astype(np.float32).squeeze()


def _run_kdsl(variant: str, repeat: int, warmup: int) -> dict[str, float]:
    import kdsl as kd
    from kdsl.engine import fusion

    if variant == "limits":  # the limits alone cut the loop: no anchors
        fusion.periodic.anchors = lambda *args, **kwargs: set()
    times = {}
    for label, (fn, steps, rows) in CASES.items():
        host = _start(rows)
        x = kd.asarray(host)
        want = fn(np, host.astype(np.float64), steps)
        run = kd.jit(lambda y, fn=fn, steps=steps: fn(kd, y, steps)) if variant == "jit" else \
            lambda y, fn=fn, steps=steps: fn(kd, y, steps)
        assert np.allclose(run(x).numpy(), want, rtol=1e-2, atol=1e-3), f"kdsl ({variant}) {label} is wrong"
        times[label] = median_ms(lambda run=run, x=x: run(x).numpy(), repeat, warmup)
    return times


def _run_peers(repeat: int, warmup: int) -> tuple[dict[str, float], dict[str, float]]:
    torch = torch_module()
    on_gpu = torch is not None and torch.cuda.is_available()
    numpy_ms, torch_ms = {}, {}
    for label, (fn, steps, rows) in CASES.items():
        host = _start(rows)
        numpy_ms[label] = median_ms(lambda fn=fn, host=host, steps=steps: fn(np, host, steps), repeat, warmup)
        if on_gpu:
            xt = torch.from_numpy(host).cuda()
            want = fn(np, host.astype(np.float64), steps)
            assert np.allclose(fn(torch, xt, steps).cpu().numpy(), want, rtol=1e-2, atol=1e-3)
            torch_ms[label] = median_ms(lambda fn=fn, xt=xt, steps=steps: fn(torch, xt, steps).cpu(), repeat,
                                        warmup, sync=lambda: torch_sync(torch))
    return numpy_ms, torch_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--variant", choices=VARIANTS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.variant:  # a child process: one kdsl variant, its times as JSON
        print(json.dumps(_run_kdsl(args.variant, args.repeat, args.warmup)))
        return
    kdsl_ms = {}
    for variant in VARIANTS:
        out = subprocess.run([sys.executable, __file__, "--variant", variant, "--repeat", str(args.repeat),
                              "--warmup", str(args.warmup)], check=True, capture_output=True, text=True).stdout
        kdsl_ms[variant] = json.loads(out.splitlines()[-1])
    numpy_ms, torch_ms = _run_peers(args.repeat, args.warmup)
    rows = []
    for label in CASES:
        new, old, jit = (kdsl_ms[v][label] for v in VARIANTS)
        row = [label, new, old, new / old, jit, numpy_ms[label], new / numpy_ms[label]]
        rows.append(row + ([torch_ms[label], new / torch_ms[label]] if torch_ms else []))
    header = ["program", "kdsl ms", "limits only ms", "kdsl/limits", "kd.jit ms", "numpy ms", "kdsl/numpy"]
    table(f"lazy loops on {SIZE} float32 values (medians of {args.repeat} warm runs)",
          header + (["torch ms", "kdsl/torch"] if torch_ms else []), rows)


if __name__ == "__main__":
    main()
