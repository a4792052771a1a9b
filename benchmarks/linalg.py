"""kd.linalg against torch.linalg (on the GPU when there is one) and NumPy (LAPACK on the host): batched
64x64 solve and inv (batch 4096), cholesky and qr of 4096x4096, eigh of 1024x1024, svd of 2048x512 (issue 11's
rows). Every peer's result is checked against a float64 NumPy reference before it is timed; every peer gets
the same warm-up calls; the table shows medians in milliseconds and kdsl's time over torch's.

Each row prints as soon as it is done. ``--only`` runs some rows alone, ``--size-scale`` scales every size
(and the solve/inv batch) at once, ``--peers`` picks the peers (NumPy's 4096 QR takes seconds per call), and
``--structure`` prints, per kdsl call after the warm-up, its kernel launches (each custom kernel is one
submit-and-wait), host downloads, and kernels built or compiled (0 once the shape was seen), then the GPU
time of the recorded launches replayed back to back (timestamps between launches), the costliest kernels first. Outside
``--structure`` kd.linalg replays each shape's recorded launches as one submit (kdsl/linalg/graph.py).
``--block`` and ``--qr-inner`` set the blocked factorisations' panel width and QR's columns per one-workgroup
step (kdsl.linalg.blocked.BLOCK, INNER: 64 and 16), ``--eigh-block`` and ``--eigh-inner`` eigh's block
Jacobi's largest block and inner sweeps a round (kdsl.linalg.jacobi_block.MAX_BLOCK, INNER_SWEEPS: 16 and 1),
to tune them on a GPU.

Run (H200):   python benchmarks/linalg.py --peers kdsl,torch
One row:      python benchmarks/linalg.py --only cholesky --structure
Run (small):  python benchmarks/linalg.py --size-scale 0.125 --repeat 3 --structure
Tune:         python benchmarks/linalg.py --only qr --peers kdsl --qr-inner 32
              python benchmarks/linalg.py --only eigh --peers kdsl --structure --eigh-block 16 --eigh-inner 2
"""

from __future__ import annotations

import argparse

import numpy as np
from dsl_common import median_ms, table, torch_device, torch_module, torch_sync

import kdsl as kd
from kdsl.linalg import graph


def _host(x) -> np.ndarray:
    if isinstance(x, kd.Array):
        return x.numpy()
    if hasattr(x, "detach"):
        return x.detach().cpu().numpy()
    return np.asarray(x)


def problems(args, rng) -> dict:
    """name -> (inputs as float64 host arrays, reference check(result tuple of host arrays, inputs) -> error)."""
    b, n = args.batch, args.n
    a = rng.standard_normal((b, n, n)) + 2 * np.sqrt(n) * np.eye(n)
    rhs = rng.standard_normal((b, n, 1))
    g = rng.standard_normal((args.chol, args.chol))
    spd = g @ g.T / args.chol + np.eye(args.chol)
    sym = rng.standard_normal((args.eigh, args.eigh))
    sym = (sym + sym.T) / 2
    m, k = args.svd
    return {
        f"solve {b}x{n}x{n}": ((a, rhs), lambda r, i: _rel(i[0] @ r[0], i[1])),
        f"inv {b}x{n}x{n}": ((a,), lambda r, i: _rel(i[0] @ r[0], np.broadcast_to(np.eye(n), i[0].shape))),
        f"cholesky {args.chol}": ((spd,), lambda r, i: _rel(r[0] @ r[0].T, i[0])),
        f"qr {args.qr}": ((rng.standard_normal((args.qr, args.qr)),), lambda r, i: _rel(r[0] @ r[1], i[0])),
        f"eigh {args.eigh}": ((sym,), lambda r, i: _rel(r[0], np.linalg.eigvalsh(i[0]))),
        f"svd {m}x{k}": ((rng.standard_normal((m, k)),), lambda r, i: _rel((r[0] * r[1]) @ r[2], i[0])),
    }


def _rel(got, want) -> float:
    return float(np.abs(got - want).max() / max(np.abs(want).max(), 1e-30))


def calls(name: str, lib):
    """The call for row ``name`` in ``lib`` (kd, torch or np): inputs -> tuple of results."""
    la = lib.linalg
    if name.startswith("solve"):
        return lambda a, b: (la.solve(a, b),)
    if name.startswith("inv"):
        return lambda a: (la.inv(a),)
    if name.startswith("cholesky"):
        return lambda a: (la.cholesky(a),)
    if name.startswith("qr"):
        return lambda a: tuple(la.qr(a))
    if name.startswith("eigh"):
        return lambda a: (la.eigh(a)[0],)
    return lambda a: tuple(la.svd(a, full_matrices=False))


def run_peer(name, lib, inputs, check, args, tol: float) -> float:
    fn = calls(name, lib)
    if lib is kd:
        conv = kd.asarray
        done = lambda out: kd.realize(*out)  # noqa: E731
    elif lib is np:
        conv = np.asarray
        done = lambda out: None  # noqa: E731
    else:
        dev = torch_device(lib)
        conv = lambda x: lib.from_numpy(x).to(dev)  # noqa: E731
        done = lambda out: torch_sync(lib)  # noqa: E731
    xs = [conv(x.astype(args.dtype)) for x in inputs]
    err = check([_host(r).astype(np.float64) for r in fn(*xs)], inputs)
    if not err <= tol:
        raise AssertionError(f"{name}: {getattr(lib, '__name__', lib)} is off the reference by {err:.2e} "
                             f"(tolerance {tol:.0e})")
    return median_ms(lambda: done(fn(*xs)), args.repeat, args.warmup)


def structure(name: str, inputs, args) -> str:
    """One kdsl call's launches, host downloads and kernels built/compiled (after a first call of the shape)."""
    fn = calls(name, kd)
    xs = [kd.asarray(x.astype(args.dtype)) for x in inputs]
    kd.realize(*fn(*xs))
    before = kd.stats(reset=True)
    with kd.profile() as prof:
        kd.realize(*fn(*xs))
    after = kd.stats()
    compiled = after["compiled"] - before["compiled"]
    with graph.timing() as times:  # the recorded plans replayed as usual, with GPU timestamps between launches
        kd.realize(*fn(*xs))
    per: dict[str, list[float]] = {}
    for kernel, _, ms in times:
        per.setdefault(kernel.removeprefix("linalg."), []).append(ms)
    top = sorted(per.items(), key=lambda kv: -sum(kv[1]))[:6]
    gpu = ", ".join(f"{k} {sum(v):.2f} ms/{len(v)}" for k, v in top)
    return (f"    structure: {len(prof.records)} launches, {after['downloads']} downloads, {after['programs']} kernels "
            f"built, {compiled} compiled, {sum(ms for _, ms in prof.records):.1f} ms in launches\n"
            f"    replayed: {sum(ms for *_, ms in times):.2f} ms GPU in {len(times)} recorded launches ({gpu})")


def main(args) -> None:
    from kdsl.linalg import blocked, jacobi_block
    blocked.BLOCK = args.block or blocked.BLOCK
    blocked.INNER = args.qr_inner or blocked.INNER
    jacobi_block.MAX_BLOCK = args.eigh_block or jacobi_block.MAX_BLOCK
    jacobi_block.INNER_SWEEPS = args.eigh_inner or jacobi_block.INNER_SWEEPS
    torch = torch_module() if "torch" in args.peers else None
    rng = np.random.default_rng(0)
    tol = 1e-3 if args.dtype == "float32" else 1e-9
    libs = {"kdsl": kd, "numpy": np, "torch": torch}
    peers = [(p, libs[p]) for p in args.peers.split(",") if libs.get(p) is not None]
    labels = [p for p, _ in peers]
    rows = []
    for name, (inputs, check) in problems(args, rng).items():
        if args.only and not any(name.startswith(o) for o in args.only.split(",")):
            continue
        times = {label: run_peer(name, lib, inputs, check, args, tol) for label, lib in peers}
        row = [name] + [times[p] for p in labels]
        if "kdsl" in times and "torch" in times:
            row.append(times["kdsl"] / times["torch"])
        rows.append(row)
        print("  " + "  ".join(f"{v:.3f}" if isinstance(v, float) else str(v) for v in row), flush=True)  # partial
        if args.structure and "kdsl" in times:
            print(structure(name, inputs, args), flush=True)
    header = ["problem"] + [f"{p} ms" for p in labels] + (["kdsl/torch"] if "kdsl" in labels and "torch" in labels
                                                         else [])
    table(f"kd.linalg {args.dtype}, median of {args.repeat} after {args.warmup} warm-up calls each", header, rows)


def parse(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--batch", type=int, default=4096, help="batch of the solve/inv rows")
    p.add_argument("--n", type=int, default=64, help="matrix size of the solve/inv rows")
    p.add_argument("--chol", type=int, default=4096)
    p.add_argument("--qr", type=int, default=4096)
    p.add_argument("--eigh", type=int, default=1024)
    p.add_argument("--svd", type=lambda s: tuple(int(v) for v in s.split("x")), default=(2048, 512), help="MxN")
    p.add_argument("--dtype", default="float32", choices=["float32", "float64"])
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--only", default="", help="comma-separated row prefixes, e.g. solve,inv")
    p.add_argument("--block", type=int, default=0, help="panel width of the blocked factorisations (0: 64)")
    p.add_argument("--qr-inner", type=int, default=0, help="QR columns per one-workgroup panel step (0: 16)")
    p.add_argument("--eigh-block", type=int, default=0, help="eigh's block Jacobi: most indices a block (0: 16)")
    p.add_argument("--eigh-inner", type=int, default=0, help="eigh's block Jacobi: inner sweeps a round (0: 1)")
    p.add_argument("--size-scale", type=float, default=1.0,
                   help="scale every matrix size and the solve/inv batch, e.g. 0.125 (the 64x64 blocks stay)")
    p.add_argument("--peers", default="kdsl,numpy,torch", help="comma-separated, of kdsl, numpy, torch")
    p.add_argument("--structure", action="store_true", help="print each kdsl row's launches, downloads, compiles")
    args = p.parse_args(argv)
    f = args.size_scale
    scaled = lambda v: max(2, round(v * f))  # noqa: E731
    args.batch, args.chol, args.qr = scaled(args.batch), scaled(args.chol), scaled(args.qr)
    args.eigh = scaled(args.eigh)
    args.svd = (scaled(args.svd[0]), scaled(args.svd[1]))
    return args


if __name__ == "__main__":
    main(parse())
