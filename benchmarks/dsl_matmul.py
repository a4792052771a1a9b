"""Square float32 matmul (the tiled shared-memory kernel) at 512, 1024 and 2048, against NumPy (BLAS) and
PyTorch when importable.

Run: python benchmarks/dsl_matmul.py [--sizes 512,1024,2048]
"""

from __future__ import annotations

import argparse

import numpy as np
from dsl_common import best_ms, table, torch_device, torch_module, torch_sync

import kdsl as kd


def measure(n: int, torch) -> list:
    """One table row: n x n float32 matmul with every implementation."""
    rng = np.random.default_rng(0)
    ha, hb = (rng.uniform(-1, 1, (n, n)).astype(np.float32) for _ in range(2))
    a, b = kd.asarray(ha), kd.asarray(hb)
    reps = 3 if n <= 1024 else 2
    t_kd = best_ms(lambda: kd.realize(a @ b), reps)
    t_np = best_ms(lambda: ha @ hb, reps)
    gflops = 2 * n ** 3 / (t_kd * 1e-3) / 1e9
    row = [n, t_np, t_kd, gflops, t_np / t_kd]
    if torch is not None:
        dev = torch_device(torch)
        ta, tb = torch.from_numpy(ha).to(dev), torch.from_numpy(hb).to(dev)
        row.append(best_ms(lambda: (ta @ tb, torch_sync(torch)), reps))
    np.testing.assert_allclose((a @ b).numpy(), ha @ hb, rtol=1e-3, atol=1e-3)
    return row


def main(sizes: list[int]) -> None:
    torch = torch_module()
    rows = [measure(n, torch) for n in sizes]
    header = ["n", "numpy ms", "kdsl ms", "kdsl GFLOP/s", "numpy/kdsl"] + (["torch ms"] if torch else [])
    table("float32 matmul n x n", header, rows)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="512,1024,2048")
    main([int(s) for s in parser.parse_args().sizes.split(",")])
