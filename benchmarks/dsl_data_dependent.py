"""The data-dependent operations against the device's copy bandwidth and PyTorch, in one run on one device.

Measured: a hand-written vec4 copy through ``kdsl.kp`` and a kdsl array copy (``x + 0``: the bandwidth
ceilings), sort and argsort of float32 (against ``torch.sort``), a gather ``x[idx]`` and a scatter-add
``kd.add.at(a, idx, v)`` of random int32 indices (atomics where the device has them), ``kd.bincount`` of
the same indices, a boolean compaction ``x[mask]`` (half the mask set) and
``kd.cumsum`` (also ``kd.flatnonzero`` and a cumsum along rows), each also in PyTorch (CUDA, when importable)
and NumPy (CPU). Every result is checked against
NumPy before timing (that run is the warm-up of every peer); the table shows medians of ``--repeat`` runs.
Bandwidth counts bytes that must move: copy 8 per element; gather 4 (index) + 4 (write) per element + 4 per
table element; scatter-add 4 + 4 (index, value) per element + 8 per target element (read and write it);
bincount 4 (index) per element + 8 per count; compaction 1 (mask) + 4 (value) per element + 4 per selected
element; cumsum 8. (With ``--table-log2`` unset the table is as long as the indices: gather 12, scatter 16.)

Goals on a GPU: sort within 2x of ``torch.sort``; gather and scatter-add >= 70% of the copy bandwidth;
compaction >= 50%; cumsum >= 60%.

Run: python benchmarks/dsl_data_dependent.py               (GPU sizes: sort 2**26, gather 2**26, scan 2**28)
     python benchmarks/dsl_data_dependent.py --only compaction --profile   (one row, and its kernels' times)
     python benchmarks/dsl_data_dependent.py --small       (lavapipe: 2**18 / 2**18 / 2**20)
     python benchmarks/dsl_data_dependent.py --only 2**26 --table-log2 20   (indices into a cache-sized table)
     python benchmarks/dsl_data_dependent.py --only row --row-width 128      (whole rows: embedding lookups)
     python benchmarks/dsl_data_dependent.py --only 2**28 --scan-rows 1,2,4,8 --preload-density 0.25,2
                                                           (a sweep of the scans' tile and the compaction's preload)
     python benchmarks/dsl_data_dependent.py --only nonzero --stage-positions 1,0 --profile
                                                           (nonzero's positions through shared memory, or not)
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np
from dsl_bandwidth import copy_loop
from dsl_common import median_ms, table, torch_device, torch_module, torch_sync

import kdsl as kd
from kdsl.codegen import scan_blocked


class Case:
    """One operation: kdsl, NumPy and (optional) PyTorch runs, the bytes it must move, and its check."""

    def __init__(self, name: str, nbytes: int, kd_run, np_run, torch_run, check: Callable[[], None]):
        self.name, self.nbytes, self.kd_run, self.np_run, self.torch_run, self.check = (
            name, nbytes, kd_run, np_run, torch_run, check)


def _sort_cases(n: int, torch, dev) -> list[Case]:
    host = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    x = kd.asarray(host)
    tx = torch.from_numpy(host).to(dev) if torch else None
    want = np.argsort(host, kind="stable")

    def check() -> None:
        np.testing.assert_array_equal(kd.argsort(x).numpy(), want)
        np.testing.assert_array_equal(kd.sort(x).numpy(), host[want])
        if torch:
            np.testing.assert_array_equal(torch.sort(tx, stable=True)[1].cpu().numpy(), want)

    t_sort = (lambda: (torch.sort(tx, stable=True), torch_sync(torch))) if torch else None
    t_arg = (lambda: (torch.argsort(tx, stable=True), torch_sync(torch))) if torch else None
    return [Case(f"sort 2**{n.bit_length() - 1}", 8 * n, lambda: kd.realize(kd.sort(x)), lambda: np.sort(host),
                 t_sort, check),
            Case(f"argsort 2**{n.bit_length() - 1}", 8 * n, lambda: kd.realize(kd.argsort(x)),
                 lambda: np.argsort(host, kind="stable"), t_arg, lambda: None)]


def _index_cases(n: int, torch, dev, size: int = 0) -> list[Case]:
    """Gather, scatter-add and bincount of ``n`` random indices into a table of ``size`` elements (``n`` when
    0). A table that fits the GPU's cache (an embedding, one-hot rows, class counts) is read from the cache;
    one as large as the output is read by random sectors from memory."""
    table = size or n
    rng = np.random.default_rng(1)
    host = rng.standard_normal(n).astype(np.float32)
    hidx = rng.integers(0, table, n).astype(np.int32)
    x, idx = kd.asarray(host), kd.asarray(hidx)
    kd.realize(x, idx)
    tx = torch.from_numpy(host).to(dev) if torch else None
    tidx = torch.from_numpy(hidx.astype(np.int64)).to(dev) if torch else None
    src, hsrc = x[:table], host[:table]
    target = np.zeros(table, np.float32)

    def scatter_kd() -> None:
        a = kd.zeros(table, dtype=kd.float32)
        kd.add.at(a, idx, x)
        kd.realize(a)
        return a

    def scatter_np() -> np.ndarray:
        a = target.copy()
        np.add.at(a, hidx, host)
        return a

    def check() -> None:
        np.testing.assert_array_equal(kd.take(src, idx).numpy(), hsrc[hidx])
        np.testing.assert_allclose(scatter_kd().numpy(), scatter_np(), rtol=1e-5, atol=1e-4)

    def bincount_check() -> None:
        np.testing.assert_array_equal(kd.bincount(idx, minlength=table).numpy(), np.bincount(hidx, minlength=table))

    tsrc = tx[:table] if torch else None
    t_gather = (lambda: (tsrc[tidx], torch_sync(torch))) if torch else None
    t_bincount = (lambda: (torch.bincount(tidx, minlength=table), torch_sync(torch))) if torch else None
    t_scatter = (lambda: (torch.zeros(table, device=dev).index_add_(0, tidx, tx), torch_sync(torch))) if torch \
        else None
    of = "" if table == n else f" of 2**{table.bit_length() - 1}"
    # bytes that must move: per element its index and value (written or read); the table once each way
    return [Case(f"gather 2**{n.bit_length() - 1}{of}", 8 * n + 4 * table,
                 lambda: kd.realize(kd.take(src, idx, mode="clip")), lambda: hsrc[hidx], t_gather, check),
            Case(f"scatter-add 2**{n.bit_length() - 1}{of}", 8 * n + 8 * table, scatter_kd, scatter_np, t_scatter,
                 lambda: None),
            Case(f"bincount 2**{n.bit_length() - 1}{of}", 4 * n + 8 * table,
                 lambda: kd.realize(kd.bincount(idx, minlength=table)), lambda: np.bincount(hidx, minlength=table),
                 t_bincount, bincount_check)]


def _row_cases(n: int, torch, dev, width: int) -> list[Case]:
    """Gather and scatter-add of whole rows: ``n`` elements as ``n / width`` random rows of ``width`` into a
    table of as many rows (an embedding lookup ``E[tokens]`` and its gradient ``np.add.at(dE, tokens, g)``).
    Each row is a contiguous run, so unlike single elements the table moves by whole memory sectors. Bytes:
    per row its index; per element its value (written or read) and its table element (read; scatter: read and
    written)."""
    rows = n // width
    rng = np.random.default_rng(3)
    host = rng.standard_normal((rows, width)).astype(np.float32)
    hidx = rng.integers(0, rows, rows).astype(np.int32)
    x, idx = kd.asarray(host), kd.asarray(hidx)
    kd.realize(x, idx)
    tx = torch.from_numpy(host).to(dev) if torch else None
    tidx = torch.from_numpy(hidx.astype(np.int64)).to(dev) if torch else None

    def scatter_kd() -> kd.Array:
        a = kd.zeros((rows, width), dtype=kd.float32)
        kd.add.at(a, idx, x)
        kd.realize(a)
        return a

    def scatter_np() -> np.ndarray:
        a = np.zeros((rows, width), np.float32)
        np.add.at(a, hidx, host)
        return a

    def check() -> None:
        np.testing.assert_array_equal(x[idx].numpy(), host[hidx])
        np.testing.assert_allclose(scatter_kd().numpy(), scatter_np(), rtol=1e-5, atol=1e-4)

    t_gather = (lambda: (tx[tidx], torch_sync(torch))) if torch else None
    t_scatter = (lambda: (torch.zeros((rows, width), device=dev).index_add_(0, tidx, tx), torch_sync(torch))) \
        if torch else None
    name = f"2**{n.bit_length() - 1} (rows of {width})"
    return [Case(f"row gather {name}", 4 * rows + 8 * n, lambda: kd.realize(x[idx]), lambda: host[hidx],
                 t_gather, check),
            Case(f"row scatter-add {name}", 4 * rows + 12 * n, scatter_kd, scatter_np, t_scatter, lambda: None)]


def _scan_cases(n: int, torch, dev) -> list[Case]:
    rng = np.random.default_rng(2)
    host = rng.random(n, dtype=np.float32)
    hmask = host < 0.5
    x, mask = kd.asarray(host), kd.asarray(hmask)
    kd.realize(x, mask)
    tx = torch.from_numpy(host).to(dev) if torch else None
    tmask = torch.from_numpy(hmask).to(dev) if torch else None
    count = int(hmask.sum())

    def check() -> None:
        np.testing.assert_array_equal(x[mask].numpy(), host[hmask])
        ints = kd.asarray((host * 4).astype(np.int32))  # exact sums: the order of additions cannot matter
        np.testing.assert_array_equal(kd.cumsum(ints).numpy(), np.cumsum((host * 4).astype(np.int32)))

    t_compact = (lambda: (tx[tmask], torch_sync(torch))) if torch else None
    t_cumsum = (lambda: (torch.cumsum(tx, 0), torch_sync(torch))) if torch else None
    return [Case(f"compaction 2**{n.bit_length() - 1}", 5 * n + 4 * count, lambda: kd.realize(x[mask]),
                 lambda: host[hmask], t_compact, check),
            Case(f"cumsum 2**{n.bit_length() - 1}", 8 * n, lambda: kd.realize(kd.cumsum(x)),
                 lambda: np.cumsum(host), t_cumsum, lambda: None)] + _more_scan_cases(n, host, x, mask, tx, tmask,
                                                                              torch)


def _more_scan_cases(n: int, host, x, mask, tx, tmask, torch) -> list[Case]:
    """``nonzero`` (int64 positions) and a cumsum of many rows (2**k rows of 2**k: one tile scan per row)."""
    hmask = host < 0.5
    count = int(hmask.sum())
    side = 1 << ((n.bit_length() - 1) // 2)
    rows, hrows = x[:side * side].reshape(side, side), host[:side * side].reshape(side, side)
    trows = tx[:side * side].reshape(side, side) if torch else None

    def check() -> None:
        np.testing.assert_array_equal(kd.flatnonzero(mask).numpy(), np.flatnonzero(hmask))
        ints = kd.asarray((hrows[:64] * 4).astype(np.int32))
        np.testing.assert_array_equal(kd.cumsum(ints, axis=1).numpy(), np.cumsum((hrows[:64] * 4).astype(np.int32), 1))

    t_nonzero = (lambda: (torch.nonzero(tmask), torch_sync(torch))) if torch else None
    t_rows = (lambda: (torch.cumsum(trows, 1), torch_sync(torch))) if torch else None
    return [Case(f"nonzero 2**{n.bit_length() - 1}", n + 8 * count, lambda: kd.realize(kd.flatnonzero(mask)),
                 lambda: np.flatnonzero(hmask), t_nonzero, check),
            Case(f"cumsum rows {side} x {side}", 8 * side * side, lambda: kd.realize(kd.cumsum(rows, axis=1)),
                 lambda: np.cumsum(hrows, 1), t_rows, lambda: None)]


def _copy_cases(n: int, torch, dev) -> list[Case]:
    x = kd.asarray(np.ones(n, np.float32))
    kd.realize(x)
    tx = torch.ones(n, device=dev) if torch else None
    host = np.ones(n, np.float32)
    return [Case(f"copy (kp vec4) 2**{n.bit_length() - 1}", 8 * n, copy_loop(n), host.copy,
                 (lambda: (tx.clone(), torch_sync(torch))) if torch else None, lambda: None),
            Case(f"copy (x + 0) 2**{n.bit_length() - 1}", 8 * n, lambda: kd.realize(x + 0), host.copy, None,
                 lambda: None)]


def main(sort_log2: int, index_log2: int, scan_log2: int, repeat: int, only: str = "", profile: bool = False,
         table_log2: int | None = None, row_width: int = 0) -> None:
    torch = torch_module()
    dev = torch_device(torch) if torch else None
    if torch is not None and dev != "cuda":
        torch = None  # PyTorch on the CPU is no GPU reference
    size = 0 if table_log2 is None else 1 << table_log2
    groups = [_copy_cases(1 << scan_log2, torch, dev), _sort_cases(1 << sort_log2, torch, dev),
              _index_cases(1 << index_log2, torch, dev, size), _scan_cases(1 << scan_log2, torch, dev)]
    if row_width:
        groups.insert(3, _row_cases(1 << index_log2, torch, dev, row_width))
    copy_gbs = None
    rows = []
    for cases in groups:
        for c in cases:
            if only and only not in c.name and not c.name.startswith("copy (kp"):  # the copy is the reference
                continue
            c.check()
            c.kd_run(), c.np_run()
            if c.torch_run:
                c.torch_run()
            t_kd, t_np = median_ms(c.kd_run, repeat), median_ms(c.np_run, max(1, repeat // 2))
            gbs = c.nbytes / (t_kd * 1e-3) / 1e9
            copy_gbs = copy_gbs or gbs
            row: list = [c.name, t_np, t_kd, gbs, f"{100 * gbs / copy_gbs:.0f}%"]
            if torch is not None:
                t_torch = median_ms(c.torch_run, repeat) if c.torch_run else float("nan")
                row += [t_torch, t_kd / t_torch]
            rows.append(row)
            print(*row, flush=True)
            if profile:
                with kd.profile() as prof:
                    c.kd_run()
                print(f"{c.name}, per kernel:\n{prof.table(top=8)}\n", flush=True)
    header = ["op", "numpy ms", "kdsl ms", "kdsl GB/s", "of copy"]
    header += ["torch ms", "kdsl/torch"] if torch is not None else []
    table(f"data-dependent operations (medians of {repeat})", header, rows)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--small", action="store_true", help="lavapipe sizes (2**18 sorts, 2**20 scans)")
    parser.add_argument("--sort-log2", type=int, default=None)
    parser.add_argument("--index-log2", type=int, default=None)
    parser.add_argument("--scan-log2", type=int, default=None)
    parser.add_argument("--table-log2", type=int, default=None, help="gather from / scatter into a table of "
                        "2**K elements (default: as many as the indices)")
    parser.add_argument("--row-width", type=int, default=0, help="also gather and scatter-add whole rows of this "
                        "many float32 (an embedding's lookup and gradient)")
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--only", default="", help="run only the cases whose name contains this text")
    parser.add_argument("--profile", action="store_true", help="also time each kernel of one call (kd.profile)")
    parser.add_argument("--scan-rows", default="", help="a sweep: comma-separated values of "
                        "kdsl.codegen.scan_blocked.ROWS (rows of four elements per invocation), one table each")
    parser.add_argument("--preload-density", default="", help="a sweep: comma-separated values of "
                        "kdsl.codegen.scan_blocked.PRELOAD_DENSITY (2 turns the compaction's preload off)")
    parser.add_argument("--stage-positions", default="", help="a sweep: comma-separated values (1, 0) of "
                        "kdsl.codegen.scan_blocked.STAGE_POSITIONS (nonzero's positions through shared memory)")
    args = parser.parse_args()
    small = (18, 18, 20) if args.small else (26, 26, 28)
    stages = [bool(int(v)) for v in args.stage_positions.split(",") if v] or [scan_blocked.STAGE_POSITIONS]
    for rows in [int(r) for r in args.scan_rows.split(",") if r] or [scan_blocked.ROWS]:
        for density in [float(d) for d in args.preload_density.split(",") if d] or [scan_blocked.PRELOAD_DENSITY]:
            for stage in stages:
                # all three are part of the plan cache's key: each setting gets its own kernels
                scan_blocked.ROWS, scan_blocked.PRELOAD_DENSITY = rows, density
                scan_blocked.STAGE_POSITIONS = stage
                print(f"scan_blocked.ROWS = {rows} (tiles of {4 * rows * 256}), PRELOAD_DENSITY = {density}, "
                      f"STAGE_POSITIONS = {stage}", flush=True)
                main(args.sort_log2 or small[0], args.index_log2 or small[1], args.scan_log2 or small[2],
                     args.repeat, args.only, args.profile, args.table_log2, args.row_width)
