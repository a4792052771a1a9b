"""Binning and lookup programs: histograms (1-D, 2-D, N-D, densities, weights, bin-edge rules), digitize and
searchsorted binning, interpolation tables, empirical CDFs and rank transforms (tests/porting)."""

import numpy as np
from harness import check


def age_histogram_report(np, ages_host, weights_host):
    ages = np.asarray(ages_host)
    w = np.asarray(weights_host)
    counts, edges = np.histogram(ages, bins=[0, 18, 30, 45, 65, 100])
    wcounts, _ = np.histogram(ages, bins=edges, weights=w)
    dens, dedges = np.histogram(ages, bins=8, range=(0, 80), density=True)
    auto = np.histogram_bin_edges(ages, bins="sturges")
    centers = 0.5 * (edges[1:] + edges[:-1])
    share = counts / counts.sum()
    mode_bin = int(np.argmax(counts))
    area = float(np.sum(dens * np.diff(dedges)))
    labels = [f"{int(lo)}-{int(hi)}" for lo, hi in zip(edges[:-1], edges[1:], strict=True)]
    return {"counts": counts, "wcounts": wcounts, "dens": dens, "auto": auto, "centers": centers, "share": share,
            "mode": labels[mode_bin], "area": area}


def heatmap_2d(np, x_host, y_host):
    x, y = np.asarray(x_host), np.asarray(y_host)
    H, xe, ye = np.histogram2d(x, y, bins=(6, 4), range=[[-3, 3], [-2, 2]])
    Hd, _, _ = np.histogram2d(x, y, bins=5, density=True)
    Hw, _, _ = np.histogram2d(x, y, bins=[np.linspace(-3, 3, 4), np.array([-2.0, 0.0, 2.0])], weights=np.abs(x))
    dd, edges = np.histogramdd(np.column_stack([x, y]), bins=(3, 3))
    row_marg = H.sum(axis=1)
    col_marg = H.sum(axis=0)
    peak = np.unravel_index(np.argmax(H), H.shape)
    return {"H": H, "xe": xe, "ye": ye, "Hd": Hd, "Hw": Hw, "dd": dd, "edges": list(edges), "rm": row_marg,
            "cm": col_marg, "peak": [int(p) for p in peak], "inside": int(H.sum())}


def tax_brackets(np, incomes_host):
    incomes = np.asarray(incomes_host)
    brackets = np.array([0, 10_000, 40_000, 90_000, 180_000])
    rates = np.array([0.0, 0.1, 0.2, 0.3, 0.4])
    idx = np.digitize(incomes, brackets) - 1
    idx_r = np.digitize(incomes, brackets, right=True)
    base = np.concatenate([[0.0], np.cumsum(np.diff(brackets) * rates[:-1])])
    tax = base[idx] + (incomes - brackets[idx]) * rates[idx]
    eff = np.divide(tax, incomes, out=np.zeros_like(tax), where=incomes > 0)
    per_bracket = np.bincount(idx, weights=tax, minlength=len(brackets))
    n_per = np.bincount(idx, minlength=len(brackets))
    return {"idx": idx, "idx_r": idx_r, "tax": tax, "eff": eff, "per_bracket": per_bracket, "n_per": n_per,
            "top": int(np.argmax(tax))}


def lookup_table_interp(np, t_host):
    t = np.asarray(t_host)
    xp = np.array([0.0, 1.0, 2.5, 4.0, 6.0])
    fp = np.array([10.0, 12.0, 11.0, 15.0, 14.0])
    lin = np.interp(t, xp, fp)
    clamped = np.interp(t, xp, fp, left=-1.0, right=-2.0)
    periodic = np.interp(t, [0, 90, 180, 270], [0.0, 1.0, 0.0, -1.0], period=360)
    pos = np.searchsorted(xp, t, side="right")
    pos = np.clip(pos, 1, len(xp) - 1)
    x0, x1 = xp[pos - 1], xp[pos]
    frac = (np.clip(t, xp[0], xp[-1]) - x0) / (x1 - x0)
    manual = fp[pos - 1] * (1 - frac) + fp[pos] * frac
    nearest = fp[np.abs(t[:, None] - xp[None, :]).argmin(axis=1)]
    return {"lin": lin, "clamped": clamped, "periodic": periodic, "manual": manual,
            "agree": bool(np.allclose(lin, manual)), "nearest": nearest}


def ecdf_and_ranks(np, x_host):
    x = np.asarray(x_host)
    xs = np.sort(x)
    ecdf_at = np.searchsorted(xs, x, side="right") / len(x)
    ranks = np.empty_like(np.argsort(x))
    ranks[np.argsort(x, kind="stable")] = np.arange(len(x))
    lo = np.searchsorted(xs, x, side="left")
    hi = np.searchsorted(xs, x, side="right")
    avg_rank = (lo + hi - 1) / 2.0 + 1
    q = np.array([0.1, 0.5, 0.9])
    qs = xs[np.minimum((q * len(xs)).astype(int), len(xs) - 1)]
    order = np.argsort(-x, kind="stable")
    top3 = x[order[:3]]
    grid = np.linspace(x.min(), x.max(), 5)
    cdf_grid = np.searchsorted(xs, grid, side="right") / len(xs)
    sorter = np.argsort(x, kind="mergesort")
    loc = sorter[np.searchsorted(x, [x[3], x[0]], sorter=sorter)]
    return {"ecdf": ecdf_at, "ranks": ranks, "avg": avg_rank, "qs": qs, "top3": top3, "cdf_grid": cdf_grid,
            "loc": loc}


def quantile_bins(np, v_host):
    v = np.asarray(v_host)
    edges = np.quantile(v, [0, 0.25, 0.5, 0.75, 1.0])
    bins = np.clip(np.searchsorted(edges, v, side="right") - 1, 0, 3)
    means = np.array([v[bins == b].mean() for b in range(4)])
    sizes = np.bincount(bins, minlength=4)
    dec = np.percentile(v, np.arange(10, 100, 10))
    names = ["low", "mid", "high", "top"]
    labels = [names[b] for b in bins.tolist()]
    empty = v[v > v.max()]
    return {"edges": edges, "bins": bins, "means": means, "sizes": sizes, "dec": dec, "labels": labels,
            "empty_n": int(empty.size), "empty_hist": np.histogram(empty, bins=3, range=(0, 1))[0]}


def test_histogram_weights_density_bin_rules():
    rng = np.random.default_rng(301)
    check(age_histogram_report, rng.uniform(0, 95, size=400).round(), rng.uniform(0.5, 2, size=400))


def test_histogram2d_histogramdd():
    rng = np.random.default_rng(302)
    check(heatmap_2d, rng.normal(size=300), rng.normal(size=300) * 0.8)


def test_digitize_brackets_bincount_weights():
    check(tax_brackets, np.array([0.0, 5_000, 10_000, 25_000, 40_000, 65_000, 90_000, 120_000, 250_000, 9_999.5]))


def test_interp_left_right_period_searchsorted():
    check(lookup_table_interp, np.array([-1.0, 0.0, 0.5, 1.0, 2.0, 2.5, 3.7, 5.0, 6.0, 7.5]))


def test_ecdf_ranks_searchsorted_sorter():
    check(ecdf_and_ranks, np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0, 5.0]))


def test_quantile_bins_empty_histogram():
    check(quantile_bins, np.random.default_rng(303).gamma(2.0, 1.5, size=200))
