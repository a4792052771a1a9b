"""Spreadsheet formulas as NumPy code writes them: a "previous row plus this row" column by the overlapping
in-place `a[1:] += a[:-1]` (NumPy reads the old values, so it is not a running total) against `cumsum`, fill-down
of blanks by `np.maximum.accumulate` of row indices, a pivot table by `unique(return_inverse=True)` and `np.add.at`
with margins through `keepdims`, SUMIF/MAXIFS by `sum(where=)` and `max(initial=, where=)`, reconciliation of two
ledgers by `isclose(equal_nan=True)`, percent change with `diff(prepend=np.nan)` and compounding by `cumprod`,
PERCENTRANK by `percentile` methods, weighted grades by `average(returned=True)`, VLOOKUP with approximate match by
`searchsorted(sorter=)`, a loan schedule in integer cents by `divmod`, duplicate rows dropped by
`unique(axis=0, return_index=True)`, and monthly means with gaps by `nanmean(keepdims=True)` (tests/porting)."""

import warnings

import numpy as np
from harness import check


def previous_plus_this(np, values):
    a = np.asarray(values).copy()
    a[1:] += a[:-1]  # each cell plus the one above, as it was before the edit
    b = np.asarray(values).copy()
    b[:-1] -= b[1:]
    c = np.asarray(values).copy()
    np.add(c[:-1], c[1:], out=c[1:])
    return {"pairs": a, "drop": b, "via_out": c, "running": np.cumsum(values),
            "same": bool(np.array_equal(a, np.cumsum(values)))}


def fill_down(np, column):
    x = np.asarray(column)
    ok = ~np.isnan(x)
    idx = np.where(ok, np.arange(len(x)), 0)
    np.maximum.accumulate(idx, out=idx)
    filled = x[idx]
    # fill up from below for the leading blanks, by the same trick on the reversed column
    rev = np.where(ok[::-1], np.arange(len(x)), 0)
    up = x[::-1][np.maximum.accumulate(rev)][::-1]
    return {"filled": filled, "both": np.where(np.isnan(filled), up, filled), "blanks": np.flatnonzero(~ok)}


def pivot_table(np, region, product, amount):
    r_keys, r_idx = np.unique(np.asarray(region), return_inverse=True)
    p_keys, p_idx = np.unique(np.asarray(product), return_inverse=True)
    table = np.zeros((len(r_keys), len(p_keys)))
    np.add.at(table, (r_idx, p_idx), np.asarray(amount))
    counts = np.zeros(table.shape, dtype=int)
    np.add.at(counts, (r_idx, p_idx), 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = table / counts
    row_tot = table.sum(axis=1, keepdims=True)
    share = table / row_tot
    full = np.block([[table, row_tot], [table.sum(axis=0, keepdims=True), table.sum(keepdims=True)]])
    return {"rows": r_keys, "cols": p_keys, "table": table, "counts": counts, "mean": np.nan_to_num(mean, nan=0.0),
            "share": share, "with_margins": full}


def sumifs(np, amount, region, month):
    amount, region, month = np.asarray(amount), np.asarray(region), np.asarray(month)
    q1 = month <= 3
    return {"sumif": np.sum(amount, where=region == 2), "sumifs": np.sum(amount, where=(region == 2) & q1),
            "maxifs": np.max(amount, initial=-np.inf, where=region == 5),  # no such region: the initial
            "minifs": np.min(amount, initial=np.inf, where=q1),
            "countif": np.count_nonzero(amount > 100), "averageif": np.mean(amount, where=region == 1),
            "by_month": np.array([np.sum(amount, where=month == m) for m in range(1, 13)])}


def reconcile(np, ours, theirs):
    a, b = np.asarray(ours), np.asarray(theirs)
    match = np.isclose(a, b, rtol=0, atol=0.005, equal_nan=True)
    loose = np.isclose(a, b, rtol=1e-3, equal_nan=False)
    return {"match": match, "loose": loose, "mismatch": np.flatnonzero(~match),
            "all_ok": bool(np.allclose(a[match], b[match], atol=0.005, equal_nan=True)),
            "diff": np.where(match, 0.0, np.nan_to_num(a - b, nan=0.0)), "blank_both": np.isnan(a) & np.isnan(b)}


def percent_change(np, prices):
    p = np.asarray(prices)
    pct = np.diff(p, prepend=np.nan) / p
    growth = np.cumprod(1 + np.nan_to_num(pct))
    log_ret = np.diff(np.log(p), append=np.nan)
    return {"pct": pct, "growth": growth, "log_ret": log_ret, "best": int(np.nanargmax(pct)),
            "worst": int(np.nanargmin(pct)), "ptp": np.ptp(p)}


def percent_rank(np, scores):
    s = np.asarray(scores)
    out = {}
    for method in ("linear", "lower", "higher", "nearest", "midpoint", "weibull", "hazen"):
        out[method] = np.percentile(s, [10, 25, 50, 75, 90], method=method)
    order = np.argsort(s, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(s))
    out["prank"] = rank / (len(s) - 1)
    return out


def weighted_grades(np, marks, weights):
    m, w = np.asarray(marks), np.asarray(weights)
    avg, wsum = np.average(m, axis=1, weights=w, returned=True)
    by_item, n = np.average(m, axis=0, returned=True)
    overall = np.average(m, weights=np.broadcast_to(w, m.shape))
    return {"avg": avg, "wsum": wsum, "by_item": by_item, "n": n, "overall": overall,
            "grade": np.digitize(avg, [50, 60, 70, 80]), "top": int(np.argmax(avg))}


def vlookup(np, keys, values, queries):
    keys, values, q = np.asarray(keys), np.asarray(values), np.asarray(queries)
    order = np.argsort(keys, kind="stable")
    pos = np.searchsorted(keys, q, side="right", sorter=order) - 1  # approximate match: the last key <= query
    found = pos >= 0
    approx = np.where(found, values[order][np.clip(pos, 0, None)], np.nan)
    exact_pos = np.searchsorted(keys, q, sorter=order)
    exact_pos = np.minimum(exact_pos, len(keys) - 1)
    exact = keys[order][exact_pos] == q
    return {"approx": approx, "exact": np.where(exact, values[order][exact_pos], np.nan), "found": found}


def loan_cents(np, principal_cents, rate_bp, months):
    bal = np.int64(principal_cents)
    r = rate_bp / 10000 / 12
    payment = np.int64(np.ceil(principal_cents * r / (1 - (1 + r) ** -months)))
    rows = []
    for _ in range(months):
        interest = np.int64(np.rint(bal * r))
        principal = min(payment - interest, bal)
        bal = bal - principal
        rows.append((interest, principal, bal))
    sched = np.array(rows, dtype=np.int64)
    dollars, cents = np.divmod(sched[:, 2], 100)
    return {"payment": payment, "sched": sched, "dollars": dollars, "cents": cents,
            "total_interest": sched[:, 0].sum(), "paid_off": int(np.argmax(sched[:, 2] == 0))}


def drop_duplicates(np, table):
    t = np.asarray(table)
    uniq, first, counts = np.unique(t, axis=0, return_index=True, return_counts=True)
    keep = np.sort(first)  # keep the first copy of each row, in the sheet's order
    return {"kept": t[keep], "keep": keep, "dupes": np.setdiff1d(np.arange(len(t)), keep),
            "counts": counts[np.argsort(first, kind="stable")], "n_unique": len(uniq)}


def monthly_means(np, daily):
    x = np.asarray(daily).reshape(12, 30)
    with warnings.catch_warnings():  # a month with no readings at all is NaN, as in the sheet
        warnings.simplefilter("ignore", RuntimeWarning)
        mean = np.nanmean(x, axis=1, keepdims=True)
        anomaly_sd = np.nanstd(x - mean, axis=1)
    filled = np.where(np.isnan(x), mean, x)
    return {"mean": mean.ravel(), "anomaly_sd": anomaly_sd, "filled_sum": filled.sum(axis=1),
            "missing": np.count_nonzero(np.isnan(x), axis=1), "wettest": int(np.nanargmax(mean))}


def test_previous_plus_this():
    check(previous_plus_this, np.array([5, -2, 7, 1, 0, 3, -4]))


def test_fill_down():
    check(fill_down, np.array([np.nan, np.nan, 3.0, np.nan, 5.0, 6.0, np.nan, np.nan, -1.0, np.nan]))


def test_pivot_table():
    rng = np.random.default_rng(2171)
    check(pivot_table, rng.integers(0, 3, 30), rng.choice([10, 20, 40, 50], 30), np.round(rng.uniform(5, 200, 30), 2))


def test_sumifs():
    rng = np.random.default_rng(2172)
    check(sumifs, np.round(rng.uniform(0, 250, 40), 2), rng.integers(0, 4, 40), rng.integers(1, 13, 40))


def test_reconcile():
    ours = np.array([10.0, 20.004, np.nan, 5.0, np.nan, 1000.0, 7.25])
    theirs = np.array([10.0, 20.0, np.nan, 5.5, 3.0, 1000.9, 7.25])
    check(reconcile, ours, theirs)


def test_percent_change():
    rng = np.random.default_rng(2174)
    check(percent_change, 100 * np.cumprod(1 + rng.normal(0.001, 0.02, 20)), rtol=1e-4, atol=1e-6)


def test_percent_rank():
    check(percent_rank, np.array([72.0, 85, 85, 60, 91, 78, 85, 55, 68, 99, 72]))


def test_weighted_grades():
    rng = np.random.default_rng(2176)
    check(weighted_grades, rng.integers(30, 100, (6, 4)).astype(float), np.array([0.1, 0.2, 0.3, 0.4]))


def test_vlookup():
    keys = np.array([30, 0, 10, 50, 20])
    check(vlookup, keys, keys * 1.5 + 2, np.array([-5, 0, 15, 20, 49, 50, 75]))


def test_loan_cents():
    check(loan_cents, 2_500_000, 650, 24)


def test_drop_duplicates():
    rng = np.random.default_rng(2179)
    t = rng.integers(0, 3, (12, 3))
    t[7] = t[2]
    check(drop_duplicates, t)


def test_monthly_means():
    rng = np.random.default_rng(2180)
    x = rng.gamma(0.6, 4.0, 360)
    x[rng.random(360) < 0.1] = np.nan
    x[90:120] = np.nan
    check(monthly_means, x, rtol=1e-4, atol=1e-5)
