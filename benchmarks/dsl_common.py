"""Shared helpers for the DSL benchmarks: timing (best of several runs after a warm-up), a table printer, and
the optional PyTorch reference."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

import kdsl as kd  # noqa: E402


def median_ms(fn, repeat: int = 10, warmup: int = 0, sync=None) -> float:
    """The median of ``repeat`` timed calls of ``fn``, in milliseconds, after ``warmup`` untimed ones; ``sync``
    (e.g. ``torch.cuda.synchronize``) runs after each call, inside the timing, and after the warm-up."""
    for _ in range(warmup):
        fn()
    if sync is not None:
        sync()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        if sync is not None:
            sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def kernel_times(fn) -> list[tuple[str, float]]:
    """Each kernel launch of one call of ``fn`` as ``(kind and workgroups, GPU ms)``, from the Vulkan timestamps
    ``KDSL_DEBUG=1`` records around every launch (no submit or host time in them)."""
    text = io.StringIO()
    os.environ["KDSL_DEBUG"] = "1"
    try:
        with contextlib.redirect_stdout(text):
            fn()
    finally:
        del os.environ["KDSL_DEBUG"]
    found = re.findall(r"^\[kdsl\] (\w+ workgroups \(.*\)): ([0-9.]+) ms$", text.getvalue(), re.M)
    return [(name, float(ms)) for name, ms in found]


def timed(call, sync, warmup: int, warmup_s: float, repeat: int) -> float:
    """Median ms of ``repeat`` synchronised calls after the same warm-up for everyone."""
    t_end = time.perf_counter() + warmup_s
    done = 0
    while done < warmup or time.perf_counter() < t_end:
        sync(call())
        done += 1
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        sync(call())
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def best_ms(fn, repeat: int = 5, warmup: int = 1) -> float:
    """The fastest of ``repeat`` timed calls, in milliseconds (after ``warmup`` untimed calls)."""
    for _ in range(warmup):
        fn()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1e3


def torch_module():
    """PyTorch (and its device) when importable, else None."""
    try:
        import torch
    except ImportError:
        return None
    return torch


def torch_sync(torch):
    if torch is not None and torch.cuda.is_available():
        torch.cuda.synchronize()


def torch_device(torch) -> str:
    return "cuda" if torch.cuda.is_available() else "cpu"


def table(title: str, header: list[str], rows: list[list]) -> None:
    """Print a fixed-width table."""
    print(f"\n{title}  [device: {kd.device().name}]")
    cells = [[str(c) if not isinstance(c, float) else f"{c:.3f}" for c in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(header)]
    print("  ".join(h.rjust(w) for h, w in zip(header, widths, strict=True)))
    for r in cells:
        print("  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)))


def peer_parser(doc: str, peers: str, workloads: str = "") -> argparse.ArgumentParser:
    """The options the peer benchmarks share (ml_peers.py, ml_training.py): --small, --peers (``peers``: the
    comma-separated names), --only, --repeat, --warmup and --warmup-s (the same warm-up for every peer)."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--small", action="store_true", help="tiny sizes, NumPy as a peer (smoke run)")
    parser.add_argument("--peers", default="", help=f"comma-separated subset of: {peers},numpy (default: all but "
                                                     "numpy; with --small: numpy)")
    parser.add_argument("--only", default="", help="comma-separated texts: run only workloads whose name contains "
                                                    f"one of them{workloads}")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--warmup-s", type=float, default=1.0)
    return parser
