"""Survey statistics with weights, as analysts write them without pandas: weighted means and proportions by group
(np.bincount with weights, np.unique return_inverse), weighted quantiles by NumPy 2's `weights=` and by a sorted
cumulative-weight search, post-stratification and iterative raking of weights to known margins (np.add.at, np.ix_),
design effects and effective sample size, a weighted crosstab with a chi-square statistic, Likert items coded as
int8 with missing codes (-9) masked, the same items as np.ma arrays (np.ma.average(returned=True), an all-missing
item's masked mean), and bootstrap replicate weights from host multiplicities (tests/porting)."""

import numpy as np
from harness import check


def weighted_groups(np, region, income, w):
    labels, inv = np.unique(region, return_inverse=True)
    wsum = np.bincount(inv, weights=w)
    mean = np.bincount(inv, weights=w * income) / wsum
    share = wsum / w.sum()
    dev = income - mean[inv]
    var = np.bincount(inv, weights=w * dev ** 2) / wsum
    overall = np.average(income, weights=w)
    lines = [f"{int(k):>3}: {m:10.1f} ({s:.1%})" for k, m, s in zip(labels.tolist(), mean.tolist(), share.tolist(),
                                                                      strict=True)]
    return {"labels": labels, "mean": mean, "share": share, "sd": np.sqrt(var), "overall": overall,
            "lines": lines, "richest": int(labels[np.argmax(mean)])}


def weighted_quantiles(np, x, w, qs):
    by_numpy = np.quantile(x, qs, weights=w, method="inverted_cdf")
    order = np.argsort(x, kind="stable")
    xs, ws = x[order], w[order]
    cw = np.cumsum(ws)
    by_hand = xs[np.searchsorted(cw, np.asarray(qs) * cw[-1], side="left")]
    median_pct = np.percentile(x, 50, weights=w, method="inverted_cdf")
    unweighted = np.quantile(x, qs)
    return {"numpy": by_numpy, "hand": by_hand, "agree": bool(np.allclose(by_numpy, by_hand)),
            "median": median_pct, "unweighted": unweighted}


def post_stratify(np, sex, age_band, w, pop_table):
    cells = np.zeros((2, 4))
    np.add.at(cells, (sex, age_band), w)
    factor = np.divide(pop_table, cells, out=np.zeros_like(cells), where=cells > 0)
    w_ps = w * factor[sex, age_band]
    check_cells = np.zeros((2, 4))
    np.add.at(check_cells, (sex, age_band), w_ps)
    block = check_cells[np.ix_([0, 1], [1, 3])]
    return {"cells": cells, "factor": factor, "w": w_ps, "matches": bool(np.allclose(check_cells, pop_table)),
            "block": block, "trim": np.clip(w_ps, None, np.percentile(w_ps, 95))}


def raking(np, a, b, w, margin_a, margin_b, iters):
    w = np.array(w, dtype=np.float64)  # (w.astype(...).copy() stays a NumPy array: `w *= kd_array` is refused)
    history = []
    for _ in range(iters):
        ta = np.bincount(a, weights=w, minlength=len(margin_a))
        w *= (margin_a / ta)[a]
        tb = np.bincount(b, weights=w, minlength=len(margin_b))
        w *= (margin_b / tb)[b]
        history.append(float(np.abs(np.bincount(a, weights=w) - margin_a).max()))
    deff = len(w) * np.sum(w ** 2) / np.sum(w) ** 2
    n_eff = np.sum(w) ** 2 / np.sum(w ** 2)
    return {"w": w, "history": history, "deff": deff, "n_eff": n_eff, "ratio": w.max() / w.min(),
            "converged": history[-1] < 1e-6}


def crosstab_chi2(np, a, b, w):
    na, nb = a.max() + 1, b.max() + 1
    table = np.zeros((na, nb))
    np.add.at(table, (a, b), w)
    row, col, tot = table.sum(axis=1, keepdims=True), table.sum(axis=0, keepdims=True), table.sum()
    expected = row * col / tot
    chi2 = ((table - expected) ** 2 / expected).sum()
    cramers_v = np.sqrt(chi2 / tot / (min(na, nb) - 1))
    pct = np.round(100 * table / row, 1)
    shown = np.array2string(pct, precision=1, suppress_small=True)
    return {"table": table, "chi2": chi2, "V": cramers_v, "pct": pct, "shown": shown,
            "largest": np.unravel_index(np.argmax(table), table.shape)}


def likert_items(np, raw, w):
    x = np.asarray(raw, dtype=np.int8)
    valid = (x >= 1) & (x <= 5)
    scores = np.where(valid, x, 0).astype(np.int16)
    reversed_items = [1, 3]
    scores[:, reversed_items] = np.where(valid[:, reversed_items], 6 - scores[:, reversed_items], 0)
    wv = w[:, None] * valid
    item_mean = (wv * scores).sum(axis=0) / wv.sum(axis=0)
    answered = valid.sum(axis=1)
    scale = np.where(answered >= 3, (scores * valid).sum(axis=1) / np.maximum(answered, 1), np.nan)
    top2 = ((scores >= 4) * wv).sum(axis=0) / wv.sum(axis=0)
    k = x.shape[1]
    item_var = scores.var(axis=0, where=valid)
    total_var = np.nanvar(scale * k)
    alpha = k / (k - 1) * (1 - item_var.sum() / total_var)
    return {"item_mean": item_mean, "scale": scale, "top2": top2, "n_missing": int((~valid).sum()),
            "codes": np.unique(x[~valid]).tolist(), "alpha": alpha, "dtype_ok": scores.dtype == np.int16}


def bootstrap_replicates(np, y, w, picks):
    B, n = picks.shape
    mult = np.zeros((B, n))
    for b in range(B):
        np.add.at(mult[b], picks[b], 1.0)
    rep_w = mult * w[None, :] * n / (n - 1)
    est = (rep_w @ y) / rep_w.sum(axis=1)
    full = np.average(y, weights=w)
    se = np.sqrt(np.mean((est - full) ** 2))
    lo, hi = np.percentile(est, [2.5, 97.5])
    return {"est": est, "full": full, "se": se, "ci": [lo, hi], "zero_w": int((mult == 0).sum()),
            "text": f"{full:.2f} +/- {1.96 * se:.2f}"}


def masked_item_means(np, codes, w):
    x = np.ma.masked_outside(np.asarray(codes), 1, 5)  # -9 (refused) and 99 (not asked) are missing
    means, wsum = np.ma.average(x, axis=0, weights=w, returned=True)
    plain, n = np.ma.average(x, axis=0, returned=True)
    all_missing = [j for j in range(x.shape[1]) if np.ma.getmaskarray(x[:, j].mean()).all()]
    return {"means": means.filled(np.nan), "wsum": wsum, "n": n, "plain": plain.filled(np.nan),
            "all_missing": all_missing, "coverage": x.count(axis=0) / x.shape[0]}


def test_weighted_group_means():
    rng = np.random.default_rng(1151)
    n = 80
    check(weighted_groups, rng.choice([3, 7, 11, 20], n), rng.lognormal(10, 0.5, n), rng.uniform(0.5, 3, n),
          rtol=1e-4, atol=1e-3)


def test_weighted_quantiles():
    rng = np.random.default_rng(1152)
    check(weighted_quantiles, rng.normal(50, 10, 60), rng.integers(1, 6, 60).astype(float),
          [0.1, 0.25, 0.5, 0.75, 0.9])


def test_post_stratification():
    rng = np.random.default_rng(1153)
    n = 70
    pop = np.array([[120.0, 150.0, 130.0, 90.0], [110.0, 160.0, 140.0, 100.0]])
    check(post_stratify, rng.integers(0, 2, n), rng.integers(0, 4, n), rng.uniform(1, 4, n), pop, rtol=1e-4)


def test_raking_to_margins():
    rng = np.random.default_rng(1154)
    n = 90
    check(raking, rng.integers(0, 3, n), rng.integers(0, 2, n), rng.uniform(0.5, 2, n),
          np.array([300.0, 400.0, 300.0]), np.array([480.0, 520.0]), 25, rtol=1e-4, atol=1e-3)


def test_weighted_crosstab():
    rng = np.random.default_rng(1155)
    n = 100
    check(crosstab_chi2, rng.integers(0, 3, n), rng.integers(0, 4, n), rng.uniform(0.5, 2, n), rtol=1e-4)


def test_likert_items_with_missing_codes():
    rng = np.random.default_rng(1156)
    raw = rng.integers(1, 6, (40, 5))
    raw[rng.random((40, 5)) < 0.1] = -9
    raw[3, :3] = 99
    check(likert_items, raw, rng.uniform(0.5, 2, 40), rtol=1e-4)


def test_bootstrap_replicate_weights():
    rng = np.random.default_rng(1157)
    n = 30
    check(bootstrap_replicates, rng.normal(10, 2, n), rng.uniform(1, 3, n), rng.integers(0, n, (40, n)),
          rtol=1e-4)


def test_masked_item_means_with_missing_codes():
    rng = np.random.default_rng(1158)
    codes = rng.integers(1, 6, (20, 4))
    codes[rng.random((20, 4)) < 0.2] = -9
    codes[:, 2] = 99  # an item nobody was asked
    check(masked_item_means, codes, rng.integers(1, 4, 20), rtol=1e-4)
