"""Scaling out: one GPU against two, through Dask (one worker process per GPU) and through threads in one process,
and the cost of Dask on one GPU against plain kdsl.

Cases (medians of ``--repeat`` timed runs after two warm-ups; every result checked):

1. a chunked reduction (column sums) over data twice one GPU's share (``2 * --share-gb``), on 1 and on 2 GPUs;
2. one distributed logistic-regression step (``X @ w``, sigmoid, ``X.T @ r``) over the same data, 1 and 2 GPUs;
3. the reduction over one GPU's share: plain kdsl (the chunks summed in one expression) against Dask with one
   worker on that GPU and Dask's threaded scheduler in this process over the same chunks (``kdsl.dask.from_chunks``:
   nothing copied). Each Dask path is timed twice: as kdsl.dask runs it (stored results computed on a background
   thread while the next tasks run; on the threaded scheduler a partial result read by one task is left lazy,
   computed with it, unless it reads ``kdsl.background-bytes``, 256 MiB) and with ``kdsl.background-realise`` off
   (on the threaded scheduler: everything lazy until the result is read, one submission). Every case reads its
   result back to the host; Dask's graphs are built once, outside the timing (``build`` reports what building the
   reduction's graph costs). Case 3 runs at
   ``--share-gb`` in chunks of ``--chunk-mb`` and, unless ``--large-gb 0``, again at ``--large-gb`` in chunks of
   ``--large-chunk-mb`` (default: ``kdsl.dask.chunk_bytes()``, the largest chunk the device holds): Dask's cost
   is a fixed few milliseconds per computation and a fraction of one per chunk, so its ratio to plain kdsl is
   only small for large data in large chunks. A last line times the one-worker path again with distributed's
   message batching off (a diagnostic of where its fixed cost goes, not a setting kdsl.dask makes).

The Dask reductions are written as kdsl.dask's docs advise: one level of partial sums (``split_every`` = the
number of chunks; Dask's default of 4 adds a level, and on a cluster a scheduler round trip, per factor of 4)
and ``compute(optimize_graph=False)`` (the data is already in chunks: Dask's optimisation has nothing to fuse,
and its fused tasks cost more to run). The data is made on the workers' devices (``kd.random``), never shipped
from the client. Targets (issue 14): 2 GPUs >= 1.8x faster than 1 for cases 1 and 2; Dask on one GPU <= 1.2x
plain kdsl for case 3 (a large chunked reduction).

Run (two GPUs):   python benchmarks/scale_out.py
Smoke test (CPU): KDSL_VIRTUAL_DEVICES=2 python benchmarks/scale_out.py --share-gb 0.004 --features 16 --repeat 3 \
                  --chunk-mb 1 --large-gb 0.032
"""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

import dask  # noqa: E402
import dask.array as da  # noqa: E402
import numpy as np  # noqa: E402
from distributed import Client, wait  # noqa: E402
from dsl_common import median_ms  # noqa: E402

import kdsl as kd  # noqa: E402
import kdsl.dask as kdd  # noqa: E402


def gradient(X, y, w):
    """The log-loss gradient summed over the rows of X (NumPy's API: kdsl and Dask arrays alike)."""
    p = 1 / (1 + np.exp(-(X @ w)))
    return X.T @ (p - y)


def _random_block(seed: int, block_info=None) -> kd.Array:
    """One chunk of uniform [0, 1) data, made on the worker's device; chunk i always gets the same values."""
    out = block_info[None]
    block = kd.random.default_rng(seed + out["chunk-location"][0]).random(tuple(out["chunk-shape"]),
                                                                           dtype=kd.float32)
    kd.realize(block)  # a persisted chunk must hold data, not a lazy graph each later task would recompute
    return block


def _labels(block: kd.Array) -> kd.Array:
    labels = (block[:, 0] > 0.5).astype(kd.float32)
    kd.realize(labels)
    return labels


def make_data(rows: int, features: int, chunk_rows: int, seed: int = 0) -> tuple[da.Array, da.Array]:
    """X (rows, features) float32 and labels y, as Dask arrays of kdsl chunks made where they are computed."""
    x = da.map_blocks(_random_block, seed, dtype=np.float32, chunks=(da.core.normalize_chunks(chunk_rows, (rows,))[0],
                                                                    (features,)), meta=kdd.meta(2, np.float32))
    y = x.map_blocks(_labels, drop_axis=1, dtype=np.float32, meta=kdd.meta(1, np.float32))
    return x, y


def column_sums(x: da.Array) -> da.Array:
    """Dask's column sums of ``x`` in one level of partial sums (one per chunk, then one sum of them all)."""
    return x.sum(axis=0, split_every=max(2, x.numblocks[0]))


def check_subset(x: da.Array, y: da.Array, sums: kd.Array, grad: kd.Array, rows: int) -> None:
    """The first chunk's column sums and gradient against NumPy on a copy of it (the full results are compared
    across GPU counts by the caller)."""
    k = x.chunks[0][0]
    host_x, host_y = kdd.to_numpy(x[:k]).compute(), kdd.to_numpy(y[:k]).compute()
    np.testing.assert_allclose(kdd.to_numpy(x[:k].sum(axis=0)).compute(), host_x.sum(axis=0, dtype=np.float64),
                               rtol=1e-4)
    w = np.full(x.shape[1], 0.01, np.float32)
    np.testing.assert_allclose(kdd.to_numpy(gradient(x[:k], y[:k], w)).compute(),
                               gradient(host_x.astype(np.float64), host_y, w), rtol=1e-3, atol=1e-2)
    assert sums.shape == (x.shape[1],) and grad.shape == (x.shape[1],)
    np.testing.assert_allclose(sums.numpy() / rows, 0.5, atol=0.01)  # uniform data: column means near 0.5


def run_cluster(workers: int, rows: int, args) -> dict:
    """Cases 1 and 2 on ``workers`` GPUs."""
    out: dict = {}
    with kdd.LocalVulkanCluster(n_workers=workers, devices=list(range(workers)), silence_logs=40) as cluster, \
            Client(cluster) as client:
        client.run(_warm)  # every worker opens its device and builds the data kernel before any chunk is placed
        x, y = persist_data(client, rows, args.chunk_rows, args)
        x_keys = {str(k) for k in dask.core.flatten(x.__dask_keys__())}
        per_worker = sorted(sum(str(k) in x_keys for k in keys) for keys in client.has_what().values())
        print(f"  workers: {sorted(worker_devices(client).values())}", flush=True)
        w = kd.full(args.features, 0.01)
        sums = column_sums(x)
        out["sums"] = sums.compute()
        out["grad"] = gradient(x, y, w).compute()
        out["reduce_ms"] = median_ms(lambda: sums.compute(optimize_graph=False), args.repeat, warmup=2)
        step = lambda: (w - 0.1 * gradient(x, y, w).compute() / rows).numpy()  # noqa: E731
        out["step_ms"] = median_ms(step, args.repeat, warmup=2)
        check_subset(x, y, out["sums"], out["grad"], rows)
        print(f"  {workers} GPU(s): X chunks per worker {per_worker}; reduction {out['reduce_ms']:.2f} ms, "
              f"step {out['step_ms']:.2f} ms", flush=True)
    return out


def persist_data(client: Client, rows: int, chunk_rows: int, args) -> tuple[da.Array, da.Array]:
    """X and y made and kept on the workers, chunk i (of X and of y) on worker i % n (Dask's own placement gave
    one worker 6 of 8 chunks on the H200)."""
    x, y = make_data(rows, args.features, chunk_rows)
    addrs = sorted(client.scheduler_info()["workers"])
    with dask.annotate(workers=lambda key: [addrs[key[1] % len(addrs)]] if isinstance(key, tuple) else None):
        x, y = client.persist([x, y], optimize_graph=False)
    wait([x, y])
    return x, y


def run_dask1(share_rows: int, chunk_rows: int, args) -> dict:
    """Case 3's Dask times on one worker (GPU 0): the reduction over one GPU's share, background realising off
    and on."""
    out: dict = {}
    with kdd.LocalVulkanCluster(n_workers=1, devices=[0], silence_logs=40) as cluster, Client(cluster) as client:
        client.run(_warm)
        x = persist_data(client, share_rows, chunk_rows, args)[0]
        one = column_sums(x)
        out["share_sums"] = one.compute().numpy()
        np.testing.assert_allclose(out["share_sums"] / share_rows, 0.5, atol=0.01)
        for background in (False, True):  # the default (True) last: the cluster is left as it runs
            client.run(_background_realise, background)
            key = "dask1_ms" if background else "dask1_off_ms"
            out[key] = median_ms(lambda: one.compute(optimize_graph=False).numpy(), args.repeat, warmup=2)
        out["dask1_unbatched_ms"] = float("nan")
        try:  # a diagnostic: how much of Dask's cost is its message batching (internals: may not exist)
            unbatch(client)
        except AttributeError:
            return out
        out["dask1_unbatched_ms"] = median_ms(lambda: one.compute(optimize_graph=False).numpy(), args.repeat, warmup=2)
    return out


def unbatch(client: Client) -> None:
    """Turn off distributed's message batching (up to 10 ms on the client's stream, 5 ms on the scheduler's, 2 ms
    on a worker's) in this cluster: a diagnostic, through attributes Dask does not document."""
    client.run(_stream_interval, 0.0)
    client.run_on_scheduler(_scheduler_interval, 0.0)
    client.scheduler_comm.interval = 0.0


def _stream_interval(interval: float, dask_worker=None) -> None:
    dask_worker.batched_stream.interval = interval


def _scheduler_interval(interval: float, dask_scheduler=None) -> None:
    for comm in [*dask_scheduler.stream_comms.values(), *dask_scheduler.client_comms.values()]:
        comm.interval = interval


def _background_realise(on: bool) -> None:
    """Set ``kdsl.background-realise`` in this process's Dask config (run on the workers by client.run)."""
    dask.config.set({"kdsl.background-realise": on})


def _local_chunks(rows: int, args, devices: int = 1, chunk_rows: int = 0) -> list[list[kd.Array]]:
    """The rows in chunks of ``chunk_rows`` (default ``args.chunk_rows``) made in this process, chunk ``k`` on
    device ``k % devices`` (realised): one list per device that got any."""
    chunk_rows = chunk_rows or args.chunk_rows
    shards: list[list[kd.Array]] = [[] for _ in range(devices)]
    for k, start in enumerate(range(0, rows, chunk_rows)):
        with kd.device(k % devices):
            n = min(chunk_rows, rows - start)
            shards[k % devices].append(kd.random.default_rng(k).random((n, args.features), dtype=kd.float32))
    shards = [shard for shard in shards if shard]  # fewer chunks than devices: some stay idle
    for shard in shards:
        kd.realize(*shard)
    return shards


def _column_sums(chunks: list[kd.Array]) -> np.ndarray:
    """The column sums of chunks of one device, summed in one expression and read back."""
    total = chunks[0].sum(axis=0)
    for c in chunks[1:]:
        total = total + c.sum(axis=0)
    return total.numpy()


def run_threads(devices: int, rows: int, args) -> float:
    """Case 1 in one process: the same chunks as the Dask cases, split evenly over the devices, one thread per
    device summing its chunks (no Dask)."""
    shards = _local_chunks(rows, args, devices)
    with ThreadPoolExecutor(len(shards)) as pool:
        total = sum(pool.map(_column_sums, shards))
        np.testing.assert_allclose(total / rows, 0.5, atol=0.01)
        return median_ms(lambda: sum(pool.map(_column_sums, shards)), args.repeat, warmup=2)


def _warm() -> None:
    kd.realize(_random_block(0, {None: {"chunk-location": (0,), "chunk-shape": (8, 8)}}).sum(axis=0))


def worker_devices(client: Client) -> dict:
    """Each worker's ``KDSL_DEVICE`` and the device kdsl picked there (printed: two workers must not share one)."""
    def where() -> str:
        d = kd.device()
        return f"KDSL_DEVICE={os.environ.get('KDSL_DEVICE')} -> {d.index}: {d.name} {d.info['device_uuid']}"
    return client.run(where)


def run_plain(share_rows: int, chunk_rows: int, args) -> dict:
    """Case 3 in this process: one GPU's share as plain kdsl chunks (an array is at most one buffer, 4 GiB on many
    devices) summed in one expression, against Dask's threaded scheduler over the same chunks."""
    blocks = _local_chunks(share_rows, args, chunk_rows=chunk_rows)[0]
    out = {"plain_ms": median_ms(lambda: _column_sums(blocks), args.repeat, warmup=2), "chunks": len(blocks)}
    dx = kdd.from_chunks(blocks)
    total = column_sums(dx)
    out["build_ms"] = median_ms(lambda: column_sums(dx), args.repeat, warmup=2)
    for background in (False, True):
        with dask.config.set({"kdsl.background-realise": background}, scheduler="threads"):
            np.testing.assert_allclose(total.compute().numpy(), _column_sums(blocks), rtol=1e-4)
            key = "threads_ms" if background else "threads_off_ms"
            out[key] = median_ms(lambda: total.compute(optimize_graph=False).numpy(), args.repeat, warmup=2)
    return out


def case3(share_gb: float, chunk_mb: float, args) -> dict:
    """Case 3 at one GPU's share of ``share_gb`` in chunks of ``chunk_mb`` (0: ``kdsl.dask.chunk_bytes()``)."""
    row_bytes = 4 * args.features
    share_rows = int(share_gb * 1e9) // row_bytes
    chunk_rows = max(1, int(chunk_mb * 1e6 if chunk_mb else kdd.chunk_bytes()) // row_bytes)
    out = {"gb": share_rows * row_bytes / 1e9, "chunk_mb": chunk_rows * row_bytes / 1e6,
           **run_dask1(share_rows, chunk_rows, args), **run_plain(share_rows, chunk_rows, args)}
    print(f"  case 3 at {out['gb']:.3f} GB: plain {out['plain_ms']:.2f} ms, Dask 1 worker {out['dask1_ms']:.2f} ms, "
          f"threads {out['threads_ms']:.2f} ms", flush=True)
    return out


def print_case3(rows: list[dict]) -> None:
    print("\nreduction over one GPU's share, target <= 1.2x plain kdsl (background-realise off in parentheses):")
    print("share GB  chunks (MB)   plain ms   Dask 1 worker ms (x plain)             threaded scheduler ms (x plain)")
    for r in rows:
        base = r["plain_ms"]
        cells = [f"{on:8.2f} {on / base:6.2f}x ({off:.2f}, {off / base:.2f}x)"
                 for on, off in ((r["dask1_ms"], r["dask1_off_ms"]), (r["threads_ms"], r["threads_off_ms"]))]
        print(f"{r['gb']:8.3f} {r['chunks']:4d} ({r['chunk_mb']:6.0f}) {base:9.2f}   {cells[0]:38s} {cells[1]}")
    print("(Dask 1 worker with distributed's message batching off, a diagnostic: "
          + ", ".join(f"{r['dask1_unbatched_ms']:.2f} ms at {r['gb']:.3f} GB" for r in rows) + ")")
    print("(building the Dask reduction's graph, not timed above: "
          + ", ".join(f"{r['build_ms']:.2f} ms at {r['gb']:.3f} GB" for r in rows) + ")")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--share-gb", type=float, default=16.0, help="one GPU's share of the data, GB (default 16)")
    p.add_argument("--features", type=int, default=256)
    p.add_argument("--chunk-mb", type=float, default=1024.0, help="chunk size, MB (default 1024)")
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--large-gb", type=float, default=32.0,
                   help="case 3 again at this share of one GPU, GB (default 32; 0 skips it)")
    p.add_argument("--large-chunk-mb", type=float, default=0.0,
                   help="its chunk size, MB (default 0: kdsl.dask.chunk_bytes(), the largest chunk the device holds)")
    args = p.parse_args()
    n_dev = len(kd.devices())
    if n_dev < 2:
        sys.exit("needs two devices (on one GPU, try KDSL_VIRTUAL_DEVICES=2 for a smoke test)")
    row_bytes = 4 * args.features
    share_rows = int(args.share_gb * 1e9) // row_bytes
    rows = 2 * share_rows
    args.chunk_rows = max(1, int(args.chunk_mb * 1e6) // row_bytes)
    print(f"{kd.device().name}: data {rows} x {args.features} float32 ({rows * row_bytes / 1e9:.2f} GB), chunks of "
          f"{args.chunk_rows} rows, median of {args.repeat}", flush=True)
    one, two = run_cluster(1, rows, args), run_cluster(2, rows, args)
    np.testing.assert_allclose(two["sums"].numpy(), one["sums"].numpy(), rtol=1e-4)  # same data, same answer
    np.testing.assert_allclose(two["grad"].numpy(), one["grad"].numpy(), rtol=1e-3, atol=1e-2)
    t1, t2 = run_threads(1, rows, args), run_threads(2, rows, args)
    shares = [case3(args.share_gb, args.chunk_mb, args)]
    if args.large_gb > 0:
        shares.append(case3(args.large_gb, args.large_chunk_mb, args))
    print("\ncase                                         1 GPU ms   2 GPUs ms   speed-up (target >= 1.8)")
    print(f"chunked reduction, Dask workers          {one['reduce_ms']:12.2f} {two['reduce_ms']:11.2f} "
          f"{one['reduce_ms'] / two['reduce_ms']:10.2f}x")
    print(f"logistic-regression step, Dask workers   {one['step_ms']:12.2f} {two['step_ms']:11.2f} "
          f"{one['step_ms'] / two['step_ms']:10.2f}x")
    print(f"chunked reduction, threads, no Dask      {t1:12.2f} {t2:11.2f} {t1 / t2:10.2f}x")
    print_case3(shares)


if __name__ == "__main__":
    main()
