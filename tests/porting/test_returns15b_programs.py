"""Finance time series as quant notebooks write them: simple and log returns from a price matrix (`np.diff`,
`np.log`), drawdowns by `np.maximum.accumulate` with the worst drawdown's start by `argmax` of a slice, a rolling
Sharpe ratio by `cumsum` differences, portfolio variance by `einsum` against `w @ cov @ w`, historical and
parametric VaR by `np.quantile`, rebalancing loops with in-place row writes, and a moving-average crossover by
`np.sign` of `np.diff` (tests/porting)."""

import numpy as np
from harness import check


def returns_table(np, prices):
    prices = np.asarray(prices)
    simple = prices[1:] / prices[:-1] - 1
    logr = np.diff(np.log(prices), axis=0)
    cum = np.cumprod(1 + simple, axis=0)
    ann_vol = simple.std(axis=0, ddof=1) * np.sqrt(252)
    best = np.argmax(simple, axis=0)
    return {"simple": simple, "log": logr, "cum": cum[-1], "vol": ann_vol, "best": best,
            "same": np.allclose(np.exp(logr.sum(axis=0)), cum[-1])}


def drawdowns(np, prices):
    prices = np.asarray(prices)
    peak = np.maximum.accumulate(prices, axis=0)
    dd = prices / peak - 1
    worst = dd.min(axis=0)
    end = dd.argmin(axis=0)
    start = np.array([np.argmax(prices[:e + 1, j]) for j, e in enumerate(end)])
    underwater = (dd < 0).sum(axis=0)
    return {"dd": dd, "worst": worst, "end": end, "start": start, "under": underwater}


def rolling_sharpe(np, rets, window):
    rets = np.asarray(rets)
    c = np.cumsum(np.insert(rets, 0, 0.0))
    c2 = np.cumsum(np.insert(rets ** 2, 0, 0.0))
    s = c[window:] - c[:-window]
    s2 = c2[window:] - c2[:-window]
    mean = s / window
    var = (s2 - window * mean ** 2) / (window - 1)
    sharpe = np.sqrt(252) * mean / np.sqrt(var)
    ref = np.lib.stride_tricks.sliding_window_view(rets, window)
    direct = np.sqrt(252) * ref.mean(axis=1) / ref.std(axis=1, ddof=1)
    return {"sharpe": sharpe, "direct": direct, "max_at": int(np.nanargmax(sharpe))}


def portfolio_variance(np, rets, weights):
    rets, weights = np.asarray(rets), np.asarray(weights)
    cov = np.cov(rets, rowvar=False)
    var1 = np.einsum("i,ij,j->", weights[0], cov, weights[0])
    many = np.einsum("pi,ij,pj->p", weights, cov, weights)
    direct = np.array([w @ cov @ w for w in weights])
    mc = (cov @ weights.T).T * weights
    contrib = mc / many[:, None]
    return {"var1": var1, "many": many, "direct": direct, "contrib": contrib,
            "sums_to_one": np.allclose(contrib.sum(axis=1), 1.0), "best": int(np.argmin(many))}


def value_at_risk(np, rets, weights, alphas):
    rets, weights, alphas = np.asarray(rets), np.asarray(weights), np.asarray(alphas)
    port = rets @ weights
    hist = -np.quantile(port, alphas)
    mu, sd = port.mean(), port.std(ddof=1)
    z = np.array([-2.3263479, -1.6448536, -1.2815516])
    param = -(mu + z * sd)
    tail = port[port <= np.quantile(port, alphas[0])]
    es = -tail.mean()
    breaches = (port[None, :] < -hist[:, None]).sum(axis=1)
    return {"hist": hist, "param": param, "es": es, "breaches": breaches, "lower": np.percentile(port, [1, 5, 10])}


def rebalance(np, rets, target, every):
    rets, target = np.asarray(rets), np.asarray(target)
    n, k = rets.shape
    holdings = np.zeros((n + 1, k))
    holdings[0] = target * 100.0
    turnover = []
    for t in range(n):
        holdings[t + 1] = holdings[t] * (1 + rets[t])
        if (t + 1) % every == 0:
            total = holdings[t + 1].sum()
            new = target * total
            turnover.append(np.abs(new - holdings[t + 1]).sum())
            holdings[t + 1, :] = new
    value = holdings.sum(axis=1)
    return {"value": value, "turnover": np.array(turnover), "weights_end": holdings[-1] / value[-1]}


def ma_crossover(np, price, fast, slow):
    price = np.asarray(price)
    kf = np.ones(fast) / fast
    ks = np.ones(slow) / slow
    f = np.convolve(price, kf, mode="valid")[slow - fast:]
    s = np.convolve(price, ks, mode="valid")
    pos = np.where(f > s, 1, -1)
    cross = np.flatnonzero(np.diff(np.sign(f - s)) != 0) + 1
    strat = pos[:-1] * np.diff(np.log(price[slow - 1:]))
    return {"fast": f, "slow": s, "cross": cross, "pnl": strat.cumsum()[-1], "long_frac": (pos > 0).mean()}


def _prices(seed, n, k):
    rng = np.random.default_rng(seed)
    return 100 * np.exp(np.cumsum(rng.normal(0.0003, 0.012, (n, k)), axis=0))


def test_returns_table():
    check(returns_table, _prices(1501, 120, 4), rtol=1e-3)


def test_drawdowns_by_maximum_accumulate():
    check(drawdowns, _prices(1502, 200, 3), rtol=1e-3, atol=1e-5)


def test_rolling_sharpe_by_cumsum_differences():
    rng = np.random.default_rng(1503)
    check(rolling_sharpe, rng.normal(0.0005, 0.01, 300), 20, rtol=5e-3, atol=1e-3)


def test_portfolio_variance_einsum():
    rng = np.random.default_rng(1504)
    rets = rng.normal(0.0004, 0.01, (250, 5)) @ (np.eye(5) + 0.3 * rng.random((5, 5)))
    w = rng.random((7, 5))
    w /= w.sum(axis=1, keepdims=True)
    check(portfolio_variance, rets, w, rtol=1e-3, atol=1e-9)


def test_value_at_risk_by_quantiles():
    rng = np.random.default_rng(1505)
    rets = rng.standard_t(4, (500, 3)) * 0.01
    check(value_at_risk, rets, np.array([0.5, 0.3, 0.2]), np.array([0.01, 0.05, 0.1]), rtol=1e-3, atol=1e-6)


def test_rebalance_loop_row_writes():
    rng = np.random.default_rng(1506)
    check(rebalance, rng.normal(0.0005, 0.01, (60, 4)), np.array([0.4, 0.3, 0.2, 0.1]), 10, rtol=1e-3)


def test_moving_average_crossover():
    check(ma_crossover, _prices(1507, 250, 1)[:, 0], 5, 20, rtol=1e-3, atol=1e-4)
