"""Everyday NumPy idioms a port meets in passing: print options, errstate, index helpers (r_, c_, s_, ogrid,
ix_, ndindex, ndenumerate), take/put along axes, einsum forms, integer and bit arithmetic (tests/porting)."""

import numpy as np
from harness import check


def index_helpers(np):
    a = np.r_[0:5, 10, 20:23]
    b = np.r_[-1:1:5j]
    c = np.c_[np.arange(3), np.arange(3) * 2]
    sl = np.s_[1:4]
    yy, xx = np.ogrid[0:3, 0:4]
    dist = np.hypot(yy, xx)
    m = np.arange(20).reshape(4, 5)
    sub = m[np.ix_([0, 2], [1, 3, 4])]
    m[np.ix_([1, 3], [0, 2])] = -1
    cells = [(i, j) for i, j in np.ndindex(2, 3)]
    total = 0
    for (i, j), v in np.ndenumerate(m[:2, :3]):
        total += (i + 1) * (j + 1) * int(v)
    flat = np.ravel_multi_index(([0, 3, 2], [4, 0, 1]), m.shape)
    back = np.unravel_index(flat, m.shape)
    iu = np.triu_indices(4, k=1)
    il = np.tril_indices_from(np.zeros((3, 3)))
    ff = np.fromfunction(lambda i, j: i * 10 + j, (3, 4), dtype=int)
    return {"a": a, "b": b, "c": c, "sl": np.arange(6)[sl], "dist": dist, "sub": sub, "m": m, "cells": cells,
            "total": total, "flat": flat, "back": [x for x in back], "iu": [x for x in iu], "il": [x for x in il],
            "ff": ff}


def along_axes(np, x_host):
    x = np.asarray(x_host)
    idx = np.argsort(x, axis=1)
    srt = np.take_along_axis(x, idx, axis=1)
    top = np.take_along_axis(x, np.argmax(x, axis=1, keepdims=True), axis=1)
    y = np.zeros_like(x)
    np.put_along_axis(y, np.argmin(x, axis=0)[None], 1.0, axis=0)
    t = np.take(x, [0, -1], axis=1)
    flat_take = np.take(x, [1, 5, 7])
    z = x.copy()
    np.put(z, [0, 3], [-5.0, -6.0])
    np.place(z, z > 1, [9.0])
    ch = np.choose(np.arange(len(x)) % 3, [x[:, 0], x[:, 1], x[:, 2]])
    comp = np.compress(x[:, 0] > 0, x, axis=0)
    ext = np.extract(x > 0.5, x)
    aw = np.argwhere(x > 1)
    return {"srt": srt, "top": top, "y": y, "t": t, "ft": flat_take, "z": z, "ch": ch, "comp": comp, "ext": ext,
            "aw": aw}


def einsum_forms(np, A_host, B_host):
    A, B = np.asarray(A_host), np.asarray(B_host)
    out = {
        "trace": np.einsum("ii", A[:, :4]),
        "diag": np.einsum("ii->i", A[:, :4]),
        "T": np.einsum("ij->ji", A),
        "mm": np.einsum("ij,jk->ik", A, B),
        "outer": np.einsum("i,j->ij", A[0], B[:, 0]),
        "batch": np.einsum("bij,bjk->bik", np.stack([A, A]), np.stack([B, 2 * B])),
        "dots": np.einsum("ij,ij->i", A, A),
        "ell": np.einsum("...j,j->...", A, A[1]),
        "sum": np.einsum("ij->", A),
    }
    out["kron"] = np.kron(np.eye(2), A[:2, :2])
    out["inner"] = np.inner(A, A)
    out["vdot"] = float(np.vdot(A, A))
    out["tensordot"] = np.tensordot(A, B, axes=([1], [0]))
    out["matmul_ok"] = bool(np.allclose(out["mm"], A @ B))
    return out


def integer_and_bits(np, n_host):
    n = np.asarray(n_host)
    q, r = divmod(n, 7)
    fq, fr = np.divmod(-n, 4)
    frac, whole = np.modf(n / 3)
    bits = (n[:, None] >> np.arange(8)) & 1
    popcount = bits.sum(axis=1)
    packed = np.packbits(bits.astype(np.uint8), axis=1, bitorder="little")
    parity = np.bitwise_xor.reduce(bits, axis=1)
    gcd = np.gcd(n, 24)
    lcm = np.lcm(n[n > 0], 6)
    powers = 2 ** np.arange(6)
    is_pow2 = (n > 0) & ((n & (n - 1)) == 0)
    rounded = np.round(n * 37, -2)
    neg = -n // 3
    return {"q": q, "r": r, "fq": fq, "fr": fr, "frac": frac, "whole": whole, "popcount": popcount,
            "packed": packed, "parity": parity, "gcd": gcd, "lcm": lcm, "powers": powers, "is_pow2": is_pow2,
            "rounded": rounded, "neg": neg, "inv": ~n, "xor": n ^ 0b1010}


def printing_and_errstate(np, x_host):
    x = np.asarray(x_host)
    saved = np.get_printoptions()  # np.set_printoptions() with no arguments restores nothing
    np.set_printoptions(precision=3, suppress=True)
    try:
        summary = f"min={x.min():.2f} max={x.max():.2f} n={x.size} shape={x.shape}"
        with np.errstate(divide="ignore", invalid="ignore"):
            r = x / (x - x[0])
            lg = np.log(x - x.min())
        n_inf = int(np.isinf(r).sum())
        n_nan = int(np.isnan(lg).sum())
        info = np.finfo(np.float32)
        ii = np.iinfo(np.int16)
        lines = [f"{i}: {v:8.3f}" for i, v in enumerate(x[:3])]
        as_list = x[:3].tolist()
        items = [float(v) for v in x[:3]]
        eq = np.isclose(as_list, items).all()
        ok = np.allclose(x, x + 1e-9) and not np.allclose(x, x + 1)
    finally:
        np.set_printoptions(**saved)
    return {"summary": summary, "r_inf": n_inf, "n_nan": n_nan, "lg_min": float(lg[np.isfinite(lg)].min()),
            "eps": float(info.eps), "i16": [int(ii.min), int(ii.max)], "lines": lines, "eq": bool(eq), "ok": bool(ok),
            "isscalar": bool(np.isscalar(3.0)), "ndim": np.ndim(x), "size": np.size(x), "shape": np.shape(x)}


def row_iteration(np, M_host):
    M = np.asarray(M_host)
    out = []
    for i, row in enumerate(M):
        if row.sum() > 0:
            out.append(int(row.argmax()))
        else:
            out.append(-i)
    norms = [float(np.linalg.norm(r)) for r in M]
    cols = [c.mean() for c in M.T]
    best = max(range(len(M)), key=lambda i: M[i].sum())
    pairs = [(int(a), int(b)) for a, b in zip(M[:, 0] > 0, M[:, 1] > 0, strict=True)]
    acc = np.zeros(M.shape[1])
    for r in M:
        acc = np.maximum(acc, r)
    counts = {}
    for v in (M > 0).sum(axis=1):
        counts[int(v)] = counts.get(int(v), 0) + 1
    return {"out": out, "norms": norms, "cols": np.array(cols), "best": best, "pairs": pairs, "acc": acc,
            "counts": sorted(counts.items()), "len": len(M), "rows": M.shape[0]}


def test_index_helpers_r_c_ogrid_ix_ndindex():
    check(index_helpers)


def test_take_put_along_axis_choose_compress():
    check(along_axes, np.random.default_rng(81).normal(size=(6, 4)))


def test_einsum_forms_kron_inner_tensordot():
    rng = np.random.default_rng(82)
    check(einsum_forms, rng.normal(size=(4, 5)), rng.normal(size=(5, 3)), rtol=1e-4, atol=1e-4)


def test_integer_division_bits_gcd():
    check(integer_and_bits, np.array([0, 1, 2, 7, 12, 13, 64, 100, 255]))


def test_print_options_errstate_fstrings():
    check(printing_and_errstate, np.linspace(1, 3, 7))


def test_row_iteration_python_builtins():
    check(row_iteration, np.random.default_rng(83).normal(size=(6, 4)), rtol=1e-4, atol=1e-5)
