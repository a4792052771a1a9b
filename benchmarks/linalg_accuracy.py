"""float32 accuracy of kd.linalg beside NumPy's float32 (LAPACK's s* routines), both measured against a float64
ground truth computed from the same float32 input (so only the algorithms' rounding is measured, not the
input's). A benchmark rather than a test: it prints a table of errors to read and compare across changes (a
full run takes minutes on lavapipe); the tests in tests/linalg pin tolerances derived from it.

Every row is one function and shape; ``kdsl`` and ``numpy`` are relative errors, the worst over the batch:

* values (``svd``, ``svdvals``, ``eigh``, ``eigvalsh``): ``max |x - x64| / max |x64|`` (normwise, as LAPACK's
  error bounds are stated); ``svd rec``: ``|U S Vh - A|_F / |A|_F``; ``orth``: ``max |V^H V - I|``;
* ``qr``: ``|QR - A|_F / |A|_F`` and ``orth`` of ``Q``; ``cholesky``, ``solve``, ``inv``, ``lstsq``, ``pinv``:
  ``|X - X64|_F / |X64|_F``; ``slogdet``: ``|log|det| - log|det|64|`` (absolute: a relative error of det).

Matrices: Gaussian (``n x n``, tall ``2n x n``, wide ``n x 2n``), ill-conditioned ones (``cond1e3``,
``cond1e6``: ``U diag(logspace) V^T`` of random orthogonal factors) and a batch of small ones.

Run:   python benchmarks/linalg_accuracy.py                        # sizes 8 32 64 140 256
       python benchmarks/linalg_accuracy.py --sizes 8 512 --only svd,eigh
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from dsl_common import table

import kdsl as kd

F64 = np.float64


def _rel(x, ref) -> float:
    ref = np.asarray(ref, F64)
    den = np.linalg.norm(ref)
    return float(np.linalg.norm(np.asarray(x, F64) - ref) / (den if den else 1.0))


def _values(x, ref) -> float:
    """Normwise error of eigen/singular values, the worst matrix of a batch."""
    x, ref = np.asarray(x, F64), np.asarray(ref, F64)
    peak = np.maximum(np.abs(ref).max(axis=-1), np.finfo(F64).tiny)
    return float((np.abs(x - ref).max(axis=-1) / peak).max())


def _orth(q) -> float:
    q = np.asarray(q, F64)
    g = np.swapaxes(q, -1, -2).conj() @ q
    return float(np.abs(g - np.eye(q.shape[-1])).max())


def _recon(u, s, vh, a) -> float:
    u, s, vh, a = (np.asarray(x, F64) for x in (u, s, vh, a))
    k = s.shape[-1]
    back = (u[..., :k] * s[..., None, :]) @ vh[..., :k, :]
    return float((np.linalg.norm(back - a, axis=(-2, -1)) / np.linalg.norm(a, axis=(-2, -1))).max())


def conditioned(shape: tuple[int, ...], cond: float, rng) -> np.ndarray:
    """Matrices of the given 2-norm condition number: random orthogonal factors around a log-spaced diagonal."""
    m, n = shape[-2:]
    k = min(m, n)
    u = np.linalg.qr(rng.standard_normal(shape[:-2] + (m, k)))[0]
    v = np.linalg.qr(rng.standard_normal(shape[:-2] + (n, k)))[0]
    s = np.logspace(0, -np.log10(cond), k)
    return ((u * s[..., None, :]) @ np.swapaxes(v, -1, -2)).astype(np.float32)


def matrices(sizes: list[int], rng) -> list[tuple[str, np.ndarray]]:
    """(label, float32 matrices) to measure: square, tall, wide, ill-conditioned, batched."""
    out = []
    for n in sizes:
        out.append((f"{n}x{n}", rng.standard_normal((n, n)).astype(np.float32)))
        out.append((f"{2 * n}x{n}", rng.standard_normal((2 * n, n)).astype(np.float32)))
        out.append((f"{n}x{2 * n}", rng.standard_normal((n, 2 * n)).astype(np.float32)))
        for cond in (1e3, 1e6):
            out.append((f"{n}x{n} cond{cond:.0e}".replace("+0", ""), conditioned((n, n), cond, rng)))
    out.append(("16x16x16", rng.standard_normal((16, 16, 16)).astype(np.float32)))
    return out


def _symmetric(a: np.ndarray) -> np.ndarray:
    return ((a + np.swapaxes(a, -1, -2)) / 2).astype(np.float32)


def _spd(a: np.ndarray) -> np.ndarray:
    n = a.shape[-1]
    return (a @ np.swapaxes(a, -1, -2) / n + np.eye(n, dtype=np.float32)).astype(np.float32)


def checks(lib) -> dict[str, tuple[Callable[[np.ndarray], bool], Callable[[np.ndarray], list[tuple[str, float]]]]]:
    """name -> (which matrices it takes, errors of ``lib`` (kd.linalg or np.linalg) on one of them)."""
    la = lib.linalg

    def host(x):
        return x.numpy() if isinstance(x, kd.Array) else np.asarray(x)

    def arr(a):
        return kd.asarray(a) if lib is kd else a

    square = lambda a: a.shape[-1] == a.shape[-2]  # noqa: E731
    anyshape = lambda a: True  # noqa: E731
    single = lambda a: a.ndim == 2  # noqa: E731

    def svd(a):
        u, s, vh = (host(x) for x in la.svd(arr(a), full_matrices=False))
        s64 = np.linalg.svd(a.astype(F64), compute_uv=False)
        return [("values", _values(s, s64)), ("rec", _recon(u, s, vh, a)), ("orth U", _orth(u)),
                ("orth V", _orth(np.swapaxes(vh, -1, -2)))]

    def svdvals(a):
        s = host(la.svdvals(arr(a)) if lib is kd else la.svd(a, compute_uv=False))
        return [("values", _values(s, np.linalg.svd(a.astype(F64), compute_uv=False)))]

    def eigh(a):
        a = _symmetric(a)
        w, v = (host(x) for x in la.eigh(arr(a)))
        w64 = np.linalg.eigvalsh(a.astype(F64))
        res = np.linalg.norm(a.astype(F64) @ v - v * w[..., None, :]) / np.linalg.norm(a.astype(F64))
        return [("values", _values(w, w64)), ("orth", _orth(v)), ("resid", float(res))]

    def eigvalsh(a):
        a = _symmetric(a)
        return [("values", _values(host(la.eigvalsh(arr(a))), np.linalg.eigvalsh(a.astype(F64))))]

    def qr(a):
        q, r = (host(x) for x in la.qr(arr(a)))
        return [("rec", _rel(q @ r, a)), ("orth", _orth(q))]

    def cholesky(a):
        a = _spd(a)
        return [("L", _rel(host(la.cholesky(arr(a))), np.linalg.cholesky(a.astype(F64))))]

    def solve(a):
        b = np.ones(a.shape[:-1] + (1,), np.float32)
        return [("x", _rel(host(la.solve(arr(a), arr(b))), np.linalg.solve(a.astype(F64), b.astype(F64))))]

    def inv(a):
        return [("X", _rel(host(la.inv(arr(a))), np.linalg.inv(a.astype(F64))))]

    def slogdet(a):
        got = host(la.slogdet(arr(a))[1])
        return [("log", float(np.abs(got - np.linalg.slogdet(a.astype(F64))[1]).max()))]

    def lstsq(a):
        b = np.linspace(-1, 1, a.shape[0]).astype(np.float32)
        got = host(la.lstsq(arr(a), arr(b), rcond=None)[0])
        return [("x", _rel(got, np.linalg.lstsq(a.astype(F64), b.astype(F64), rcond=None)[0]))]

    def pinv(a):
        return [("X", _rel(host(la.pinv(arr(a))), np.linalg.pinv(a.astype(F64))))]

    return {"svd": (anyshape, svd), "svdvals": (anyshape, svdvals), "eigh": (square, eigh),
            "eigvalsh": (square, eigvalsh), "qr": (anyshape, qr), "cholesky": (square, cholesky),
            "solve": (square, solve), "inv": (square, inv), "slogdet": (square, slogdet),
            "lstsq": (single, lstsq), "pinv": (anyshape, pinv)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 32, 64, 140, 256])
    parser.add_argument("--only", default="", help="comma-separated functions (default: all)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    kinds = matrices(args.sizes, rng)
    ours, theirs = checks(kd), checks(np)
    only = [f for f in args.only.split(",") if f] or list(ours)
    rows = []
    eps = float(np.finfo(np.float32).eps)
    for name in only:
        takes, run = ours[name]
        for label, a in kinds:
            if not takes(a):
                continue
            t0 = time.perf_counter()
            mine = run(a)
            seconds = time.perf_counter() - t0
            for (what, err), (_, ref) in zip(mine, theirs[name][1](a), strict=True):
                rows.append([name, label, what, f"{err:.2e}", f"{ref:.2e}", f"{err / eps:.1f}", f"{ref / eps:.1f}",
                             f"{seconds:.2f}"])
                print(" | ".join(rows[-1]), flush=True)
    table("float32 relative errors against float64 (eps = 1.19e-7)",
          ["function", "matrix", "error", "kdsl", "numpy", "kdsl/eps", "numpy/eps", "kdsl s"], rows)


if __name__ == "__main__":
    main()
