"""Mixture models, spectral clustering and sparse recovery in plain NumPy: Gaussian-mixture EM with responsibilities
by a max-shifted log-sum-exp, batched `slogdet`/`inv` and covariance updates by `einsum("nk,nd,ne->kde")`; diagonal
mixtures with `keepdims` reductions; spectral clustering from an RBF affinity through the normalised Laplacian's
`eigh` (signs fixed by the largest entry) and a k-means pass with `argmin` over `np.linalg.norm(axis=)`; ISTA and
FISTA with a power-iteration Lipschitz constant, soft thresholding by `np.sign * np.maximum`, and support recovery
by `np.flatnonzero`; orthogonal matching pursuit by `lstsq` on growing supports (tests/porting)."""

import numpy as np
from harness import check


def gmm_em(np, X, means, iters):
    X, mu = np.asarray(X), np.array(means, dtype=float)
    n, d = X.shape
    k = mu.shape[0]
    cov = np.tile(np.cov(X.T), (k, 1, 1))
    pi = np.full(k, 1.0 / k)
    lls = []
    for _ in range(iters):
        diff = X[:, None, :] - mu[None, :, :]
        inv = np.linalg.inv(cov)
        maha = np.einsum("nkd,kde,nke->nk", diff, inv, diff)
        sign, logdet = np.linalg.slogdet(cov)
        logp = np.log(pi) - 0.5 * (maha + logdet + d * np.log(2 * np.pi))
        m = logp.max(axis=1, keepdims=True)
        lse = m + np.log(np.exp(logp - m).sum(axis=1, keepdims=True))
        R = np.exp(logp - lse)
        lls.append(lse.sum())
        Nk = R.sum(axis=0)
        pi = Nk / n
        mu = (R.T @ X) / Nk[:, None]
        diff = X[:, None, :] - mu[None]
        cov = np.einsum("nk,nkd,nke->kde", R, diff, diff) / Nk[:, None, None] + 1e-6 * np.eye(d)
    return {"pi": pi, "mu": mu, "cov": cov, "ll": np.array(lls), "labels": R.argmax(axis=1),
            "monotone": bool(np.all(np.diff(lls) > -1e-8)), "sign": sign}


def diag_gmm(np, X, means, iters):
    X, mu = np.asarray(X), np.array(means, dtype=float)
    var = np.ones_like(mu) * X.var(axis=0, keepdims=True)
    w = np.ones(len(mu)) / len(mu)
    for _ in range(iters):
        lp = -0.5 * (((X[:, None] - mu) ** 2) / var + np.log(2 * np.pi * var)).sum(-1) + np.log(w)
        R = np.exp(lp - lp.max(1, keepdims=True))
        R /= R.sum(1, keepdims=True)
        Nk = R.sum(0)
        mu = np.einsum("nk,nd->kd", R, X) / Nk[:, None]
        var = np.einsum("nk,nkd->kd", R, (X[:, None] - mu) ** 2) / Nk[:, None]
        w = Nk / Nk.sum()
    bic = -2 * (lp.max(1) + np.log(np.exp(lp - lp.max(1, keepdims=True)).sum(1))).sum() + \
        (mu.size + var.size + len(w) - 1) * np.log(len(X))
    return {"mu": mu, "var": var, "w": w, "bic": bic, "hard": np.bincount(R.argmax(1), minlength=len(w))}


def spectral(np, X, gamma, k, iters):
    X = np.asarray(X)
    sq = np.sum(X**2, axis=1)
    D2 = np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0)
    W = np.exp(-gamma * D2)
    np.fill_diagonal(W, 0)
    deg = W.sum(axis=1)
    Dm = 1 / np.sqrt(deg)
    L = np.eye(len(X)) - Dm[:, None] * W * Dm[None, :]
    vals, vecs = np.linalg.eigh(L)
    U = vecs[:, :k]
    U = U * np.sign(U[np.abs(U).argmax(axis=0), np.arange(k)])
    U = U / np.linalg.norm(U, axis=1, keepdims=True)
    C = U[[0, len(X) - 1]] if k == 2 else U[:k]
    for _ in range(iters):
        lab = np.argmin(np.linalg.norm(U[:, None, :] - C[None], axis=2), axis=1)
        C = np.array([U[lab == j].mean(axis=0) for j in range(k)])
    return {"vals": vals[:k + 1], "gap": vals[k] - vals[k - 1], "labels": lab, "sizes": np.bincount(lab),
            "U": np.abs(U)}


def ista_fista(np, A, y, lam, iters):
    A, y = np.asarray(A), np.asarray(y)
    v = np.ones(A.shape[1])
    for _ in range(50):
        v = A.T @ (A @ v)
        v /= np.linalg.norm(v)
    L = v @ (A.T @ (A @ v))
    soft = lambda z, t: np.sign(z) * np.maximum(np.abs(z) - t, 0)  # noqa: E731
    x = np.zeros(A.shape[1])
    obj_i = []
    for _ in range(iters):
        x = soft(x - A.T @ (A @ x - y) / L, lam / L)
        obj_i.append(0.5 * np.sum((A @ x - y) ** 2) + lam * np.abs(x).sum())
    z = xf = np.zeros(A.shape[1])
    t = 1.0
    obj_f = []
    for _ in range(iters):
        x_new = soft(z - A.T @ (A @ z - y) / L, lam / L)
        t_new = (1 + np.sqrt(1 + 4 * t**2)) / 2
        z = x_new + (t - 1) / t_new * (x_new - xf)
        xf, t = x_new, t_new
        obj_f.append(0.5 * np.sum((A @ xf - y) ** 2) + lam * np.linalg.norm(xf, 1))
    return {"L": L, "L2": np.linalg.norm(A, 2) ** 2, "x_ista": x, "x_fista": xf, "obj_i": np.array(obj_i),
            "obj_f": np.array(obj_f), "supp": np.flatnonzero(np.abs(xf) > 1e-3)}


def omp(np, A, y, k):
    A, y = np.asarray(A), np.asarray(y)
    An = A / np.linalg.norm(A, axis=0)
    r = y.copy()
    support = []
    for _ in range(k):
        j = int(np.argmax(np.abs(An.T @ r)))
        support.append(j)
        coef, *_ = np.linalg.lstsq(A[:, support], y, rcond=None)
        r = y - A[:, support] @ coef
    x = np.zeros(A.shape[1])
    x[support] = coef
    return {"support": np.sort(support), "x": x, "res": np.linalg.norm(r), "order": support}


def test_gmm_em():
    rng = np.random.default_rng(2681)
    X = np.vstack([rng.multivariate_normal([0, 0], [[1, 0.5], [0.5, 1]], 40),
                   rng.multivariate_normal([4, 3], [[0.6, -0.2], [-0.2, 0.4]], 30)])
    check(gmm_em, X, X[[0, 45]], 12, rtol=1e-3, atol=1e-5)


def test_diag_gmm():
    rng = np.random.default_rng(2682)
    X = np.vstack([rng.normal([0, 0, 0], 1, (30, 3)), rng.normal([5, -2, 1], 0.5, (20, 3)),
                   rng.normal([-4, 4, 2], 0.8, (25, 3))])
    check(diag_gmm, X, X[[0, 35, 60]], 15, rtol=1e-3, atol=1e-5)


def test_spectral():
    rng = np.random.default_rng(2683)
    t = rng.uniform(0, 2 * np.pi, 30)
    inner = np.stack([np.cos(t), np.sin(t)], 1) * 0.5 + rng.normal(0, 0.05, (30, 2))
    outer = np.stack([np.cos(t), np.sin(t)], 1) * 2.5 + rng.normal(0, 0.05, (30, 2))
    check(spectral, np.vstack([inner, outer]), 4.0, 2, 5, rtol=1e-3, atol=1e-4)


def test_ista_fista():
    rng = np.random.default_rng(2684)
    A = rng.normal(size=(30, 60)) / np.sqrt(30)
    x0 = np.zeros(60)
    x0[[3, 17, 40, 52]] = [1.5, -2.0, 1.0, 0.8]
    check(ista_fista, A, A @ x0 + rng.normal(0, 0.01, 30), 0.05, 100, rtol=2e-3, atol=1e-4)


def test_omp():
    rng = np.random.default_rng(2685)
    A = rng.normal(size=(25, 50))
    x0 = np.zeros(50)
    x0[[5, 11, 33]] = [2.0, -1.0, 1.5]
    check(omp, A, A @ x0, 3, rtol=1e-4, atol=1e-5)
