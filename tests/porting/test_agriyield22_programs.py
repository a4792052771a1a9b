"""Agricultural yield records in plain NumPy: plot-by-season tables with NaN gaps summarised by `nanmedian`/
`nanquantile`/`nanpercentile` over axes, yield classes by `np.digitize`, histograms with `bins="auto"` and `range=`,
growing degree days by `clip` and `cumsum`, irrigation schedules by a soil-water balance with `np.minimum`, fertiliser
response fits by `np.polyfit` with weights, field trial ANOVA by group means through `np.unique(return_inverse=True)`,
rotation plans by `np.roll`, harvest windows by `np.searchsorted`, yield gaps by `np.fmax`/`np.nanmax` and a
field map smoothed by `np.pad` with `mode="edge"` (tests/porting)."""

import numpy as np
import pytest
from harness import check


def season_summary(np, yields):
    y = np.asarray(yields)  # (plot, season) with NaN for missed harvests
    return {"median_plot": np.nanmedian(y, axis=1), "median_season": np.nanmedian(y, axis=0),
            "q": np.nanquantile(y, [0.1, 0.5, 0.9], axis=0), "p75": np.nanpercentile(y, 75, axis=1, keepdims=True),
            "missing": np.isnan(y).sum(axis=0), "best": np.nanargmax(y, axis=1), "mean": np.nanmean(y)}


def yield_classes(np, yields, edges):
    y = np.asarray(yields)
    cls = np.digitize(y, edges)
    right = np.digitize(y, edges, right=True)
    counts = np.bincount(cls, minlength=len(edges) + 1)
    desc = np.digitize(y, edges[::-1])  # decreasing bins
    return {"cls": cls, "right": right, "counts": counts, "desc": desc,
            "share": counts / counts.sum()}


def yield_histograms(np, yields):
    y = np.asarray(yields)
    h_auto, e_auto = np.histogram(y, bins="auto")
    h_rng, e_rng = np.histogram(y, bins=6, range=(2.0, 8.0))
    h_w, _ = np.histogram(y, bins=[0, 3, 5, 6, 10], weights=np.ones_like(y) * 0.5)
    dens, _ = np.histogram(y, bins=5, density=True)
    edges = np.histogram_bin_edges(y, bins="sturges")
    return {"h_auto": h_auto, "e_auto": e_auto, "h_rng": h_rng, "e_rng": e_rng, "h_w": h_w,
            "area": float(np.sum(dens * np.diff(np.histogram_bin_edges(y, 5)))), "sturges": edges}


def degree_days(np, tmin, tmax, base, cap):
    tmin, tmax = np.asarray(tmin), np.asarray(tmax)
    mean = (np.clip(tmax, None, cap) + np.clip(tmin, base, None)) / 2
    gdd = np.maximum(mean - base, 0)
    acc = np.cumsum(gdd)
    stage = np.searchsorted(acc, [100, 250, 400])  # days to emergence, flowering, maturity
    return {"gdd": gdd, "acc": acc, "stage": stage, "frost": np.flatnonzero(tmin < 0)}


def water_balance(np, rain, et, capacity, trigger):
    soil = capacity
    store, irrigate = [], []
    for r, e in zip(np.asarray(rain), np.asarray(et), strict=True):
        soil = min(soil + r, capacity) - e
        if soil < trigger:
            irrigate.append(capacity - soil)
            soil = capacity
        else:
            irrigate.append(0.0)
        store.append(soil)
    store, irrigate = np.array(store), np.array(irrigate)
    runoff = np.maximum(np.cumsum(rain) - np.cumsum(et) - capacity, 0)
    return {"store": store, "irrigate": irrigate, "events": np.count_nonzero(irrigate), "runoff": runoff,
            "total": irrigate.sum()}


def fertiliser_response(np, n_rate, yields, reps):
    x, y, w = np.asarray(n_rate, dtype=float), np.asarray(yields), np.sqrt(np.asarray(reps))
    c = np.polyfit(x, y, 2, w=w)
    c_plain = np.polyfit(x, y, 2)
    opt = -c[1] / (2 * c[0])  # the vertex: the economic maximum without prices
    p = np.poly1d(c)
    return {"c": c, "plain": c_plain, "opt": opt, "at_opt": p(opt), "deriv": p.deriv().coeffs,
            "fit": np.polyval(c, x)}


def trial_anova(np, treatment, yields):
    t, y = np.asarray(treatment), np.asarray(yields)
    labels, inv, counts = np.unique(t, return_inverse=True, return_counts=True)
    means = np.bincount(inv, weights=y) / counts
    grand = y.mean()
    ss_between = np.sum(counts * (means - grand) ** 2)
    ss_within = np.sum((y - means[inv]) ** 2)
    df_b, df_w = len(labels) - 1, len(y) - len(labels)
    return {"labels": labels, "means": means, "f": (ss_between / df_b) / (ss_within / df_w),
            "rank": np.argsort(-means, kind="stable")}


def rotation(np, crops, years):
    plan = np.array([np.roll(np.asarray(crops), k) for k in range(years)])  # (year, field)
    same = plan[1:] == plan[:-1]
    legumes = np.isin(plan, [2, 3])
    return {"plan": plan, "repeat": bool(same.any()), "legume_years": legumes.sum(axis=0),
            "first_legume": np.argmax(legumes, axis=0), "crops": np.unique(plan)}


def harvest_windows(np, ready_days, dry_days):
    ready, dry = np.sort(np.asarray(ready_days)), np.asarray(dry_days)
    start = np.searchsorted(dry, ready, side="left")
    end = np.searchsorted(dry, ready + 7, side="right")
    ok = end > start
    first = np.where(ok, dry[np.minimum(start, len(dry) - 1)], -1)
    return {"start": start, "end": end, "ok": ok, "first": first, "wait": np.where(ok, first - ready, 0)}


def yield_gap(np, actual, potential):
    a, p = np.asarray(actual), np.asarray(potential)
    attainable = np.nanmax(np.vstack([a, p]), axis=0)
    fmax = np.fmax(a, p)
    gap = np.fmax(p - a, 0)
    ratio = np.divide(a, p, out=np.full_like(a, np.nan), where=p > 0)
    return {"attainable": attainable, "fmax": fmax, "gap": gap, "ratio": ratio,
            "worst": np.nanargmin(ratio)}


def field_map(np, grid):
    g = np.asarray(grid)
    p = np.pad(g, 1, mode="edge")
    smooth = sum(p[1 + di:p.shape[0] - 1 + di, 1 + dj:p.shape[1] - 1 + dj]
                 for di in (-1, 0, 1) for dj in (-1, 0, 1)) / 9
    zones = np.digitize(smooth, np.quantile(smooth, [1 / 3, 2 / 3]))
    return {"smooth": smooth, "zones": zones, "zone_mean": np.array([g[zones == z].mean() for z in range(3)]),
            "low": np.argwhere(zones == 0)[:4]}


@pytest.mark.filterwarnings("ignore:All-NaN slice:RuntimeWarning")
def test_season_summary():
    rng = np.random.default_rng(2221)
    y = rng.normal(6, 1.5, (6, 5))
    y[[0, 2, 2, 5], [1, 0, 3, 1]] = np.nan
    y[4, :4] = np.nan  # a plot harvested once
    y[:, 2] = np.nan  # a season lost everywhere: NaN medians (NumPy warns)
    check(season_summary, y)


def test_yield_classes():
    check(yield_classes, np.array([0.0, 2.5, 3.0, 4.9, 5.0, 6.2, 8.0, 9.5, np.nan, -1.0]), np.array([3.0, 5.0, 8.0]))


def test_yield_histograms():
    rng = np.random.default_rng(2222)
    check(yield_histograms, rng.normal(5, 1.2, 60))


def test_degree_days():
    rng = np.random.default_rng(2223)
    tmin = rng.normal(10, 5, 60)
    check(degree_days, tmin, tmin + rng.uniform(5, 15, 60), 10.0, 30.0, atol=1e-4)


def test_water_balance():
    rng = np.random.default_rng(2224)
    rain = np.where(rng.random(30) < 0.3, rng.uniform(5, 30, 30), 0.0)
    check(water_balance, rain, rng.uniform(2, 6, 30), 60.0, 20.0, atol=1e-4)


def test_fertiliser_response():
    rng = np.random.default_rng(2225)
    n = np.repeat([0, 40, 80, 120, 160, 200], 2)
    y = 3 + 0.04 * n - 0.0001 * n ** 2 + rng.normal(0, 0.2, n.size)
    check(fertiliser_response, n, y, rng.integers(1, 5, n.size), rtol=2e-3, atol=1e-4)


def test_trial_anova():
    rng = np.random.default_rng(2226)
    t = rng.integers(0, 4, 24) * 10
    check(trial_anova, t, 5 + t / 20 + rng.normal(0, 0.5, 24))


def test_rotation():
    check(rotation, np.array([1, 2, 4, 3, 1]), 4)


def test_harvest_windows():
    check(harvest_windows, np.array([200, 190, 215, 230, 240]), np.array([188, 189, 196, 205, 221, 222, 236]))


def test_yield_gap():
    check(yield_gap, np.array([3.0, np.nan, 5.0, 6.5, 2.0]), np.array([5.0, 4.0, np.nan, 6.0, 0.0]))


def test_field_map():
    rng = np.random.default_rng(2227)
    check(field_map, rng.gamma(4, 1.5, (7, 6)))
