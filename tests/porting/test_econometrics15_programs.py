"""Econometrics homework as problem sets write it by hand: OLS with HC0/HC1 robust errors by `einsum` sandwiches,
cluster-robust errors with scores summed by `np.add.at`, panel within-demeaning by `unique(return_inverse=True)`
and `bincount(weights=)` with two-way fixed effects by alternating projections, two-stage least squares with
`lstsq`, Newey-West HAC errors in a lag loop, a difference-in-differences table from boolean masks, and an F-test
of restrictions with a Wald statistic printed by `array2string` (tests/porting)."""

import numpy as np
from harness import check


def ols_robust(np, X, y):
    n, k = X.shape
    XtX_inv = np.linalg.inv(X.T @ X)
    beta = XtX_inv @ X.T @ y
    e = y - X @ beta
    s2 = e @ e / (n - k)
    se = np.sqrt(np.diag(s2 * XtX_inv))
    meat = np.einsum("i,ij,ik->jk", e ** 2, X, X)
    hc0 = XtX_inv @ meat @ XtX_inv
    hc1 = hc0 * n / (n - k)
    r2 = 1 - e @ e / ((y - y.mean()) ** 2).sum()
    return {"beta": beta, "se": se, "hc0": np.sqrt(np.diag(hc0)), "hc1": np.sqrt(np.diag(hc1)),
            "t": beta / np.sqrt(np.diag(hc1)), "r2": r2, "adj_r2": 1 - (1 - r2) * (n - 1) / (n - k - 1 + 1)}


def cluster_se(np, X, y, cluster):
    n, k = X.shape
    beta, *_ = np.linalg.lstsq(X, y, rcond=None)
    e = y - X @ beta
    labels, g = np.unique(cluster, return_inverse=True)
    G = len(labels)
    scores = np.zeros((G, k))
    np.add.at(scores, g, X * e[:, None])
    bread = np.linalg.inv(X.T @ X)
    V = bread @ (scores.T @ scores) @ bread * (G / (G - 1)) * ((n - 1) / (n - k))
    sizes = np.bincount(g)
    return {"beta": beta, "se": np.sqrt(np.diag(V)), "G": G, "sizes": sizes, "largest": labels[np.argmax(sizes)]}


def panel_within(np, firm, year, x, y):
    _, fi = np.unique(firm, return_inverse=True)
    _, ti = np.unique(year, return_inverse=True)
    counts = np.bincount(fi)
    xd = x - (np.bincount(fi, weights=x) / counts)[fi]
    yd = y - (np.bincount(fi, weights=y) / counts)[fi]
    beta_fe = (xd @ yd) / (xd @ xd)
    # two-way fixed effects by alternating projections
    x2, y2 = x.copy(), y.copy()
    tcounts = np.bincount(ti)
    for _ in range(60):
        x2 = x2 - (np.bincount(fi, weights=x2) / counts)[fi]
        x2 -= (np.bincount(ti, weights=x2) / tcounts)[ti]
        y2 = y2 - (np.bincount(fi, weights=y2) / counts)[fi]
        y2 -= (np.bincount(ti, weights=y2) / tcounts)[ti]
    beta_tw = (x2 @ y2) / (x2 @ x2)
    alpha = np.bincount(fi, weights=y - beta_fe * x) / counts
    return {"beta_fe": beta_fe, "beta_tw": beta_tw, "alpha": alpha, "xd_mean": np.abs(xd).max() > 0,
            "between": np.corrcoef(np.bincount(fi, weights=x) / counts, alpha)[0, 1]}


def two_sls(np, y, x_endog, Z, W):
    Zf = np.column_stack([np.ones(len(y)), W, Z])
    first, *_ = np.linalg.lstsq(Zf, x_endog, rcond=None)
    x_hat = Zf @ first
    resid1 = x_endog - x_hat
    explained = (x_hat - x_endog.mean()) @ (x_hat - x_endog.mean()) / Z.shape[1]
    F_first = explained / (resid1 @ resid1 / (len(y) - Zf.shape[1]))
    X2 = np.column_stack([np.ones(len(y)), W, x_hat])
    beta, *_ = np.linalg.lstsq(X2, y, rcond=None)
    X = np.column_stack([np.ones(len(y)), W, x_endog])
    u = y - X @ beta
    sigma2 = u @ u / (len(y) - X.shape[1])
    V = sigma2 * np.linalg.inv(X2.T @ X2)
    ols, *_ = np.linalg.lstsq(X, y, rcond=None)
    return {"beta": beta, "se": np.sqrt(np.diag(V)), "first": first, "F": F_first, "ols": ols,
            "bias": ols[-1] - beta[-1]}


def newey_west(np, X, y, lags):
    n, k = X.shape
    beta = np.linalg.solve(X.T @ X, X.T @ y)
    u = y - X @ beta
    Xu = X * u[:, np.newaxis]
    S = Xu.T @ Xu
    for L in range(1, lags + 1):
        w = 1 - L / (lags + 1)
        G = Xu[L:].T @ Xu[:-L]
        S += w * (G + G.T)
    bread = np.linalg.inv(X.T @ X)
    V = bread @ S @ bread
    acf = np.array([np.corrcoef(u[L:], u[:-L])[0, 1] for L in range(1, lags + 1)])
    return {"beta": beta, "nw_se": np.sqrt(np.diag(V)), "acf": acf, "dw": (np.diff(u) ** 2).sum() / (u @ u)}


def diff_in_diff(np, treated, post, y):
    table = np.empty((2, 2))
    for i in (0, 1):
        for j in (0, 1):
            table[i, j] = y[(treated == i) & (post == j)].mean()
    did = (table[1, 1] - table[1, 0]) - (table[0, 1] - table[0, 0])
    X = np.column_stack([np.ones_like(y), treated, post, treated * post])
    beta = np.linalg.solve(X.T @ X, X.T @ y)
    cells = np.bincount(2 * treated + post, minlength=4).reshape(2, 2)
    return {"table": table, "did": did, "beta": beta, "cells": cells, "agree": bool(np.isclose(did, beta[3]))}


def f_test(np, X, y, R, r):
    n, k = X.shape
    beta = np.linalg.solve(X.T @ X, X.T @ y)
    e = y - X @ beta
    s2 = e @ e / (n - k)
    V = s2 * np.linalg.inv(X.T @ X)
    diff = R @ beta - r
    wald = diff @ np.linalg.solve(R @ V @ R.T, diff)
    F = wald / R.shape[0]
    np.set_printoptions(precision=3, suppress=True)
    try:
        text = np.array2string(np.column_stack([beta, np.sqrt(np.diag(V))]), separator=", ")
    finally:
        np.set_printoptions(precision=8, suppress=False)
    return {"F": F, "wald": wald, "text": text, "q": R.shape[0]}


def _design(rng, n, k):
    return np.column_stack([np.ones(n), rng.normal(size=(n, k - 1))])


def test_ols_with_robust_errors():
    rng = np.random.default_rng(1511)
    X = _design(rng, 300, 4)
    y = X @ np.array([1.0, 0.5, -0.3, 2.0]) + rng.normal(size=300) * (1 + np.abs(X[:, 1]))
    check(ols_robust, X, y, rtol=1e-6)


def test_cluster_robust_errors():
    rng = np.random.default_rng(1512)
    cluster = rng.choice(np.array([101, 205, 307, 412, 520, 633, 748, 850]), 240)
    X = _design(rng, 240, 3)
    y = X @ np.array([0.2, 1.0, -1.0]) + rng.normal(size=8)[np.searchsorted(np.unique(cluster), cluster)] \
        + rng.normal(size=240)
    check(cluster_se, X, y, cluster, rtol=1e-6)


def test_panel_within_and_two_way():
    rng = np.random.default_rng(1513)
    firms, years = 30, 8
    firm = np.repeat(np.arange(100, 100 + firms), years)
    year = np.tile(np.arange(2010, 2010 + years), firms)
    fe = rng.normal(size=firms)[firm - 100]
    te = rng.normal(size=years)[year - 2010]
    x = fe + rng.normal(size=firm.size)
    y = 1.5 * x + 2 * fe + te + rng.normal(size=firm.size)
    keep = rng.random(firm.size) > 0.1
    check(panel_within, firm[keep], year[keep], x[keep], y[keep], rtol=1e-6)


def test_two_stage_least_squares():
    rng = np.random.default_rng(1514)
    n = 400
    Z = rng.normal(size=(n, 2))
    W = rng.normal(size=n)
    u = rng.normal(size=n)
    x = Z @ np.array([0.8, -0.5]) + 0.3 * W + 0.7 * u + rng.normal(size=n)
    y = 1.0 + 0.5 * W + 2.0 * x + u
    check(two_sls, y, x, Z, W, rtol=1e-6)


def test_newey_west_hac():
    rng = np.random.default_rng(1515)
    n = 250
    e = np.zeros(n)
    shocks = rng.normal(size=n)
    for t in range(1, n):
        e[t] = 0.6 * e[t - 1] + shocks[t]
    X = _design(rng, n, 2)
    check(newey_west, X, X @ np.array([1.0, 0.4]) + e, 4, rtol=1e-6)


def test_difference_in_differences():
    rng = np.random.default_rng(1516)
    n = 500
    treated = rng.integers(0, 2, n)
    post = rng.integers(0, 2, n)
    y = 3 + treated + 0.5 * post + 1.25 * treated * post + rng.normal(size=n)
    check(diff_in_diff, treated, post, y, rtol=1e-6)


def test_f_test_of_restrictions():
    rng = np.random.default_rng(1517)
    X = _design(rng, 120, 4)
    y = X @ np.array([1.0, 0.0, 0.0, 0.7]) + rng.normal(size=120)
    R = np.array([[0.0, 1, 0, 0], [0, 0, 1, 0]])
    check(f_test, X, y, R, np.zeros(2), rtol=1e-6)
