"""Launch shapes of rfft2's kernels, swept: each launch of ``kd.fft.rfft2`` of 4096 x 4096 float32 timed by GPU
timestamps with its workgroup shape (sequences, invocations), Stockham stages or four-step split changed, so
that kd.fft's plan (``kdsl.fft.plan``) can be checked against its neighbours on each GPU.

    python3 benchmarks/fft_shapes.py                 # the sweep on 4096 x 4096
    python3 benchmarks/fft_shapes.py --side 512      # a smoke run for CPU drivers (lavapipe)

Each row is one plan: the overrides it makes, then the GPU milliseconds of each launch (median of ``--repeat``
dispatches, ``fft_anatomy.Timer``), their sum, and the wall time of one replay of the whole program.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
from dsl_common import kd, table, timed, torch_module, torch_sync
from fft_anatomy import _MEMCPY, Timer

from kdsl.engine.buffers import Buffer, allocate
from kdsl.fft import plan, transform
from kdsl.fft.transform import nd_program, output
from kdsl.runtime.compiler import compile_source


@contextlib.contextmanager
def overrides(shapes: dict | None = None, stages: dict | None = None, split: tuple | None = None) -> Iterator[None]:
    """kd.fft's plan with ``shapes[(m, real_half)] = (sequences, invocations)``, ``stages[m] = radices`` and the
    strided axis' four-step ``split`` replaced; every cache emptied before and after."""
    saved = plan.group_shape, plan.stages, plan.strided_passes
    shapes, stages = shapes or {}, stages or {}

    def group_shape(m: int, limit: int, double: bool, real_half: bool = False) -> tuple[int, int]:
        return shapes.get((m, real_half)) or saved[0](m, limit, double, real_half)

    def stages_of(n: int) -> tuple[int, ...]:
        return stages.get(n) or saved[1](n)

    def strided(n: int, limit: int, inner: int, group: int = plan.COALESCED) -> Any:
        return split if split is not None and n == split[0] * split[1] else saved[2](n, limit, inner, group)
    _clear()
    plan.group_shape, plan.stages, plan.strided_passes = group_shape, stages_of, strided  # type: ignore
    try:
        yield
    finally:
        plan.group_shape, plan.stages, plan.strided_passes = saved  # type: ignore
        _clear()


def _clear() -> None:
    for cache in (plan._kernels, plan._tables, transform._programs):
        cache.clear()


def measure(x: Any, host: np.ndarray, want: np.ndarray, timer: Timer) -> list[float]:
    """Each launch's GPU ms, then the replay's wall ms, of rfft2's program under the current plan."""
    program = nd_program(x, [0, 1], False, [1.0, 1.0], keep=host.shape[1] // 2 + 1)
    assert program is not None
    out = output(want.shape, double=False)
    program.run(x, out)
    err = np.abs(out.numpy() - want).max() / np.abs(want).max()
    assert err < 1e-5, f"wrong result under this plan: {err}"
    warm(lambda: program.run(x, out))
    dev = kd.device()
    temps = {r: Buffer(allocate(dev, s, program.dtype), s, program.dtype, dev) for r, s in program.temps.items()}
    tensors = {"in": x.__kdsl_buffer__(), "out": out.__kdsl_buffer__(writable=True),
               **{r: b.tensor for r, b in temps.items()}}
    times = []
    for i, step in enumerate(program.steps):
        mems = [tensors[step.src], tensors[step.dst], *(t.__kdsl_buffer__() for t in program.tables(i))]
        times.append(timer.time(mems, step.raw.spirv, step.groups, np.array([step.flags], np.uint32), step.push))
    program.run(x, out)
    walls = []
    for _ in range(timer.repeat):
        t0 = time.perf_counter()
        program.run(x, out)
        walls.append((time.perf_counter() - t0) * 1e3)
    return times + [statistics.median(walls)]


def warm(run: Any, seconds: float = 0.3) -> None:
    """``run()`` again and again for ``seconds``: the GPU's clocks up before a plan is timed (an H100 left idle
    while the next plan compiled timed the later half of a sweep, and a copy, at ~2x)."""
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        run()


def memcpy(timer: Timer, out: Any) -> float:
    """GPU ms of a plain copy of ``out``'s bytes (16 bytes an invocation) into a new buffer: the bandwidth at
    hand, now."""
    src = out.__kdsl_buffer__()
    dst = kd.empty(out.shape, out.dtype)
    words = out.size * 8 // 16
    gx = min(-(-words // 256), plan.max_groups_x())
    groups = (gx, -(-words // (256 * gx)))
    return timer.time([src, dst.__kdsl_buffer__(writable=True)], compile_source(_MEMCPY), groups, None,
                      np.array([words, gx], np.uint32))


def plans(side: int) -> list[tuple[str, dict]]:
    """(label, overrides) of every plan swept: the rows kernel's shapes and stages, the columns' shapes and
    splits."""
    half = side // 2
    out: list[tuple[str, dict]] = [("kd.fft's plan", {})]
    for seqs, inv in ((1, 128), (1, 160), (1, 192), (1, 512), (2, 256), (2, 512)):
        out.append((f"rows {seqs} x {inv}", {"shapes": {(half, True): (seqs, inv)}}))
    for radices in ((8, 8, 8, 4), (8, 16, 16), (16, 16, 8)):
        if int(np.prod(radices)) == half:
            for inv in (256, 512):
                out.append((f"rows stages {radices}, 1 x {inv}",
                            {"stages": {half: radices}, "shapes": {(half, True): (1, inv)}}))
    for split in [(a, side // a) for a in (16, 32, 64, 128, 256) if side % a == 0 and 16 <= side // a <= 256]:
        for rule in ("32 sequences", "most sequences", "most sequences, half the invocations"):
            shapes = {(m, False): _shape(m, rule) for m in set(split)}
            sizes = ", ".join(f"{m}: {v[0]} x {v[1]}" for (m, _), v in sorted(shapes.items()))
            out.append((f"columns {split}, {rule}: {sizes}", {"split": split, "shapes": shapes}))
    if side == 4096:
        out.append(("columns (64, 64), stages 4 x 4 x 4, 32 x 512",
                    {"split": (64, 64), "stages": {64: (4, 4, 4)}, "shapes": {(64, False): (32, 512)}}))
    out.append(("kd.fft's plan, again", {}))
    return out


def _shape(m: int, rule: str) -> tuple[int, int]:
    """(sequences, invocations) of a strided launch of length ``m`` by ``rule``: 32 sequences (kd.fft's rule), or
    as many as shared memory holds (a one-stage length holds 256: it needs none), each with one butterfly an
    invocation (or two: half the invocations)."""
    info = kd.device().info
    shared, most = int(info["max_shared_memory_size"]), int(info["max_work_group_invocations"])
    radix = max(plan.stages(m))
    if rule == "32 sequences":
        seqs = 32
    elif radix == m:
        seqs = 256
    else:
        seqs = 1
        while (seqs * 2) * plan.shared_stride(m) * 8 <= shared and seqs < 256:
            seqs *= 2
    invocations = seqs * m // radix // (2 if "half" in rule else 1)
    while invocations > most:
        invocations //= 2
    return seqs, max(1, invocations)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", type=int, default=4096, help="rfft2 of side x side float32")
    parser.add_argument("--repeat", type=int, default=20, help="timed dispatches per launch")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds of the public calls")
    parser.add_argument("--save", default="", help="write the best plan's overrides to this JSON file")
    args = parser.parse_args()
    host = np.random.default_rng(0).standard_normal((args.side, args.side)).astype(np.float32)
    want = np.fft.rfft2(host)
    x = kd.asarray(host)
    timer = Timer(args.repeat)
    program = nd_program(x, [0, 1], False, [1.0, 1.0], keep=args.side // 2 + 1)
    assert program is not None
    out = output(want.shape, double=False)
    warm(lambda: program.run(x, out))
    rows = [["memcpy of the output's bytes", f"{memcpy(timer, out):.4f}", "", "", 1]]
    results: list[tuple[dict, list[float]]] = []
    for label, how in plans(args.side):
        try:
            with overrides(**how):
                got = measure(x, host, want, timer)
        except Exception as exc:  # a shape the device refuses: say so, go on
            rows.append([label, f"failed: {type(exc).__name__}: {str(exc)[:80]}", "", "", ""])
            continue
        launches = got[:-1]
        results.append((how, launches))
        rows.append([label, " + ".join(f"{t:.4f}" for t in launches), f"{sum(launches):.4f}", f"{got[-1]:.4f}",
                     len(launches)])
    warm(lambda: program.run(x, out))
    rows.append(["memcpy of the output's bytes, again", f"{memcpy(timer, out):.4f}", "", "", 1])
    table(f"rfft2 {args.side}^2 float32 launch shapes on {kd.device().name} (GPU ms, median of {args.repeat})",
          ["plan", "launches", "sum", "replay wall", "n"], rows)
    best = combined(results)
    print(f"\nthe best rows and columns together: {best}")
    if args.save:
        with open(args.save, "w") as f:
            json.dump({"shapes": [[*k, *v] for k, v in best["shapes"].items()],
                       "stages": [[m, *r] for m, r in best["stages"].items()], "split": best["split"]}, f)
    calls(x, host, want, {"kd.fft's plan": {}, "the best together": best}, args.rounds)


def combined(results: list[tuple[dict, list[float]]]) -> dict:
    """The overrides of the fastest rows launch and of the fastest column launches (by GPU time), merged."""
    rows_how = min((r for r in results if "split" not in r[0]), key=lambda r: r[1][0])[0]
    cols_how = min((r for r in results if "shapes" not in r[0] or (r[0].get("split") is not None)),
                   key=lambda r: sum(r[1][1:]))[0]
    shapes = {**{k: v for k, v in rows_how.get("shapes", {}).items() if k[1]},
              **{k: v for k, v in cols_how.get("shapes", {}).items() if not k[1]}}
    return {"shapes": shapes, "stages": {**rows_how.get("stages", {}), **cols_how.get("stages", {})},
            "split": cols_how.get("split")}


def calls(x: Any, host: np.ndarray, want: np.ndarray, how: dict[str, dict], rounds: int) -> None:
    """The public ``kd.fft.rfft2`` call under each plan, and PyTorch's, in alternating rounds (fft.py's way:
    0.3 s of calls before each round's 10 timed ones)."""
    torch = torch_module()
    peers: dict[str, Any] = {}
    for label, overriding in how.items():
        def call(overriding: dict = overriding) -> Any:
            with overrides(**overriding):
                got = kd.fft.rfft2(x).numpy()
                assert np.abs(got - want).max() <= 1e-5 * np.abs(want).max()
                return timed(lambda: kd.realize(kd.fft.rfft2(x)), lambda _: None, 3, 0.3, 10)
        peers[label] = call
    if torch is not None and torch.cuda.is_available():
        xt = torch.from_numpy(host).cuda()
        assert np.abs(torch.fft.rfft2(xt).cpu().numpy() - want).max() <= 1e-5 * np.abs(want).max()
        peers["torch"] = lambda: timed(lambda: torch.fft.rfft2(xt), lambda _: torch_sync(torch), 3, 0.3, 10)
    times: dict[str, list[float]] = {label: [] for label in peers}
    for _ in range(rounds):
        for label, call in peers.items():
            times[label].append(call())
    table(f"kd.fft.rfft2 {host.shape} public call (median of {rounds} rounds of 10, ms)", ["plan", "ms", "rounds"],
          [[label, statistics.median(t), f"{min(t):.4f}-{max(t):.4f}"] for label, t in times.items()])


if __name__ == "__main__":
    main()
