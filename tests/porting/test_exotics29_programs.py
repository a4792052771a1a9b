"""Monte-Carlo pricing of path-dependent options in plain NumPy, with every normal draw passed in: arithmetic and
geometric Asian calls (a control variate with the closed-form geometric price), up-and-out barrier calls with a
Brownian-bridge crossing correction, lookbacks by `np.maximum.accumulate`, Greeks by bumping with common random
numbers (delta, gamma, vega), antithetic variates, a Longstaff-Schwartz American put (regression by `lstsq` on the
in-the-money paths), and a portfolio value-at-risk by `np.percentile` and `argpartition` (tests/porting)."""

import math

import numpy as np
from harness import check


def _paths(np, z, s0, r, sigma, T):
    z = np.asarray(z)
    n = z.shape[1]
    dt = T / n
    inc = (r - 0.5 * sigma**2) * dt + sigma * np.sqrt(dt) * z
    log_s = np.log(s0) + np.cumsum(inc, axis=1)
    return np.exp(log_s), dt


def asian_control_variate(np, z, s0, K, r, sigma, T):
    S, dt = _paths(np, z, s0, r, sigma, T)
    n = S.shape[1]
    disc = np.exp(-r * T)
    arith = disc * np.maximum(S.mean(axis=1) - K, 0.0)
    geo_mean = np.exp(np.log(S).mean(axis=1))
    geo = disc * np.maximum(geo_mean - K, 0.0)
    # closed form of the discretely monitored geometric Asian call
    t = dt * np.arange(1, n + 1)
    mu_g = np.log(s0) + (r - 0.5 * sigma**2) * t.mean()
    var_g = sigma**2 * np.sum(np.minimum.outer(t, t)) / n**2
    d1 = (mu_g - np.log(K) + var_g) / np.sqrt(var_g)
    d2 = d1 - np.sqrt(var_g)
    cdf = np.vectorize(lambda v: 0.5 * (1 + math.erf(v / math.sqrt(2))))
    geo_exact = disc * (np.exp(mu_g + 0.5 * var_g) * cdf(d1) - K * cdf(d2))
    c = np.cov(arith, geo)
    b = c[0, 1] / c[1, 1]
    cv = arith - b * (geo - geo_exact)
    return {"plain": arith.mean(), "cv": cv.mean(), "beta": b, "geo_exact": geo_exact,
            "se_ratio": cv.std(ddof=1) / arith.std(ddof=1), "corr": np.corrcoef(arith, geo)[0, 1]}


def barrier_up_and_out(np, z, u, s0, K, B, r, sigma, T):
    S, dt = _paths(np, z, s0, r, sigma, T)
    u = np.asarray(u)
    prev = np.concatenate([np.full((S.shape[0], 1), s0), S[:, :-1]], axis=1)
    # probability that the bridge between two monitoring dates crossed B
    with np.errstate(over="ignore"):
        p_cross = np.exp(-2 * np.log(B / prev) * np.log(B / S) / (sigma**2 * dt))
    p_cross = np.where((prev >= B) | (S >= B), 1.0, p_cross)
    knocked_discrete = (S >= B).any(axis=1)
    knocked_bridge = (u < p_cross).any(axis=1)
    payoff = np.maximum(S[:, -1] - K, 0)
    disc = np.exp(-r * T)
    first_hit = np.where(knocked_discrete, np.argmax(S >= B, axis=1), -1)
    return {"discrete": disc * np.mean(np.where(knocked_discrete, 0.0, payoff)),
            "bridge": disc * np.mean(payoff, where=~knocked_bridge) * np.mean(~knocked_bridge),
            "knock_rate": knocked_bridge.mean(), "first_hit": first_hit,
            "hist": np.bincount(first_hit[first_hit >= 0], minlength=S.shape[1])}


def lookback(np, z, s0, r, sigma, T):
    S, dt = _paths(np, z, s0, r, sigma, T)
    S = np.hstack([np.full((len(S), 1), float(s0)), S])
    run_max = np.maximum.accumulate(S, axis=1)
    run_min = np.minimum.accumulate(S, axis=1)
    disc = np.exp(-r * T)
    floating_call = disc * (S[:, -1] - run_min[:, -1])
    fixed_put = disc * np.maximum(110.0 - run_min[:, -1], 0)
    drawdown = (run_max - S) / run_max
    return {"floating": floating_call.mean(), "fixed_put": fixed_put.mean(),
            "max_dd": drawdown.max(axis=1), "dd_argmax": drawdown.argmax(axis=1),
            "new_highs": np.count_nonzero(np.diff(run_max, axis=1) > 0, axis=1)}


def greeks_by_bumping(np, z, s0, K, r, sigma, T):
    def price(s, vol):
        S, _ = _paths(np, z, s, r, vol, T)
        return np.exp(-r * T) * np.maximum(S.mean(axis=1) - K, 0).mean()

    h = 0.01 * s0
    up, mid, down = price(s0 + h, sigma), price(s0, sigma), price(s0 - h, sigma)
    vega = (price(s0, sigma + 0.01) - price(s0, sigma - 0.01)) / 0.02
    bumps = np.array([0.9, 0.95, 1.0, 1.05, 1.1]) * s0
    curve = np.array([price(b, sigma) for b in bumps])
    return {"price": mid, "delta": (up - down) / (2 * h), "gamma": (up - 2 * mid + down) / h**2,
            "vega": vega, "curve": curve, "convex": bool(np.all(np.diff(curve, n=2) > 0))}


def antithetic_european(np, z, s0, K, r, sigma, T):
    z = np.asarray(z)[:, -1]  # only the terminal normal matters
    drift = (r - 0.5 * sigma**2) * T
    vol = sigma * np.sqrt(T)
    ST_plus = s0 * np.exp(drift + vol * z)
    ST_minus = s0 * np.exp(drift - vol * z)
    disc = math.exp(-r * T)
    plain = disc * np.maximum(ST_plus - K, 0)
    anti = 0.5 * disc * (np.maximum(ST_plus - K, 0) + np.maximum(ST_minus - K, 0))
    strikes = np.linspace(80, 120, 5)
    pay = np.maximum(ST_plus[:, None] - strikes, 0)
    smile = disc * pay.mean(axis=0)
    parity = smile - disc * np.maximum(strikes - ST_plus[:, None], 0).mean(axis=0)
    return {"plain": plain.mean(), "anti": anti.mean(), "var_ratio": anti.var() / plain.var(),
            "smile": smile, "parity": parity, "forward": s0 - strikes * disc}


def longstaff_schwartz(np, z, s0, K, r, sigma, T):
    S, dt = _paths(np, z, s0, r, sigma, T)
    n_paths, n = S.shape
    disc = np.exp(-r * dt)
    cash = np.maximum(K - S[:, -1], 0.0)
    exercise_at = np.full(n_paths, n - 1)
    for k in range(n - 2, -1, -1):
        cash = cash * disc
        itm = np.flatnonzero(K - S[:, k] > 0)
        if itm.size < 4:
            continue
        x = S[itm, k] / K
        X = np.column_stack([np.ones_like(x), x, x**2])
        coef, *_ = np.linalg.lstsq(X, cash[itm], rcond=None)
        cont = X @ coef
        ex = K - S[itm, k]
        now = itm[ex > cont]
        cash[now] = (K - S[now, k])
        exercise_at[now] = k
    price = disc * cash.mean()
    return {"price": price, "european": np.exp(-r * T) * np.maximum(K - S[:, -1], 0).mean(),
            "exercise_hist": np.bincount(exercise_at, minlength=n), "early": np.mean(exercise_at < n - 1)}


def portfolio_var(np, z, weights, vols, corr, alpha):
    z, weights = np.asarray(z), np.asarray(weights, dtype=np.float32)
    cov = np.outer(vols, vols) * np.asarray(corr)
    L = np.linalg.cholesky(cov)
    rets = z @ L.T
    pnl = rets @ weights
    var = -np.percentile(pnl, 100 * alpha)
    k = int(np.ceil(alpha * len(pnl)))
    worst = np.argpartition(pnl, k)[:k]
    es = -pnl[worst].mean()
    contrib = -(rets[worst] * weights).mean(axis=0)
    return {"var": var, "es": es, "contrib": contrib, "sum_ok": np.isclose(contrib.sum(), es),
            "worst_sorted": np.sort(pnl[worst]), "analytic": 2.326 * np.sqrt(weights @ cov @ weights),
            "dtype": str(pnl.dtype)}


def _normals(seed, paths, steps):
    return np.random.default_rng(seed).standard_normal((paths, steps))


def test_asian_control_variate():
    check(asian_control_variate, _normals(2901, 400, 12), 100.0, 100.0, 0.03, 0.25, 1.0, rtol=1e-3, atol=1e-4)


def test_barrier_up_and_out():
    rng = np.random.default_rng(2902)
    check(barrier_up_and_out, rng.standard_normal((300, 20)), rng.uniform(size=(300, 20)), 100.0, 100.0, 125.0,
          0.02, 0.3, 0.5, rtol=1e-3, atol=1e-4)


def test_lookback():
    check(lookback, _normals(2903, 200, 25), 100, 0.01, 0.2, 1.0, rtol=1e-3, atol=1e-4)


def test_greeks_by_bumping():
    check(greeks_by_bumping, _normals(2904, 500, 10), 100.0, 95.0, 0.02, 0.2, 1.0, rtol=2e-3, atol=2e-3)


def test_antithetic_european():
    check(antithetic_european, _normals(2905, 1000, 4), 100.0, 100.0, 0.05, 0.2, 1.0, rtol=1e-3, atol=1e-4)


def test_longstaff_schwartz():
    check(longstaff_schwartz, _normals(2906, 300, 8), 36.0, 40.0, 0.06, 0.2, 1.0, rtol=2e-3, atol=1e-3)


def test_portfolio_var():
    rng = np.random.default_rng(2907)
    corr = np.array([[1.0, 0.3, 0.1], [0.3, 1.0, 0.5], [0.1, 0.5, 1.0]])
    check(portfolio_var, rng.standard_normal((2000, 3)).astype(np.float32), [0.5, 0.3, 0.2],
          np.array([0.02, 0.03, 0.015], dtype=np.float32), corr, 0.01, rtol=1e-3, atol=1e-5)
