"""Finance programs: returns, cumulative products, rolling windows, drawdowns, portfolio risk (tests/porting)."""

import numpy as np
from harness import check


def prices(n=120, k=4, seed=3):
    rng = np.random.default_rng(seed)
    steps = rng.normal(0.0005, 0.02, size=(n, k))
    return (100.0 * np.exp(np.cumsum(steps, axis=0))).astype(np.float32)


def returns_and_growth(np, p_host):
    p = np.asarray(p_host)
    simple = p[1:] / p[:-1] - 1
    logret = np.diff(np.log(p), axis=0)
    growth = np.cumprod(1 + simple, axis=0)
    total = growth[-1] - 1
    from_log = np.exp(logret.sum(axis=0)) - 1
    ann_vol = simple.std(axis=0, ddof=1) * np.sqrt(252)
    ann_ret = (1 + simple.mean(axis=0)) ** 252 - 1
    sharpe = ann_ret / ann_vol
    best = int(np.argmax(sharpe))
    lines = [f"asset {i}: total {t:+.2%} vol {v:.3f}" for i, (t, v) in enumerate(zip(total, ann_vol, strict=True))]
    return {"simple": simple, "growth": growth, "total": total, "from_log": from_log, "sharpe": sharpe,
            "best": best, "lines": lines, "agree": bool(np.allclose(total, from_log, rtol=1e-3))}


def rolling_windows(np, p_host, w=10):
    x = np.asarray(p_host)[:, 0].astype(np.float64)
    c = np.cumsum(np.insert(x, 0, 0.0))
    sma = (c[w:] - c[:-w]) / w
    conv = np.convolve(x, np.ones(w) / w, mode="valid")
    c2 = np.cumsum(np.concatenate([[0.0], x**2]))
    var = (c2[w:] - c2[:-w]) / w - sma**2
    roll_std = np.sqrt(np.maximum(var, 0))
    upper, lower = sma + 2 * roll_std, sma - 2 * roll_std
    xs = x[w - 1:]
    signal = np.zeros(len(xs), dtype=int)
    signal[xs > upper] = -1
    signal[xs < lower] = 1
    crossings = np.flatnonzero(np.diff(np.sign(xs - sma)) != 0)
    alpha = 2 / (w + 1)
    ema = np.empty_like(x)
    ema[0] = x[0]
    for t in range(1, len(x)):
        ema[t] = alpha * x[t] + (1 - alpha) * ema[t - 1]
    return {"sma": sma, "conv": conv, "std": roll_std, "signal": signal, "crossings": crossings, "ema": ema}


def drawdowns(np, p_host):
    p = np.asarray(p_host)
    peak = np.maximum.accumulate(p, axis=0)
    dd = p / peak - 1
    max_dd = dd.min(axis=0)
    trough = dd.argmin(axis=0)
    peak_at = np.array([int(np.argmax(p[: t + 1, j])) for j, t in enumerate(trough)])
    underwater = (dd < 0).sum(axis=0)
    recovered = np.array([bool((p[t:, j] >= peak[t, j]).any()) for j, t in enumerate(trough)])
    worst = np.unravel_index(np.argmin(dd), dd.shape)
    calmar = (p[-1] / p[0] - 1) / np.abs(max_dd)
    return {"dd": dd, "max_dd": max_dd, "trough": trough, "peak_at": peak_at, "underwater": underwater,
            "recovered": recovered, "worst": [int(i) for i in worst], "calmar": calmar}


def portfolio_risk(np, p_host, w_host):
    r = np.diff(np.log(np.asarray(p_host, dtype=np.float64)), axis=0)
    w = np.asarray(w_host, dtype=np.float64)
    w = w / w.sum()
    mu = r.mean(axis=0)
    S = np.cov(r, rowvar=False)
    port_var = w @ S @ w
    port_vol = np.sqrt(port_var)
    mrc = S @ w / port_vol
    contrib = w * mrc
    ones = np.ones(len(mu))
    Sinv = np.linalg.inv(S)
    w_mv = Sinv @ ones / (ones @ Sinv @ ones)
    w_tan = np.linalg.solve(S, mu)
    w_tan /= w_tan.sum()
    corr = np.corrcoef(r.T)
    iu = np.triu_indices(len(mu), k=1)
    return {"var": float(port_var), "contrib": contrib, "sum_ok": bool(np.isclose(contrib.sum(), port_vol)),
            "w_mv": w_mv, "w_tan": w_tan, "avg_corr": float(corr[iu].mean()), "port_r": r @ w}


def loan_schedule(np, principal=250_000.0, rate=0.045, years=5):
    n = years * 12
    i = rate / 12
    payment = principal * i / (1 - (1 + i) ** -n)
    k = np.arange(1, n + 1)
    balance = principal * (1 + i) ** k - payment * ((1 + i) ** k - 1) / i
    prev = np.concatenate(([principal], balance[:-1]))
    interest = prev * i
    principal_paid = payment - interest
    cum_interest = np.cumsum(interest)
    half = np.searchsorted(cum_interest, cum_interest[-1] / 2)
    discount = (1 + i) ** -k.astype(float)
    npv = float(np.sum(payment * discount))
    table = np.column_stack([k, interest, principal_paid, balance]).round(2)
    return {"payment": round(float(payment), 2), "interest": interest, "paid": principal_paid,
            "balance": np.abs(balance) / principal, "half": int(half), "npv": npv / principal, "table": table[:6],
            "npv_pct": float(np.round(npv / principal * 100, 2)), "rate_pct": int(np.round(np.float64(rate) * 100))}


def bond_and_options(np, spots_host, strike=100.0, r=0.03, sigma=0.25, T=0.5):
    from math import erf, sqrt

    S = np.asarray(spots_host, dtype=np.float64)
    d1 = (np.log(S / strike) + (r + 0.5 * sigma**2) * T) / (sigma * np.sqrt(T))
    d2 = d1 - sigma * np.sqrt(T)

    # a polynomial normal CDF (Abramowitz-Stegun 26.2.17), vectorised
    def ncdf(x):
        t = 1 / (1 + 0.2316419 * np.abs(x))
        poly = t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))))
        upper = 1 - np.exp(-x**2 / 2) / np.sqrt(2 * np.pi) * poly
        return np.where(x >= 0, upper, 1 - upper)

    call = S * ncdf(d1) - strike * np.exp(-r * T) * ncdf(d2)
    put = call - S + strike * np.exp(-r * T)
    parity = np.allclose(call - put, S - strike * np.exp(-r * T))
    itm = np.count_nonzero(S > strike)
    times = np.arange(1, 11) * 0.5
    cash = np.full(10, 2.5)
    cash[-1] += 100
    ytm = np.linspace(0.01, 0.08, 8)[:, None]
    bond_prices = (cash / (1 + ytm / 2) ** (2 * times)).sum(axis=1)
    duration = (times * cash / (1 + ytm / 2) ** (2 * times)).sum(axis=1) / bond_prices
    return {"call": call, "put": put, "parity": bool(parity), "itm": itm, "bond": bond_prices,
            "duration": duration, "check": abs(erf(0.5) - (2 * float(ncdf(np.asarray(0.5 * sqrt(2)))) - 1)) < 1e-6}


def test_returns_cumprod_sharpe():
    check(returns_and_growth, prices(), rtol=1e-3, atol=1e-5)


def test_rolling_windows_cumsum_convolve_ema():
    check(rolling_windows, prices(), rtol=1e-3, atol=1e-3)


def test_drawdowns_maximum_accumulate():
    check(drawdowns, prices(), rtol=1e-3, atol=1e-5)


def test_portfolio_variance_min_variance_weights():
    check(portfolio_risk, prices(), np.array([0.4, 0.3, 0.2, 0.1]), rtol=2e-3, atol=1e-5)


def test_loan_amortisation_schedule():
    check(loan_schedule, rtol=1e-3, atol=1e-3)


def test_black_scholes_and_bond_duration():
    spots = np.linspace(70, 130, 13)
    check(bond_and_options, spots, rtol=1e-3, atol=1e-4)
