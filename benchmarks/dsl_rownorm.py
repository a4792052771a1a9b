"""Row normalisers on float32 rows: softmax, log_softmax, layer_norm and rms_norm (one RowNorm kernel each,
see docs/reductions.md), under kd.jit, against PyTorch eager when importable (median of synchronised calls,
results checked against NumPy first).

Run: python benchmarks/dsl_rownorm.py [--rows 8192 --cols 8192] [--repeat 20]
"""

from __future__ import annotations

import argparse

import numpy as np
from dsl_common import median_ms, table, torch_device, torch_module, torch_sync

import kdsl as kd


def _numpy(name: str, x: np.ndarray) -> np.ndarray:
    if name in ("softmax", "log_softmax"):
        s = x - x.max(-1, keepdims=True)
        ls = s - np.log(np.exp(s).sum(-1, keepdims=True))
        return ls if name == "log_softmax" else np.exp(ls)
    if name == "layer_norm":
        c = x - x.mean(-1, keepdims=True)
        return c / np.sqrt((c * c).mean(-1, keepdims=True) + 1e-5)
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-6)


def _kdsl(name: str, n: int):
    if name == "layer_norm":
        return lambda x: kd.nn.layer_norm(x, n)
    if name == "rms_norm":
        return lambda x: kd.nn.rms_norm(x, n, eps=1e-6)
    return getattr(kd.nn, name)


def _torch(torch, name: str, n: int):
    f = torch.nn.functional
    if name == "layer_norm":
        return lambda x: f.layer_norm(x, (n,))
    if name == "rms_norm":  # PyTorch's own kernel where it has one (2.4+), else the formula in three ops
        if hasattr(f, "rms_norm"):
            return lambda x: f.rms_norm(x, (n,), eps=1e-6)
        return lambda x: x * torch.rsqrt((x * x).mean(-1, keepdim=True) + 1e-6)
    return lambda x: getattr(f, name)(x, dim=-1)


def main(rows: int, cols: int, repeat: int) -> None:
    host = (np.random.default_rng(0).standard_normal((rows, cols)) * 4).astype(np.float32)
    x = kd.asarray(host)
    torch = torch_module()
    tx = torch.from_numpy(host).to(torch_device(torch)) if torch is not None else None
    out = []
    for name in ("softmax", "log_softmax", "layer_norm", "rms_norm"):
        f = kd.jit(_kdsl(name, cols))
        np.testing.assert_allclose(f(x).numpy(), _numpy(name, host), rtol=1e-3, atol=1e-4)
        kernels = kd.explain(_kdsl(name, cols)(x)).count("kernel ")
        t_kd = median_ms(lambda f=f: kd.realize(f(x)), repeat, warmup=3)
        row = [name, kernels, t_kd, 2 * host.nbytes / (t_kd * 1e-3) / 1e9]
        if torch is not None:
            g = _torch(torch, name, cols)
            np.testing.assert_allclose(g(tx).cpu().numpy(), _numpy(name, host), rtol=1e-3, atol=1e-4)  # checked too
            t_torch = median_ms(lambda g=g: g(tx), repeat, warmup=3, sync=lambda: torch_sync(torch))
            row += [t_torch, t_kd / t_torch]
        out.append(row)
    header = ["op", "kernels", "kdsl ms", "kdsl GB/s (read+write)"] + (["torch ms", "kdsl/torch"] if torch else [])
    table(f"row normalisers over {rows}x{cols} float32 (kd.jit)", header, out)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=8192)
    parser.add_argument("--cols", type=int, default=8192)
    parser.add_argument("--repeat", type=int, default=20)
    a = parser.parse_args()
    main(a.rows, a.cols, a.repeat)
