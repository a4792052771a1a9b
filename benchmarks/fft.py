"""kd.fft against torch.fft (GPU machine) and numpy.fft (CPU), each result checked against NumPy first.

Every peer is warmed up the same way (3 untimed calls) and timed over 10 synchronised calls; the table shows
medians and kdsl's time over the peer's (below 1: kdsl is faster).

    python3 benchmarks/fft.py            # the issue's sizes: fft of 2^24 complex64, rfft2 of 4096x4096, ...
    python3 benchmarks/fft.py --small    # a smoke run for CPU drivers (lavapipe)
    python3 benchmarks/fft.py --only rfft2 --profile   # the cases whose label contains "rfft2", per kernel
    python3 benchmarks/fft.py --launch 8,512,32        # radix <= 8, <= 512 invocations, <= 32 sequences a group
"""

from __future__ import annotations

import argparse

import numpy as np
from dsl_common import kd, median_ms, table, torch_module, torch_sync


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
        kd_ms = median_ms(lambda fn=fn, x=x: kd.realize(fn(x)), warmup=3)
        if args.profile:
            with kd.profile() as prof:
                kd.realize(fn(x))
            print(f"{label}, per kernel:\n{prof.table(top=10)}\n")
        np_ms = median_ms(lambda name=name, host=host: getattr(np.fft, name)(host), repeat=3, warmup=1)
        row = [label, kd_ms, np_ms, kd_ms / np_ms]
        if torch is not None and torch.cuda.is_available():
            xt = torch.from_numpy(host).cuda()
            tfn = getattr(torch.fft, name)
            assert np.abs(tfn(xt).cpu().numpy() - want).max() <= 1e-4 * scale * np.log2(host.size)
            t_ms = median_ms(lambda tfn=tfn, xt=xt: tfn(xt), warmup=3, sync=lambda: torch_sync(torch))
            row += [t_ms, kd_ms / t_ms]
        rows.append(row)
    header = ["case", "kdsl ms", "numpy ms", "kdsl/numpy"]
    if any(len(r) > 4 for r in rows):
        header += ["torch ms", "kdsl/torch"]
        rows = [r + ["-", "-"] if len(r) == 4 else r for r in rows]
    table("kd.fft (medians of 10 synchronised calls after 3 warm-ups)", header, rows)


if __name__ == "__main__":
    main()
