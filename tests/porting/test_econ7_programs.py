"""Econometrics as NumPy code writes it: OLS with lstsq and robust (HC0) standard errors, ridge regression along a
penalty path with the SVD, logistic regression by IRLS, panel fixed effects by demeaning with
unique(return_inverse) and bincount, two-stage least squares, a Newey-West covariance, a rolling-window beta
with sliding_window_view and a Durbin-Watson / R-squared report (tests/porting)."""

import numpy as np
from harness import check


def ols_robust(np, X_host, y_host):
    X = np.column_stack([np.ones(len(y_host)), np.asarray(X_host)])
    y = np.asarray(y_host)
    beta, res, rank, sv = np.linalg.lstsq(X, y, rcond=None)
    e = y - X @ beta
    n, k = X.shape
    XtX_inv = np.linalg.inv(X.T @ X)
    se = np.sqrt(np.diag(XtX_inv) * (e @ e) / (n - k))
    meat = (X * e[:, None] ** 2).T @ X
    se_hc0 = np.sqrt(np.diag(XtX_inv @ meat @ XtX_inv))
    r2 = 1 - e.var() / y.var()
    adj = 1 - (1 - r2) * (n - 1) / (n - k)
    dw = np.sum(np.diff(e) ** 2) / np.sum(e**2)
    return {"beta": beta, "res": res, "rank": int(rank), "sv": sv, "se": se, "se_hc0": se_hc0,
            "t": beta / se, "r2": r2, "adj": adj, "dw": dw, "line": f"R^2={r2:.4f} DW={dw:.3f}"}


def ridge_path(np, X_host, y_host):
    X, y = np.asarray(X_host), np.asarray(y_host)
    Xc = X - X.mean(axis=0)
    yc = y - y.mean()
    U, s, Vt = np.linalg.svd(Xc, full_matrices=False)
    lambdas = np.logspace(-2, 3, 12)
    d = s[None, :] / (s[None, :] ** 2 + lambdas[:, None])
    coefs = (d * (U.T @ yc)[None, :]) @ Vt
    dof = np.sum(s**2 / (s**2 + lambdas[:, None]), axis=1)
    direct = np.linalg.solve(Xc.T @ Xc + lambdas[3] * np.eye(X.shape[1]), Xc.T @ yc)
    norms = np.linalg.norm(coefs, axis=1)
    return {"coefs": coefs, "dof": dof, "direct": direct, "norms": norms,
            "shrinks": bool(np.all(np.diff(norms) <= 1e-9))}


def logistic_irls(np, X_host, y_host, iters=8):
    X = np.hstack([np.ones((len(y_host), 1)), np.asarray(X_host)])
    y = np.asarray(y_host).astype(float)
    w = np.zeros(X.shape[1])
    lls = []
    for _ in range(iters):
        eta = X @ w
        p = 1 / (1 + np.exp(-eta))
        W = p * (1 - p)
        H = X.T @ (X * W[:, None])
        g = X.T @ (y - p)
        w += np.linalg.solve(H, g)
        lls.append(float(np.sum(y * np.log(p) + (1 - y) * np.log1p(-p))))
    se = np.sqrt(np.diag(np.linalg.inv(H)))
    acc = np.mean((X @ w > 0) == (y == 1))
    return {"w": w, "se": se, "ll": np.array(lls), "acc": acc}


def panel_fixed_effects(np, firm_host, x_host, y_host):
    firm = np.asarray(firm_host)
    x, y = np.asarray(x_host), np.asarray(y_host)
    ids, inv, counts = np.unique(firm, return_inverse=True, return_counts=True)
    xm = np.bincount(inv, weights=x) / counts
    ym = np.bincount(inv, weights=y) / counts
    xd, yd = x - xm[inv], y - ym[inv]
    beta_fe = (xd @ yd) / (xd @ xd)
    beta_pooled = np.polyfit(x, y, 1)[0]
    alpha = ym - beta_fe * xm
    resid = yd - beta_fe * xd
    sigma2 = resid @ resid / (x.size - ids.size - 1)
    return {"ids": ids, "counts": counts, "beta_fe": beta_fe, "beta_pooled": beta_pooled, "alpha": alpha,
            "se": np.sqrt(sigma2 / (xd @ xd)), "between": np.corrcoef(xm, ym)[0, 1]}


def two_stage_least_squares(np, z_host, u_host, v_host):
    z, u, v = np.asarray(z_host), np.asarray(u_host), np.asarray(v_host)
    x = 0.8 * z + u
    y = 1.5 * x + u + v
    Z = np.c_[np.ones_like(z), z]
    X = np.c_[np.ones_like(x), x]
    xhat = Z @ np.linalg.lstsq(Z, x, rcond=None)[0]
    Xh = np.c_[np.ones_like(xhat), xhat]
    b_iv = np.linalg.lstsq(Xh, y, rcond=None)[0]
    b_ols = np.linalg.lstsq(X, y, rcond=None)[0]
    first_stage_f = (np.corrcoef(z, x)[0, 1] ** 2) * (z.size - 2) / (1 - np.corrcoef(z, x)[0, 1] ** 2)
    return {"b_iv": b_iv, "b_ols": b_ols, "F": first_stage_f, "bias": b_ols[1] - b_iv[1]}


def newey_west(np, x_host, e_host, lags=3):
    x, e = np.asarray(x_host), np.asarray(e_host)
    X = np.column_stack((np.ones_like(x), x))
    u = X * e[:, np.newaxis]
    S = u.T @ u
    for L in range(1, lags + 1):
        w = 1 - L / (lags + 1)
        G = u[L:].T @ u[:-L]
        S += w * (G + G.T)
    B = np.linalg.inv(X.T @ X)
    V = B @ S @ B
    return {"S": S, "V": V, "se": np.sqrt(np.diagonal(V)), "sym": bool(np.allclose(V, V.T))}


def rolling_beta(np, market_host, stock_host, window=20):
    m, s = np.asarray(market_host), np.asarray(stock_host)
    mw = np.lib.stride_tricks.sliding_window_view(m, window)
    sw = np.lib.stride_tricks.sliding_window_view(s, window)
    mc = mw - mw.mean(axis=-1, keepdims=True)
    sc = sw - sw.mean(axis=-1, keepdims=True)
    beta = (mc * sc).sum(axis=-1) / (mc**2).sum(axis=-1)
    alpha = sw.mean(axis=-1) - beta * mw.mean(axis=-1)
    cum = np.cumprod(1 + s) - 1
    dd = 1 - (1 + cum) / np.maximum.accumulate(1 + cum)
    return {"beta": beta, "alpha": alpha, "max_dd": dd.max(), "when": int(dd.argmax()),
            "beta_range": np.ptp(beta)}


def ridge_kfold(np, X_host, y_host, k=5):
    X, y = np.asarray(X_host), np.asarray(y_host)
    folds = np.array_split(np.arange(len(y)), k)
    lambdas = np.array([0.01, 0.1, 1.0, 10.0, 100.0])
    cv = np.zeros((k, lambdas.size))
    for f, test in enumerate(folds):
        train = np.setdiff1d(np.arange(len(y)), test)
        mu, sd = X[train].mean(0), X[train].std(0)
        Xt, Xv = (X[train] - mu) / sd, (X[test] - mu) / sd
        ym = y[train].mean()
        for j, lam in enumerate(lambdas):
            b = np.linalg.solve(Xt.T @ Xt + lam * np.eye(X.shape[1]), Xt.T @ (y[train] - ym))
            cv[f, j] = np.mean((y[test] - ym - Xv @ b) ** 2)
    mean, se = cv.mean(0), cv.std(0, ddof=1) / np.sqrt(k)
    best = mean.argmin()
    one_se = lambdas[np.flatnonzero(mean <= mean[best] + se[best]).max()]
    return {"cv": cv, "mean": mean, "best": lambdas[best], "one_se": one_se,
            "table": [f"{lam:>7g} {m:8.4f} +/- {s:.4f}" for lam, m, s in zip(lambdas, mean, se, strict=True)]}


def test_ols_with_robust_errors():
    rng = np.random.default_rng(711)
    X = rng.normal(size=(60, 3))
    y = 1 + X @ [0.5, -2.0, 0.0] + rng.normal(size=60) * (1 + np.abs(X[:, 0]))
    check(ols_robust, X, y, rtol=1e-3, atol=1e-4)


def test_ridge_penalty_path():
    rng = np.random.default_rng(712)
    X = rng.normal(size=(40, 5))
    X[:, 4] = X[:, 3] + 0.01 * rng.normal(size=40)
    check(ridge_path, X, X @ [1, 0, -1, 2, 0.5] + rng.normal(size=40), rtol=2e-3, atol=1e-3)


def test_logistic_regression_irls():
    rng = np.random.default_rng(713)
    X = rng.normal(size=(120, 2))
    y = (rng.random(120) < 1 / (1 + np.exp(-(0.3 + X @ [1.5, -1])))).astype(int)
    check(logistic_irls, X, y, rtol=1e-3, atol=1e-4)


def test_panel_fixed_effects_demeaning():
    rng = np.random.default_rng(714)
    firm = rng.choice([3, 7, 11, 20, 42], 90)
    x = rng.normal(size=90) + firm / 10
    check(panel_fixed_effects, firm, x, 0.7 * x + firm / 5 + rng.normal(size=90) * 0.3, rtol=1e-3, atol=1e-4)


def test_two_stage_least_squares():
    rng = np.random.default_rng(715)
    check(two_stage_least_squares, rng.normal(size=200), rng.normal(size=200), rng.normal(size=200),
          rtol=1e-3, atol=1e-4)


def test_newey_west_covariance():
    rng = np.random.default_rng(716)
    e = np.convolve(rng.normal(size=104), [1, 0.6, 0.3], mode="valid")[:100]
    check(newey_west, rng.normal(size=100), e, rtol=1e-3, atol=1e-5)


def test_rolling_beta_and_drawdown():
    rng = np.random.default_rng(717)
    mkt = rng.normal(0.0005, 0.01, 120)
    check(rolling_beta, mkt, 1.2 * mkt + rng.normal(0, 0.005, 120), rtol=1e-3, atol=1e-5)


def test_ridge_kfold_cross_validation():
    rng = np.random.default_rng(718)
    X = rng.normal(size=(50, 6))
    check(ridge_kfold, X, X[:, :3] @ [2.0, -1.0, 0.5] + rng.normal(size=50), rtol=1e-3, atol=1e-4)
