"""Market risk in plain NumPy: historical and parametric value at risk by `quantile`/`partition` and a Cholesky
factor, expected shortfall with `mean(where=)`, drawdowns by `maximum.accumulate`, exponentially weighted
covariances by `einsum`, a rating-migration matrix by `np.add.at` and `matrix_power`, stress scenarios by
`select`/`piecewise`, limit breaches by `unique(return_counts=, return_inverse=)`, bucketed exposures by
`searchsorted`/`bincount`, and a bond ladder's key-rate durations by `tensordot` (tests/porting)."""

import numpy as np
from harness import check


def historical_var(np, pnl, alpha):
    pnl = np.asarray(pnl)
    losses = -pnl
    var = np.quantile(losses, alpha, axis=0)
    tail = losses >= var
    es = np.mean(losses, axis=0, where=tail)
    worst = np.partition(losses, -3, axis=0)[-3:]
    breaches = np.count_nonzero(tail, axis=0)
    return {"var": var, "es": es, "worst3": np.sort(worst, axis=0), "breaches": breaches,
            "ratio": es / var}


def parametric_var(np, returns, weights, z):
    r, w = np.asarray(returns), np.asarray(weights)
    mu = r.mean(axis=0)
    cov = np.cov(r, rowvar=False)
    sigma_p = np.sqrt(w @ cov @ w)
    marginal = cov @ w / sigma_p
    component = w * marginal
    L = np.linalg.cholesky(cov)
    scen = np.linalg.solve(L, (r - mu).T).T  # whitened returns
    return {"sigma": sigma_p, "var": z * sigma_p - w @ mu, "component": component,
            "sums": bool(np.isclose(component.sum(), sigma_p)), "white_cov": np.cov(scen, rowvar=False)}


def drawdowns(np, prices):
    p = np.asarray(prices)
    peak = np.maximum.accumulate(p, axis=0)
    dd = p / peak - 1.0
    max_dd = dd.min(axis=0)
    trough = np.argmin(dd, axis=0)
    under = dd < 0
    run = np.zeros(p.shape, dtype=int)
    for t in range(1, p.shape[0]):
        run[t] = np.where(under[t], run[t - 1] + 1, 0)
    return {"dd": dd, "max_dd": max_dd, "trough": trough, "longest": run.max(axis=0),
            "peak_at_trough": peak[trough, np.arange(p.shape[1])]}


def ewma_cov(np, returns, lam):
    r = np.asarray(returns)
    n = r.shape[0]
    w = lam ** np.arange(n - 1, -1, -1)
    w = w / w.sum()
    d = r - np.average(r, axis=0, weights=w)
    cov = np.einsum("t,ti,tj->ij", w, d, d)
    vol = np.sqrt(np.diag(cov))
    corr = cov / np.outer(vol, vol)
    np.fill_diagonal(corr, 1.0)
    return {"cov": cov, "vol": vol, "corr": corr, "max_off": np.max(np.abs(corr[~np.eye(len(vol), dtype=bool)]))}


def migration(np, start, end, n_ratings, years):
    start, end = np.asarray(start), np.asarray(end)
    counts = np.zeros((n_ratings, n_ratings))
    np.add.at(counts, (start, end), 1)
    totals = counts.sum(axis=1, keepdims=True)
    P = np.divide(counts, totals, out=np.eye(n_ratings), where=totals > 0)
    Pn = np.linalg.matrix_power(P, years)
    default_prob = Pn[:, -1]
    upgrades = np.triu(counts, 1).sum() / counts.sum()
    return {"P": P, "Pn": Pn, "pd": default_prob, "up": upgrades, "rows": P.sum(axis=1)}


def stress(np, shocks, exposures):
    s, e = np.asarray(shocks), np.asarray(exposures)
    regime = np.select([s < -0.2, s < -0.05, s > 0.1], [3, 2, 0], default=1)
    haircut = np.piecewise(s, [s < -0.2, (s >= -0.2) & (s < 0)], [lambda x: 2.0 * x, lambda x: x, 0.0])
    loss = np.einsum("ij,j->i", -haircut[:, None] * e[None, :] * np.ones((len(s), len(e))), np.ones(len(e)))
    worst = np.argsort(loss)[::-1][:3]
    return {"regime": regime, "haircut": haircut, "loss": loss, "worst": worst,
            "by_regime": np.bincount(regime, weights=loss, minlength=4)}


def limits(np, desk, usage, limit):
    desk, usage, limit = np.asarray(desk), np.asarray(usage), np.asarray(limit)
    names, inv, counts = np.unique(desk, return_inverse=True, return_counts=True)
    total = np.bincount(inv, weights=usage)
    util = total / limit[names]
    breached = names[util > 1.0]
    first, idx = np.unique(desk, return_index=True)
    over = usage.copy()
    over[usage > limit[desk]] = limit[desk][usage > limit[desk]]
    return {"names": names, "counts": counts, "util": util, "breached": breached, "first": idx,
            "capped": over, "share": np.round(total / total.sum() * 100, 1)}


def buckets(np, maturities, notionals, edges):
    m, n = np.asarray(maturities), np.asarray(notionals)
    b = np.searchsorted(edges, m, side="right") - 1
    b = np.clip(b, 0, len(edges) - 2)
    exposure = np.bincount(b, weights=n, minlength=len(edges) - 1)
    order = np.lexsort((-n, b))
    cum = np.cumsum(exposure)
    digit = np.digitize(m, edges[1:-1])
    return {"bucket": b, "exposure": exposure, "order": order, "cum": cum, "same": bool(np.all(digit == b)),
            "largest_per_bucket": np.maximum.reduceat(n[np.argsort(b, kind="stable")],
                                                      np.searchsorted(np.sort(b), np.arange(len(edges) - 1)))}


def key_rates(np, cashflows, times, rates, bump):
    cf, t, r = np.asarray(cashflows), np.asarray(times), np.asarray(rates)
    df = np.exp(-np.outer(r, t))  # (curves, times)
    pv = np.tensordot(cf, df, axes=([1], [1]))  # (bonds, curves)
    base = pv[:, 0]
    krd = -(pv[:, 1:] - base[:, None]) / (bump * base[:, None])
    dur = (cf * t * df[0]).sum(axis=1) / base
    return {"pv": pv, "krd": krd, "dur": dur, "rank": np.argsort(-dur, kind="stable")}


def test_historical_var():
    rng = np.random.default_rng(2401)
    check(historical_var, rng.standard_t(4, (250, 3)) * 0.01, 0.95)


def test_parametric_var():
    rng = np.random.default_rng(2402)
    A = rng.standard_normal((4, 4)) * 0.01
    r = rng.standard_normal((120, 4)) @ A + 0.0005
    check(parametric_var, r, np.array([0.4, 0.3, 0.2, 0.1]), 2.33, rtol=2e-3, atol=1e-4)


def test_drawdowns():
    rng = np.random.default_rng(2403)
    p = 100 * np.exp(np.cumsum(rng.standard_normal((60, 3)) * 0.02, axis=0))
    check(drawdowns, p)


def test_ewma_cov():
    rng = np.random.default_rng(2404)
    check(ewma_cov, rng.standard_normal((80, 3)) * 0.01, 0.94, rtol=1e-3, atol=1e-7)


def test_migration():
    rng = np.random.default_rng(2405)
    start = rng.integers(0, 4, 300)
    end = np.clip(start + rng.integers(-1, 2, 300), 0, 4)
    check(migration, start, end, 5, 3)


def test_stress():
    check(stress, np.array([-0.3, -0.1, -0.0, 0.0, 0.05, 0.2, -0.2, -0.05]), np.array([1.0, 2.5, 0.5]))


def test_limits():
    rng = np.random.default_rng(2406)
    desk = rng.integers(0, 6, 40)
    check(limits, desk, rng.uniform(0, 30, 40), np.array([50.0, 80, 20, 120, 60, 10, 99]))


def test_buckets():
    rng = np.random.default_rng(2407)
    check(buckets, rng.uniform(0, 30, 25), rng.integers(1, 100, 25).astype(float),
          np.array([0.0, 1, 2, 5, 10, 30]))


def test_key_rates():
    cf = np.array([[5.0, 5, 5, 105], [3.0, 3, 103, 0], [0.0, 0, 0, 100]])
    check(key_rates, cf, np.array([1.0, 2, 3, 4]), np.array([0.03, 0.0301, 0.0302, 0.0303]), 1e-4,
          rtol=2e-3, atol=1e-3)
