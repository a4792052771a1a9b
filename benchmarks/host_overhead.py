"""Host overhead of a tiny round trip: where the microseconds of ``kd.realize(x + 1)`` and of a ``kd.jit`` replay
go (issue 12's "Host overhead" goal: <= 30 us and <= 22 us on the H200, where PyTorch's op + synchronise takes
~28 us).

On 16 floats the GPU work is negligible, so what is left is Python and the Vulkan submission. The tables:

* **end to end**: median us per call of ``kd.realize(x + 1)``, of a jitted ``(x * y + 1) * 0.5`` replay, of
  ``kd.realize(a @ a)`` (a 16 x 16 matmul: the host path of every tiled matmul, whose wall time at 1024^3 it adds
  to the kernel's), of ``y.numpy()`` (readback of 16 floats), of ``(x + 1).numpy()`` (computed and read back in
  one submission: ``float(loss)`` of a training loop), of ``kd.fft.fft`` of ``--n`` complex64 and
  ``kd.fft.rfft2`` of 8 x 8 float32 (warm transforms: a recorded ``kd.RawProgram`` replayed, one submission
  each), and of the floor: a pre-recorded ``Sequence.eval()``
  of an empty shader (submit + fence wait and nothing else; on lavapipe this is the driver's own thread hand-off).
  The "host" column is the call minus that floor: kdsl's Python. The CPU column is the calling thread's CPU time
  per call (steady on a busy machine, where wall times are not; on a GPU it includes the fence polling).
* **per stage**: the same calls with the engine's stages wrapped in timers (exclusive time: a stage's time
  leaves out the wrapped stages it calls). The wrappers cost ~0.3 us each, so the stages add up to a bit
  more than the end-to-end time. "other" is what no wrapper covers (locks, list building, the calls between
  stages). Stages marked "while the GPU runs" happen between the submission and the fence wait (a replay's
  host bookkeeping overlaps the device: ``Sequence.eval(during=...)``); on a GPU they cost no wall time as
  long as the GPU takes longer, so the wait's time shrinks by as much. A fence is reset while the next batch
  runs (a sequence signals two fences by turns), so "fence wait" holds the previous fence's reset.

Each measurement runs in ``--rounds`` interleaved rounds of ``--reps`` calls; the best round is kept (on a
busy machine the slower rounds measure the neighbours).

``--profile`` measures kdsl's Python alone, the same on any device: the Python functions each call runs
(cProfile's count per call, and the functions with the most self time), and the calling thread's CPU us per
call with the Vulkan submission and fence waits of ``kdsl.runtime.sequence_eval`` and ``sequence_fence``
replaced by no-ops (the device
runs nothing; the results are then garbage, which nothing reads). The spin path of a GPU's fence wait is taken
as on a GPU (``KDSL_SPIN_US`` decides; a CPU driver does not spin).

Run:  python3 benchmarks/host_overhead.py [--reps 2000] [--rounds 5] [--n 16] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
from dsl_common import table

import kdsl as kd
import kdsl.kp as kp
from kdsl.engine import buffers as buffers_mod
from kdsl.engine import plan as plan_mod
from kdsl.engine import programs as programs_mod
from kdsl.engine import realize as realize_mod
from kdsl.engine import submission as submission_mod
from kdsl.frontend.array import jit as jit_mod
from kdsl.ir import graph as graph_mod
from kdsl.runtime import sequence as sequence_mod
from kdsl.runtime import sequence_eval, sequence_fence

# The Sequence's modules that submit and wait (their ``lib`` is stubbed by --profile)
DEVICE_CALLERS = (sequence_eval, sequence_fence)

NOOP = """#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { float x[]; };
void main() { }
"""

# (label, owner, attribute): the stages wrapped in timers; absent attributes are skipped (the engine changes)
STAGES: list[tuple[str, Any, str]] = [
    ("jit: flatten args + signature", jit_mod, "tree_flatten"),
    ("jit: flatten args + signature", jit_mod, "_signature"),
    ("jit: flatten args + signature", jit_mod, "_array_key"),
    ("jit: bind buffers, work list", jit_mod._Trace, "run"),
    ("jit: output arrays (while the GPU runs)", jit_mod._Trace, "_outputs"),
    ("plan: graph walk (key)", plan_mod, "signature"),
    ("plan: key hash + lookup", realize_mod, "cached"),
    ("plan: key hash, lookup, steps", realize_mod, "plan"),
    ("plan: bind buffers, work list", realize_mod, "run_cached"),
    ("buffer allocation (pool)", submission_mod, "allocate"),
    ("buffer allocation (pool)", submission_mod, "take"),
    ("buffer allocation (pool)", buffers_mod, "Buffer.__init__"),
    ("replay key (plan, tensors, push words)", submission_mod, "_bound_key"),
    ("dispatch list (_submit)", submission_mod, "_submit"),
    ("descriptor sets (Program.algorithm)", programs_mod.Program, "algorithm"),
    ("recorded batch: key + lookup", programs_mod.Batches, "submit"),
    ("recorded batch: key + lookup", programs_mod.Batches, "replay"),
    ("command recording", programs_mod.Batches, "_record"),
    ("Sequence.eval bookkeeping", sequence_mod.Sequence, "eval"),
    ("vkQueueSubmit (+ liveness check)", sequence_mod.Sequence, "_submit_batch"),
    ("fence wait (+ the previous fence's reset)", sequence_mod.Sequence, "wait_fence"),
    ("node -> buffer (while the GPU runs)", graph_mod.Node, "become_buffer"),
    ("pool return (Buffer.__del__)", buffers_mod, "Buffer.__del__"),
]


class Timers:
    """Exclusive nanoseconds per stage label: a wrapped call's time minus that of wrapped calls inside it."""

    def __init__(self) -> None:
        self.ns: dict[str, int] = {}
        self._inner = [0]  # per active wrapped call: ns spent in wrapped calls it made

    def wrap(self, label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        ns, inner, clock = self.ns, self._inner, time.perf_counter_ns

        def timed(*args: Any, **kwargs: Any) -> Any:
            inner.append(0)
            t0 = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                took = clock() - t0
                mine = took - inner.pop()
                inner[-1] += took
                ns[label] = ns.get(label, 0) + mine

        return timed


@contextmanager
def staged(timers: Timers) -> Iterator[None]:
    """Every stage of STAGES wrapped in ``timers`` while the block runs."""
    saved = []
    for label, owner, attr in STAGES:
        if "." in attr:  # "Class.method" of a module
            cls_name, attr = attr.split(".")
            owner = getattr(owner, cls_name)
        fn = owner.__dict__.get(attr) if isinstance(owner, type) else getattr(owner, attr, None)
        if fn is None:
            continue
        saved.append((owner, attr, fn))
        setattr(owner, attr, timers.wrap(label, fn))
    try:
        yield
    finally:
        for owner, attr, fn in reversed(saved):
            setattr(owner, attr, fn)


def rounds(calls: dict[str, Callable[[], Any]], reps: int, n_rounds: int) -> dict[str, tuple[float, float]]:
    """Per call: (best-of-rounds median wall us, best-of-rounds mean CPU us of the calling thread); rounds
    interleaved. The CPU time leaves out waiting (a blocked fence wait, other processes on a busy machine)
    but counts polling: on GPUs, where kdsl spins on the fence, it includes the wait."""
    best = {name: (float("inf"), float("inf")) for name in calls}
    for _ in range(n_rounds):
        for name, call in calls.items():
            times = []
            c0 = time.thread_time_ns()
            for _ in range(reps):
                t0 = time.perf_counter_ns()
                call()
                times.append(time.perf_counter_ns() - t0)
            cpu = (time.thread_time_ns() - c0) / reps / 1e3
            wall, best_cpu = best[name]
            best[name] = (min(wall, statistics.median(times) / 1e3), min(best_cpu, cpu))
    return best


def staged_round(call: Callable[[], Any], reps: int, n_rounds: int) -> tuple[float, dict[str, float]]:
    """(us per call, {stage: exclusive us per call}) of the best round with the stages wrapped."""
    best: tuple[float, dict[str, float]] = (float("inf"), {})
    for _ in range(n_rounds):
        timers = Timers()
        with staged(timers):
            call()  # the first call through the wrappers: not timed
            timers.ns.clear()
            t0 = time.perf_counter_ns()
            for _ in range(reps):
                call()
            total = (time.perf_counter_ns() - t0) / reps / 1e3
        if total < best[0]:
            best = (total, {k: v / reps / 1e3 for k, v in timers.ns.items()})
    return best


def noop_floor(dev: Any) -> Callable[[], Any]:
    """A pre-recorded eval() of an empty shader: the submit + wait floor of this driver."""
    t = dev.manager.tensor_empty(1, np.float32)
    algo = dev.manager.algorithm([t], kp.compile_source(NOOP), workgroup=(1, 1, 1))
    seq = dev.manager.sequence().record(kp.OpAlgoDispatch(algo))
    seq.eval()
    noop_floor.keep = (t, algo, seq)
    return seq.eval


class _NoSubmit:
    """The Sequence's ``lib`` (``DEVICE_CALLERS``) with the submission and fence waits as no-ops (see
    ``--profile``). Fence resets stay real: a fence signalled before the stub went in is reset as usual, so the
    sequences are valid again once it is gone."""

    def __init__(self, real: Any) -> None:
        self._real = real

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    @staticmethod
    def vkQueueSubmit(*args: Any) -> int:
        return 0  # VK_SUCCESS

    vkWaitForFences = vkGetFenceStatus = vkQueueSubmit


def python_only(calls: dict[str, Callable[[], Any]], reps: int, n_rounds: int) -> dict[str, tuple[float, float]]:
    """Per call: (median over rounds of the calling thread's CPU us with the device calls stubbed out, Python
    function calls counted by cProfile); rounds interleaved."""
    real = sequence_eval.lib
    for module in DEVICE_CALLERS:
        module.lib = _NoSubmit(real)
    try:
        cpu: dict[str, list[float]] = {name: [] for name in calls}
        for _ in range(n_rounds):
            for name, call in calls.items():
                c0 = time.thread_time_ns()
                for _ in range(reps):
                    call()
                cpu[name].append((time.thread_time_ns() - c0) / reps / 1e3)
        out = {}
        for name, call in calls.items():
            prof = cProfile.Profile()
            prof.enable()
            for _ in range(reps):
                call()
            prof.disable()
            stats = pstats.Stats(prof).stats
            count = sum(v[1] for v in stats.values()) / reps
            out[name] = (statistics.median(cpu[name]), count)
            top = sorted(stats.items(), key=lambda kv: -kv[1][2])[:12]
            table(f"--profile: {name}, the functions with the most self time (device calls stubbed)",
                  ["function", "calls per call", "self us per call"],
                  [[f"{k[0].rsplit('/', 1)[-1]}:{k[1]}({k[2]})", v[1] / reps, v[2] / reps * 1e6] for k, v in top])
        return out
    finally:
        for module in DEVICE_CALLERS:
            module.lib = real


def main(argv: list[str] | None = None) -> dict[str, float]:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--n", type=int, default=16, help="elements per array (default 16)")
    p.add_argument("--reps", type=int, default=2000, help="calls per round")
    p.add_argument("--rounds", type=int, default=5, help="rounds; the best is kept")
    p.add_argument("--profile", action="store_true", help="kdsl's Python alone: calls per call, CPU us with the "
                   "device calls stubbed (see above)")
    args = p.parse_args(argv)
    rng = np.random.default_rng(0)
    x = kd.asarray(rng.uniform(-1, 1, args.n).astype(np.float32))
    y = kd.asarray(rng.uniform(-1, 1, args.n).astype(np.float32))
    f = kd.jit(lambda a, b: (a * b + 1) * 0.5)
    r = x + 1
    # a 16 x 16 matmul: the smallest square that takes the tiled matmul kernel (smaller ones are reductions)
    ma = kd.asarray(rng.uniform(-1, 1, (16, 16)).astype(np.float32))
    # kd.fft's small transforms: one recorded kd.RawProgram each (one and two launches), replayed warm
    z = kd.asarray((rng.uniform(-1, 1, args.n) + 1j * rng.uniform(-1, 1, args.n)).astype(np.complex64))
    xy = kd.asarray(rng.uniform(-1, 1, (8, 8)).astype(np.float32))
    kd.realize(r)
    assert np.allclose(kd.fft.fft(z).numpy(), np.fft.fft(z.numpy()), atol=1e-4)
    assert np.allclose(kd.fft.rfft2(xy).numpy(), np.fft.rfft2(xy.numpy()), atol=1e-4)
    assert np.allclose((ma @ ma).numpy(), ma.numpy() @ ma.numpy(), atol=1e-5)
    assert np.allclose(r.numpy(), x.numpy() + 1) and np.allclose(f(x, y).numpy(), (x.numpy() * y.numpy() + 1) / 2)
    calls: dict[str, Callable[[], Any]] = {
        "kd.realize(x + 1)": lambda: kd.realize(x + 1),
        "kd.jit replay": lambda: kd.realize(f(x, y)),
        "kd.realize(a @ a)": lambda: kd.realize(ma @ ma),
        "readback (r.numpy())": r.numpy,
        "compute and read ((x + 1).numpy())": lambda: (x + 1).numpy(),
        f"kd.fft.fft ({args.n} complex64)": lambda: kd.fft.fft(z),
        "kd.fft.rfft2 (8 x 8 float32)": lambda: kd.fft.rfft2(xy),
        "floor: pre-recorded no-op eval": noop_floor(kd.device()),
    }
    for call in calls.values():  # warm: plans, programs, recorded batches, pools
        for _ in range(100):
            call()
    gc.collect()
    gc.disable()  # a collection inside a round would land on one stage
    if args.profile:
        try:
            del calls["floor: pre-recorded no-op eval"]
            py = python_only(calls, args.reps, args.rounds)
            table(f"--profile: kdsl's Python per call, {args.n} floats (device calls stubbed; median of "
                  f"{args.rounds} rounds)", ["call", "CPU us", "Python function calls"],
                  [[k, v[0], v[1]] for k, v in py.items()])
        finally:
            gc.enable()
        return {k: v[0] for k, v in py.items()}
    try:
        both = rounds(calls, args.reps, args.rounds)
        ends = {k: v[0] for k, v in both.items()}
        floor = ends["floor: pre-recorded no-op eval"]
        table(f"end to end, {args.n} floats: best-of-{args.rounds} median us per call",
              ["call", "us", "host us (over the floor)", "CPU us (this thread)"],
              [[k, v, v - floor if not k.startswith("floor") else 0.0, both[k][1]] for k, v in ends.items()])
        for name in ("kd.realize(x + 1)", "kd.jit replay", "readback (r.numpy())", "kd.realize(a @ a)"):
            if name == "kd.realize(x + 1)":
                build: list[int] = []

                def call(x: Any = x, build: list[int] = build) -> None:
                    t0 = time.perf_counter_ns()
                    z = x + 1
                    build.append(time.perf_counter_ns() - t0)
                    kd.realize(z)

                total, stages = staged_round(call, args.reps, args.rounds)
                stages["graph build (x + 1)"] = statistics.median(build) / 1e3
            else:
                total, stages = staged_round(calls[name], args.reps, args.rounds)
            stages["other (unwrapped)"] = max(0.0, total - sum(stages.values()))
            table(f"per stage: {name} ({total:.1f} us per call with the timers)", ["stage", "us"],
                  [[k, v] for k, v in sorted(stages.items(), key=lambda kv: -kv[1])])
    finally:
        gc.enable()
    return ends


if __name__ == "__main__":
    main()
