"""Optimal transport in plain NumPy: Sinkhorn scaling with a Gibbs kernel and marginal errors, the log-domain
variant by a max-shifted log-sum-exp (`keepdims=True`), squared-Euclidean costs by `einsum` and `np.subtract.outer`,
1-D Wasserstein distances from sorted samples and `searchsorted` on merged CDFs, the earth mover's distance of
histograms by `cumsum`, a Wasserstein barycenter by iterated Bregman projections, unbalanced Sinkhorn with a power
`lam / (lam + eps)`, and a greedy assignment that masks taken rows with `np.inf` (tests/porting)."""

import numpy as np
from harness import check


def sinkhorn(np, a, b, C, eps, iters):
    a, b, C = np.asarray(a), np.asarray(b), np.asarray(C)
    K = np.exp(-C / eps)
    u = np.ones_like(a)
    v = np.ones_like(b)
    for _ in range(iters):
        u = a / (K @ v)
        v = b / (K.T @ u)
    P = u[:, None] * K * v[None, :]
    return {"P": P, "cost": np.sum(P * C), "err_a": np.abs(P.sum(axis=1) - a).max(),
            "err_b": np.abs(P.sum(0) - b).max(), "entropy": -np.sum(P * np.log(P + 1e-300)),
            "argmax": P.argmax(axis=1)}


def log_sinkhorn(np, a, b, C, eps, iters):
    a, b, C = map(np.asarray, (a, b, C))
    f = np.zeros(a.shape[0])
    g = np.zeros(b.shape[0])

    def lse(M, axis):
        m = M.max(axis=axis, keepdims=True)
        return (m + np.log(np.exp(M - m).sum(axis=axis, keepdims=True))).squeeze(axis)

    for _ in range(iters):
        f = eps * np.log(a) - eps * lse((g[None, :] - C) / eps, axis=1)
        g = eps * np.log(b) - eps * lse((f[:, None] - C) / eps, axis=0)
    logP = (f[:, None] + g[None, :] - C) / eps
    P = np.exp(logP)
    return {"f": f - f.mean(), "g": g + f.mean(), "P": P, "cost": (P * C).sum(), "dual": f @ a + g @ b}


def cost_matrices(np, X, Y):
    X, Y = np.asarray(X), np.asarray(Y)
    sq = np.einsum("ij,ij->i", X, X)[:, None] + np.einsum("ij,ij->i", Y, Y)[None, :] - 2 * X @ Y.T
    sq = np.maximum(sq, 0)
    direct = ((X[:, None, :] - Y[None, :, :]) ** 2).sum(-1)
    dx = np.subtract.outer(X[:, 0], Y[:, 0])
    l1 = np.abs(X[:, None] - Y[None]).sum(axis=2)
    return {"sq": sq, "direct": direct, "dx": dx, "l1": l1, "nearest": np.argmin(direct, axis=1),
            "cheb": np.max(np.abs(X[:, None] - Y[None]), axis=-1)}


def wasserstein_1d(np, u, v, u_w, v_w):
    u, v = np.asarray(u), np.asarray(v)
    u_w, v_w = np.asarray(u_w, dtype=float), np.asarray(v_w, dtype=float)
    ui, vi = np.argsort(u), np.argsort(v)
    allv = np.concatenate([u, v])
    allv.sort(kind="mergesort")
    deltas = np.diff(allv)
    ucdf_idx = u[ui].searchsorted(allv[:-1], "right")
    vcdf_idx = v[vi].searchsorted(allv[:-1], "right")
    ucum = np.concatenate(([0], np.cumsum(u_w[ui])))
    vcum = np.concatenate(([0], np.cumsum(v_w[vi])))
    ucdf = ucum[ucdf_idx] / ucum[-1]
    vcdf = vcum[vcdf_idx] / vcum[-1]
    w1 = np.sum(np.multiply(np.abs(ucdf - vcdf), deltas))
    w2 = np.sqrt(np.sum(np.multiply(np.square(ucdf - vcdf), deltas)))
    q = np.linspace(0, 1, 11)
    return {"w1": w1, "cdf_l2": w2, "idx": ucdf_idx, "qdiff": np.quantile(u, q) - np.quantile(v, q)}


def emd_histograms(np, H):
    H = np.asarray(H, dtype=float)
    P = H / H.sum(axis=1, keepdims=True)
    cdf = np.cumsum(P, axis=1)
    D = np.abs(cdf[:, None, :] - cdf[None, :, :]).sum(axis=-1)
    i, j = np.triu_indices(len(H), k=1)
    closest = np.argmin(np.where(np.eye(len(H), dtype=bool), np.inf, D), axis=1)
    return {"D": D, "pairs": D[i, j], "closest": closest, "sym": np.array_equal(D, D.T),
            "mean_bin": P @ np.arange(H.shape[1])}


def barycenter(np, Hs, weights, C, eps, iters):
    Hs, w, C = np.asarray(Hs), np.asarray(weights), np.asarray(C)
    K = np.exp(-C / eps)
    v = np.ones_like(Hs)
    for _ in range(iters):
        u = Hs / (v @ K.T)
        Ktu = u @ K
        bary = np.exp(np.sum(w[:, None] * np.log(Ktu), axis=0))
        v = bary[None, :] / Ktu
    support = np.arange(Hs.shape[1])
    return {"bary": bary / bary.sum(), "mean": (bary / bary.sum()) @ support, "peak": int(np.argmax(bary)),
            "mass": bary.sum()}


def unbalanced(np, a, b, C, eps, lam, iters):
    a, b, C = map(np.asarray, (a, b, C))
    K = np.exp(-C / eps)
    fi = lam / (lam + eps)
    u, v = np.ones(len(a)), np.ones(len(b))
    for _ in range(iters):
        u = (a / (K @ v)) ** fi
        v = (b / (K.T @ u)) ** fi
    P = np.diag(u) @ K @ np.diag(v)
    return {"P": P, "mass": P.sum(), "rows": P.sum(1), "cols": P.sum(0), "fi": fi,
            "kl_a": np.sum(P.sum(1) * np.log(P.sum(1) / a) - P.sum(1) + a)}


def greedy_assignment(np, C):
    C = np.array(C, dtype=np.float64)
    n = C.shape[0]
    work = C.copy()
    pairs = np.full(n, -1)
    for _ in range(n):
        flat = np.argmin(work)
        r, c = np.unravel_index(flat, work.shape)
        pairs[r] = c
        work[r, :] = np.inf
        work[:, c] = np.inf
    total = C[np.arange(n), pairs].sum()
    perm = np.zeros_like(C)
    perm[np.arange(n), pairs] = 1
    return {"pairs": pairs, "total": total, "perm": perm, "is_perm": bool((perm.sum(0) == 1).all()),
            "row_min_sum": C.min(axis=1).sum()}


def _points(seed, n, m):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, 2)), rng.normal(1.0, 0.5, size=(m, 2))


def test_sinkhorn():
    X, Y = _points(2610, 6, 5)
    C = ((X[:, None] - Y[None]) ** 2).sum(-1)
    check(sinkhorn, np.full(6, 1 / 6), np.full(5, 0.2), C, 0.5, 50, rtol=1e-4, atol=1e-7)


def test_log_sinkhorn():
    X, Y = _points(2611, 7, 4)
    C = ((X[:, None] - Y[None]) ** 2).sum(-1)
    a = np.linspace(1, 2, 7)
    check(log_sinkhorn, a / a.sum(), np.full(4, 0.25), C, 0.05, 60, rtol=1e-3, atol=1e-5)


def test_cost_matrices():
    X, Y = _points(2612, 5, 3)
    check(cost_matrices, X, Y, rtol=1e-4, atol=1e-5)
    check(cost_matrices, X[:1], Y, rtol=1e-4, atol=1e-5)


def test_wasserstein_1d():
    rng = np.random.default_rng(2613)
    u, v = rng.normal(size=9), rng.normal(0.5, 2, size=12)
    check(wasserstein_1d, u, v, np.ones(9), rng.uniform(0.5, 1.5, 12))


def test_emd_histograms():
    rng = np.random.default_rng(2614)
    check(emd_histograms, rng.integers(1, 20, (5, 8)))


def test_barycenter():
    x = np.arange(12)
    C = (x[:, None] - x[None]) ** 2 / 144.0
    H = np.stack([np.exp(-(x - 2.0) ** 2), np.exp(-(x - 9.0) ** 2 / 2)]) + 1e-3
    H /= H.sum(1, keepdims=True)
    check(barycenter, H, np.array([0.3, 0.7]), C, 0.02, 40, rtol=1e-3, atol=1e-5)


def test_unbalanced():
    X, Y = _points(2616, 5, 6)
    C = ((X[:, None] - Y[None]) ** 2).sum(-1)
    check(unbalanced, np.full(5, 0.3), np.full(6, 0.2), C, 0.3, 1.0, 40, rtol=1e-3, atol=1e-6)


def test_greedy_assignment():
    rng = np.random.default_rng(2617)
    check(greedy_assignment, rng.uniform(0, 10, (6, 6)))
