"""Stochastic differential equations and particle filters in plain NumPy, with every random increment passed in:
Euler-Maruyama and Milstein paths of geometric Brownian motion against the exact solution, strong-order estimates by
coarsening increments with `reshape(...).sum(axis=-1)`, an Ornstein-Uhlenbeck process with exact and Euler steps,
correlated multi-asset paths by `cholesky` and `einsum`, first-passage times by `argmax` of a boolean with an
`any` guard, a Heston full-truncation scheme with `np.maximum`, and a bootstrap particle filter with systematic
resampling by `searchsorted` on `cumsum`, log-weights normalised by a max shift and the effective sample size
(tests/porting)."""

import numpy as np
from harness import check


def gbm(np, dW, mu, sigma, s0, T):
    dW = np.asarray(dW)  # (paths, steps)
    n = dW.shape[1]
    dt = T / n
    W = np.cumsum(dW, axis=1)
    t = np.linspace(dt, T, n)
    exact = s0 * np.exp((mu - 0.5 * sigma**2) * t + sigma * W)
    em = np.empty_like(dW)
    mil = np.empty_like(dW)
    s_em = np.full(dW.shape[0], s0)
    s_mil = np.full(dW.shape[0], s0)
    for k in range(n):
        s_em = s_em + mu * s_em * dt + sigma * s_em * dW[:, k]
        s_mil = s_mil + mu * s_mil * dt + sigma * s_mil * dW[:, k] + 0.5 * sigma**2 * s_mil * (dW[:, k] ** 2 - dt)
        em[:, k], mil[:, k] = s_em, s_mil
    return {"exact_T": exact[:, -1], "em_err": np.mean(np.abs(em[:, -1] - exact[:, -1])),
            "mil_err": np.mean(np.abs(mil[:, -1] - exact[:, -1])), "mean_path": em.mean(axis=0),
            "better": bool(np.mean(np.abs(mil - exact)) < np.mean(np.abs(em - exact)))}


def strong_order(np, dW, lam, mu, x0, T):
    dW = np.asarray(dW)
    paths, n = dW.shape
    exact = x0 * np.exp((lam - 0.5 * mu**2) * T + mu * dW.sum(axis=1))
    errs, dts = [], []
    for R in (1, 2, 4, 8):
        inc = dW.reshape(paths, n // R, R).sum(axis=-1)
        dt = R * T / n
        x = np.full(paths, x0)
        for j in range(inc.shape[1]):
            x = x + dt * lam * x + mu * x * inc[:, j]
        errs.append(np.mean(np.abs(x - exact)))
        dts.append(dt)
    slope, icpt = np.polyfit(np.log(dts), np.log(errs), 1)
    return {"errs": np.array(errs), "slope": slope, "icpt": icpt, "dts": np.array(dts)}


def ornstein_uhlenbeck(np, z, theta, mu, sigma, x0, dt):
    z = np.asarray(z)
    n = z.shape[-1]
    a = np.exp(-theta * dt)
    sd = sigma * np.sqrt((1 - a**2) / (2 * theta))
    x_ex = np.empty(z.shape)
    x_eu = np.empty(z.shape)
    xe = np.full(z.shape[0], x0, dtype=float)
    xu = xe.copy()
    for k in range(n):
        xe = mu + (xe - mu) * a + sd * z[:, k]
        xu = xu + theta * (mu - xu) * dt + sigma * np.sqrt(dt) * z[:, k]
        x_ex[:, k], x_eu[:, k] = xe, xu
    lag1 = np.mean((x_ex[:, 1:] - x_ex.mean()) * (x_ex[:, :-1] - x_ex.mean())) / x_ex.var()
    return {"ex_mean": x_ex.mean(axis=0)[-5:], "eu_mean": x_eu.mean(axis=0)[-5:], "stat_var": x_ex[:, n // 2:].var(),
            "theory_var": sigma**2 / (2 * theta), "lag1": lag1, "a": a, "diff": np.abs(x_ex - x_eu).max()}


def correlated_assets(np, z, corr, vols, drift, s0, dt):
    z, corr, vols = np.asarray(z), np.asarray(corr), np.asarray(vols)  # z: (paths, steps, assets)
    L = np.linalg.cholesky(corr)
    eps = np.einsum("ij,psj->psi", L, z)
    logret = (drift - 0.5 * vols**2) * dt + vols * np.sqrt(dt) * eps
    S = np.asarray(s0) * np.exp(np.cumsum(logret, axis=1))
    emp = np.corrcoef(logret.reshape(-1, len(vols)), rowvar=False)
    basket = S.mean(axis=2)
    payoff = np.maximum(basket[:, -1] - 100.0, 0)
    return {"L": L, "emp": emp, "final": S[:, -1, :].mean(axis=0), "price": payoff.mean(),
            "p_itm": np.mean(payoff > 0), "max_dd": np.max(np.maximum.accumulate(basket, axis=1) - basket, axis=1)}


def first_passage(np, dW, x0, barrier, drift, dt):
    dW = np.asarray(dW)
    X = x0 + np.cumsum(drift * dt + dW, axis=1)
    hit = X >= barrier
    ever = hit.any(axis=1)
    first = np.where(ever, hit.argmax(axis=1), -1)
    times = (first[ever] + 1) * dt
    return {"ever": ever, "first": first, "mean_t": times.mean(), "med_t": np.median(times),
            "p_hit": ever.mean(), "min_before": np.array([X[i, : max(f, 1)].min() for i, f in enumerate(first)])}


def heston(np, z1, z2, rho, kappa, theta, xi, v0, s0, dt):
    z1, z2 = np.asarray(z1), np.asarray(z2)
    paths, n = z1.shape
    v = np.full(paths, v0)
    logS = np.full(paths, np.log(s0))
    neg = 0
    for k in range(n):
        w1 = z1[:, k]
        w2 = rho * w1 + np.sqrt(1 - rho**2) * z2[:, k]
        vp = np.maximum(v, 0.0)
        logS = logS - 0.5 * vp * dt + np.sqrt(vp * dt) * w1
        v = v + kappa * (theta - vp) * dt + xi * np.sqrt(vp * dt) * w2
        neg += int(np.sum(v < 0))
    S = np.exp(logS)
    K = np.array([90.0, 100.0, 110.0])
    calls = np.maximum(S[:, None] - K[None, :], 0).mean(axis=0)
    return {"calls": calls, "neg": neg, "v_mean": np.maximum(v, 0).mean(), "S_mean": S.mean(),
            "skew": np.mean(((S - S.mean()) / S.std()) ** 3)}


def particle_filter(np, ys, x0, u_resample, noise, q, r):
    ys, x0, u_resample, noise = map(np.asarray, (ys, x0, u_resample, noise))
    N = x0.size
    x = x0.copy()
    logw = np.zeros(N)
    means, ess_hist, resampled = [], [], []
    for t, y in enumerate(ys):
        x = 0.5 * x + 25 * x / (1 + x**2) + 8 * np.cos(1.2 * t) + np.sqrt(q) * noise[t]
        logw = logw - 0.5 * (y - x**2 / 20) ** 2 / r
        m = logw.max()
        w = np.exp(logw - m)
        w /= w.sum()
        means.append(np.sum(w * x))
        ess = 1.0 / np.sum(w**2)
        ess_hist.append(ess)
        if ess < N / 2:
            positions = (u_resample[t] + np.arange(N)) / N
            cs = np.cumsum(w)
            cs[-1] = 1.0
            idx = np.searchsorted(cs, positions)
            x = x[idx]
            logw = np.zeros(N)
            resampled.append(t)
        else:
            logw = np.log(w)
    return {"means": np.array(means), "ess": np.array(ess_hist), "resampled": resampled,
            "final_spread": np.ptp(x), "n_unique": len(np.unique(x))}


def test_gbm():
    rng = np.random.default_rng(2661)
    n, T = 64, 1.0
    check(gbm, rng.normal(0, np.sqrt(T / n), (20, n)), 0.05, 0.3, 100.0, T, rtol=1e-4, atol=1e-6)


def test_strong_order():
    rng = np.random.default_rng(2662)
    n = 256
    check(strong_order, rng.normal(0, np.sqrt(1 / n), (50, n)), 2.0, 1.0, 1.0, 1.0, rtol=1e-3, atol=1e-6)


def test_ornstein_uhlenbeck():
    rng = np.random.default_rng(2663)
    check(ornstein_uhlenbeck, rng.normal(size=(30, 100)), 1.5, 0.5, 0.3, 2.0, 0.05, rtol=1e-4, atol=1e-6)


def test_correlated_assets():
    rng = np.random.default_rng(2664)
    corr = np.array([[1.0, 0.6, 0.2], [0.6, 1.0, 0.4], [0.2, 0.4, 1.0]])
    check(correlated_assets, rng.normal(size=(40, 25, 3)), corr, np.array([0.2, 0.3, 0.25]), 0.03,
          np.array([100.0, 95.0, 105.0]), 1 / 52, rtol=1e-4, atol=1e-6)


def test_first_passage():
    rng = np.random.default_rng(2665)
    check(first_passage, rng.normal(0, 0.1, (30, 200)), 0.0, 1.0, 0.2, 0.01)


def test_heston():
    rng = np.random.default_rng(2666)
    check(heston, rng.normal(size=(200, 50)), rng.normal(size=(200, 50)), -0.7, 2.0, 0.04, 0.6, 0.04, 100.0,
          1 / 50, rtol=1e-3, atol=1e-5)


def test_particle_filter():
    rng = np.random.default_rng(2667)
    T, N = 15, 200
    x, ys = 0.1, []
    for t in range(T):
        x = 0.5 * x + 25 * x / (1 + x**2) + 8 * np.cos(1.2 * t) + rng.normal(0, np.sqrt(10))
        ys.append(x**2 / 20 + rng.normal())
    check(particle_filter, np.array(ys), rng.normal(0, 2, N), rng.uniform(0, 1, T), rng.normal(size=(T, N)),
          10.0, 1.0, rtol=1e-3, atol=1e-4)
