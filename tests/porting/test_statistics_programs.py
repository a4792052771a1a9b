"""Statistics programs: ranking, unique/bincount group-by, descriptive statistics, bootstrap, correlation."""

import numpy as np
from harness import check


def groupby_mean(np, keys_host, values_host):
    keys = np.asarray(keys_host)
    values = np.asarray(values_host)
    groups, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    sums = np.bincount(inverse, weights=values)
    means = sums / counts
    sq = np.bincount(inverse, weights=values**2)
    stds = np.sqrt(sq / counts - means**2)
    order = np.argsort(-means)
    maxes = np.full(len(groups), -np.inf)
    np.maximum.at(maxes, inverse, values)
    top = groups[order[:3]]
    report = [f"group {int(g)}: n={int(c)} mean={m:.3f}" for g, c, m in zip(groups, counts, means, strict=True)]
    return {"groups": groups, "means": means, "stds": stds, "top": top, "maxes": maxes, "report": report,
            "total": float(values.sum()), "check": bool(np.isclose(sums.sum(), values.sum()))}


def ranking(np, scores_host):
    scores = np.asarray(scores_host)
    order = scores.argsort()[::-1]
    ranks = np.empty_like(order)
    ranks[order] = np.arange(1, len(scores) + 1)
    top5 = scores[order[:5]]
    pct = np.percentile(scores, [25, 50, 75])
    iqr = pct[2] - pct[0]
    outliers = np.where((scores < pct[0] - 1.5 * iqr) | (scores > pct[2] + 1.5 * iqr))[0]
    z = (scores - scores.mean()) / scores.std(ddof=1)
    s = np.sort(scores)
    cdf_at = np.searchsorted(s, [0.0, 1.0], side="right") / len(s)
    median = np.median(scores)
    above = np.count_nonzero(scores > median)
    return {"ranks": ranks, "top5": top5, "pct": pct, "outliers": outliers, "z": z, "cdf": cdf_at,
            "median": float(median), "above": int(above),
            "mode_bin": int(np.bincount((scores > 0).astype(int)).argmax())}


def describe(np, data_host):
    X = np.array(data_host, dtype=np.float64)
    X[X > 2.5] = np.nan
    col_mean = np.nanmean(X, axis=0)
    inds = np.where(np.isnan(X))
    X_filled = X.copy()
    X_filled[inds] = np.take(col_mean, inds[1])
    stats = np.vstack([X_filled.min(0), X_filled.max(0), X_filled.mean(0), X_filled.std(0), np.median(X_filled, 0)])
    corr = np.corrcoef(X_filled, rowvar=False)
    cov = np.cov(X_filled.T)
    norm = (X_filled - X_filled.mean(axis=0)) / X_filled.std(axis=0)
    missing = np.isnan(X).sum(axis=0)
    rows_ok = ~np.isnan(X).any(axis=1)
    return {"stats": stats, "corr": corr, "cov": cov, "norm_mean": norm.mean(0), "missing": missing,
            "rows_ok": int(rows_ok.sum()), "nanmax": np.nanmax(X, axis=0), "nanstd": np.nanstd(X, axis=0)}


def bootstrap_ci(np, sample_host, idx_host):
    sample = np.asarray(sample_host)
    idx = np.asarray(idx_host)
    boot = sample[idx]
    means = boot.mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    se = means.std(ddof=1)
    hist, edges = np.histogram(means, bins=10)
    centers = (edges[:-1] + edges[1:]) / 2
    return {"lo": float(lo), "hi": float(hi), "se": float(se), "hist": hist, "centers": centers,
            "inside": bool(lo <= sample.mean() <= hi)}


def value_counts(np, labels_host):
    labels = np.asarray(labels_host)
    vals, counts = np.unique(labels, return_counts=True)
    freq = counts / counts.sum()
    most = vals[np.argmax(counts)]
    cum = np.cumsum(counts[::-1])[::-1]
    entropy = -(freq * np.log2(freq)).sum()
    b = np.bincount(labels)
    nonzero = np.flatnonzero(b)
    isin = np.isin(labels, [2, 5]).sum()
    first = np.unique(labels, return_index=True)[1]
    diff = np.setdiff1d(np.arange(10), labels)
    return {"vals": vals, "counts": counts, "most": int(most), "cum": cum, "entropy": float(entropy),
            "nonzero": nonzero, "isin": int(isin), "first": first, "missing": diff,
            "inter": np.intersect1d(labels[:10], labels[10:20]), "union": np.union1d(labels[:5], [100, 3])}


def test_groupby_unique_inverse_bincount():
    rng = np.random.default_rng(0)
    keys = rng.integers(0, 6, size=80) * 10
    check(groupby_mean, keys, rng.normal(5, 2, size=80), rtol=1e-4, atol=1e-4)


def test_ranking_percentiles_outliers():
    scores = np.random.default_rng(1).standard_t(3, size=50)
    check(ranking, scores, rtol=1e-4, atol=1e-5)


def test_describe_with_missing_values():
    check(describe, np.random.default_rng(2).normal(size=(30, 4)) * 1.5, rtol=1e-4, atol=1e-5)


def test_bootstrap_confidence_interval():
    rng = np.random.default_rng(3)
    sample = rng.exponential(2.0, size=40)
    check(bootstrap_ci, sample, rng.integers(0, 40, size=(200, 40)), rtol=1e-4, atol=1e-4)


def test_value_counts_sets():
    check(value_counts, np.random.default_rng(4).integers(0, 8, size=60))
