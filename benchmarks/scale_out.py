"""Scaling out: one GPU against two, through Dask (one worker process per GPU) and through threads in one process,
and the cost of Dask on one GPU against plain kdsl.

Cases (medians of ``--repeat`` timed runs after two warm-ups; every result checked):

1. a chunked reduction (column sums) over data twice one GPU's share (``2 * --share-gb``), on 1 and on 2 GPUs;
2. one distributed logistic-regression step (``X @ w``, sigmoid, ``X.T @ r``) over the same data, 1 and 2 GPUs;
3. the reduction over one GPU's share: plain kdsl (one array) against Dask with one worker on that GPU and Dask's
   threaded scheduler in this process (same chunks). Each Dask path is timed twice: as kdsl.dask runs it (stored
   results computed on a background thread while the next tasks run) and with ``kdsl.background-realise`` off
   (each result computed as it is stored: the worker, and the device, wait for each other). Every case reads its
   result back to the host; Dask's graphs are built once, outside the timing (as a training loop would not:
   ``build`` reports what building the reduction's graph costs).

The data is made on the workers' devices (``kd.random``), never shipped from the client. Targets (issue 14):
2 GPUs >= 1.8x faster than 1 for cases 1 and 2; Dask on one GPU <= 1.2x plain kdsl for case 3.

Run (two GPUs):   python benchmarks/scale_out.py
Smoke test (CPU): KDSL_VIRTUAL_DEVICES=2 python benchmarks/scale_out.py --share-gb 0.004 --features 16 --repeat 3
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


def run_cluster(workers: int, rows: int, share_rows: int, args) -> dict:
    """Cases 1 and 2 on ``workers`` GPUs (and case 3's Dask time on one)."""
    out: dict = {}
    with kdd.LocalVulkanCluster(n_workers=workers, devices=list(range(workers)), silence_logs=40) as cluster, \
            Client(cluster) as client:
        client.run(_warm)  # every worker opens its device and builds the data kernel before any chunk is placed
        x, y = make_data(rows, args.features, args.chunk_rows)
        addrs = sorted(client.scheduler_info()["workers"])
        # chunk i (of X and of y) on worker i % n: Dask's own placement gave one worker 6 of 8 chunks on the H200
        with dask.annotate(workers=lambda key: [addrs[key[1] % len(addrs)]] if isinstance(key, tuple) else None):
            x, y = client.persist([x, y], optimize_graph=False)
        wait([x, y])
        x_keys = {str(k) for k in dask.core.flatten(x.__dask_keys__())}
        per_worker = sorted(sum(str(k) in x_keys for k in keys) for keys in client.has_what().values())
        print(f"  workers: {sorted(worker_devices(client).values())}", flush=True)
        w = kd.full(args.features, 0.01)
        sums = x.sum(axis=0)
        out["sums"] = sums.compute()
        out["grad"] = gradient(x, y, w).compute()
        out["reduce_ms"] = median_ms(lambda: sums.compute(), args.repeat, warmup=2)
        step = lambda: (w - 0.1 * gradient(x, y, w).compute() / rows).numpy()  # noqa: E731
        out["step_ms"] = median_ms(step, args.repeat, warmup=2)
        check_subset(x, y, out["sums"], out["grad"], rows)
        print(f"  {workers} GPU(s): X chunks per worker {per_worker}; reduction {out['reduce_ms']:.2f} ms, "
              f"step {out['step_ms']:.2f} ms", flush=True)
        if workers == 1:
            del x, y
            x1 = client.persist(make_data(share_rows, args.features, args.chunk_rows)[0])
            wait(x1)
            one = x1.sum(axis=0)
            out["share_sums"] = one.compute()
            for background in (False, True):  # the default (True) last: the cluster is left as it runs
                client.run(_background_realise, background)
                key = "dask1_ms" if background else "dask1_off_ms"
                out[key] = median_ms(lambda: one.compute().numpy(), args.repeat, warmup=2)
    return out


def _background_realise(on: bool) -> None:
    """Set ``kdsl.background-realise`` in this process's Dask config (run on the workers by client.run)."""
    dask.config.set({"kdsl.background-realise": on})


def _local_chunks(rows: int, args, devices: int = 1) -> list[list[kd.Array]]:
    """The rows in chunks of ``args.chunk_rows`` made in this process, chunk ``k`` on device ``k % devices``
    (realised): one list per device that got any."""
    shards: list[list[kd.Array]] = [[] for _ in range(devices)]
    for k, start in enumerate(range(0, rows, args.chunk_rows)):
        with kd.device(k % devices):
            n = min(args.chunk_rows, rows - start)
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


def run_plain(share_rows: int, args) -> dict:
    """Case 3 in this process: one GPU's share as plain kdsl chunks (an array is at most one buffer, 4 GiB on many
    devices) summed in one expression, against Dask's threaded scheduler over the same chunks."""
    blocks = _local_chunks(share_rows, args)[0]
    out = {"plain_ms": median_ms(lambda: _column_sums(blocks), args.repeat, warmup=2)}
    dx = da.concatenate([da.from_array(b, chunks=b.shape, asarray=False) for b in blocks])
    total = dx.sum(axis=0)
    out["build_ms"] = median_ms(lambda: dx.sum(axis=0), args.repeat, warmup=2)
    for background in (False, True):
        with dask.config.set({"kdsl.background-realise": background}, scheduler="threads"):
            np.testing.assert_allclose(total.compute().numpy(), _column_sums(blocks), rtol=1e-4)
            key = "threads_ms" if background else "threads_off_ms"
            out[key] = median_ms(lambda: total.compute().numpy(), args.repeat, warmup=2)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--share-gb", type=float, default=16.0, help="one GPU's share of the data, GB (default 16)")
    p.add_argument("--features", type=int, default=256)
    p.add_argument("--chunk-mb", type=float, default=1024.0, help="chunk size, MB (default 1024)")
    p.add_argument("--repeat", type=int, default=7)
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
    one, two = run_cluster(1, rows, share_rows, args), run_cluster(2, rows, share_rows, args)
    np.testing.assert_allclose(two["sums"].numpy(), one["sums"].numpy(), rtol=1e-4)  # same data, same answer
    np.testing.assert_allclose(two["grad"].numpy(), one["grad"].numpy(), rtol=1e-3, atol=1e-2)
    t1, t2 = run_threads(1, rows, args), run_threads(2, rows, args)
    plain = run_plain(share_rows, args)
    print("\ncase                                         1 GPU ms   2 GPUs ms   speed-up (target >= 1.8)")
    print(f"chunked reduction, Dask workers          {one['reduce_ms']:12.2f} {two['reduce_ms']:11.2f} "
          f"{one['reduce_ms'] / two['reduce_ms']:10.2f}x")
    print(f"logistic-regression step, Dask workers   {one['step_ms']:12.2f} {two['step_ms']:11.2f} "
          f"{one['step_ms'] / two['step_ms']:10.2f}x")
    print(f"chunked reduction, threads, no Dask      {t1:12.2f} {t2:11.2f} {t1 / t2:10.2f}x")
    base = plain["plain_ms"]
    print(f"\nreduction over one GPU's share ({share_rows} rows), target <= 1.2x plain kdsl "
          f"({base:.2f} ms):")
    print("path                              ms   x plain   (background-realise off: ms, x plain)")
    for name, on, off in (("Dask, 1 worker", one["dask1_ms"], one["dask1_off_ms"]),
                          ("Dask, threaded scheduler", plain["threads_ms"], plain["threads_off_ms"])):
        print(f"{name:26s} {on:10.2f} {on / base:8.2f}x   ({off:.2f} ms, {off / base:.2f}x)")
    print(f"(building the Dask reduction's graph, not timed above: {plain['build_ms']:.2f} ms)")


if __name__ == "__main__":
    main()
