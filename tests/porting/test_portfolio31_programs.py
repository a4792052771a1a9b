"""Portfolio construction as quants prototype it in NumPy: Markowitz minimum-variance and tangency portfolios by
`np.linalg.inv`/`solve`, an efficient frontier from stacked KKT systems, rolling Sharpe ratios and betas over
`sliding_window_view`, drawdowns by `maximum.accumulate`, risk parity by fixed-point iteration with `einsum`, a
threshold-rebalanced backtest with in-place updates of views, constant-correlation shrinkage with `fill_diagonal`
and `triu_indices`, historical VaR/ES with `percentile(method=)`, and float32 returns mixed with NumPy float64
scalars (tests/porting)."""

import numpy as np
from harness import check


def min_variance(np, R):
    R = np.asarray(R)
    mu = R.mean(axis=0)
    S = np.cov(R, rowvar=False)
    ones = np.ones(len(mu))
    Sinv = np.linalg.inv(S)
    w_mv = Sinv @ ones / (ones @ Sinv @ ones)
    rf = 0.0001
    x = np.linalg.solve(S, mu - rf)
    w_tan = x / x.sum()
    ret = np.array([w_mv @ mu, w_tan @ mu]) * 252
    vol = np.sqrt(np.array([w_mv @ S @ w_mv, w_tan @ S @ w_tan]) * 252)
    return {"w_mv": w_mv, "w_tan": w_tan, "ret": ret, "vol": vol, "sharpe": (ret - rf * 252) / vol,
            "cond": np.linalg.cond(S), "sym": bool(np.allclose(Sinv, Sinv.T))}


def efficient_frontier(np, mu, S, targets):
    mu, S = np.asarray(mu), np.asarray(S)
    n = len(mu)
    K = np.zeros((n + 2, n + 2))
    K[:n, :n] = 2 * S
    K[:n, n] = K[n, :n] = mu
    K[:n, n + 1] = K[n + 1, :n] = 1.0
    rhs = np.zeros((len(targets), n + 2))
    rhs[:, n] = targets
    rhs[:, n + 1] = 1
    sol = np.linalg.solve(K, rhs.T).T
    W = sol[:, :n]
    var = np.einsum("ti,ij,tj->t", W, S, W)
    short = (W < 0).any(axis=1)
    return {"W": W, "vol": np.sqrt(var), "lam": sol[:, n:], "short": short,
            "min_idx": int(np.argmin(var)), "budget": W.sum(axis=1)}


def rolling_metrics(np, r, m, window):
    r = np.asarray(r, dtype=np.float32)
    m = np.asarray(m, dtype=np.float32)
    rw = np.lib.stride_tricks.sliding_window_view(r, window)
    mw = np.lib.stride_tricks.sliding_window_view(m, window)
    ann = np.float64(252.0)
    sharpe = rw.mean(axis=-1) / rw.std(axis=-1, ddof=1) * np.sqrt(ann)
    rc = rw - rw.mean(axis=-1, keepdims=True)
    mc = mw - mw.mean(axis=-1, keepdims=True)
    beta = (rc * mc).sum(axis=-1) / (mc**2).sum(axis=-1)
    downside = np.sqrt(np.mean(np.minimum(rw, 0) ** 2, axis=-1))
    sortino = np.divide(rw.mean(axis=-1), downside, out=np.zeros_like(downside), where=downside > 0)
    return {"sharpe": sharpe, "beta": beta, "sortino": sortino * np.sqrt(252), "dtype": sharpe.dtype.name,
            "best": int(np.nanargmax(sharpe)), "windows": rw.shape}


def drawdowns(np, r):
    r = np.asarray(r)
    wealth = np.cumprod(1 + r, axis=0)
    peak = np.maximum.accumulate(wealth, axis=0)
    dd = wealth / peak - 1
    mdd = dd.min(axis=0)
    trough = dd.argmin(axis=0)
    underwater = dd < 0
    starts = np.diff(underwater.astype(np.int8), axis=0, prepend=0) == 1
    episodes = starts.sum(axis=0)
    calmar = (wealth[-1] ** (252 / len(r)) - 1) / np.abs(mdd)
    return {"mdd": mdd, "trough": trough, "episodes": episodes, "calmar": calmar,
            "time_under": underwater.mean(axis=0), "final": wealth[-1]}


def risk_parity(np, S, iters):
    S = np.asarray(S)
    n = len(S)
    w = np.full(n, 1.0 / n)
    for _ in range(iters):
        marginal = S @ w
        rc = w * marginal
        w = w * (rc.mean() / rc) ** 0.5
        w /= w.sum()
    rc = np.einsum("i,ij,j->i", w, S, w)
    contrib = rc / rc.sum()
    inv_vol = 1 / np.sqrt(np.diag(S))
    return {"w": w, "contrib": contrib, "spread": np.ptp(contrib), "naive": inv_vol / inv_vol.sum(),
            "vol": np.sqrt(w @ S @ w)}


def rebalanced_backtest(np, prices, target, band):
    prices = np.asarray(prices)
    target = np.asarray(target)
    rets = prices[1:] / prices[:-1] - 1
    T, n = rets.shape
    w = np.empty((T + 1, n))
    w[0] = target
    value = np.ones(T + 1)
    trades = np.zeros(T, dtype=bool)
    turnover = np.zeros(T)
    for t in range(T):
        grown = w[t] * (1 + rets[t])
        value[t + 1] = value[t] * grown.sum()
        w[t + 1] = grown / grown.sum()
        drift = w[t + 1] - target
        if np.abs(drift).max() > band:
            row = w[t + 1]
            turnover[t] = np.abs(drift).sum() / 2
            row[:] = target
            trades[t] = True
    return {"value": value, "trades": np.flatnonzero(trades), "turnover": turnover.sum(), "w_end": w[-1],
            "cagr": value[-1] ** (252 / T) - 1}


def shrinkage(np, R, delta):
    R = np.asarray(R)
    S = np.cov(R, rowvar=False)
    sd = np.sqrt(np.diag(S))
    C = S / np.outer(sd, sd)
    iu = np.triu_indices(len(S), k=1)
    rbar = C[iu].mean()
    F = rbar * np.outer(sd, sd)
    np.fill_diagonal(F, sd**2)
    Sh = delta * F + (1 - delta) * S
    eig = np.linalg.eigvalsh(Sh)
    return {"rbar": rbar, "F": F, "Sh": Sh, "eig": eig, "cond_before": np.linalg.cond(S),
            "cond_after": eig.max() / eig.min(), "pairs": len(iu[0])}


def var_es(np, pnl, alpha):
    pnl = np.asarray(pnl)
    out = {}
    for method in ("linear", "lower", "higher", "nearest", "midpoint", "weibull"):
        out[method] = -np.percentile(pnl, 100 * alpha, method=method, axis=0)
    q = np.quantile(pnl, alpha, axis=0, keepdims=True)
    tail = pnl <= q
    es = -np.mean(pnl, axis=0, where=tail)
    worst = np.sort(pnl, axis=0)[: max(1, int(alpha * len(pnl)))]
    out.update(es=es, worst=worst, breaches=tail.sum(axis=0), q_shape=q.shape)
    return out


def _returns(seed, T, n):
    rng = np.random.default_rng(seed)
    L = rng.normal(0, 0.01, (n, n))
    return rng.normal(0.0004, 0.01, (T, n)) @ (np.eye(n) * 0.8 + L) + 0.0002, rng


def test_min_variance():
    R, _ = _returns(3111, 300, 5)
    check(min_variance, R, rtol=1e-3, atol=1e-6)


def test_efficient_frontier():
    R, _ = _returns(3112, 250, 4)
    check(efficient_frontier, R.mean(axis=0), np.cov(R.T), np.linspace(0.0002, 0.001, 9), rtol=1e-3,
          atol=1e-6)


def test_rolling_metrics():
    R, rng = _returns(3113, 120, 2)
    check(rolling_metrics, R[:, 0], R[:, 1], 20, rtol=1e-3, atol=1e-4)


def test_drawdowns():
    R, _ = _returns(3114, 200, 3)
    check(drawdowns, R * 3, rtol=1e-4)


def test_risk_parity():
    R, _ = _returns(3115, 300, 4)
    check(risk_parity, np.cov(R.T) * 1e4, 40, rtol=1e-3)


def test_rebalanced_backtest():
    rng = np.random.default_rng(3116)
    prices = 100 * np.cumprod(1 + rng.normal(0.0005, 0.02, (80, 3)), axis=0)
    check(rebalanced_backtest, prices, np.array([0.5, 0.3, 0.2]), 0.03)


def test_shrinkage():
    R, _ = _returns(3117, 60, 6)
    check(shrinkage, R, 0.3, rtol=1e-3, atol=1e-9)


def test_var_es():
    rng = np.random.default_rng(3118)
    check(var_es, rng.standard_t(4, (250, 3)) * 1000, 0.05, rtol=1e-4, atol=1e-3)
