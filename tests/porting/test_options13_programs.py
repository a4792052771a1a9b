"""Computational finance as course notebooks and quant blogs write it: a Cox-Ross-Rubinstein binomial tree for
European and American puts (backward induction over shrinking slices, early exercise by `np.maximum`), Monte Carlo
paths of geometric Brownian motion from host normals (cumulative log returns, Asian and knock-out barrier payoffs,
antithetic variates, standard errors), implied volatility by vectorised bisection with `np.where`, Markowitz
minimum-variance and tangency portfolios through `np.linalg.solve` of the KKT system, random portfolios scored with
`einsum` and ranked by `np.lexsort`, historical VaR/expected shortfall with drawdowns by `np.maximum.accumulate` and
rolling volatility by `sliding_window_view`, and a loan amortisation schedule summed per year by `np.add.reduceat`
and printed with `np.array2string`, and internal rates of return by bisection with option payoffs through
`np.vectorize(otypes=, excluded=)` (tests/porting)."""

import numpy as np
from harness import check


def binomial_tree(np, S0, K, r, sigma, T, steps):
    dt = T / steps
    u = np.exp(sigma * np.sqrt(dt))
    d = 1 / u
    p = (np.exp(r * dt) - d) / (u - d)
    disc = np.exp(-r * dt)
    j = np.arange(steps + 1)
    ST = S0 * u ** (steps - j) * d ** j
    euro = np.maximum(K - ST, 0.0)
    amer = euro.copy()
    for i in range(steps - 1, -1, -1):
        euro = disc * (p * euro[:-1] + (1 - p) * euro[1:])
        S = S0 * u ** (i - np.arange(i + 1)) * d ** np.arange(i + 1)
        amer = np.maximum(disc * (p * amer[:i + 1] + (1 - p) * amer[1:i + 2]), K - S)
    return {"euro": euro[0], "amer": amer[0], "premium": amer[0] - euro[0], "terminal": ST[:5],
            "p": p, "itm": int((ST < K).sum())}


def monte_carlo_paths(np, z, S0, K, r, sigma, T, barrier):
    n_paths, n_steps = z.shape
    dt = T / n_steps
    drift = (r - 0.5 * sigma ** 2) * dt
    log_paths = np.cumsum(drift + sigma * np.sqrt(dt) * z, axis=1)
    paths = S0 * np.exp(np.hstack([np.zeros((n_paths, 1)), log_paths]))
    disc = np.exp(-r * T)
    call = disc * np.maximum(paths[:, -1] - K, 0)
    asian = disc * np.maximum(paths[:, 1:].mean(axis=1) - K, 0)
    knocked = (paths >= barrier).any(axis=1)
    up_out = np.where(knocked, 0.0, call)
    anti = S0 * np.exp(np.cumsum(drift - sigma * np.sqrt(dt) * z, axis=1))[:, -1]
    anti_call = 0.5 * (call + disc * np.maximum(anti - K, 0))
    se = call.std(ddof=1) / np.sqrt(n_paths)
    return {"call": call.mean(), "se": se, "asian": asian.mean(), "up_out": up_out.mean(),
            "knocked": int(knocked.sum()), "anti": anti_call.mean(),
            "anti_se": anti_call.std(ddof=1) / np.sqrt(n_paths),
            "max_path": paths.max(axis=1)[:6], "first_hit": np.argmax(paths >= barrier, axis=1)[:10]}


def _norm_cdf(np, x):
    # Abramowitz-Stegun 26.2.17: NumPy has no erf, so notebooks write this polynomial
    t = 1.0 / (1.0 + 0.2316419 * np.abs(x))
    poly = t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))))
    pdf = np.exp(-0.5 * x * x) / np.sqrt(2 * np.pi)
    cdf = 1 - pdf * poly
    return np.where(x >= 0, cdf, 1 - cdf)


def implied_vol(np, S, K, T, r, prices):
    def bs_call(sig):
        d1 = (np.log(S / K) + (r + 0.5 * sig ** 2) * T) / (sig * np.sqrt(T))
        d2 = d1 - sig * np.sqrt(T)
        return S * _norm_cdf(np, d1) - K * np.exp(-r * T) * _norm_cdf(np, d2)

    lo = np.full(K.shape, 0.01)
    hi = np.full(K.shape, 2.0)
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        too_high = bs_call(mid) > prices
        hi = np.where(too_high, mid, hi)
        lo = np.where(too_high, lo, mid)
    vol = 0.5 * (lo + hi)
    smile = np.polyfit(np.log(K / S), vol, 2)
    return {"vol": vol, "smile": smile, "atm": vol[np.argmin(np.abs(K - S))], "repriced": bs_call(vol)}


def markowitz(np, returns, target):
    mu = returns.mean(axis=0)
    cov = np.cov(returns, rowvar=False)
    n = len(mu)
    ones = np.ones(n)
    inv_one = np.linalg.solve(cov, ones)
    w_min = inv_one / inv_one.sum()
    kkt = np.zeros((n + 2, n + 2))
    kkt[:n, :n] = 2 * cov
    kkt[:n, n] = mu
    kkt[:n, n + 1] = 1
    kkt[n, :n] = mu
    kkt[n + 1, :n] = 1
    rhs = np.concatenate([np.zeros(n), [target, 1.0]])
    w_target = np.linalg.solve(kkt, rhs)[:n]
    excess = np.linalg.solve(cov, mu - 0.0001)
    w_tan = excess / excess.sum()
    vols = np.sqrt(np.diag(cov))
    corr = cov / np.outer(vols, vols)
    return {"w_min": w_min, "var_min": w_min @ cov @ w_min, "w_target": w_target,
            "ret_target": w_target @ mu, "w_tan": w_tan, "sharpe": (w_tan @ mu) / np.sqrt(w_tan @ cov @ w_tan),
            "corr_max": corr[np.triu_indices(n, 1)].max(), "short": np.flatnonzero(w_tan < 0),
            "logdet": np.linalg.slogdet(cov * 1e4), "eigh": np.linalg.eigh(cov * 1e4).eigenvalues}


def random_portfolios(np, weights, returns):
    mu = returns.mean(axis=0) * 252
    cov = np.cov(returns.T) * 252
    port_ret = weights @ mu
    port_vol = np.sqrt(np.einsum("ij,jk,ik->i", weights, cov, weights))
    sharpe = port_ret / port_vol
    order = np.lexsort((port_vol, -np.round(sharpe, 3)))
    frontier = np.zeros(len(weights), dtype=bool)
    best_ret = -np.inf
    for i in np.argsort(port_vol):
        if port_ret[i] > best_ret:
            frontier[i] = True
            best_ret = port_ret[i]
    return {"ret": port_ret, "vol": port_vol, "top5": order[:5], "best_w": weights[order[0]],
            "frontier": np.flatnonzero(frontier), "n_frontier": int(frontier.sum())}


def var_and_drawdown(np, prices, window):
    rets = np.diff(np.log(prices))
    var95 = -np.percentile(rets, 5)
    losses = -np.sort(rets)[::-1]
    tail = rets[rets <= np.quantile(rets, 0.05)]
    es = -tail.mean()
    peak = np.maximum.accumulate(prices)
    dd = prices / peak - 1
    trough = np.argmin(dd)
    peak_at = np.argmax(prices[:trough + 1])
    roll = np.lib.stride_tricks.sliding_window_view(rets, window).std(axis=1, ddof=1) * np.sqrt(252)
    hist, edges = np.histogram(rets, bins=10)
    return {"var95": var95, "es": es, "worst": losses[:3], "max_dd": dd.min(), "trough": int(trough),
            "peak": int(peak_at), "roll": roll, "hist": hist, "edges": edges,
            "under_water": int(np.count_nonzero(dd < -0.05))}


def amortisation(np, principal, annual_rate, years):
    n = years * 12
    r = annual_rate / 12
    payment = principal * r / (1 - (1 + r) ** -n)
    balance = np.empty(n + 1, dtype=np.float64)  # money: the last balance cancels to ~0
    balance[0] = principal
    interest = np.empty(n, dtype=np.float64)
    for m in range(n):
        interest[m] = balance[m] * r
        balance[m + 1] = balance[m] + interest[m] - payment
    principal_paid = payment - interest
    yearly_interest = np.add.reduceat(interest, np.arange(0, n, 12))
    cents = np.round(interest * 100).astype(np.int64)
    np.set_printoptions(precision=2, suppress=True)
    try:
        text = np.array2string(yearly_interest, separator=", ")
    finally:
        np.set_printoptions(precision=8, suppress=False)
    return {"payment": payment, "balance": balance[::12], "yearly": yearly_interest,
            "cum_principal": np.cumsum(principal_paid)[11::12], "cents": cents.sum(), "text": text,
            "crossover": int(np.argmax(principal_paid > interest))}


def irr_and_payoffs(np, cashflows, spots):
    def npv(rate, cf):
        return np.sum(cf / (1 + rate) ** np.arange(len(cf)))

    irrs = []
    for cf in cashflows:
        lo, hi = -0.5, 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            if npv(mid, cf) > 0:
                lo = mid
            else:
                hi = mid
        irrs.append(mid)

    def payoff(s, k, kind="call"):
        return max(s - k, 0.0) if kind == "call" else max(k - s, 0.0)

    vpay = np.vectorize(payoff, otypes=[float], excluded={"kind"})
    strikes = np.array([[95.0], [100.0], [105.0]])
    calls = vpay(spots, strikes)
    puts = vpay(spots, strikes, kind="put")
    parity = calls - puts - (spots - strikes)
    return {"irr": np.array(irrs), "npv5": [float(npv(0.05, cf)) for cf in cashflows],
            "poly_npv": np.polyval(cashflows[0][::-1], 1 / 1.1), "calls": calls, "puts": puts,
            "parity": np.abs(parity).max(), "straddle": (calls + puts).min(axis=1)}


def test_binomial_tree_european_american():
    check(binomial_tree, 100.0, 105.0, 0.03, 0.25, 1.0, 60)


def test_monte_carlo_gbm_exotics():
    rng = np.random.default_rng(1301)
    check(monte_carlo_paths, rng.standard_normal((2000, 50)), 100.0, 100.0, 0.02, 0.2, 1.0, 130.0, rtol=1e-3)


def test_implied_volatility_bisection():
    S, T, r = 100.0, 0.5, 0.01
    K = np.linspace(80, 120, 9)
    true_vol = 0.2 + 0.3 * (np.log(K / S)) ** 2
    d1 = (np.log(S / K) + (r + 0.5 * true_vol ** 2) * T) / (true_vol * np.sqrt(T))
    prices = S * _norm_cdf(np, d1) - K * np.exp(-r * T) * _norm_cdf(np, d1 - true_vol * np.sqrt(T))
    check(implied_vol, S, K, T, r, prices, rtol=1e-3, atol=1e-4)


def test_markowitz_kkt_solve():
    rng = np.random.default_rng(1303)
    mix = rng.normal(size=(5, 5)) * 0.01
    returns = rng.normal(0.0005, 1, size=(250, 5)) @ mix + np.array([0.0004, 0.0008, 0.0002, 0.0006, 0.001])
    check(markowitz, returns, 0.0007, rtol=2e-3, atol=1e-5)


def test_random_portfolios_einsum_lexsort():
    rng = np.random.default_rng(1304)
    check(random_portfolios, rng.dirichlet(np.ones(4), 200), rng.normal(0.0005, 0.01, (300, 4)), rtol=1e-3)


def test_historical_var_drawdown():
    rng = np.random.default_rng(1305)
    prices = 100 * np.exp(np.cumsum(rng.normal(0.0002, 0.012, 400)))
    check(var_and_drawdown, prices, 20, rtol=1e-3, atol=1e-6)


def test_amortisation_schedule_printed():
    check(amortisation, 250000.0, 0.045, 5, rtol=1e-3, atol=1e-3)


def test_irr_bisection_vectorized_payoffs():
    cashflows = np.array([[-100.0, 30.0, 40.0, 50.0, 10.0], [-250.0, 60.0, 80.0, 90.0, 70.0]])
    check(irr_and_payoffs, cashflows, np.linspace(85, 115, 7), rtol=1e-3, atol=1e-4)
