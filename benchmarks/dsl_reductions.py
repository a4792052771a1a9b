"""Reductions on a 4096 x 4096 float32 matrix: the full ``sum`` and the row ``mean`` (one fused kernel each,
plus a second small pass when a long reduction is split), against NumPy and PyTorch when importable.

Run: python benchmarks/dsl_reductions.py [--n 4096]
"""

from __future__ import annotations

import argparse

import numpy as np
from dsl_common import best_ms, table, torch_device, torch_module, torch_sync

import kdsl as kd


def main(n: int) -> None:
    host = np.random.default_rng(0).uniform(0, 1, (n, n)).astype(np.float32)
    x = kd.asarray(host)
    torch = torch_module()
    tx = torch.from_numpy(host).to(torch_device(torch)) if torch is not None else None
    cases = [("sum", lambda: kd.realize(x.sum()), lambda: host.sum(),
              lambda: (tx.sum(), torch_sync(torch))),
             ("row mean", lambda: kd.realize(x.mean(axis=1)), lambda: host.mean(axis=1),
              lambda: (tx.mean(dim=1), torch_sync(torch)))]
    rows = []
    for name, run_kd, run_np, run_torch in cases:
        t_kd, t_np = best_ms(run_kd), best_ms(run_np)
        gbs = host.nbytes / (t_kd * 1e-3) / 1e9
        row = [name, t_np, t_kd, gbs, t_np / t_kd]
        if torch is not None:
            row.append(best_ms(run_torch))
        rows.append(row)
    np.testing.assert_allclose(float(x.sum()), host.astype(np.float64).sum(), rtol=1e-5)
    np.testing.assert_allclose(x.mean(axis=1).numpy(), host.mean(axis=1), rtol=1e-5)
    header = ["op", "numpy ms", "kdsl ms", "kdsl GB/s", "numpy/kdsl"] + (["torch ms"] if torch else [])
    table(f"reductions of {n}x{n} float32", header, rows)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=4096)
    main(parser.parse_args().n)
