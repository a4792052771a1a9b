"""Survival analysis in plain NumPy: Kaplan-Meier with tied times and censoring by `unique(return_inverse=)` and
`np.add.at`, Greenwood variances and log-log confidence bands, the Nelson-Aalen cumulative hazard, a two-group
log-rank test over the pooled event times, Cox proportional hazards by Newton-Raphson with risk sets as reversed
cumulative sums (`flip`/`cumsum`), Breslow's baseline hazard, the restricted mean survival time as a step
integral, survival read at given times by `searchsorted(side='right')`, and a life-table (actuarial) estimate over
intervals by `histogram` (tests/porting)."""

import numpy as np
from harness import check


def kaplan_meier(np, time, event):
    t, e = np.asarray(time), np.asarray(event).astype(bool)
    times, inv = np.unique(t, return_inverse=True)
    d = np.zeros(times.size, dtype=np.int64)
    np.add.at(d, inv, e.astype(np.int64))
    c = np.bincount(inv, minlength=times.size) - d
    at_risk = t.size - np.concatenate(([0], np.cumsum(d + c)[:-1]))
    keep = d > 0
    h = d[keep] / at_risk[keep]
    S = np.cumprod(1 - h)
    with np.errstate(divide="ignore", invalid="ignore"):
        gw = np.cumsum(d[keep] / (at_risk[keep] * (at_risk[keep] - d[keep])))
        var = S**2 * gw
        logS = np.log(S)
        se_ll = np.sqrt(gw) / np.abs(logS)
        lo = S ** np.exp(1.96 * se_ll)
        hi = S ** np.exp(-1.96 * se_ll)
    median = times[keep][np.argmax(S <= 0.5)] if np.any(S <= 0.5) else np.inf
    return {"times": times[keep], "n": at_risk[keep], "d": d[keep], "S": S, "var": var,
            "lo": np.nan_to_num(lo, nan=0.0), "hi": np.nan_to_num(hi, nan=1.0), "median": median,
            "censored": c.sum()}


def nelson_aalen(np, time, event):
    order = np.lexsort((-np.asarray(event), np.asarray(time)))
    t, e = np.asarray(time)[order], np.asarray(event)[order]
    n = t.size
    at_risk = n - np.arange(n)
    last = np.r_[t[1:] != t[:-1], True]
    inc = e / at_risk
    H = np.cumsum(inc)[last]
    return {"t": t[last], "H": H, "S_fh": np.exp(-H), "var": np.cumsum(e / at_risk**2)[last]}


def logrank(np, time, event, group):
    t, e, g = np.asarray(time), np.asarray(event), np.asarray(group)
    ut = np.unique(t[e == 1])
    n1 = (t[None, :] >= ut[:, None]) & (g[None, :] == 1)
    n = (t[None, :] >= ut[:, None]).sum(axis=1)
    n1 = n1.sum(axis=1)
    died = (t[None, :] == ut[:, None]) & (e[None, :] == 1)
    d = died.sum(axis=1)
    d1 = (died & (g[None, :] == 1)).sum(axis=1)
    E1 = d * n1 / n
    V = np.where(n > 1, d * (n1 / n) * (1 - n1 / n) * (n - d) / np.maximum(n - 1, 1), 0.0)
    chi2 = (d1.sum() - E1.sum()) ** 2 / V.sum()
    return {"ut": ut, "n": n, "n1": n1, "d": d, "E1": E1, "O_E": d1.sum() - E1.sum(), "chi2": chi2}


def cox_newton(np, time, event, X, iters):
    order = np.argsort(-np.asarray(time), kind="stable")
    e, X = np.asarray(event)[order], np.asarray(X)[order]
    beta = np.zeros(X.shape[1])
    lls = []
    for _ in range(iters):
        eta = X @ beta
        r = np.exp(eta - eta.max())
        S0 = np.cumsum(r)
        S1 = np.cumsum(r[:, None] * X, axis=0)
        S2 = np.cumsum(r[:, None, None] * X[:, :, None] * X[:, None, :], axis=0)
        xbar = S1 / S0[:, None]
        grad = np.sum(e[:, None] * (X - xbar), axis=0)
        info = np.sum(e[:, None, None] * (S2 / S0[:, None, None] - xbar[:, :, None] * xbar[:, None, :]), axis=0)
        beta = beta + np.linalg.solve(info, grad)
        lls.append(np.sum(e * (eta - np.log(S0) - eta.max())))
    se = np.sqrt(np.diag(np.linalg.inv(info)))
    eta = X @ beta
    h0 = e / np.cumsum(np.exp(eta))
    return {"beta": beta, "se": se, "hr": np.exp(beta), "z": beta / se, "ll": np.array(lls),
            "H0": np.cumsum(h0[::-1])[::-1][:5]}


def rmst(np, times, S, tau):
    times, S = np.asarray(times), np.asarray(S)
    grid = np.concatenate(([0.0], times[times < tau], [tau]))
    surv = np.concatenate(([1.0], S[times < tau]))
    area = np.sum(np.diff(grid) * surv)
    q = np.array([0.5, 2.0, 5.0, tau])
    at = np.searchsorted(times, q, side="right") - 1
    S_at = np.where(at >= 0, S[np.clip(at, 0, None)], 1.0)
    return {"rmst": area, "S_at": S_at, "lost": tau - area}


def actuarial(np, time, event, edges):
    t, e = np.asarray(time), np.asarray(event)
    deaths, _ = np.histogram(t[e == 1], bins=edges)
    cens, _ = np.histogram(t[e == 0], bins=edges)
    entered = t.size - np.concatenate(([0], np.cumsum(deaths + cens)[:-1]))
    eff = entered - cens / 2
    q = np.divide(deaths, eff, out=np.zeros(len(deaths)), where=eff > 0)
    S = np.cumprod(1 - q)
    width = np.diff(edges)
    hazard = q / (width * (1 - q / 2))
    return {"deaths": deaths, "cens": cens, "entered": entered, "q": q, "S": S, "hazard": hazard}


def data(seed, n):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 2))
    t = np.round(rng.exponential(5 * np.exp(-0.5 * x[:, 0] + 0.3 * x[:, 1])), 1) + 0.1
    c = np.round(rng.uniform(2, 12, n), 1)
    return np.minimum(t, c), (t <= c).astype(np.int64), x


def test_kaplan_meier():
    t, e, _ = data(2571, 40)
    check(kaplan_meier, t, e, rtol=1e-4, atol=1e-6)


def test_nelson_aalen():
    t, e, _ = data(2572, 35)
    check(nelson_aalen, t, e, rtol=1e-4, atol=1e-6)


def test_logrank():
    t, e, x = data(2573, 40)
    check(logrank, t, e, (x[:, 0] > 0).astype(np.int64), rtol=1e-4, atol=1e-6)


def test_cox_newton():
    t, e, x = data(2574, 60)
    check(cox_newton, t, e, x, 6, rtol=2e-3, atol=1e-4)


def test_rmst():
    check(rmst, np.array([0.5, 1.2, 2.0, 3.1, 4.4, 6.0, 8.5]), np.array([0.95, 0.9, 0.8, 0.7, 0.55, 0.4, 0.2]),
          7.0, rtol=1e-5, atol=1e-6)


def test_actuarial():
    t, e, _ = data(2575, 50)
    check(actuarial, t, e, np.array([0.0, 1, 2, 4, 6, 9, 13]), rtol=1e-4, atol=1e-6)
