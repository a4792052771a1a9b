"""Matmul kernels alone: GPU time per call (Vulkan timestamps from ``KDSL_DEBUG=1``, so host overhead is left
out) for the shapes of the MLP and MiniLM benchmarks and large squares, with the second operand contiguous or
transposed (``x @ W.T``) and the first transposed (``X.T @ G``), against PyTorch's matmul timed with CUDA events.
Each product is checked against PyTorch's first; medians of 5 (kdsl) and 7 (PyTorch) after two warm-up calls.

    python3 benchmarks/matmul_sweep.py                  # the ML shapes, float32 and float16
    python3 benchmarks/matmul_sweep.py --big --dtypes float32
    python3 benchmarks/matmul_sweep.py --small             # a smoke run (lavapipe)
    python3 benchmarks/matmul_sweep.py --big --dtypes float16 --coop-tile 128x128 --coop-depth 4   # a variant
    python3 benchmarks/matmul_sweep.py --dtypes float16 --coop-warps 64x128:4   # 64 x 128 tiles with 4 warps
    python3 benchmarks/matmul_sweep.py --dtypes float32 --rect-groups 100000   # no 128 x 64 float32 tiles

``--coop-tile BMxBN`` gives every cooperative-matrix product whose grid of such tiles has at least 132
workgroups that tile, and ``--coop-depth D`` every coopmat kernel ``D`` fragment depths per k slice: the
variants RESULTS.md compares (each product is still checked against PyTorch first). ``--coop-warps
BMxBN:W,...`` runs those tiles with ``W`` warps (``kdsl.codegen.coopmat.WARPS``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import statistics

import numpy as np
from dsl_common import kd, table, torch_module

ML = [(512, 1024, 784), (512, 1024, 1024), (512, 10, 1024), (1024, 1024, 512), (8192, 1152, 384),
      (8192, 1536, 384), (8192, 384, 1536), (8192, 384, 384)]
BIG = [(1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096), (8192, 8192, 8192)]
SMALL = [(64, 40, 48)]


def gpu_ms(fn) -> float:
    """Median GPU time of one call of ``fn`` (the sum of its kernels' timestamps)."""
    fn()
    fn()
    out = io.StringIO()
    before = os.environ.get("KDSL_DEBUG")
    os.environ["KDSL_DEBUG"] = "1"
    try:
        with contextlib.redirect_stdout(out):
            for _ in range(5):
                fn()
    finally:
        if before is None:
            del os.environ["KDSL_DEBUG"]
        else:
            os.environ["KDSL_DEBUG"] = before
    batches = out.getvalue().split("batch of")[:-1]
    return statistics.median(sum(float(t) for t in re.findall(r"\] \w+ workgroups[^:]*: ([0-9.]+) ms", b))
                             for b in batches)


def torch_ms(torch, a, b) -> float:
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a @ b
    a @ b
    times = []
    for _ in range(7):
        start.record()
        a @ b
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def row(torch, dtype: str, m: int, n: int, k: int) -> list:
    rng = np.random.default_rng(0)
    ha, hb = rng.uniform(-1, 1, (m, k)).astype(dtype), rng.uniform(-1, 1, (k, n)).astype(dtype)
    layouts = {"a @ b": (kd.asarray(ha), kd.asarray(hb)),
               "a @ W.T": (kd.asarray(ha), kd.asarray(np.ascontiguousarray(hb.T)).T),
               "X.T @ b": (kd.asarray(np.ascontiguousarray(ha.T)).T, kd.asarray(hb))}
    ta = tb = None
    if torch is not None:
        ta, tb = torch.from_numpy(ha).cuda(), torch.from_numpy(hb).cuda()
        want = (ta.float() @ tb.float()).cpu().numpy()
    else:
        want = ha.astype(np.float32) @ hb.astype(np.float32)
    times = []
    for a, b in layouts.values():
        got = (a @ b).astype(kd.float32).numpy()
        np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-2 * max(1.0, k ** 0.5 / 4))
        times.append(gpu_ms(lambda a=a, b=b: kd.realize(a @ b)))
    t_torch = torch_ms(torch, ta, tb) if torch is not None else float("nan")
    tflops = 2 * m * n * k / 1e9
    return [f"{dtype} {m}x{n}x{k}", *times, t_torch, tflops / times[0], tflops / t_torch, times[0] / t_torch]


def add_tile_arguments(parser: argparse.ArgumentParser) -> None:
    """``--rect-groups``/``--big-groups``: the tiled kernel's grid thresholds for one run (minilm.py too)."""
    parser.add_argument("--rect-groups", type=int, default=None,
                        help="grid size from which float32 products take 128 x 64 tiles (matmul.RECT_GROUPS)")
    parser.add_argument("--big-groups", type=int, default=None,
                        help="grid size from which products take 128 x 128 tiles (matmul.BIG_TILE_GROUPS and "
                             "BIG_TILE_GROUPS_F32)")


def tile_variant(args: argparse.Namespace) -> None:
    """Apply :func:`add_tile_arguments`' options for this process (plans made after this)."""
    from kdsl.codegen import matmul
    if args.rect_groups is not None:
        matmul.RECT_GROUPS = args.rect_groups
    if args.big_groups is not None:
        matmul.BIG_TILE_GROUPS = matmul.BIG_TILE_GROUPS_F32 = args.big_groups


def coop_variant(tile: str | None, depth: int | None, warps: str | None = None) -> None:
    """Replace the coopmat kernel's tile choice, slice depth and warps per tile for this process (plans made
    after this)."""
    from kdsl.codegen import coopmat
    for item in (warps or "").split(","):
        if item:
            shape, count = item.split(":")
            bm, bn = map(int, shape.split("x"))
            coopmat.WARPS[(bm, bn)] = int(count)
    if depth is not None:
        coopmat.depth_fragments = lambda bm, bn: depth
    if tile is not None:
        bm, bn = map(int, tile.split("x"))
        choose = coopmat.tile

        def variant(coop, batch, m, n, k):
            default = choose(coop, batch, m, n, k)
            forced = (*coop[:4], bm, bn, *([coopmat.WARPS[(bm, bn)]] if (bm, bn) in coopmat.WARPS else []))
            return forced if batch * -(-m // bm) * -(-n // bn) >= 132 else default
        coopmat.tile = variant


def main(argv: list[str] | None = None) -> list[list]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", action="store_true", help="large squares instead of the ML shapes")
    parser.add_argument("--small", action="store_true", help="one small shape (a smoke run for CPU drivers)")
    parser.add_argument("--dtypes", default="float32,float16")
    parser.add_argument("--coop-tile", help="BMxBN: a cooperative-matrix tile variant (see the docstring)")
    parser.add_argument("--coop-depth", type=int, help="fragment depths per k slice of every coopmat kernel")
    parser.add_argument("--coop-warps", help="BMxBN:W,...: tiles run with W warps (see the docstring)")
    add_tile_arguments(parser)
    args = parser.parse_args(argv)
    tile_variant(args)
    coop_variant(args.coop_tile, args.coop_depth, args.coop_warps)
    torch = torch_module()
    if torch is not None and not torch.cuda.is_available():
        torch = None
    shapes = SMALL if args.small else BIG if args.big else ML
    rows = [row(torch, d, *shape) for d in args.dtypes.split(",") for shape in shapes]
    table("matmul kernels, GPU ms per call (kdsl: Vulkan timestamps; torch: CUDA events)",
          ["shape", "kdsl a @ b", "kdsl a @ W.T", "kdsl X.T @ b", "torch", "kdsl TFLOP/s", "torch TFLOP/s",
           "kdsl / torch"], rows)
    return rows


if __name__ == "__main__":
    main()
