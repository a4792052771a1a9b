"""Scaled dot-product attention (issue 13): ``kd.nn.scaled_dot_product_attention`` as one fused kernel against
``torch.nn.functional.scaled_dot_product_attention`` on the same GPU when PyTorch and CUDA are there, and
against kdsl's composite path (matmul, mask, softmax, matmul: what ran before the fused kernel).

Workloads: MiniLM's attention, (batch 64, 12 heads, 128 tokens, head dim 32) with a key-padding mask
``(b, 1, 1, s)``, in float32 and float16; a causal (32, 4, 64, 32) float32 one. Every result is checked against
NumPy (float64) first, PyTorch's before kdsl's; then each runs ``--warmup`` untimed calls and ``--repeat``
synchronised ones, of which the median is reported. kdsl runs under ``kd.jit`` (one replayed plan per call).
``--profile`` also prints each kdsl kernel's time (``kd.profile``).

Run on a GPU:  python3 benchmarks/attention.py [--repeat 20] [--profile]
Smoke run:     python3 benchmarks/attention.py --small     (small shapes: lavapipe, CI)
"""

from __future__ import annotations

import argparse
import math
from typing import Any

import numpy as np
from dsl_common import median_ms, table, torch_module, torch_sync

import kdsl as kd
from kdsl.nn import attention as kd_attention

TOLERANCE = {"float32": 1e-4, "float16": 4e-3}


def workloads(small: bool) -> list[tuple[str, tuple[int, int, int, int], str, str]]:
    """(name, (batch, heads, seq, head_dim), dtype, mask kind: "padding" or "causal")."""
    if small:
        return [("MiniLM padding", (2, 3, 24, 32), "float32", "padding"),
                ("MiniLM padding", (2, 3, 24, 32), "float16", "padding"),
                ("causal", (2, 2, 20, 8), "float32", "causal")]
    return [("MiniLM padding", (64, 12, 128, 32), "float32", "padding"),
            ("MiniLM padding", (64, 12, 128, 32), "float16", "padding"),
            ("causal", (32, 4, 64, 32), "float32", "causal")]


def inputs(shape: tuple[int, int, int, int], dtype: str, kind: str) -> tuple[list[np.ndarray], np.ndarray | None]:
    """q, k, v and the key-padding mask (True: a real token; every sequence keeps at least half its tokens)."""
    rng = np.random.default_rng(0)
    b, h, s, d = shape
    qkv = [rng.standard_normal(shape).astype(dtype) for _ in range(3)]
    if kind != "padding":
        return qkv, None
    lengths = rng.integers(s // 2, s + 1, b)
    return qkv, (np.arange(s)[None, :] < lengths[:, None]).reshape(b, 1, 1, s)


def reference(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None, causal: bool) -> np.ndarray:
    q, k, v = (x.astype(np.float64) for x in (q, k, v))
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    if causal:
        mask = np.tril(np.ones(scores.shape[-2:], bool))
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    return (weights / weights.sum(-1, keepdims=True)) @ v


def check(name: str, who: str, got: np.ndarray, want: np.ndarray, dtype: str) -> None:
    err = float(np.max(np.abs(got.astype(np.float64) - want)))
    if got.shape != want.shape or not err <= TOLERANCE[dtype]:
        raise AssertionError(f"{name} {dtype}: {who} disagrees with NumPy: max error {err:.3g}, shapes "
                             f"{got.shape} vs {want.shape}")


def _torch_time(torch: Any, host: list[np.ndarray], mask: np.ndarray | None, causal: bool, want: np.ndarray,
                name: str, dtype: str, repeat: int, warmup: int) -> float:
    tq, tk, tv = (torch.from_numpy(x).to("cuda") for x in host)
    tm = torch.from_numpy(mask).to("cuda") if mask is not None else None
    f = torch.nn.functional.scaled_dot_product_attention

    def call() -> Any:
        return f(tq, tk, tv, attn_mask=tm, is_causal=causal)

    check(name, "torch", call().float().cpu().numpy(), want, dtype)
    return median_ms(call, repeat, warmup, sync=lambda: torch_sync(torch))


def run(name: str, shape: tuple[int, int, int, int], dtype: str, kind: str, repeat: int, warmup: int, torch: Any,
        prof: bool) -> list:
    host, mask = inputs(shape, dtype, kind)
    causal = kind == "causal"
    want = reference(*host, mask, causal)
    row: list = [name, "x".join(map(str, shape)), dtype]
    t_torch = None
    if torch is not None:
        t_torch = _torch_time(torch, host, mask, causal, want, name, dtype, repeat, warmup)
    q, k, v = (kd.asarray(x) for x in host)
    m = kd.asarray(mask) if mask is not None else None
    scale = 1 / math.sqrt(shape[-1])
    fused = kd.jit(lambda q, k, v, m: kd.nn.scaled_dot_product_attention(q, k, v, m, is_causal=causal))
    composite = kd.jit(lambda q, k, v, m: kd_attention._composite(q, k, v, m, 0.0, causal, scale, None))
    check(name, "kdsl", fused(q, k, v, m).numpy(), want, dtype)
    check(name, "kdsl composite", composite(q, k, v, m).numpy(), want, dtype)
    t_fused = median_ms(lambda: kd.realize(fused(q, k, v, m)), repeat, warmup)
    t_comp = median_ms(lambda: kd.realize(composite(q, k, v, m)), repeat, warmup)
    kernels = kd.explain(kd.nn.scaled_dot_product_attention(q, k, v, m, is_causal=causal)).count("kernel ")
    row += [kernels, t_fused, t_comp]
    if t_torch is not None:
        row += [t_torch, t_fused / t_torch]
    if prof:
        with kd.profile() as p:
            kd.realize(fused(q, k, v, m))
        print(f"\n{name} {shape} {dtype}:\n{p.table()}")
    return row


def main(argv: list[str] | None = None) -> list[list]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--small", action="store_true", help="small shapes (lavapipe, CI)")
    parser.add_argument("--profile", action="store_true", help="also print each kdsl kernel's time")
    parser.add_argument("--no-torch", action="store_true", help="kdsl only")
    args = parser.parse_args(argv)
    torch = None if args.no_torch else torch_module()
    if torch is not None and not torch.cuda.is_available():  # PyTorch is the GPU peer only
        torch = None
    rows = [run(name, shape, dtype, kind, args.repeat, args.warmup, torch, args.profile)
            for name, shape, dtype, kind in workloads(args.small)]
    header = ["workload", "b x h x s x d", "dtype", "kernels", "kdsl ms", "composite ms"]
    header += ["torch ms", "kdsl/torch"] if torch is not None else []
    table(f"scaled_dot_product_attention, median of {args.repeat} after {args.warmup} warm-up calls (kd.jit)",
          header, rows)
    return rows


if __name__ == "__main__":
    main()
