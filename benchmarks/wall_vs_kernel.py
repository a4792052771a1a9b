"""Wall time against kernel time: how much of a synchronised call is the GPU's work and how much is the call.

For each workload (an elementwise ``c + 0`` of 16 to 2^24 floats, square float32 matmuls, a full sum of
8192^2), kdsl's ``kd.realize`` and PyTorch's op + ``torch.cuda.synchronize()`` are timed the same way (median
of ``--repeat`` calls after 10 warm-ups, garbage collector on, as a user's loop runs), next to the GPU time of
the same call: the sum of kdsl's kernel timestamps (``KDSL_DEBUG=1``, as ``matmul_sweep.py``) and PyTorch's
CUDA events around the op. "gap" is wall minus GPU: the host path, the submission and the wait. Every result
is checked against NumPy before it is timed.

Run on the GPU machine:  python3 benchmarks/wall_vs_kernel.py [--repeat 50]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from dsl_common import table, torch_module
from matmul_sweep import gpu_ms

import kdsl as kd


def _wall_ms(call: Callable[[], Any], sync: Callable[[Any], Any], repeat: int) -> float:
    for _ in range(10):
        sync(call())
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        sync(call())
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def _torch_gpu_ms(torch: Any, call: Callable[[], Any]) -> float:
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(7):
        start.record()
        call()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def workloads(rng: np.random.Generator, small: bool) -> list[tuple[str, list[np.ndarray], Callable[..., Any]]]:
    sizes = (16, 1 << 12) if small else (16, 1 << 20, 1 << 24)
    sides = (64,) if small else (512, 1024, 2048)
    out: list[tuple[str, list[np.ndarray], Callable[..., Any]]] = [
        (f"c + 0, {n} floats", [rng.random(n, dtype=np.float32)], lambda c: c + 0) for n in sizes]
    out += [(f"a @ b, {s}^3 float32", [rng.random((s, s), dtype=np.float32) for _ in range(2)], lambda a, b: a @ b)
            for s in sides]
    r = 256 if small else 8192
    out.append((f"full sum {r}^2", [rng.random((r, r), dtype=np.float32)], lambda x: x.sum()))
    return out


def row(name: str, host: list[np.ndarray], fn: Callable[..., Any], torch: Any, repeat: int) -> list:
    """[name, kdsl wall, GPU, gap, torch wall, GPU, gap] of ``fn`` of ``host``'s arrays (NaN without torch)."""
    want = fn(*host)
    xs = [kd.asarray(h) for h in host]
    kd.realize(*xs)
    np.testing.assert_allclose(fn(*xs).numpy(), want, rtol=2e-3)
    wall = _wall_ms(lambda: fn(*xs), kd.realize, repeat)
    gpu = gpu_ms(lambda: kd.realize(fn(*xs)))
    if torch is None:
        return [name, wall, gpu, wall - gpu] + [float("nan")] * 3
    ts = [torch.from_numpy(h).cuda() for h in host]
    np.testing.assert_allclose(fn(*ts).cpu().numpy(), want, rtol=2e-3)
    t_wall = _wall_ms(lambda: fn(*ts), lambda r: torch.cuda.synchronize(), repeat)
    t_gpu = _torch_gpu_ms(torch, lambda: fn(*ts))
    return [name, wall, gpu, wall - gpu, t_wall, t_gpu, t_wall - t_gpu]


def main(argv: list[str] | None = None) -> list[list]:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=50)
    p.add_argument("--small", action="store_true", help="small sizes (a smoke run on lavapipe)")
    args = p.parse_args(argv)
    torch = torch_module()
    cuda = torch is not None and torch.cuda.is_available()
    rows = [row(name, host, fn, torch if cuda else None, args.repeat)
            for name, host, fn in workloads(np.random.default_rng(0), args.small)]
    table(f"wall against GPU time, ms (medians of {args.repeat} calls)",
          ["workload", "kdsl wall", "kdsl GPU", "kdsl gap", "torch wall", "torch GPU", "torch gap"], rows)
    return rows


if __name__ == "__main__":
    main()
