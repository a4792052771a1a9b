"""Cleaning tabular data as Kaggle notebooks do without pandas: sentinel codes to NaN and NaN-aware summaries
(`np.nanmean(axis=0)`, `nanmedian`, `nanstd`, `nanpercentile`), column-mean imputation by `np.where` and
`np.take`, z-score and IQR outliers with `np.clip` winsorising, min-max scaling that survives a constant column,
group statistics by `np.unique(return_inverse=True)` and `np.bincount`, de-duplicating rows with `np.unique(axis=0)`,
forward-filling gaps by `np.maximum.accumulate` of indices, the same table as `np.ma` arrays (`masked_invalid`,
`filled`, `count`), and a printed summary with `np.set_printoptions` (tests/porting)."""

import numpy as np
from harness import check


def sentinel_to_nan(np, table, code):
    table = np.asarray(table)
    X = table.astype(float)
    X[X == code] = np.nan
    missing = np.isnan(X)
    means = np.nanmean(X, axis=0)
    medians = np.nanmedian(X, axis=0)
    stds = np.nanstd(X, axis=0, ddof=1)
    q = np.nanpercentile(X, [25, 75], axis=0)
    return {"n_missing": missing.sum(axis=0), "rows_complete": int((~missing.any(axis=1)).sum()),
            "means": means, "medians": medians, "stds": stds, "q": q, "frac": missing.mean(),
            "worst_col": int(np.argmax(missing.sum(axis=0)))}


def impute_columns(np, X):
    X = np.asarray(X)
    X = X.copy()
    col_mean = np.nanmean(X, axis=0)
    rows, cols = np.where(np.isnan(X))
    X[rows, cols] = np.take(col_mean, cols)
    Y = np.where(np.isnan(X), 0, X)
    return {"X": X, "rows": rows, "cols": cols, "any_nan": bool(np.isnan(X).any()),
            "same": bool(np.array_equal(X, Y)), "nan_to_num": np.nan_to_num(Y[:, 2] / Y[:, 2], nan=-1.0, posinf=9.0)}


def outliers_and_winsor(np, x):
    x = np.asarray(x)
    z = (x - x.mean()) / x.std()
    out_z = np.flatnonzero(np.abs(z) > 3)
    q1, q3 = np.percentile(x, [25, 75])
    iqr = q3 - q1
    lo, hi = q1 - 1.5 * iqr, q3 + 1.5 * iqr
    out_iqr = (x < lo) | (x > hi)
    w = np.clip(x, *np.percentile(x, [5, 95]))
    y = x.copy()
    y[out_iqr] = np.median(x)
    return {"out_z": out_z, "n_iqr": int(out_iqr.sum()), "bounds": (lo, hi), "w": w, "y": y,
            "z_max": np.abs(z).max(), "w_std": w.std()}


def minmax_and_standardise(np, X):
    X = np.asarray(X)
    mn, mx = X.min(axis=0), X.max(axis=0)
    rng_ = mx - mn
    rng_[rng_ == 0] = 1.0  # a constant column would divide by zero
    scaled = (X - mn) / rng_
    mu, sd = X.mean(axis=0), X.std(axis=0)
    Z = np.divide(X - mu, sd, out=np.zeros_like(X), where=sd > 0)
    return {"scaled": scaled, "Z": Z, "col_range": (scaled.min(axis=0), scaled.max(axis=0)),
            "z_mean": np.round(Z.mean(axis=0), 6), "unit": np.round(Z.std(axis=0), 4)}


def group_stats(np, dept, salary, age):
    dept, salary, age = np.asarray(dept), np.asarray(salary), np.asarray(age)
    keys, inv, counts = np.unique(dept, return_inverse=True, return_counts=True)
    total = np.bincount(inv, weights=salary)
    mean = total / counts
    sq = np.bincount(inv, weights=salary ** 2)
    sd = np.sqrt(sq / counts - mean ** 2)
    order = np.lexsort((salary, inv))
    boundaries = np.r_[0, np.cumsum(counts)[:-1]]
    lowest = salary[order][boundaries]
    totals_sorted = np.add.reduceat(salary[order], boundaries)  # group sums of the sorted column
    highest = np.maximum.reduceat(salary[order], boundaries)
    oldest = np.zeros(len(keys))
    np.maximum.at(oldest, inv, age)
    above = salary > mean[inv]
    return {"keys": keys, "counts": counts, "mean": mean, "sd": sd, "lowest": lowest, "oldest": oldest,
            "share_above": np.bincount(inv, weights=above) / counts, "reduceat": totals_sorted, "highest": highest,
            "by_size": keys[np.argsort(-counts, kind="stable")]}


def dedupe_and_ffill(np, rows, series):
    rows, series = np.asarray(rows), np.asarray(series)
    uniq, first, inv, counts = np.unique(rows, axis=0, return_index=True, return_inverse=True, return_counts=True)
    keep = np.sort(first)
    deduped = rows[keep]
    mask = np.isnan(series)
    idx = np.where(~mask, np.arange(len(series)), 0)
    np.maximum.accumulate(idx, out=idx)
    filled = series[idx]
    return {"uniq": uniq, "counts": counts, "inv": inv.ravel(), "deduped": deduped, "n_dup": len(rows) - len(keep),
            "filled": filled, "idx": idx}


def masked_table(np, X):
    X = np.asarray(X)
    m = np.ma.masked_invalid(X)
    col_mean = m.mean(axis=0)
    filled = m.filled(col_mean)
    n_valid = m.count(axis=0)
    clipped = np.ma.clip(m, -1, 1)
    return {"mean": col_mean.filled(np.nan), "filled": filled, "count": n_valid, "row_max": m.max(axis=1).filled(-99),
            "clipped_sum": clipped.sum(axis=0).filled(0), "mask_sum": int(np.ma.getmaskarray(m).sum())}


def printed_summary(np, X, names):
    X = np.asarray(X)
    stats = np.vstack([np.nanmin(X, axis=0), np.nanmean(X, axis=0), np.nanmax(X, axis=0)])
    old = np.get_printoptions()
    np.set_printoptions(precision=2, suppress=True, linewidth=100)
    try:
        text = str(stats)
        arr = np.array2string(stats[1], separator=", ")
    finally:
        np.set_printoptions(**old)
    lines = [f"{n:<6}{lo:8.2f}{mu:8.2f}{hi:8.2f}" for n, lo, mu, hi in zip(names, *stats.tolist(), strict=True)]
    return {"text": text, "arr": arr, "lines": lines}


def _table(rng, n=40, k=5):
    X = np.round(rng.normal(50, 10, size=(n, k)), 1)
    X[rng.random((n, k)) < 0.15] = np.nan
    X[:, 2] = np.nan
    X[0, 2] = 3.0
    return X


def test_sentinel_codes_to_nan():
    rng = np.random.default_rng(1311)
    table = rng.integers(0, 100, size=(30, 4))
    table[rng.random((30, 4)) < 0.2] = -999
    check(sentinel_to_nan, table, -999)


def test_impute_column_means():
    check(impute_columns, _table(np.random.default_rng(1312)))


def test_outliers_z_iqr_winsor():
    rng = np.random.default_rng(1313)
    x = np.concatenate([rng.normal(100, 15, 200), [400.0, -150.0, 310.0]])
    check(outliers_and_winsor, x)


def test_minmax_with_constant_column():
    rng = np.random.default_rng(1314)
    X = rng.normal(size=(25, 4)) * [1, 10, 100, 0]
    check(minmax_and_standardise, X, atol=1e-4)


def test_group_statistics_bincount():
    rng = np.random.default_rng(1315)
    dept = rng.choice([30, 10, 20, 40], size=50)
    check(group_stats, dept, np.round(rng.normal(5000, 900, 50), 2), rng.integers(20, 65, 50).astype(float),
          rtol=1e-3)
    # 400 departments: reduceat over hundreds of groups (tests/api/test_reduceat_many_segments_porting13b.py)
    dept = rng.integers(0, 400, 6000) * 7
    check(group_stats, dept, np.round(rng.normal(5000, 900, 6000), 2), rng.integers(20, 65, 6000).astype(float),
          rtol=1e-3)


def test_dedupe_rows_and_forward_fill():
    rng = np.random.default_rng(1316)
    rows = rng.integers(0, 3, size=(20, 3))
    series = rng.normal(size=15)
    series[[0, 3, 4, 9, 10, 11]] = np.nan
    series[0] = 1.5
    check(dedupe_and_ffill, rows, series)


def test_masked_invalid_table():
    X = _table(np.random.default_rng(1317), 12, 4) / 40
    X[3, 1] = np.inf
    check(masked_table, X)


def test_printed_summary():
    X = _table(np.random.default_rng(1318), 20, 5)
    check(printed_summary, X, ["age", "bmi", "bp", "chol", "hr"])
