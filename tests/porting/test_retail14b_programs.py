"""Retail analytics as Kaggle notebooks write them without pandas: cohort retention tables from order months
(`np.unique(return_inverse=True)`, `np.minimum.at` first purchases, `np.add.at` into a cohort x age grid), RFM
scoring by quantile bins (`np.quantile`, `np.digitize`, string-free segment codes), basket co-occurrence by a
one-hot matrix product (`X.T @ X`, lift and confidence, `np.triu_indices` top pairs), ABC analysis by cumulative
revenue share (`argsort`, `cumsum`, `searchsorted`), price elasticity by log-log `np.polyfit` per product,
a weekly sales grid with `np.unique(axis=0)` store-week keys and `bincount` with weights, and a discount ledger in
integer cents (`np.round`, `astype`, `np.divmod`) (tests/porting)."""

import numpy as np
from harness import check


def cohort_retention(np, customer, month):
    ids, cust_idx = np.unique(customer, return_inverse=True)
    first = np.full(len(ids), month.max() + 1)
    np.minimum.at(first, cust_idx, month)
    cohort = first[cust_idx]
    age = month - cohort
    n_months = month.max() + 1
    active = np.zeros((n_months, n_months), dtype=np.int64)
    # one count per customer per (cohort, age): unique rows first
    keys = np.unique(np.stack([cust_idx, age]), axis=1)
    np.add.at(active, (first[keys[0]], keys[1]), 1)
    sizes = active[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        retention = np.where(sizes[:, None] > 0, active / sizes[:, None], np.nan)
    return {"sizes": sizes, "active": active, "retention": np.round(retention, 3),
            "avg_curve": np.nanmean(retention[sizes > 0], axis=0)[:4], "cohort_of": first}


def rfm_scores(np, customer, day, amount, today):
    ids, inv = np.unique(customer, return_inverse=True)
    last = np.zeros(len(ids), dtype=day.dtype)
    np.maximum.at(last, inv, day)
    recency = today - last
    frequency = np.bincount(inv)
    monetary = np.bincount(inv, weights=amount)
    def score(x, reverse=False):
        edges = np.quantile(x, [0.2, 0.4, 0.6, 0.8])
        s = np.digitize(x, edges, right=True) + 1
        return 6 - s if reverse else s
    R, F, M = score(recency, reverse=True), score(frequency), score(monetary)
    code = R * 100 + F * 10 + M
    champions = ids[(R >= 4) & (F >= 4)]
    at_risk = ids[(R <= 2) & (M >= 4)]
    return {"R": R, "F": F, "M": M, "code": code, "champions": champions, "at_risk": at_risk,
            "segment_sizes": np.bincount(R + F + M, minlength=16), "avg_spend": monetary.mean()}


def basket_cooccurrence(np, order_id, item, n_items):
    orders, row = np.unique(order_id, return_inverse=True)
    X = np.zeros((len(orders), n_items), dtype=np.int32)
    X[row, item] = 1
    C = X.T @ X
    support = np.diag(C) / len(orders)
    pair_support = C / len(orders)
    with np.errstate(divide="ignore", invalid="ignore"):
        confidence = np.where(np.diag(C)[:, None] > 0, C / np.diag(C)[:, None], 0.0)
        lift = pair_support / np.outer(support, support)
    lift = np.nan_to_num(lift)
    iu = np.triu_indices(n_items, k=1)
    top = np.argsort(-C[iu], kind="stable")[:5]
    basket_size = X.sum(axis=1)
    return {"C": C, "support": support, "confidence": np.round(confidence, 4), "lift": lift,
            "top_pairs": np.column_stack([iu[0][top], iu[1][top]]), "size_hist": np.bincount(basket_size)}


def abc_analysis(np, revenue):
    order = np.argsort(revenue)[::-1]
    share = np.cumsum(revenue[order]) / revenue.sum()
    cut_a = np.searchsorted(share, 0.8) + 1
    cut_b = np.searchsorted(share, 0.95) + 1
    labels = np.empty(len(revenue), dtype=np.int8)
    labels[order[:cut_a]] = 0
    labels[order[cut_a:cut_b]] = 1
    labels[order[cut_b:]] = 2
    lorenz = np.concatenate([[0.0], np.cumsum(np.sort(revenue)) / revenue.sum()])
    gini = 1 - 2 * np.trapezoid(lorenz, dx=1 / len(revenue))
    return {"labels": labels, "counts": np.bincount(labels, minlength=3), "share": share[:10], "gini": gini,
            "top10": order[:10]}


def price_elasticity(np, product, price, qty):
    n = product.max() + 1
    slopes = np.zeros(n)
    for p in range(n):
        m = product == p
        slopes[p], _ = np.polyfit(np.log(price[m]), np.log(qty[m]), 1)
    elastic = np.flatnonzero(slopes < -1)
    revenue = price * qty
    by_prod = np.bincount(product, weights=revenue)
    mean_price = np.bincount(product, weights=price) / np.bincount(product)
    opt_markup = np.where(slopes < -1, slopes / (1 + slopes), np.inf)
    return {"slopes": slopes, "elastic": elastic, "revenue": by_prod, "mean_price": mean_price,
            "markup": opt_markup}


def weekly_grid(np, store, week, sales):
    keys, inv = np.unique(np.column_stack([store, week]), axis=0, return_inverse=True)
    totals = np.bincount(inv.ravel(), weights=sales)
    grid = np.zeros((store.max() + 1, week.max() + 1))
    grid[keys[:, 0], keys[:, 1]] = totals
    wow = np.diff(grid, axis=1)
    best_week = grid.argmax(axis=1)
    share = grid / grid.sum(axis=0, keepdims=True)
    z = (grid - grid.mean(axis=1, keepdims=True)) / grid.std(axis=1, keepdims=True)
    return {"keys": keys, "grid": grid, "wow": wow, "best_week": best_week, "share": share,
            "anomalies": np.argwhere(np.abs(z) > 1.8)}


def discount_ledger(np, prices, pct):
    cents = np.round(prices * 100).astype(np.int64)
    disc = cents * (100 - pct) // 100
    saved = cents - disc
    dollars, rest = np.divmod(disc, 100)
    tax = np.round(disc * 0.0825).astype(np.int64)
    total = disc + tax
    bins = np.bincount(np.minimum(saved // 500, 4))
    return {"cents": cents, "disc": disc, "dollars": dollars, "rest": rest, "tax": tax, "total": int(total.sum()),
            "bins": bins, "pct_saved": np.round(saved.sum() / cents.sum(), 4)}


def test_cohort_retention_table():
    rng = np.random.default_rng(1411)
    n = 300
    check(cohort_retention, rng.integers(0, 60, n), np.minimum(rng.geometric(0.25, n) - 1, 7))


def test_rfm_quantile_scores():
    rng = np.random.default_rng(1412)
    n = 400
    check(rfm_scores, rng.integers(1000, 1080, n), rng.integers(0, 365, n),
          np.round(rng.gamma(2.0, 30.0, n), 2), 365)


def test_basket_cooccurrence():
    rng = np.random.default_rng(1413)
    order_id = np.repeat(np.arange(80), rng.integers(1, 5, 80))
    check(basket_cooccurrence, order_id, rng.integers(0, 8, len(order_id)), 8, rtol=1e-4)


def test_abc_analysis():
    check(abc_analysis, np.random.default_rng(1414).pareto(1.5, 60) * 1000 + 10)


def test_price_elasticity():
    rng = np.random.default_rng(1415)
    product = np.repeat(np.arange(5), 30)
    price = rng.uniform(2, 10, 150)
    qty = np.exp(5 - np.array([0.5, 1.2, 2.0, 0.8, 1.6])[product] * np.log(price) + rng.normal(0, 0.1, 150))
    check(price_elasticity, product, price, qty, rtol=1e-3)


def test_weekly_sales_grid():
    rng = np.random.default_rng(1416)
    n = 500
    check(weekly_grid, rng.integers(0, 6, n), rng.integers(0, 10, n), rng.gamma(3, 50, n), rtol=1e-3)


def test_discount_ledger_cents():
    rng = np.random.default_rng(1417)
    check(discount_ledger, np.round(rng.uniform(1, 120, 40), 2), rng.choice([0, 10, 15, 25, 40], 40))
