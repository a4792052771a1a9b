"""Where a warm ``kd.fft.rfft2`` call's wall time goes outside its kernels.

Four layers, each timed by the wall clock (median of ``--repeat`` calls, ``--rounds`` rounds):

* ``seq``: the transform's recorded command buffer replayed (one submit, one fence wait): its GPU span (GPU
  timestamps before the first launch and after the last) and the rest, the submission's round trip;
* ``tiny``: the same for one dispatch of one workgroup: the device's submission floor;
* ``program``: ``Transform.run`` (binding checks, pooled temporaries, then that replay);
* ``call``: the public ``kd.realize(kd.fft.rfft2(x))`` (the replay cache, a fresh output array, then ``program``).

    python3 benchmarks/fft_host_time.py             # the GPU machine: 4096 x 4096
    python3 benchmarks/fft_host_time.py --n 64      # a smoke run for CPU drivers
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np
from dsl_common import kd, table
from fft_anatomy import _MEMCPY

import kdsl.runtime as rt
from kdsl.fft.transform import nd_program, output
from kdsl.runtime.compiler import compile_source


def wall_us(fn: Callable[[], object], repeat: int) -> float:
    """The median wall time of ``fn()`` in microseconds, after ``repeat // 10`` untimed calls."""
    for _ in range(repeat // 10):
        fn()
    walls = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        walls.append(time.perf_counter() - t0)
    return statistics.median(walls) * 1e6


def stamped(items: list, repeat: int) -> tuple[float, float]:
    """(wall us, GPU span us) of replaying ``items`` (algorithm, push constants) recorded with timestamps."""
    dev = kd.device()
    seq = dev.manager.sequence(total_timestamps=len(items))
    try:
        for algo, push in items:
            seq.record(rt.OpAlgoDispatch(algo, push))
        wall = wall_us(seq.eval, repeat)
        ticks = seq.get_timestamps()  # (the last replay's)
        return wall, (ticks[-1] - ticks[0]) * float(dev.info.get("timestamp_period", 1.0)) * 1e-3
    finally:
        seq.destroy()


def measure(n: int, repeat: int) -> list[list]:
    """Rows of (layer, wall us, GPU span us, wall over the layer below) for rfft2 of n x n float32."""
    x = kd.asarray(np.random.default_rng(0).standard_normal((n, n)).astype(np.float32))
    program = nd_program(x, [0, 1], False, [1.0, 1.0], keep=n // 2 + 1)
    out = output((n, n // 2 + 1), double=False)
    program.run(x, out)  # binds and records the program's own sequence
    raw = program.program
    items = [(algo, launch.push) for algo, launch in zip(raw._algos, raw.launches, strict=True)]
    small = kd.zeros(64, kd.float32)
    push = np.array([1, 1], np.uint32)
    tiny = kd.device().manager.algorithm([small.__kdsl_buffer__(), kd.empty_like(small).__kdsl_buffer__(writable=True)],
                                         compile_source(_MEMCPY), workgroup=(1, 1, 1), push_consts=push)
    try:
        tiny_wall, tiny_span = stamped([(tiny, push)], repeat)
        seq_wall, seq_span = stamped(items, repeat)
    finally:
        tiny.destroy()
    run = wall_us(lambda: program.run(x, out), repeat)
    call = wall_us(lambda: kd.realize(kd.fft.rfft2(x)), repeat)
    return [["tiny: one small dispatch", tiny_wall, tiny_span, tiny_wall - tiny_span],
            ["seq: the launches replayed", seq_wall, seq_span, seq_wall - seq_span],
            ["program: Transform.run", run, seq_span, run - seq_wall],
            ["call: kd.fft.rfft2", call, seq_span, call - run]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=4096, help="the side of the input")
    parser.add_argument("--repeat", type=int, default=300, help="timed calls a layer and round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not kd.device().info.get("timestamps_supported"):
        raise SystemExit("this device has no timestamps")
    rows = [r for _ in range(args.rounds) for r in measure(args.n, args.repeat)]
    table(f"rfft2 {args.n} x {args.n} float32: wall and GPU span (us, medians of {args.repeat})",
          ["layer", "wall", "GPU span", "over the layer below (tiny, seq: over the span)"], rows)


if __name__ == "__main__":
    main()
