"""Reductions over the rows of tall matrices (issue 12): ``X.sum(axis=0)``, the ``X.T @ dz`` of a logistic
regression gradient, a fused ``(X * w).sum(axis=0)``, and full sums, in GB/s of input read, against
``torch.sum`` / ``torch.matmul`` on the same GPU when PyTorch is importable.

Every result is checked against NumPy (float64) first, PyTorch's before kdsl's; then each runs ``--warmup``
untimed calls and ``--repeat`` synchronised ones, of which the median is reported. kdsl runs under ``kd.jit``
(one replayed plan per call). ``--profile`` also prints each kdsl kernel's time (``kd.profile``: each kernel
submitted on its own, so the times include a submit-and-wait each).

Run on a GPU:  python3 benchmarks/dsl_column_sum.py [--repeat 10] [--profile]
Smoke run:     python3 benchmarks/dsl_column_sum.py --small     (small sizes: lavapipe, CI)
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import numpy as np
from dsl_common import median_ms, table, torch_device, torch_module, torch_sync

import kdsl as kd


def workloads(small: bool) -> list[tuple[str, tuple[int, int], str]]:
    """(name, shape of X, kind); kinds: colsum, matvec (X.T @ dz), fused ((X * w).sum(axis=0)), full, rowsum."""
    if small:
        return [("X.sum(axis=0)", (8000, 256), "colsum"), ("X.sum(axis=0)", (4000, 64), "colsum"),
                ("X.T @ dz", (4000, 64), "matvec"), ("(X * w).sum(axis=0)", (4000, 64), "fused"),
                ("X.sum()", (256, 256), "full"), ("X.sum(axis=0)", (256, 256), "colsum"),
                ("X.sum(axis=1)", (4000, 64), "rowsum")]
    return [("X.sum(axis=0)", (3_906_250, 256), "colsum"), ("X.sum(axis=0)", (1_000_000, 64), "colsum"),
            ("X.T @ dz", (1_000_000, 64), "matvec"), ("(X * w).sum(axis=0)", (1_000_000, 64), "fused"),
            ("X.sum()", (8192, 8192), "full"), ("X.sum(axis=0)", (8192, 8192), "colsum"),
            ("X.sum(axis=1)", (1_000_000, 64), "rowsum")]


def function(kind: str) -> Callable[[Any, Any, Any], Any]:
    """The workload on arrays of any of the three libraries (x, dz of len(x), w of x.shape[1])."""
    return {"colsum": lambda x, dz, w: x.sum(0), "matvec": lambda x, dz, w: x.T @ dz,
            "fused": lambda x, dz, w: (x * w).sum(0), "full": lambda x, dz, w: x.sum(),
            "rowsum": lambda x, dz, w: x.sum(1)}[kind]


def check(name: str, who: str, got: np.ndarray, want: np.ndarray) -> None:
    scale = max(float(np.max(np.abs(want))), 1.0)
    err = float(np.max(np.abs(got.astype(np.float64) - want)))
    if got.shape != want.shape or err > 1e-4 * scale:
        raise AssertionError(f"{name}: {who} disagrees with NumPy: max error {err:.3g} (scale {scale:.3g}), "
                             f"shapes {got.shape} vs {want.shape}")


def run(name: str, shape: tuple[int, int], kind: str, repeat: int, warmup: int, torch: Any, prof: bool) -> list:
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape, dtype=np.float32)
    dz, w = rng.standard_normal(shape[0], dtype=np.float32), rng.standard_normal(shape[1], dtype=np.float32)
    f = function(kind)
    want = f(x.astype(np.float64), dz.astype(np.float64), w.astype(np.float64))
    gb = (x.nbytes + (dz.nbytes if kind == "matvec" else 0)) / 1e9  # what the kernel must read
    row: list = [name, "x".join(map(str, shape))]
    t_torch = None
    if torch is not None:  # PyTorch's result first: a wrong peer is no baseline
        dev = torch_device(torch)
        tx, tdz, tw = (torch.from_numpy(a).to(dev) for a in (x, dz, w))
        check(name, "torch", np.asarray(f(tx, tdz, tw).cpu().numpy()), want)
        t_torch = median_ms(lambda: f(tx, tdz, tw), repeat, warmup, sync=lambda: torch_sync(torch))
        del tx
    kx, kdz, kw = kd.asarray(x), kd.asarray(dz), kd.asarray(w)
    del x
    g = kd.jit(f)
    check(name, "kdsl", g(kx, kdz, kw).numpy(), want)
    t_kd = median_ms(lambda: kd.realize(g(kx, kdz, kw)), repeat, warmup)
    kernels = kd.explain(f(kx, kdz, kw)).count("kernel ")
    row += [kernels, t_kd, gb / (t_kd * 1e-3)]
    if t_torch is not None:
        row += [t_torch, gb / (t_torch * 1e-3), t_kd / t_torch]
    if prof:
        with kd.profile() as p:
            kd.realize(f(kx, kdz, kw))
        print(f"\n{name} {shape}:\n{p.table()}")
    return row


def main(argv: list[str] | None = None) -> list[list]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--small", action="store_true", help="small sizes (lavapipe, CI)")
    parser.add_argument("--profile", action="store_true", help="also print each kdsl kernel's time")
    parser.add_argument("--no-torch", action="store_true", help="kdsl only")
    args = parser.parse_args(argv)
    torch = None if args.no_torch else torch_module()
    rows = [run(name, shape, kind, args.repeat, args.warmup, torch, args.profile)
            for name, shape, kind in workloads(args.small)]
    header = ["workload", "X", "kernels", "kdsl ms", "kdsl GB/s"]
    header += ["torch ms", "torch GB/s", "kdsl/torch"] if torch is not None else []
    table(f"reductions over rows, float32, median of {args.repeat} after {args.warmup} warm-up calls (kd.jit)",
          header, rows)
    return rows


if __name__ == "__main__":
    main()
