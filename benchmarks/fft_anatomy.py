"""Where the time of kd.fft's kernels goes: each launch of a transform next to variants that isolate its costs.

For every launch of the transform's program (``kdsl.fft.program``) the same launch (same workgroups,
sequences, buffers, push and specialization constants) is timed with the kernel replaced by a variant of
``kdsl.fft.stockham.kernel_source``:

* ``copy``: the load and the store of the first stage's access pattern, nothing between (the cost of the
  global memory access pattern alone);
* ``one-stage``: the first stage's butterflies between them (no shared memory);
* ``exchanges``: every shared-memory exchange and barrier, no butterflies, no twiddles;
* ``no-twiddles``: the whole kernel without the stage twiddles;
* ``kernel``: the real one;

and a plain copy of the same bytes (``memcpy``, 16 bytes per invocation) shows the device's copy bandwidth.
Times are GPU timestamps around each dispatch (median of ``--repeat``), so no submit or host cost is in them;
``whole`` is one replay of the transform's program (all its launches in one submission) by wall clock, and
``call`` the public function, both as a user sees them. GB/s counts one read and one write of the launch's
data. The 1-D case runs twice: with kd.fft's plan (on a GPU three launches of 256, each workgroup holding 16
neighbouring sequences: coalesced) and with ``plan.coalesced() == 1`` (two launches of 4096, one sequence per
workgroup: the column read and the transposed write are 8 bytes per sector), to say which is faster.

    python3 benchmarks/fft_anatomy.py            # the row case (4096 x 4096 complex64) and fft of 2^24
    python3 benchmarks/fft_anatomy.py --small    # a smoke run for CPU drivers (lavapipe)
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from dsl_common import kd, table

import kdsl.runtime as rt
from kdsl.engine.realize import Buffer, allocate
from kdsl.fft import plan
from kdsl.fft.stockham import PARTS
from kdsl.fft.transform import c2c_program, output
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


def cases(small: bool) -> list[tuple[str, np.ndarray]]:
    rng = np.random.default_rng(0)
    rows = (64, 4096) if small else (4096, 4096)
    n1 = 2 ** 18 if small else 2 ** 24
    z = (rng.standard_normal(n1) + 1j * rng.standard_normal(n1)).astype(np.complex64).reshape(1, n1)
    r = (rng.standard_normal(rows) + 1j * rng.standard_normal(rows)).astype(np.complex64)
    return [(f"fft rows {rows[0]}x{rows[1]} complex64", r), (f"fft 1-D {n1} complex64", z)]


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
        seq = self.manager.sequence(total_timestamps=self.repeat)
        try:
            for _ in range(self.repeat):
                seq.record(rt.OpAlgoDispatch(algo, push))
            seq.eval()
            ticks = seq.get_timestamps()
        finally:
            seq.destroy()
            algo.destroy()
        return statistics.median(np.diff(ticks)) * self.period_ns * 1e-6


def anatomy(label: str, host: np.ndarray, timer: Timer) -> list[list]:
    x = kd.asarray(host)
    count, n = host.shape
    program = c2c_program(x, inverse=False, keep=n)
    assert program is not None, f"{label} falls back to step-by-step kernels"
    out = output((count, n), double=False)
    want = np.fft.fft(host)
    got = kd.fft.fft(x).numpy()
    assert np.abs(got - want).max() <= 1e-4 * np.abs(want).max() * np.log2(n), f"{label} is wrong"
    dev = kd.device()
    temps = {r: Buffer(allocate(dev, s, program.dtype), s, program.dtype, dev) for r, s in program.temps.items()}
    tensors = {"in": x.__kdsl_buffer__(), "out": out.__kdsl_buffer__(writable=True),
               **{r: b.tensor for r, b in temps.items()}}
    rows = []
    for i, step in enumerate(program.steps):
        mems = [tensors[step.src], tensors[step.dst], *program.tables(i)]
        spec = np.array([step.flags], np.uint32)
        nbytes = 2 * count * n * 8
        for part in PARTS:
            spirv = plan.kernel(*step.kernel, part=part)[0]
            ms = timer.time(mems, spirv, step.groups, spec, step.push)
            rows.append([label, f"{i}: {step.label}", part or "kernel", ms, nbytes / ms * 1e-6])
        words = count * n // 2  # vec4s of complex64 pairs
        gx = min(-(-words // 256), plan.max_groups_x())
        groups = (gx, -(-words // (256 * gx)))
        ms = timer.time(mems[:2], compile_source(_MEMCPY), groups, None, np.array([words, gx], np.uint32))
        rows.append([label, f"{i}: same bytes", "memcpy", ms, nbytes / ms * 1e-6])
    src, dst = tensors["in"], tensors["out"]
    walls = []
    for _ in range(timer.repeat):
        t0 = time.perf_counter()
        program.run(src, dst)
        walls.append((time.perf_counter() - t0) * 1e3)
    whole = statistics.median(walls)
    rows.append([label, f"all {len(program.steps)} launches, one submission", "whole", whole,
                 len(program.steps) * 2 * count * n * 8 / whole * 1e-6])
    calls = []
    for _ in range(timer.repeat):
        t0 = time.perf_counter()
        kd.realize(kd.fft.fft(x))
        calls.append((time.perf_counter() - t0) * 1e3)
    call = statistics.median(calls)
    rows.append([label, "kd.fft.fft(x), warm", "call", call, len(program.steps) * 2 * count * n * 8 / call * 1e-6])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="sizes for CPU drivers")
    parser.add_argument("--repeat", type=int, default=10, help="timed dispatches per variant")
    args = parser.parse_args()
    if not kd.device().info.get("timestamps_supported"):
        raise SystemExit("this device has no timestamps; the anatomy needs them")
    timer = Timer(args.repeat)
    rows = []
    for label, host in cases(args.small):
        rows += anatomy(label, host, timer)
    label, host = cases(args.small)[1]
    default = plan.coalesced
    plan.coalesced = lambda: 1  # type: ignore[assignment]
    try:
        rows += anatomy(label + ", coalesced() = 1", host, timer)
    finally:
        plan.coalesced = default  # type: ignore[assignment]
    table(f"kd.fft anatomy on {kd.device().name} (GPU timestamps, median of {args.repeat}; whole/call: wall)",
          ["case", "launch", "variant", "ms", "GB/s"], rows)


if __name__ == "__main__":
    main()
