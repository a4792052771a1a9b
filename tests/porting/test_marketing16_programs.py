"""Marketing analytics as Kaggle notebooks and analytics blog posts write it (without pandas): RFM segmentation
from a transaction log (`np.maximum.at` last purchase, `bincount` frequency and spend, quintile scores by
`np.quantile` and `searchsorted`, segment codes counted by `np.unique(axis=0, return_counts=True)`); a cohort
retention matrix filled by `np.add.at` on `(cohort, age)` pairs of unique customer-months; bootstrapped A/B
tests with resampling indices from a passed-in `np.random.default_rng` and a permutation test; customer
lifetime value with a geometric retention `cumprod` and discounting; a marketing-mix model with geometric adstock
by a loop and `np.convolve`, Hill saturation and `lstsq`; market-basket lift from a one-hot basket matrix
(`X.T @ X`, `np.triu_indices`, `argsort` of lifts); and a Lorenz curve / Gini of revenue with a Pareto
share by `searchsorted` (tests/porting)."""

import numpy as np
from harness import check


def rfm_segments(np, customer, day, amount, n_customers, today):
    last = np.full(n_customers, -1)
    np.maximum.at(last, customer, day)
    recency = today - last
    frequency = np.bincount(customer, minlength=n_customers)
    monetary = np.bincount(customer, weights=amount, minlength=n_customers)
    active = frequency > 0
    r_edges = np.quantile(recency[active], [0.2, 0.4, 0.6, 0.8])
    f_edges = np.quantile(frequency[active], [0.2, 0.4, 0.6, 0.8])
    m_edges = np.quantile(monetary[active], [0.2, 0.4, 0.6, 0.8])
    r_score = 5 - np.searchsorted(r_edges, recency[active], side="left")
    f_score = 1 + np.searchsorted(f_edges, frequency[active], side="right")
    m_score = 1 + np.digitize(monetary[active], m_edges)
    rfm = np.column_stack([r_score, f_score, m_score])
    codes, counts = np.unique(rfm, axis=0, return_counts=True)
    champions = np.flatnonzero(active)[(r_score >= 4) & (f_score >= 4) & (m_score >= 4)]
    at_risk = np.flatnonzero(active)[(r_score <= 2) & (f_score >= 3)]
    total = rfm.sum(axis=1)
    top = np.argsort(-total, kind="stable")[:5]
    return {"recency": recency, "frequency": frequency, "monetary": monetary, "r_edges": r_edges,
            "codes": codes[counts.argmax()], "n_codes": len(codes), "max_count": counts.max(),
            "champions": champions, "at_risk": at_risk, "top": np.flatnonzero(active)[top],
            "score_hist": np.bincount(total, minlength=16)}


def cohort_retention(np, customer, month, n_customers, n_months):
    first = np.full(n_customers, n_months)
    np.minimum.at(first, customer, month)
    pairs = np.unique(np.column_stack([customer, month]), axis=0)
    cohort = first[pairs[:, 0]]
    age = pairs[:, 1] - cohort
    counts = np.zeros((n_months, n_months), dtype=np.int64)
    np.add.at(counts, (cohort, age), 1)
    sizes = counts[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        retention = counts / sizes[:, None]
    observable = np.arange(n_months)[None, :] < (n_months - np.arange(n_months))[:, None]
    retention = np.where(observable & (sizes[:, None] > 0), retention, np.nan)
    avg_curve = np.nanmean(retention, axis=0)
    month2 = retention[:, 2]
    best = int(np.nanargmax(month2))
    return {"counts": counts, "sizes": sizes, "retention": np.round(retention, 4), "curve": avg_curve[:6],
            "best_cohort": best, "active": np.bincount(pairs[:, 1], minlength=n_months)}


def ab_bootstrap(np, control, treatment, rng, n_boot):
    control = np.asarray(control)
    treatment = np.asarray(treatment)
    diff = treatment.mean() - control.mean()
    ic = rng.integers(0, len(control), (n_boot, len(control)))
    it = rng.integers(0, len(treatment), (n_boot, len(treatment)))
    boot = treatment[it].mean(axis=1) - control[ic].mean(axis=1)
    lo, hi = np.percentile(boot, [2.5, 97.5])
    pooled = np.concatenate([control, treatment])
    perms = np.array([rng.permutation(len(pooled)) for _ in range(200)])
    shuffled = pooled[perms]
    null = shuffled[:, len(control):].mean(axis=1) - shuffled[:, :len(control)].mean(axis=1)
    p_value = (np.abs(null) >= abs(diff)).mean()
    lift = diff / control.mean()
    se = np.sqrt(control.var(ddof=1) / len(control) + treatment.var(ddof=1) / len(treatment))
    return {"diff": diff, "ci": np.array([lo, hi]), "boot_sd": boot.std(ddof=1), "p": p_value, "lift": lift,
            "z": diff / se, "significant": bool(lo > 0 or hi < 0)}


def customer_lifetime_value(np, margin, retention, discount, horizon):
    t = np.arange(horizon)
    survive = np.cumprod(np.r_[1.0, np.full(horizon - 1, retention)])
    disc = (1 + discount) ** -t
    clv_curve = np.cumsum(margin * survive * disc)
    closed = margin * (1 + discount) / (1 + discount - retention)
    segments = np.array([0.6, 0.75, 0.85, 0.92])
    S = np.cumprod(np.hstack([np.ones((4, 1)), np.repeat(segments[:, None], horizon - 1, axis=1)]), axis=1)
    clv_seg = (margin * S * disc).sum(axis=1)
    payback = np.argmax(clv_curve >= 3 * margin)
    return {"curve": clv_curve[::5], "closed": closed, "seg": clv_seg, "payback": int(payback),
            "converges": np.isclose(clv_curve[-1], closed, rtol=1e-2)}


def media_mix(np, spend, sales, decay, half_sat):
    n, k = spend.shape
    adstock = np.zeros_like(spend)
    adstock[0] = spend[0]
    for t in range(1, n):
        adstock[t] = spend[t] + decay * adstock[t - 1]
    kernel = decay ** np.arange(n)
    conv = np.array([np.convolve(spend[:, j], kernel)[:n] for j in range(k)]).T
    sat = adstock / (adstock + half_sat)
    X = np.column_stack([np.ones(n), sat, np.sin(2 * np.pi * np.arange(n) / 52)])
    beta, *_ = np.linalg.lstsq(X, sales, rcond=None)
    contrib = sat * beta[1:k + 1]
    share = contrib.sum(axis=0) / contrib.sum()
    roi = contrib.sum(axis=0) / spend.sum(axis=0)
    return {"same": np.allclose(adstock, conv, rtol=1e-4), "beta": beta, "share": share, "roi": roi,
            "best": int(np.argmax(roi)),
            "r2": 1 - ((sales - X @ beta) ** 2).sum() / ((sales - sales.mean()) ** 2).sum()}


def basket_lift(np, baskets, n_items):
    X = np.zeros((len(baskets), n_items), dtype=np.int32)
    rows = np.repeat(np.arange(len(baskets)), [len(b) for b in baskets])
    cols = np.concatenate(baskets)
    X[rows, cols] = 1
    support = X.mean(axis=0)
    co = X.T @ X
    pair_support = co / len(baskets)
    i, j = np.triu_indices(n_items, k=1)
    lift = pair_support[i, j] / (support[i] * support[j])
    conf = pair_support[i, j] / support[i]
    keep = co[i, j] >= 5
    order = np.argsort(-lift[keep], kind="stable")[:5]
    top_pairs = np.column_stack([i[keep], j[keep]])[order]
    size_hist = np.bincount(X.sum(axis=1))
    return {"support": support, "co_diag": np.diag(co), "top": top_pairs, "lift": lift[keep][order],
            "conf": conf[keep][order], "sizes": size_hist, "singletons": int((X.sum(axis=1) == 1).sum())}


def lorenz_gini(np, revenue):
    r = np.sort(revenue)
    n = len(r)
    cum = np.cumsum(r)
    lorenz = np.insert(cum / cum[-1], 0, 0.0)
    x = np.linspace(0, 1, n + 1)
    gini_area = 1 - 2 * np.trapezoid(lorenz, x)
    idx = np.arange(1, n + 1)
    gini = (2 * (idx * r).sum()) / (n * r.sum()) - (n + 1) / n
    desc = np.cumsum(r[::-1]) / cum[-1]
    top20 = desc[int(0.2 * n) - 1]
    k80 = int(np.searchsorted(desc, 0.8)) + 1
    deciles = np.add.reduceat(r[::-1], np.arange(0, n, n // 10)) / cum[-1]
    return {"gini": gini, "gini_area": gini_area, "top20": top20, "k80": k80, "deciles": deciles,
            "lorenz": lorenz[:: n // 10]}


def _transactions(rng, n_customers, n):
    cust = rng.integers(0, n_customers, n)
    day = rng.integers(0, 365, n)
    amount = np.round(rng.lognormal(3, 0.8, n), 2)
    return cust, day, amount


def test_rfm_segmentation_quintiles():
    rng = np.random.default_rng(1601)
    cust, day, amount = _transactions(rng, 120, 900)
    check(rfm_segments, cust, day, amount, 130, 365, rtol=1e-4, atol=1e-3)


def test_cohort_retention_add_at():
    rng = np.random.default_rng(1602)
    n = 200
    start = rng.integers(0, 10, n)
    cust = np.repeat(np.arange(n), 6)
    month = np.minimum(np.repeat(start, 6) + rng.geometric(0.45, n * 6) - 1, 11)
    check(cohort_retention, cust, month, n, 12, rtol=1e-4, atol=1e-4)


def test_ab_test_bootstrap_and_permutation():
    rng = np.random.default_rng(1603)
    control = rng.exponential(20.0, 300)
    treat = rng.exponential(22.5, 280)
    check(ab_bootstrap, np.round(control, 2), np.round(treat, 2), np.random.default_rng(7), 500,
          rtol=1e-3, atol=1e-3)


def test_customer_lifetime_value():
    check(customer_lifetime_value, 50.0, 0.8, 0.1, 60, rtol=1e-4, atol=1e-3)


def test_media_mix_adstock():
    rng = np.random.default_rng(1605)
    spend = rng.gamma(2, 50, (104, 3)) * (rng.random((104, 3)) < 0.7)
    ad = np.zeros_like(spend)
    for t in range(104):
        ad[t] = spend[t] + (0.5 * ad[t - 1] if t else 0)
    sales = 1000 + (ad / (ad + 120)) @ np.array([300.0, 150.0, 450.0]) + rng.normal(0, 20, 104)
    check(media_mix, spend, sales, 0.5, 120.0, rtol=2e-3, atol=1e-3)


def test_market_basket_lift():
    rng = np.random.default_rng(1606)
    baskets = []
    for _ in range(300):
        k = rng.integers(1, 6)
        items = rng.choice(12, k, replace=False, p=np.linspace(2, 0.5, 12) / np.linspace(2, 0.5, 12).sum())
        if 0 in items and rng.random() < 0.6:
            items = np.union1d(items, [5])
        baskets.append(np.unique(items))
    check(basket_lift, baskets, 12, rtol=1e-4, atol=1e-5)


def test_lorenz_curve_gini():
    rng = np.random.default_rng(1607)
    check(lorenz_gini, np.round(rng.pareto(1.5, 500) * 30 + 5, 2), rtol=1e-3, atol=1e-4)
