"""Geostatistics in plain NumPy: empirical variograms by pair distances over `triu_indices` binned with
`digitize`/`bincount`, a spherical model fitted by `lstsq`, ordinary kriging by a bordered `linalg.solve` with many
right-hand sides, inverse-distance weighting by broadcasting with exact hits handled by `where`, k-nearest
neighbours by `argpartition`/`take_along_axis`, declustering weights by cell `unique(axis=0, return_inverse=)`,
a masked grid of missing samples by `np.ma`, and block averages by `reshape` and `nanmean` (tests/porting)."""

import numpy as np
from harness import check


def variogram(np, xy, z, lag, n_lags):
    xy, z = np.asarray(xy), np.asarray(z)
    i, j = np.triu_indices(len(z), k=1)
    h = np.linalg.norm(xy[i] - xy[j], axis=1)
    g = 0.5 * (z[i] - z[j]) ** 2
    b = np.digitize(h, np.arange(1, n_lags + 1) * lag)
    keep = b < n_lags
    counts = np.bincount(b[keep], minlength=n_lags)
    gamma = np.bincount(b[keep], weights=g[keep], minlength=n_lags) / np.maximum(counts, 1)
    centres = np.bincount(b[keep], weights=h[keep], minlength=n_lags) / np.maximum(counts, 1)
    return {"counts": counts, "gamma": gamma, "centres": centres, "sill": z.var(), "pairs": len(h)}


def spherical_fit(np, h, gamma, ranges):
    h, gamma = np.asarray(h), np.asarray(gamma)
    best = None
    table = []
    for a in ranges:
        s = np.where(h < a, 1.5 * h / a - 0.5 * (h / a) ** 3, 1.0)
        A = np.column_stack([np.ones_like(h), s])  # nugget, partial sill
        coef, res, rank, sv = np.linalg.lstsq(A, gamma, rcond=None)
        sse = np.sum((A @ coef - gamma) ** 2)
        table.append([a, coef[0], coef[1], sse])
        if best is None or sse < best[3]:
            best = table[-1]
    T = np.array(table)
    return {"T": T, "best": np.array(best), "argbest": int(np.argmin(T[:, 3]))}


def kriging(np, xy, z, targets, nugget, sill, rng_):
    xy, z, t = np.asarray(xy), np.asarray(z), np.asarray(targets)

    def cov(d):
        s = np.where(d < rng_, 1.5 * d / rng_ - 0.5 * (d / rng_) ** 3, 1.0)
        return np.where(d == 0, nugget + sill, sill * (1 - s))

    n = len(z)
    D = np.sqrt(((xy[:, None, :] - xy[None, :, :]) ** 2).sum(-1))
    K = np.ones((n + 1, n + 1))
    K[:n, :n] = cov(D)
    K[n, n] = 0.0
    d0 = np.sqrt(((xy[:, None, :] - t[None, :, :]) ** 2).sum(-1))  # (n, targets)
    rhs = np.vstack([cov(d0), np.ones((1, len(t)))])
    W = np.linalg.solve(K, rhs)
    est = W[:n].T @ z
    var = nugget + sill - np.einsum("it,it->t", W, rhs)
    return {"est": est, "var": var, "wsum": W[:n].sum(axis=0), "neg_w": np.count_nonzero(W[:n] < -1e-4, axis=0)}


def idw(np, xy, z, grid, power):
    xy, z, g = np.asarray(xy), np.asarray(z), np.asarray(grid)
    d = np.linalg.norm(g[:, None, :] - xy[None, :, :], axis=-1)
    exact = d == 0
    w = 1.0 / np.where(exact, 1.0, d) ** power
    est = (w @ z) / w.sum(axis=1)
    hit = exact.any(axis=1)
    est = np.where(hit, z[np.argmax(exact, axis=1)], est)
    return {"est": est, "hit": np.flatnonzero(hit), "range": np.ptp(est)}


def knn(np, xy, z, query, k):
    xy, z, q = np.asarray(xy), np.asarray(z), np.asarray(query)
    d2 = ((q[:, None, :] - xy[None]) ** 2).sum(-1)
    part = np.argpartition(d2, k, axis=1)[:, :k]
    dk = np.take_along_axis(d2, part, axis=1)
    order = np.argsort(dk, axis=1, kind="stable")
    idx = np.take_along_axis(part, order, axis=1)
    mean = z[idx].mean(axis=1)
    return {"idx": idx, "d": np.sqrt(np.take_along_axis(dk, order, axis=1)), "mean": mean,
            "std": z[idx].std(axis=1, ddof=1)}


def decluster(np, xy, z, cell):
    xy, z = np.asarray(xy), np.asarray(z)
    cells = np.floor(xy / cell).astype(np.int64)
    uniq, inv, counts = np.unique(cells, axis=0, return_inverse=True, return_counts=True)
    w = 1.0 / counts[inv]
    w = w / w.sum() * len(z)
    return {"n_cells": len(uniq), "w": w, "naive": z.mean(), "declustered": np.average(z, weights=w),
            "busiest": uniq[np.argmax(counts)]}


def masked_grid(np, grid, missing_value):
    g = np.ma.masked_equal(np.asarray(grid), missing_value)
    row_mean = g.mean(axis=1)
    filled = g.filled(np.nan)
    col_fill = np.where(np.isnan(filled), np.nanmean(filled, axis=0), filled)
    top = np.argmax(filled == np.nanmax(filled))
    return {"row_mean": row_mean.filled(-1.0), "n_missing": int(g.mask.sum()), "col_fill": col_fill,
            "anom": (g - g.mean()).filled(0.0), "max_pos": np.unravel_index(top, g.shape)}


def block_average(np, grid, b):
    g = np.asarray(grid, dtype=float)
    ny, nx = g.shape
    g = g[: ny // b * b, : nx // b * b]
    blocks = g.reshape(ny // b, b, nx // b, b)
    mean = np.nanmean(blocks, axis=(1, 3))
    valid = np.sum(~np.isnan(blocks), axis=(1, 3))
    up = np.repeat(np.repeat(mean, b, axis=0), b, axis=1)
    resid = g - up
    return {"mean": mean, "valid": valid, "resid_rms": np.sqrt(np.nanmean(resid ** 2)),
            "swap": blocks.swapaxes(1, 2).reshape(-1, b * b)[:2]}


def _field(seed, n):
    rng = np.random.default_rng(seed)
    xy = rng.uniform(0, 10, (n, 2))
    z = np.sin(xy[:, 0] / 2) + np.cos(xy[:, 1] / 3) + 0.1 * rng.standard_normal(n)
    return xy, z


def test_variogram():
    xy, z = _field(2461, 40)
    check(variogram, xy, z, 1.0, 8, rtol=1e-3)


def test_spherical_fit():
    h = np.linspace(0.5, 8, 12)
    gamma = 0.1 + 0.9 * np.where(h < 5, 1.5 * h / 5 - 0.5 * (h / 5) ** 3, 1.0) + 0.01 * np.sin(h)
    check(spherical_fit, h, gamma, np.array([3.0, 4.0, 5.0, 6.0]), rtol=1e-3, atol=1e-5)


def test_kriging():
    xy, z = _field(2462, 15)
    t = np.array([[5.0, 5.0], [1.0, 9.0], xy[3]])  # the last target is a data point
    check(kriging, xy, z, t, 0.05, 1.0, 6.0, rtol=2e-3, atol=2e-4)


def test_idw():
    xy, z = _field(2463, 12)
    g = np.vstack([np.array([[2.0, 3.0], [7.5, 1.0]]), xy[[0, 5]]])
    check(idw, xy, z, g, 2.0)


def test_knn():
    xy, z = _field(2464, 30)
    check(knn, xy, z, np.array([[1.0, 1.0], [5.0, 5.0], [9.0, 2.0]]), 4)


def test_decluster():
    xy, z = _field(2465, 50)
    xy[:15] = xy[:15] * 0.2  # a cluster near the origin
    check(decluster, xy, z, 2.5)


def test_masked_grid():
    rng = np.random.default_rng(2466)
    g = np.round(rng.uniform(0, 10, (5, 6)), 1)
    g[rng.random((5, 6)) < 0.25] = -999.0
    check(masked_grid, g, -999.0)


def test_block_average():
    rng = np.random.default_rng(2467)
    g = rng.standard_normal((9, 13))
    g[rng.random((9, 13)) < 0.2] = np.nan
    check(block_average, g, 3)
