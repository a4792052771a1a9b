"""kd.fft against torch.fft (GPU machine) and numpy.fft (CPU), each result checked against NumPy first.

kdsl and PyTorch are timed in ``--rounds`` alternating rounds; in each, a peer is warmed up for ``--warmup-s``
seconds (at least 3 calls: a GPU idle during NumPy's seconds-long transforms comes back at low clocks, and 3
calls of a quarter millisecond did not bring it up) and then timed over ``--repeat`` synchronised calls. The
table shows the median of the rounds' medians, their range, and kdsl's time over the peer's (below 1: kdsl is
faster). NumPy runs 3 calls after one warm-up.

    python3 benchmarks/fft.py            # the issue's sizes: fft of 2^24 complex64, rfft2 of 4096x4096, ...
    python3 benchmarks/fft.py --small    # a smoke run for CPU drivers (lavapipe)
    python3 benchmarks/fft.py --only rfft2 --profile   # the cases whose label contains "rfft2", per kernel
    python3 benchmarks/fft.py --launch 8,512,32        # radix <= 8, <= 512 invocations, <= 32 sequences a group
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np
from dsl_common import kd, median_ms, table, timed, torch_module, torch_sync


def cases(small: bool):
    rng = np.random.default_rng(0)
    n1 = 2 ** 14 if small else 2 ** 24
    side = 256 if small else 4096
    batch = (64, 256) if small else (4096, 4096)
    z = (rng.standard_normal(n1) + 1j * rng.standard_normal(n1)).astype(np.complex64)
    img = rng.standard_normal((side, side)).astype(np.float32)
    rows = (rng.standard_normal(batch) + 1j * rng.standard_normal(batch)).astype(np.complex64)
    odd = (rng.standard_normal(n1 // 16 + 7) + 1j * rng.standard_normal(n1 // 16 + 7)).astype(np.complex64)
    return [
        (f"fft 1-D {n1} complex64", "fft", z),
        (f"rfft2 {side}x{side} float32", "rfft2", img),
        (f"irfft2 {side}x{side // 2 + 1} complex64", "irfft2", np.fft.rfft2(img).astype(np.complex64)),
        (f"fft rows {batch[0]}x{batch[1]} complex64", "fft", rows),
        (f"fft 1-D {odd.size} (Bluestein) complex64", "fft", odd),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="sizes for CPU drivers")
    parser.add_argument("--profile", action="store_true", help="also time each kernel of one call (kd.profile)")
    parser.add_argument("--only", default="", help="run only the cases whose label contains this text "
                                                   "(e.g. 'rfft2', 'Bluestein', 'rows')")
    parser.add_argument("--launch", default="", help="R,I,S: local transforms of radix <= R with <= I invocations "
                                                     "and <= S sequences a workgroup (kdsl.fft.plan's MAX_*)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds of kdsl and PyTorch (median)")
    parser.add_argument("--repeat", type=int, default=10, help="synchronised calls timed per round")
    parser.add_argument("--warmup-s", type=float, default=0.3, help="seconds of calls before each round")
    args = parser.parse_args()
    if args.launch:
        from kdsl.fft import plan
        plan.MAX_RADIX, plan.MAX_INVOCATIONS, plan.MAX_SEQUENCES = map(int, args.launch.split(","))
    torch = torch_module()
    rows = []
    chosen = [c for c in cases(args.small) if args.only.lower() in c[0].lower()]
    if not chosen:
        parser.error(f"--only {args.only!r} matches no case; the cases are: "
                     + ", ".join(c[0] for c in cases(args.small)))
    for label, name, host in chosen:
        want = getattr(np.fft, name)(host)
        x = kd.asarray(host)
        fn = getattr(kd.fft, name)
        got = fn(x).numpy()
        scale = float(np.abs(want).max())
        assert np.abs(got - want).max() <= 1e-4 * scale * np.log2(host.size), f"kdsl {label} is wrong"
        if args.profile:
            with kd.profile() as prof:
                kd.realize(fn(x))
            print(f"{label}, per kernel:\n{prof.table(top=10)}\n")
        peers = {"kdsl": (lambda fn=fn, x=x: kd.realize(fn(x)), lambda _: None)}
        if torch is not None and torch.cuda.is_available():
            xt = torch.from_numpy(host).cuda()
            tfn = getattr(torch.fft, name)
            assert np.abs(tfn(xt).cpu().numpy() - want).max() <= 1e-4 * scale * np.log2(host.size)
            peers["torch"] = (lambda tfn=tfn, xt=xt: tfn(xt), lambda _: torch_sync(torch))
        rounds: dict[str, list[float]] = {peer: [] for peer in peers}
        for _ in range(args.rounds):
            for peer, (call, sync) in peers.items():
                rounds[peer].append(timed(call, sync, 3, args.warmup_s, args.repeat))
        kd_ms = statistics.median(rounds["kdsl"])
        np_ms = median_ms(lambda name=name, host=host: getattr(np.fft, name)(host), repeat=3, warmup=1)
        row = [label, kd_ms, _spread(rounds["kdsl"]), np_ms, kd_ms / np_ms]
        if "torch" in rounds:
            t_ms = statistics.median(rounds["torch"])
            row += [t_ms, _spread(rounds["torch"]), kd_ms / t_ms]
        rows.append(row)
    header = ["case", "kdsl ms", "rounds", "numpy ms", "kdsl/numpy"]
    if any(len(r) > 5 for r in rows):
        header += ["torch ms", "rounds", "kdsl/torch"]
        rows = [r + ["-", "-", "-"] if len(r) == 5 else r for r in rows]
    table(f"kd.fft (median of {args.rounds} alternating rounds, each the median of {args.repeat} synchronised calls "
          f"after {args.warmup_s} s of calls)", header, rows)


def _spread(values: list[float]) -> str:
    """The range of the rounds' medians."""
    return f"{min(values):.3f}-{max(values):.3f}"


if __name__ == "__main__":
    main()
