"""Float16 kernels' GPU time with the device's float16 conversion bodies (kdsl.engine.half_probe picks them; run
again with ``KDSL_HARDWARE_HALF=0`` for the portable ones): MiniLM's residual layer norm (8192 x 384 halves plus
a product and a bias, normalised in float32, stored as float16) and ``x + y`` of 2^24 halves, each kernel's
time from Vulkan timestamps (``KDSL_DEBUG=1``), medians; PyTorch eager's wall time for the same ops beside
them when importable (results checked against NumPy first, both warmed up alike).

Run: python benchmarks/half_kernels.py [--repeat 7]   and   KDSL_HARDWARE_HALF=0 python benchmarks/half_kernels.py
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np
from dsl_common import kernel_times, median_ms, table, torch_device, torch_module, torch_sync

import kdsl as kd
from kdsl import nn
from kdsl.engine import half_probe


def kernel_ms(fn, repeat: int) -> float:
    """Median GPU time of ``fn``'s kernels (summed per call), after three untimed calls (as the peer's warm-up)."""
    for _ in range(3):
        fn()
    return statistics.median(sum(ms for _, ms in kernel_times(fn)) for _ in range(repeat))


def layer_norm_case(rng, torch):
    x, y = (rng.standard_normal((8192, 384)).astype(np.float16) for _ in range(2))
    bias = rng.standard_normal(384).astype(np.float16)
    w, b = rng.standard_normal(384).astype(np.float32), rng.standard_normal(384).astype(np.float32)
    s = (x + (y + bias)).astype(np.float32)
    want = ((s - s.mean(-1, keepdims=True)) / np.sqrt(s.var(-1, keepdims=True) + 1e-12) * w + b).astype(np.float16)
    kw, kb, kbias = kd.asarray(w), kd.asarray(b), kd.asarray(bias)
    f = kd.jit(lambda x, y: nn.layer_norm((x + (y + kbias)).astype(kd.float32), (384,), kw, kb, 1e-12)
               .astype(kd.float16))
    args = (kd.asarray(x), kd.asarray(y))
    peer = None
    if torch is not None:
        dev = torch_device(torch)
        tx, ty, tbias, tw, tb = (torch.from_numpy(a).to(dev) for a in (x, y, bias, w, b))
        def peer():
            return (torch.nn.functional.layer_norm((tx + (ty + tbias)).float(), (384,), tw, tb, 1e-12).half())
    return "residual layer norm 8192x384", f, args, want, peer


def add_case(rng, torch):
    x, y = (rng.standard_normal(1 << 24).astype(np.float16) for _ in range(2))
    peer = None
    if torch is not None:
        tx, ty = (torch.from_numpy(a).to(torch_device(torch)) for a in (x, y))
        def peer():
            return (tx + ty)
    return "x + y, 2^24", kd.jit(lambda a, b: a + b), (kd.asarray(x), kd.asarray(y)), x + y, peer


def main(repeat: int) -> None:
    torch = torch_module()
    rng = np.random.default_rng(0)
    rows = []
    for name, f, args, want, peer in (layer_norm_case(rng, torch), add_case(rng, torch)):
        np.testing.assert_allclose(f(*args).numpy().astype(np.float32), want.astype(np.float32), rtol=2e-3,
                                   atol=2e-3)
        row = [name, kernel_ms(lambda f=f, args=args: kd.realize(f(*args)), repeat)]
        if peer is not None:
            np.testing.assert_allclose(peer().float().cpu().numpy(), want.astype(np.float32), rtol=2e-3, atol=2e-3)
            row.append(median_ms(peer, repeat, warmup=3, sync=lambda: torch_sync(torch)))
        rows.append(row)
    picked = sorted(half_probe.conversions(kd.device())) or ["none (portable bodies)"]
    table(f"float16 kernels, GPU ms (hardware conversions: {', '.join(picked)})",
          ["workload", "kdsl kernel ms"] + (["torch eager wall ms"] if torch is not None else []), rows)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7)
    main(parser.parse_args().repeat)
