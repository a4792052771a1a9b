"""Weather-ensemble forecast verification as forecasters' scripts write it in NumPy: ensemble mean, spread and
`np.ptp` with quantiles by several `method=`s, `np.nanpercentile` over members with missing runs, the CRPS by
pairwise broadcasting, rank (Talagrand) histograms by counting members below the observation, Brier scores with
reliability bins from `np.digitize` and weighted `bincount`, exceedance probabilities over a threshold grid,
quantile-mapping bias correction with `np.interp`, a spread-skill relation by `np.polyfit` and a printed forecast
table (tests/porting)."""

import numpy as np
from harness import check


def ensemble_summary(np, ens):
    ens = np.asarray(ens, dtype=np.float32)
    mean = ens.mean(axis=0)
    spread = ens.std(axis=0, ddof=1)
    rng_ = np.ptp(ens, axis=0)
    out = {"mean": mean, "spread": spread, "range": rng_}
    for method in ("linear", "median_unbiased", "normal_unbiased", "interpolated_inverted_cdf", "hazen"):
        out[method] = np.quantile(ens, [0.1, 0.9], axis=0, method=method)
    out["iqr"] = np.subtract(*np.percentile(ens, [75, 25], axis=0))
    out["outlier_members"] = np.any(np.abs(ens - mean) > 2.5 * spread, axis=(1, 2))
    out["dtype"] = out["linear"].dtype.name
    return out


def missing_members(np, ens, missing):
    ens = np.array(ens, dtype=float)
    ens[np.asarray(missing)] = np.nan
    n_ok = np.count_nonzero(~np.isnan(ens), axis=0)
    p = np.nanpercentile(ens, [5, 50, 95], axis=0, method="linear")
    mean = np.nanmean(ens, axis=0)
    lowest = np.nanmin(ens, axis=0)
    which = np.nanargmin(ens[:, 1:], axis=0)  # row 0 holds an all-missing point: ValueError there
    spread = np.nanstd(ens, axis=0, ddof=1)
    return {"n_ok": n_ok, "p": p, "mean": mean, "lowest": lowest, "which": which, "spread": spread,
            "median_eq": bool(np.allclose(p[1], np.nanmedian(ens, axis=0)))}


def crps(np, ens, obs):
    ens, obs = np.asarray(ens), np.asarray(obs)
    m = ens.shape[0]
    term1 = np.mean(np.abs(ens - obs), axis=0)
    term2 = np.abs(ens[:, None] - ens[None, :]).sum(axis=(0, 1)) / (2 * m * m)
    fair = term1 - np.abs(ens[:, None] - ens[None, :]).sum(axis=(0, 1)) / (2 * m * (m - 1))
    s = np.sort(ens, axis=0)
    i = np.arange(1, m + 1).reshape(-1, *([1] * obs.ndim))
    term2_sorted = np.sum((2 * i - m - 1) * s, axis=0) / m**2
    return {"crps": term1 - term2, "fair": fair, "same": bool(np.allclose(term2, term2_sorted)),
            "mean_crps": np.mean(term1 - term2), "mae": np.abs(ens.mean(axis=0) - obs).mean()}


def rank_histogram(np, ens, obs):
    ens, obs = np.asarray(ens), np.asarray(obs)
    m = ens.shape[0]
    below = np.sum(ens < obs, axis=0)
    ties = np.sum(ens == obs, axis=0)
    ranks = below + ties // 2
    hist = np.bincount(ranks.ravel(), minlength=m + 1)
    flat = hist / hist.sum()
    chi2 = np.sum((hist - hist.mean()) ** 2 / hist.mean())
    outside = np.mean((ranks == 0) | (ranks == m))
    return {"hist": hist, "flat": flat, "chi2": chi2, "outside": outside, "u_shape": bool(hist[[0, -1]].sum() >
            hist[1:-1].mean() * 2)}


def brier_reliability(np, ens, obs, thr, n_bins):
    ens, obs = np.asarray(ens), np.asarray(obs)
    prob = np.mean(ens > thr, axis=0).ravel()
    event = (obs > thr).ravel().astype(float)
    bs = np.mean((prob - event) ** 2)
    clim = event.mean()
    bss = 1 - bs / (clim * (1 - clim))
    bins = np.linspace(0, 1, n_bins + 1)
    idx = np.clip(np.digitize(prob, bins, right=True) - 1, 0, n_bins - 1)
    counts = np.bincount(idx, minlength=n_bins)
    fcst = np.bincount(idx, weights=prob, minlength=n_bins)
    hits = np.bincount(idx, weights=event, minlength=n_bins)
    with np.errstate(invalid="ignore"):
        rel = np.where(counts > 0, hits / counts, np.nan)
    reliability = np.nansum(counts * (fcst / np.maximum(counts, 1) - rel) ** 2) / prob.size
    return {"bs": bs, "bss": bss, "counts": counts, "rel": rel, "reliability": reliability}


def exceedance_curves(np, ens, thresholds):
    ens = np.asarray(ens)
    thr = np.asarray(thresholds)
    p = (ens[..., None] > thr).mean(axis=0)
    monotone = bool(np.all(np.diff(p, axis=-1) <= 0))
    cdf = np.sort(ens, axis=0)
    levels = (np.arange(ens.shape[0]) + 0.5) / ens.shape[0]
    p50 = np.apply_along_axis(lambda col: np.interp(0.5, levels, col), 0, cdf)
    return {"p": p, "monotone": monotone, "p50": p50, "any_exceed": np.any(p > 0.5, axis=-1)}


def quantile_mapping(np, model_hist, obs_hist, model_future, n_q):
    q = np.linspace(0, 1, n_q)
    mq = np.quantile(np.asarray(model_hist), q)
    oq = np.quantile(np.asarray(obs_hist), q)
    corrected = np.interp(np.asarray(model_future), mq, oq)
    delta = oq - mq
    additive = np.asarray(model_future) + np.interp(np.asarray(model_future), mq, delta)
    bias_before = np.mean(np.asarray(model_hist)) - np.mean(np.asarray(obs_hist))
    return {"mq": mq, "oq": oq, "corrected": corrected, "additive": additive, "bias": bias_before,
            "clipped": int(np.sum((np.asarray(model_future) < mq[0]) | (np.asarray(model_future) > mq[-1])))}


def spread_skill(np, ens, obs):
    ens, obs = np.asarray(ens), np.asarray(obs)
    spread = ens.std(axis=0, ddof=1).ravel()
    err = np.abs(ens.mean(axis=0) - obs).ravel()
    order = np.argsort(spread, kind="stable")
    groups = np.array_split(order, 4)
    binned = np.array([[spread[g].mean(), np.sqrt(np.mean(err[g] ** 2))] for g in groups])
    slope, intercept = np.polyfit(binned[:, 0], binned[:, 1], 1)
    r = np.corrcoef(spread, err)[0, 1]
    return {"binned": binned, "slope": slope, "intercept": intercept, "r": r}


def forecast_table(np, ens, cities):
    ens = np.asarray(ens)
    q = np.percentile(ens, [10, 50, 90], axis=0)
    lines = [f"{'city':<8}{'p10':>7}{'p50':>7}{'p90':>7}  rain%"]
    rain = np.mean(ens > 1.0, axis=0) * 100
    for i, c in enumerate(cities):
        lines.append(f"{c:<8}{q[0, i]:7.1f}{q[1, i]:7.1f}{q[2, i]:7.1f}  {rain[i]:3.0f}")
    with np.printoptions(precision=1, floatmode="fixed"):
        lines.append(str(q[1]))
    lines.append(np.array2string(rain.astype(int), separator="|"))
    return {"table": "\n".join(lines), "wettest": cities[int(np.argmax(rain))]}


def _ensemble(seed, m=15, shape=(6, 5), bias=0.5):
    rng = np.random.default_rng(seed)
    truth = rng.normal(12, 4, shape)
    ens = truth + bias + rng.normal(0, 1.5, (m, *shape)) + rng.normal(0, 1, shape)
    obs = truth + rng.normal(0, 1, shape)
    return ens, obs, rng


def test_ensemble_summary():
    ens, _, _ = _ensemble(3141)
    check(ensemble_summary, ens, rtol=1e-4, atol=1e-4)


def test_missing_members():
    ens, _, rng = _ensemble(3142, m=9)
    missing = rng.uniform(size=ens.shape) < 0.2
    missing[:, 0, 0] = True  # every member missing at one point: NaN results, warnings
    missing[:8, 1, 1] = True
    with np.errstate(invalid="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            check(missing_members, ens, missing)


def test_crps():
    ens, obs, _ = _ensemble(3143, m=12)
    check(crps, ens, obs)


def test_rank_histogram():
    ens, obs, _ = _ensemble(3144, m=10, shape=(20, 15))
    check(rank_histogram, np.round(ens), np.round(obs))


def test_brier_reliability():
    ens, obs, _ = _ensemble(3145, m=20, shape=(12, 12))
    check(brier_reliability, ens, obs, 14.0, 5)


def test_exceedance_curves():
    ens, _, _ = _ensemble(3146, m=11, shape=(4, 3))
    check(exceedance_curves, ens, np.linspace(5, 20, 7))


def test_quantile_mapping():
    rng = np.random.default_rng(3147)
    check(quantile_mapping, rng.gamma(2, 3, 500) + 1, rng.gamma(2.5, 2.5, 400), rng.gamma(2, 3.3, 50), 21)


def test_spread_skill():
    ens, obs, _ = _ensemble(3148, m=10, shape=(16, 10))
    check(spread_skill, ens, obs, rtol=1e-3)


def test_forecast_table():
    rng = np.random.default_rng(3149)
    ens = np.maximum(rng.gamma(0.6, 3, (30, 4)) - 0.5, 0)
    check(forecast_table, ens, ["Oslo", "Bergen", "Tromso", "Bodo"])
