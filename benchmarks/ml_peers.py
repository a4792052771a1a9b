"""kdsl against the ML frameworks on the workloads of issue 12: matmul (float16 and float32), a logistic
regression training step, softmax over rows, a full sum, and the host overhead of a tiny round trip and of a
``kd.jit`` replay.

Peers: PyTorch eager, ``torch.compile``, CuPy, JAX (``jax.jit``), and NumPy with ``--peers numpy`` or
``--small``. A peer that is not installed (or has no GPU, for CuPy) is skipped with a message. Every
implementation's result is checked against PyTorch's (NumPy's when PyTorch is absent) before it is timed;
then each runs the same warm-up (``--warmup`` calls, and at least ``--warmup-s`` seconds: GPU clocks ramp
up) and ``--repeat`` synchronised calls, of which the median is reported. The last column is kdsl's time over
the best peer's (below 1: kdsl is faster).

Run on a GPU:   python3 benchmarks/ml_peers.py                  (every workload, full size)
                python3 benchmarks/ml_peers.py --only matmul    (workloads whose name contains a word)
Smoke run:      python3 benchmarks/ml_peers.py --small          (tiny sizes, NumPy as a peer: lavapipe, CI)
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from dsl_common import peer_parser, table, timed

import kdsl as kd


# ----- peers: each turns host arrays into its own, runs, synchronises, and brings a result back -----
@dataclass
class Peer:
    name: str
    put: Callable[[np.ndarray], Any]  # host array -> the peer's array (on its device)
    sync: Callable[[Any], None]  # wait until a result is computed
    get: Callable[[Any], np.ndarray]  # the peer's array -> host
    xp: Any = None  # the array namespace (kd, torch, cupy, jax.numpy, numpy)
    jit: Callable[[Callable], Callable] = field(default=lambda f: f)  # compile a step function, if the peer can


def kdsl_peer() -> Peer:
    return Peer("kdsl", kd.asarray, lambda r: kd.realize(*(r if isinstance(r, tuple) else (r,))),
                lambda r: r.numpy(), kd, kd.jit)


def numpy_peer() -> Peer:
    return Peer("numpy", np.asarray, lambda r: None, np.asarray, np)


def torch_peers(compiled: bool) -> list[Peer]:
    try:
        import torch
    except ImportError:
        print("skipped: PyTorch is not installed (pip install torch)")
        return []
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    if dev == "cpu":
        print("note: PyTorch has no GPU here; its rows run on the CPU")

    def sync(r: Any) -> None:
        if dev == "cuda":
            torch.cuda.synchronize()

    def get(r: Any) -> np.ndarray:
        return r.detach().float().cpu().numpy() if r.dtype == torch.float16 else r.detach().cpu().numpy()

    # (a.copy(): np.ascontiguousarray turns a 0-d array into shape (1,))
    peers = [Peer("torch", lambda a: torch.from_numpy(a.copy(order="C")).to(dev), sync, get, torch)]
    if compiled:
        peers.append(Peer("torch.compile", peers[0].put, sync, get, torch, torch.compile))
    return peers


def cupy_peer() -> list[Peer]:
    try:
        import cupy
        cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # not installed, or no CUDA device
        print(f"skipped: CuPy is not usable here ({type(exc).__name__}: {exc})")
        return []
    return [Peer("cupy", cupy.asarray, lambda r: cupy.cuda.Device().synchronize(), cupy.asnumpy, cupy)]


def jax_peer() -> list[Peer]:
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        print("skipped: JAX is not installed (pip install jax)")
        return []

    def sync(r: Any) -> None:
        jax.block_until_ready(r)

    return [Peer("jax", jnp.asarray, sync, lambda r: np.asarray(r), jnp, jax.jit)]


# ----- workloads: (name, host inputs, function of (peer, its inputs) returning a zero-argument call) -----
def _sigmoid(xp: Any, z: Any) -> Any:
    return xp.sigmoid(z) if hasattr(xp, "sigmoid") else 1 / (1 + xp.exp(-z))


def logreg_step(xp: Any, x: Any, y: Any, w: Any, b: Any) -> tuple[Any, Any]:
    """One batch gradient-descent step of logistic regression (the lr 0.5 of dsl_logreg.py)."""
    dz = _sigmoid(xp, x @ w + b) - y
    return w - 0.5 * ((x.T @ dz) / x.shape[0]), b - 0.5 * dz.mean()


def softmax_rows(xp: Any, x: Any) -> Any:
    """``scipy.special.softmax(x, axis=1)``: the row max subtracted first, as every framework does."""
    if getattr(xp, "__name__", "") == "torch":  # torch's max(axis) returns (values, indices)
        e = xp.exp(x - x.amax(dim=1, keepdim=True))
        return e / e.sum(dim=1, keepdim=True)
    e = xp.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@dataclass
class Workload:
    name: str
    inputs: list[np.ndarray]
    make: Callable[[Peer, list[Any]], Callable[[], Any]]  # returns the call to time
    flops: float = 0.0  # for TFLOP/s
    tol: float = 1e-4  # max |got - ref| / max |ref|
    peers: tuple[str, ...] = ()  # only these peers (empty: all)


def _matmul(p: Peer, a: list[Any]) -> Callable[[], Any]:
    f = p.jit(lambda x, y: x @ y) if p.name in ("torch.compile", "jax") else (lambda x, y: x @ y)
    return lambda: f(a[0], a[1])


def _logreg(p: Peer, a: list[Any]) -> Callable[[], Any]:
    xp = p.xp
    if p.name == "numpy":
        xp = _NumpyOps
    step = p.jit(lambda x, y, w, b: logreg_step(xp, x, y, w, b)) if p.name != "torch" else \
        (lambda x, y, w, b: logreg_step(xp, x, y, w, b))
    return lambda: step(*a)


class _NumpyOps:
    """NumPy plus a sigmoid, so one step function serves every peer."""

    exp = staticmethod(np.exp)

    @staticmethod
    def sigmoid(z: np.ndarray) -> np.ndarray:
        return np.float32(1) / (np.float32(1) + np.exp(-z))


def _softmax(p: Peer, a: list[Any]) -> Callable[[], Any]:
    if p.name == "torch":
        return lambda: p.xp.softmax(a[0], dim=1)
    f = p.jit(lambda x: softmax_rows(p.xp, x)) if p.name in ("kdsl", "torch.compile", "jax") else \
        (lambda x: softmax_rows(p.xp, x))
    return lambda: f(a[0])


def _sum(p: Peer, a: list[Any]) -> Callable[[], Any]:
    return lambda: a[0].sum()


def _tiny(p: Peer, a: list[Any]) -> Callable[[], Any]:
    return lambda: a[0] + 1


def _jit_replay(p: Peer, a: list[Any]) -> Callable[[], Any]:
    f = p.jit(lambda x, y: (x * y + 1) * 0.5)
    return lambda: f(a[0], a[1])


def workloads(small: bool) -> list[Workload]:
    rng = np.random.default_rng(0)

    def mat(*shape: int, dtype: Any = np.float32) -> np.ndarray:
        return rng.uniform(-1, 1, shape).astype(dtype)

    out = []
    for n in ((64, 96) if small else (4096, 8192)):
        out.append(Workload(f"matmul float16 {n}", [mat(n, n, dtype=np.float16), mat(n, n, dtype=np.float16)],
                            _matmul, 2.0 * n ** 3, tol=2e-2))
    for n in ((64, 128) if small else (1024, 4096, 8192)):
        out.append(Workload(f"matmul float32 {n}", [mat(n, n), mat(n, n)], _matmul, 2.0 * n ** 3, tol=2e-3))
    for m, n in (((2000, 64), (1000, 16)) if small else ((1_000_000, 64), (100_000, 16))):
        x = rng.normal(size=(m, n)).astype(np.float32)
        y = (x @ rng.normal(size=n).astype(np.float32) > 0).astype(np.float32)
        w, b = (rng.normal(size=n) * 0.1).astype(np.float32), np.zeros((), np.float32)
        out.append(Workload(f"logistic regression step {m}x{n}", [x, y, w, b], _logreg, tol=1e-4))
    r = 64 if small else 8192
    out.append(Workload(f"softmax rows {r}x{r}", [mat(r, r) * 4], _softmax, tol=1e-4))
    r = 256 if small else 8192
    out.append(Workload(f"full sum {r}x{r}", [mat(r, r)], _sum, tol=1e-4))
    out.append(Workload("tiny round trip (x + 1)", [mat(16)], _tiny, tol=1e-6))
    out.append(Workload("kd.jit replay, tiny", [mat(16), mat(16)], _jit_replay, tol=1e-6,
                        peers=("kdsl", "torch.compile", "jax")))
    return out


# ----- running -----
def _host(p: Peer, r: Any) -> list[np.ndarray]:
    rs = r if isinstance(r, tuple) else (r,)
    return [np.asarray(p.get(x), np.float32) for x in rs]


def check(name: str, peer: str, got: list[np.ndarray], ref: list[np.ndarray], tol: float) -> None:
    for g, e in zip(got, ref, strict=True):
        scale = max(float(np.max(np.abs(e))) if e.size else 0.0, 1e-30)
        err = float(np.max(np.abs(g - e))) if e.size and g.shape == e.shape else float("nan")
        if g.shape != e.shape or not err <= tol * scale:
            raise AssertionError(f"{name}: {peer} disagrees with the reference: max error {err:.3g} "
                                 f"(allowed {tol * scale:.3g}), shapes {g.shape} vs {e.shape}")


def run(w: Workload, peers: list[Peer], args: argparse.Namespace) -> list:
    chosen = [p for p in peers if not w.peers or p.name in w.peers or p.name == "numpy"]
    ref_peer = next((p for p in chosen if p.name == "torch"), None) or numpy_peer()
    try:
        ref = _host(ref_peer, _reference_call(w, ref_peer)())
    except Exception as exc:  # PyTorch without this dtype on its device (float16 on a CPU): NumPy's answer
        print(f"note: {w.name}: {ref_peer.name} gave no reference ({type(exc).__name__}); NumPy's is used")
        ref_peer = numpy_peer()
        ref = _host(ref_peer, _reference_call(w, ref_peer)())
    times: dict[str, float] = {}
    for p in chosen:
        try:
            call = w.make(p, [p.put(x) for x in w.inputs])
            out = call()
            p.sync(out)
            check(w.name, p.name, _host(p, out), ref, w.tol)
            times[p.name] = timed(call, p.sync, args.warmup, args.warmup_s, args.repeat)
            if p.name == "kdsl" and args.profile:
                with kd.profile() as prof:
                    p.sync(call())
                print(f"{w.name}, kdsl per kernel:\n{prof.table(top=8)}\n", flush=True)
        except AssertionError:
            raise
        except Exception as exc:  # a peer that cannot run this workload (an unsupported dtype on its device)
            print(f"skipped: {p.name} on {w.name}: {type(exc).__name__}: {exc}")
    kd_ms = times.get("kdsl")
    others = {k: v for k, v in times.items() if k != "kdsl"}
    best = min(others, key=lambda k: others[k]) if others else None
    row = [w.name, *[times.get(p.name, float("nan")) for p in peers]]
    row.append(f"{best} {kd_ms / others[best]:.2f}x" if best and kd_ms else "-")
    if w.flops and kd_ms:
        row.append(f"{w.flops / kd_ms / 1e9:.3g}")  # flops / ms / 1e9 = TFLOP/s
    else:
        row.append("-")
    return row


def _reference_call(w: Workload, p: Peer) -> Callable[[], Any]:
    args = [p.put(x.astype(np.float32) if x.dtype == np.float16 and p.name == "numpy" else x) for x in w.inputs]
    return w.make(p, args)


def main(argv: list[str] | None = None) -> list[list]:
    parser = peer_parser(__doc__, "torch,torch.compile,cupy,jax")
    parser.add_argument("--profile", action="store_true", help="also time each kdsl kernel of one call (kd.profile)")
    args = parser.parse_args(argv)
    wanted = [s.strip() for s in args.peers.split(",") if s.strip()] or (["numpy"] if args.small else
                                                                          ["torch", "torch.compile", "cupy", "jax"])
    peers = [kdsl_peer()]
    if "torch" in wanted or "torch.compile" in wanted:
        peers += [p for p in torch_peers("torch.compile" in wanted) if p.name in wanted]
    if "cupy" in wanted:
        peers += cupy_peer()
    if "jax" in wanted:
        peers += jax_peer()
    if "numpy" in wanted:
        peers.append(numpy_peer())
    only = [t.strip() for t in args.only.split(",") if t.strip()]
    rows = [run(w, peers, args) for w in workloads(args.small) if not only or any(t in w.name for t in only)]
    table(f"ML workloads, median ms of {args.repeat} synchronised calls (kdsl / best peer: below 1 = kdsl faster)",
          ["workload", *[p.name + " ms" for p in peers], "kdsl / best", "kdsl TFLOP/s"], rows)
    return rows


if __name__ == "__main__":
    main()
