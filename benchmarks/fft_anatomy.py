"""Where the time of kd.fft's kernels goes: each launch of a transform next to variants that isolate its costs.

For every launch of the transform's program (``kdsl.fft.launches.Transform``) the same launch (same workgroups,
sequences, buffers, push and specialization constants) is timed with the kernel replaced by a variant of
``kdsl.fft.stockham.kernel_source``:

* ``copy``: the load and the store of the first stage's access pattern, nothing between, not even the
  four-step twiddles (the cost of the global memory access pattern alone);
* ``one-stage``: the first stage's butterflies between them (no shared memory);
* ``exchanges``: every shared-memory exchange and barrier, no butterflies, no twiddles;
* ``no-twiddles``: the whole kernel without the stage twiddles and the four-step ones;
* ``kernel``: the real one;

and a plain copy of the same bytes (``memcpy``, 16 bytes per invocation) shows the device's copy bandwidth.
Times are GPU timestamps around each dispatch (median of ``--repeat``), so no submit or host cost is in them;
``whole`` is one replay of the transform's program (all its launches in one submission) by wall clock, and
``call`` the public function, both as a user sees them. GB/s counts one read and one write of the launch's
data (the sizes of its two buffers: an upper bound). All but the row case run twice: with kd.fft's plan (on
a GPU: 2^24 in three launches of 256, rfft2's columns in two of 64, each workgroup holding 16 or more
neighbouring sequences: coalesced) and with ``plan.coalesced() == 1`` (the fewest launches: 4096 x 4096 and one
column launch of 4096, one sequence per workgroup: 8 bytes per sector), to say which is faster.

    python3 benchmarks/fft_anatomy.py            # rows 4096 x 4096, fft of 2^24, rfft2 4096^2, Bluestein 1048583
    python3 benchmarks/fft_anatomy.py --small    # a smoke run for CPU drivers (lavapipe)
    python3 benchmarks/fft_anatomy.py --only rfft2   # one case (its numbers comparable: the clocks stay up)
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from dsl_common import kd, table

import kdsl.runtime as rt
from kdsl.engine.buffers import Buffer, allocate
from kdsl.fft import plan
from kdsl.fft.stockham import PARTS
from kdsl.fft.transform import c2c_program, nd_program, output
from kdsl.runtime.compiler import compile_source

_MEMCPY = """#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer Src { vec4 src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { vec4 dst[]; };
layout(push_constant) uniform P { uint n; uint groups_x; };
void main() {
    uint i = (gl_WorkGroupID.x + gl_WorkGroupID.y * groups_x) * 256u + gl_LocalInvocationID.x;
    if (i < n) dst[i] = src[i];
}
"""


class Case(NamedTuple):
    """A transform to dissect: its input, the public call, NumPy's answer and the program kd.fft runs."""

    label: str
    host: np.ndarray
    call: Callable[[Any], Any]
    want: Callable[[np.ndarray], np.ndarray]
    program: Callable[[Any], Any]


def cases(small: bool) -> list[Case]:
    rng = np.random.default_rng(0)
    rows = (64, 4096) if small else (4096, 4096)
    n1 = 2 ** 18 if small else 2 ** 24
    side = 256 if small else 4096
    z = (rng.standard_normal(n1) + 1j * rng.standard_normal(n1)).astype(np.complex64).reshape(1, n1)
    r = (rng.standard_normal(rows) + 1j * rng.standard_normal(rows)).astype(np.complex64)
    img = rng.standard_normal((side, side)).astype(np.float32)
    odd = z[:, :n1 // 16 + 7].copy()  # fft.py's Bluestein case: 1048583 (by 2^21) on a GPU
    return [Case(f"fft rows {rows[0]}x{rows[1]} complex64", r, kd.fft.fft, np.fft.fft,
                 lambda x: c2c_program(x, inverse=False, keep=x.shape[1])),
            Case(f"fft 1-D {n1} complex64", z, kd.fft.fft, np.fft.fft,
                 lambda x: c2c_program(x, inverse=False, keep=x.shape[1])),
            Case(f"rfft2 {side}x{side} float32", img, kd.fft.rfft2, np.fft.rfft2,
                 lambda x: nd_program(x, [0, 1], False, [1.0, 1.0], keep=x.shape[1] // 2 + 1)),
            Case(f"fft 1-D {odd.size} (Bluestein) complex64", odd, kd.fft.fft, np.fft.fft,
                 lambda x: c2c_program(x, inverse=False, keep=x.shape[1]))]


class Timer:
    """Dispatches recorded ``repeat`` times each into one sequence with GPU timestamps."""

    def __init__(self, repeat: int):
        self.repeat = repeat
        dev = kd.device()
        self.manager = dev.manager
        self.period_ns = float(dev.info.get("timestamp_period", 1.0))

    def time(self, mems: list, spirv: bytes, groups: tuple[int, int], spec: np.ndarray | None,
             push: np.ndarray) -> float:
        """Median GPU milliseconds of one dispatch."""
        algo = self.manager.algorithm(mems, spirv, workgroup=(*groups, 1), spec_consts=spec, push_consts=push)
        seq = self.manager.sequence(total_timestamps=self.repeat + 1)
        try:
            for _ in range(self.repeat + 1):  # the first one warms up (caches, a lazily compiled pipeline)
                seq.record(rt.OpAlgoDispatch(algo, push))
            seq.eval()
            ticks = seq.get_timestamps()
        finally:
            seq.destroy()
            algo.destroy()
        return statistics.median(np.diff(ticks)[1:]) * self.period_ns * 1e-6


def anatomy(case: Case, timer: Timer) -> list[list]:
    label, host = case.label, case.host
    x = kd.asarray(host)
    program = case.program(x)
    assert program is not None, f"{label} falls back to step-by-step kernels"
    want = case.want(host)
    got = case.call(x).numpy()
    assert np.abs(got - want).max() <= 1e-4 * np.abs(want).max() * np.log2(host.size), f"{label} is wrong"
    out = output(want.shape, double=False)
    dev = kd.device()
    temps = {r: Buffer(allocate(dev, s, program.dtype), s, program.dtype, dev) for r, s in program.temps.items()}
    tensors = {"in": x.__kdsl_buffer__(), "out": out.__kdsl_buffer__(writable=True),
               **{r: b.tensor for r, b in temps.items()}}
    rows, moved = [], 0
    for i, step in enumerate(program.steps):
        mems = [tensors[step.src], tensors[step.dst], *(t.__kdsl_buffer__() for t in program.tables(i))]
        spec = np.array([step.flags], np.uint32)
        nbytes = _bytes(mems[0]) + _bytes(mems[1])  # what the launch reads and writes, at most
        moved += nbytes
        for part in PARTS:
            raw = plan.kernel(**step.kernel, part=part)[0]
            ms = timer.time(mems, raw.spirv, step.groups, spec, step.push)
            rows.append([label, f"{i}: {step.label}", part or "kernel", ms, nbytes / ms * 1e-6])
        words = min(_bytes(mems[0]), _bytes(mems[1])) // 32  # vec4s: half of the smaller buffer, each way
        gx = min(-(-words // 256), plan.max_groups_x())
        groups = (gx, -(-words // (256 * gx)))
        ms = timer.time(mems[:2], compile_source(_MEMCPY), groups, None, np.array([words, gx], np.uint32))
        rows.append([label, f"{i}: copy of {words * 16 >> 20} MiB", "memcpy", ms, 2 * words * 16 / ms * 1e-6])
    program.run(x, out)  # bound to these buffers and recorded: the timed runs replay
    walls = []
    for _ in range(timer.repeat):
        t0 = time.perf_counter()
        program.run(x, out)
        walls.append((time.perf_counter() - t0) * 1e3)
    whole = statistics.median(walls)
    rows.append([label, f"all {len(program.steps)} launches, one submission", "whole", whole, moved / whole * 1e-6])
    calls = []
    kd.realize(case.call(x))
    for _ in range(timer.repeat):
        t0 = time.perf_counter()
        kd.realize(case.call(x))
        calls.append((time.perf_counter() - t0) * 1e3)
    call = statistics.median(calls)
    rows.append([label, "the public call, warm", "call", call, moved / call * 1e-6])
    return rows


def _bytes(tensor: Any) -> int:
    return int(tensor.size()) * int(np.dtype(tensor.dtype).itemsize)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="sizes for CPU drivers")
    parser.add_argument("--repeat", type=int, default=10, help="timed dispatches per variant")
    parser.add_argument("--only", default="", help="the cases whose label contains this text (e.g. 'rfft2'); "
                                                   "run one case per process for comparable numbers")
    args = parser.parse_args()
    if not kd.device().info.get("timestamps_supported"):
        raise SystemExit("this device has no timestamps; the anatomy needs them")
    timer = Timer(args.repeat)
    rows = []
    chosen = [c for c in cases(args.small) if args.only.lower() in c.label.lower()]
    if not chosen:
        parser.error(f"--only {args.only!r} matches no case")
    for case in chosen:
        rows += anatomy(case, timer)
    default = plan.coalesced
    plan.coalesced = lambda: 1  # type: ignore[assignment]
    try:  # the fewest launches, one sequence per workgroup where they are long
        for case in [c for c in chosen if not c.label.startswith("fft rows")]:
            rows += anatomy(case._replace(label=case.label + ", coalesced() = 1"), timer)
    finally:
        plan.coalesced = default  # type: ignore[assignment]
    table(f"kd.fft anatomy on {kd.device().name} (GPU timestamps, median of {args.repeat}; whole/call: wall)",
          ["case", "launch", "variant", "ms", "GB/s"], rows)


if __name__ == "__main__":
    main()
