"""float32 exponentials and logarithms: kdsl's own float32 code (``kdsl.codegen.float32_exp_log``, about one
ulp) against PyTorch on the same GPU, NumPy on the CPU and, with ``--builtin``, kdsl with GLSL's built-in
``exp``/``log`` (fast, but only absolutely accurate near 1 and flushing subnormals), the code before it.

Each row: the median of ``--repeat`` synchronised calls after three warm-ups, one function on ``2**log2n``
floats; every implementation's result is checked against NumPy first (the built-ins' largest relative error is
printed instead). Run:
``python3 benchmarks/dsl_unary.py [--log2n 26] [--builtin]``
"""

from __future__ import annotations

import argparse

import numpy as np
from dsl_common import median_ms, table, torch_device, torch_module, torch_sync

import kdsl as kd

FUNCS = ("exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "tanh", "sinh", "sigmoid")
# the inputs: where each function is finite and interesting
DOMAIN = {"log": (1e-3, 1e3), "log2": (1e-3, 1e3), "log10": (1e-3, 1e3), "log1p": (-0.5, 1e3)}


def _builtin() -> None:
    """GLSL's built-ins in place of kdsl's float32 helpers (the code before them), for comparison."""
    from kdsl.codegen import ops
    ops._FLOAT_FUNCS.update({"exp": "exp({0})", "exp2": "exp2({0})", "log": "log({0})", "log2": "log2({0})",
                             "log10": "(log2({0}) * 0.30102999566398120)",
                             "sigmoid": "(1.0 / (1.0 + exp(-({0}))))"})


def _numpy(name: str, x: np.ndarray) -> np.ndarray:
    if name == "sigmoid":
        return 1 / (1 + np.exp(-x))
    return getattr(np, name)(x)


def row(name: str, n: int, repeat: int, torch, rtol: float) -> list:
    """One table row: ``name`` on ``n`` floats, each result checked against NumPy within ``rtol``."""
    lo, hi = DOMAIN.get(name, (-20.0, 20.0))
    host = np.random.default_rng(0).uniform(lo, hi, n).astype(np.float32)
    a = kd.asarray(host)
    fn = kd.sigmoid if name == "sigmoid" else getattr(kd, name)
    want = _numpy(name, host)
    got = fn(a).numpy()
    if rtol:  # (--builtin reports the built-ins' error instead: 4% near 1 for log on an H200)
        np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-30)
    worst = float(np.max(np.abs(got.astype(np.float64) - want) / np.maximum(np.abs(want), 1e-30)))
    t_kd = median_ms(lambda: kd.realize(fn(a)), repeat, warmup=3)
    t_np = median_ms(lambda: _numpy(name, host), 3, warmup=1)
    out = [name, t_kd, t_np, f"{worst:.1e}"]
    if torch is not None:
        ta = torch.from_numpy(host).to(torch_device(torch))
        tf = getattr(torch, name)
        np.testing.assert_allclose(tf(ta).cpu().numpy(), want, rtol=2e-6, atol=1e-30)
        t_torch = median_ms(lambda: tf(ta), repeat, warmup=3, sync=lambda: torch_sync(torch))
        out += [t_torch, t_kd / t_torch]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--log2n", type=int, default=26)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--builtin", action="store_true", help="GLSL's built-in exp/log (checked at 1e-4)")
    args = parser.parse_args()
    if args.builtin:
        _builtin()
    torch = torch_module()
    rows = []
    for name in FUNCS:
        rows.append(row(name, 2 ** args.log2n, args.repeat, torch, 0.0 if args.builtin else 2e-6))
    header = ["function", "kdsl ms", "numpy ms", "kdsl max rel err"]
    header += ["torch ms", "kdsl/torch"] if torch is not None else []
    what = "GLSL built-ins" if args.builtin else "kdsl's float32 code"
    table(f"float32 unary functions of 2**{args.log2n} values, {what}", header, rows)


if __name__ == "__main__":
    main()
