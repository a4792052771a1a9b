"""Kernel methods as machine-learning course notebooks write them without scikit-learn: squared-exponential and
Matern kernels by broadcasting and `np.einsum` distances, Gaussian-process regression through a Cholesky factor
(`np.linalg.cholesky`, `solve` twice, posterior variance, log marginal likelihood by `np.log(np.diag(L))`), a
grid search of length scales, posterior samples from host normals, kernel ridge regression with `lstsq`, kernel
density estimates with Scott's and Silverman's bandwidths (and the log-sum-exp form), and a Nystrom approximation
from `eigh` (tests/porting)."""

import numpy as np
from harness import check


def sq_dist(np, A, B):
    return np.sum(A ** 2, 1)[:, None] + np.sum(B ** 2, 1)[None, :] - 2 * A @ B.T


def kernels(np, X, Y):
    d2 = np.maximum(sq_dist(np, X, Y), 0)
    rbf = np.exp(-0.5 * d2 / 0.8 ** 2)
    r = np.sqrt(d2)
    matern32 = (1 + np.sqrt(3) * r / 1.2) * np.exp(-np.sqrt(3) * r / 1.2)
    diff = X[:, None, :] - Y[None, :, :]
    d2e = np.einsum("ijk,ijk->ij", diff, diff)
    periodic = np.exp(-2 * np.sin(np.pi * np.sqrt(d2e) / 2.0) ** 2)
    K = np.exp(-0.5 * np.maximum(sq_dist(np, X, X), 0))
    eig = np.linalg.eigvalsh(K + 1e-8 * np.eye(len(X)))
    return {"rbf": rbf, "matern": matern32, "same_d2": bool(np.allclose(d2, d2e, atol=1e-6)), "periodic": periodic,
            "psd": bool(eig.min() > -1e-6), "trace": np.trace(K)}


def gp_posterior(np, x, y, xs, ell, sf, sn):
    def k(a, b):
        return sf ** 2 * np.exp(-0.5 * (a[:, None] - b[None, :]) ** 2 / ell ** 2)
    K = k(x, x) + sn ** 2 * np.eye(len(x))
    L = np.linalg.cholesky(K)
    alpha = np.linalg.solve(L.T, np.linalg.solve(L, y))
    Ks = k(x, xs)
    mean = Ks.T @ alpha
    v = np.linalg.solve(L, Ks)
    var = sf ** 2 - np.sum(v ** 2, axis=0)
    lml = -0.5 * y @ alpha - np.sum(np.log(np.diag(L))) - len(x) / 2 * np.log(2 * np.pi)
    lo, hi = mean - 1.96 * np.sqrt(np.maximum(var, 0)), mean + 1.96 * np.sqrt(np.maximum(var, 0))
    return {"mean": mean, "var": var, "lml": lml, "band": np.stack([lo, hi]),
            "widest": int(np.argmax(hi - lo)), "L_diag": np.diag(L)}


def length_scale_search(np, x, y, grid):
    scores = []
    for ell in grid:
        K = np.exp(-0.5 * np.subtract.outer(x, x) ** 2 / ell ** 2) + 0.01 * np.eye(len(x))
        sign, logdet = np.linalg.slogdet(K)
        a = np.linalg.solve(K, y)
        scores.append(-0.5 * y @ a - 0.5 * logdet)
    scores = np.array(scores)
    best = grid[np.argmax(scores)]
    return {"scores": scores, "best": best, "order": np.argsort(scores)[::-1], "sign": float(sign)}


def posterior_samples(np, x, y, xs, z):
    def k(a, b):
        return np.exp(-0.5 * (a.reshape(-1, 1) - b.reshape(1, -1)) ** 2)
    K = k(x, x) + 1e-2 * np.eye(x.size)
    Ks, Kss = k(x, xs), k(xs, xs)
    sol = np.linalg.solve(K, Ks)
    mu = sol.T @ y
    cov = Kss - Ks.T @ sol
    L = np.linalg.cholesky(cov + 1e-5 * np.eye(xs.size))
    samples = mu[:, None] + L @ z
    return {"mu": mu, "cov_diag": np.diag(cov), "samples": samples, "spread": samples.std(axis=1),
            "sym": bool(np.allclose(cov, cov.T, atol=1e-6))}


def kernel_ridge(np, X, y, Xt, lam):
    K = np.exp(-sq_dist(np, X, X) / 2)
    alpha = np.linalg.solve(K + lam * np.eye(len(X)), y)
    pred = np.exp(-sq_dist(np, Xt, X) / 2) @ alpha
    A = np.c_[np.ones(len(X)), X]
    w, res, rank, sv = np.linalg.lstsq(A, y, rcond=None)
    lin = np.c_[np.ones(len(Xt)), Xt] @ w
    fit = K @ alpha
    return {"pred": pred, "lin": lin, "rank": int(rank), "train_rmse": np.sqrt(np.mean((fit - y) ** 2)),
            "sv": sv, "alpha_norm": np.linalg.norm(alpha)}


def kde(np, data, grid):
    n = data.size
    sd = data.std(ddof=1)
    iqr = np.subtract(*np.percentile(data, [75, 25]))
    h_scott = 1.06 * sd * n ** (-1 / 5)
    h_silver = 0.9 * min(sd, iqr / 1.34) * n ** (-1 / 5)
    u = (grid[:, None] - data[None, :]) / h_scott
    dens = np.exp(-0.5 * u ** 2).sum(axis=1) / (n * h_scott * np.sqrt(2 * np.pi))
    logk = -0.5 * ((grid[:, None] - data) / h_silver) ** 2
    m = logk.max(axis=1, keepdims=True)
    logd = (m[:, 0] + np.log(np.exp(logk - m).sum(axis=1)) - np.log(n * h_silver * np.sqrt(2 * np.pi)))
    area = np.trapezoid(dens, grid)
    modes = np.flatnonzero((dens[1:-1] > dens[:-2]) & (dens[1:-1] > dens[2:])) + 1
    return {"h": [h_scott, h_silver], "dens": dens, "logd": logd, "area": area, "modes": grid[modes],
            "cdf": np.cumsum(dens) * (grid[1] - grid[0])}


def nystrom(np, X, m):
    K = np.exp(-0.5 * np.maximum(sq_dist(np, X, X), 0))
    idx = np.arange(0, len(X), len(X) // m)[:m]
    C = K[:, idx]
    W = C[idx]
    w, V = np.linalg.eigh(W)
    keep = w > 1e-6
    W_pinv = (V[:, keep] / w[keep]) @ V[:, keep].T
    approx = C @ W_pinv @ C.T
    err = np.linalg.norm(K - approx) / np.linalg.norm(K)
    top = np.linalg.eigvalsh(K)[::-1][:m]
    return {"err": err, "rank": int(keep.sum()), "top": top, "diag_err": np.abs(np.diag(K - approx)).max(),
            "w": w}


def test_rbf_matern_periodic_kernels():
    rng = np.random.default_rng(1211)
    check(kernels, rng.normal(size=(9, 3)), rng.normal(size=(6, 3)), atol=1e-4)


def test_gp_regression_cholesky():
    rng = np.random.default_rng(1212)
    x = np.sort(rng.uniform(-3, 3, 14))
    check(gp_posterior, x, np.sin(x) + 0.1 * rng.normal(size=14), np.linspace(-4, 4, 21), 1.0, 1.2, 0.1,
          rtol=2e-3, atol=1e-3)


def test_length_scale_grid_search():
    rng = np.random.default_rng(1213)
    x = np.linspace(0, 5, 12)
    check(length_scale_search, x, np.cos(1.5 * x) + 0.05 * rng.normal(size=12), np.array([0.3, 0.6, 1.0, 2.0]),
          rtol=2e-3, atol=1e-3)


def test_gp_posterior_samples():
    rng = np.random.default_rng(1214)
    x = np.array([-2.0, -1.0, 0.5, 2.0])
    xs = np.linspace(-3, 3, 9)
    check(posterior_samples, x, np.sin(x), xs, rng.normal(size=(9, 3)), rtol=5e-3, atol=5e-3)


def test_kernel_ridge_and_lstsq():
    rng = np.random.default_rng(1215)
    X = rng.normal(size=(20, 2))
    y = np.sin(X[:, 0]) + X[:, 1] ** 2
    check(kernel_ridge, X, y, rng.normal(size=(5, 2)), 0.1, rtol=2e-3, atol=1e-3)


def test_kde_bandwidths():
    rng = np.random.default_rng(1216)
    data = np.concatenate([rng.normal(-2, 0.5, 30), rng.normal(1.5, 1.0, 50)])
    check(kde, data, np.linspace(-5, 5, 41), rtol=1e-3, atol=1e-5)


def test_nystrom_eigh():
    check(nystrom, np.random.default_rng(1217).normal(size=(24, 2)), 6, rtol=5e-3, atol=1e-3)
