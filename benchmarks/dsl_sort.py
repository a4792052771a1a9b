"""Sort and argsort of N float32 (default 2**20): kdsl's GPU sort (radix for long lines) against NumPy and,
when importable, ``torch.sort``. Every peer is warmed up the same way (one untimed run, whose result is checked
against NumPy's stable sort first), then timed ``--repeat`` times; the table shows medians. kdsl's times
include its Python planning of its passes and the wait for the device (``kd.realize`` returns when they ran).

Run: python benchmarks/dsl_sort.py [--log2n 20] [--repeat 5]      (on the GPU machine: --log2n 26)
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np
from dsl_common import median_ms, table, torch_device, torch_module, torch_sync

import kdsl as kd


def _kd_cases(x: kd.Array) -> dict[str, Callable[[], object]]:
    return {"sort": lambda: kd.realize(kd.sort(x)), "argsort": lambda: kd.realize(kd.argsort(x))}


def _check(host: np.ndarray, x: kd.Array, tx, torch) -> None:
    """One untimed run of every peer, checked against NumPy's stable sort (this is also the warm-up)."""
    want_idx = np.argsort(host, kind="stable")
    np.testing.assert_array_equal(kd.sort(x).numpy(), host[want_idx])
    np.testing.assert_array_equal(kd.argsort(x).numpy(), want_idx)
    np.testing.assert_array_equal(np.sort(host), host[want_idx])
    if torch is not None:
        values, indices = torch.sort(tx, stable=True)
        np.testing.assert_array_equal(values.cpu().numpy(), host[want_idx])
        np.testing.assert_array_equal(indices.cpu().numpy(), want_idx)
        np.testing.assert_array_equal(torch.argsort(tx, stable=True).cpu().numpy(), want_idx)


def main(log2n: int, repeat: int) -> None:
    n = 1 << log2n
    host = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    x = kd.asarray(host)
    kd.realize(x)
    torch = torch_module()
    tx = torch.from_numpy(host).to(torch_device(torch)) if torch is not None else None
    _check(host, x, tx, torch)
    numpy_runs = {"sort": lambda: np.sort(host), "argsort": lambda: np.argsort(host, kind="stable")}
    torch_runs = {} if torch is None else {
        "sort": lambda: (torch.sort(tx, stable=True), torch_sync(torch)),
        "argsort": lambda: (torch.argsort(tx, stable=True), torch_sync(torch))}
    rows = []
    for name, run_kd in _kd_cases(x).items():
        t_kd, t_np = median_ms(run_kd, repeat), median_ms(numpy_runs[name], repeat)
        row: list = [name, t_np, t_kd, n / (t_kd * 1e-3) / 1e6, t_np / t_kd]
        if torch is not None:
            t_torch = median_ms(torch_runs[name], repeat)
            row += [t_torch, t_kd / t_torch]
        rows.append(row)
    header = ["op", "numpy ms", "kdsl ms", "kdsl Mkeys/s", "numpy/kdsl"]
    header += ["torch ms", "kdsl/torch"] if torch is not None else []
    table(f"sort of 2**{log2n} float32 (medians of {repeat})", header, rows)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--log2n", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    main(args.log2n, args.repeat)
