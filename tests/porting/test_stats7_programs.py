"""Statistics and hypothesis tests as NumPy code writes them: Welch's and paired t statistics, a chi-square
test of independence from a contingency table built with add.at, bootstrap confidence intervals by fancy
indexing with a resample matrix, a permutation test with argsort of random keys, an ECDF with searchsorted and
the KS distance, a Gaussian KDE by broadcasting with a Silverman bandwidth, and a summary table printed with
set_printoptions and f-strings of 0-d results (tests/porting)."""

import numpy as np
from harness import check


def welch_and_paired_t(np, a_host, b_host):
    a, b = np.asarray(a_host), np.asarray(b_host)
    ma, mb = a.mean(), b.mean()
    va, vb = a.var(ddof=1), b.var(ddof=1)
    na, nb = a.size, b.size
    se = np.sqrt(va / na + vb / nb)
    t = (ma - mb) / se
    dof = (va / na + vb / nb) ** 2 / ((va / na) ** 2 / (na - 1) + (vb / nb) ** 2 / (nb - 1))
    d = a[: min(na, nb)] - b[: min(na, nb)]
    t_paired = d.mean() / (d.std(ddof=1) / np.sqrt(d.size))
    pooled = np.sqrt(((na - 1) * va + (nb - 1) * vb) / (na + nb - 2))
    cohen = (ma - mb) / pooled
    line = f"t={t:.3f} dof={dof:.1f} paired={t_paired:+.3f} d={cohen:.2f}"
    return {"t": t, "dof": dof, "t_paired": t_paired, "cohen": cohen, "line": line,
            "sig": bool(abs(t) > 2.0)}


def chi_square_independence(np, x_host, y_host):
    x, y = np.asarray(x_host), np.asarray(y_host)
    table = np.zeros((x.max() + 1, y.max() + 1), dtype=np.int64)
    np.add.at(table, (x, y), 1)
    row = table.sum(axis=1, keepdims=True)
    col = table.sum(axis=0, keepdims=True)
    expected = row * col / table.sum()
    chi2 = ((table - expected) ** 2 / expected).sum()
    dof = (table.shape[0] - 1) * (table.shape[1] - 1)
    cramers_v = np.sqrt(chi2 / (table.sum() * (min(table.shape) - 1)))
    residuals = (table - expected) / np.sqrt(expected)
    worst = np.unravel_index(np.argmax(np.abs(residuals)), residuals.shape)
    return {"table": table, "expected": expected, "chi2": chi2, "dof": dof, "v": cramers_v,
            "worst": tuple(int(i) for i in worst), "report": f"chi2({dof}) = {chi2:.2f}"}


def bootstrap_ci(np, x_host, idx_host):
    x = np.asarray(x_host)
    idx = np.asarray(idx_host)
    samples = x[idx]
    means = samples.mean(axis=1)
    medians = np.median(samples, axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    se = means.std(ddof=1)
    bias = means.mean() - x.mean()
    trimmed = np.sort(samples, axis=1)[:, 2:-2].mean(axis=1)
    return {"lo": lo, "hi": hi, "se": se, "bias": bias, "med_ci": np.quantile(medians, [0.05, 0.95]),
            "trimmed_mean": trimmed.mean(), "covers": bool(lo <= x.mean() <= hi),
            "text": np.array2string(np.array([lo, hi]), precision=3)}


def permutation_test(np, a_host, b_host, keys_host):
    a, b = np.asarray(a_host), np.asarray(b_host)
    pooled = np.concatenate([a, b])
    observed = a.mean() - b.mean()
    perms = np.argsort(np.asarray(keys_host), axis=1)
    shuffled = pooled[perms]
    diffs = shuffled[:, : a.size].mean(axis=1) - shuffled[:, a.size :].mean(axis=1)
    p_two = (np.sum(np.abs(diffs) >= abs(observed)) + 1) / (diffs.size + 1)
    p_one = np.mean(diffs >= observed)
    return {"observed": observed, "p_two": p_two, "p_one": p_one, "null_sd": diffs.std(),
            "extreme": np.count_nonzero(np.abs(diffs) > 2 * diffs.std())}


def ecdf_and_ks(np, a_host, b_host):
    a, b = np.sort(np.asarray(a_host)), np.sort(np.asarray(b_host))
    grid = np.concatenate([a, b])
    grid.sort()
    fa = np.searchsorted(a, grid, side="right") / a.size
    fb = np.searchsorted(b, grid, side="right") / b.size
    ks = np.max(np.abs(fa - fb))
    at = grid[np.argmax(np.abs(fa - fb))]
    ranks = np.arange(1, a.size + 1) / a.size
    q90 = a[np.searchsorted(ranks, 0.9)]
    return {"fa": fa, "fb": fb, "ks": ks, "at": at, "q90": q90,
            "steps": np.unique(fa).size, "ks_str": f"D={ks:.4f} at x={at:.3f}"}


def gaussian_kde(np, x_host):
    x = np.asarray(x_host)
    n = x.size
    iqr = np.subtract(*np.percentile(x, [75, 25]))
    h = 0.9 * min(x.std(ddof=1), iqr / 1.34) * n ** (-1 / 5)
    grid = np.linspace(x.min() - 3 * h, x.max() + 3 * h, 64)
    u = (grid[:, None] - x[None, :]) / h
    dens = np.exp(-0.5 * u**2).sum(axis=1) / (n * h * np.sqrt(2 * np.pi))
    area = np.trapezoid(dens, grid)
    mode = grid[dens.argmax()]
    cdf = np.cumsum(dens) * (grid[1] - grid[0])
    return {"h": h, "dens": dens, "area": area, "mode": mode, "cdf_end": cdf[-1],
            "peaks": np.flatnonzero((dens[1:-1] > dens[:-2]) & (dens[1:-1] > dens[2:])) + 1}


def summary_table(np, X_host):
    X = np.asarray(X_host)
    stats = np.stack([X.mean(axis=0), X.std(axis=0, ddof=1), np.median(X, axis=0), X.min(axis=0),
                      X.max(axis=0)], axis=1)
    z = (X - X.mean(axis=0, keepdims=True)) / X.std(axis=0, keepdims=True, ddof=1)
    outliers = (np.abs(z) > 2).sum(axis=0)
    skew = (z**3).mean(axis=0)
    kurt = (z**4).mean(axis=0) - 3
    with np.printoptions(precision=2, suppress=True):
        table = str(stats)
    lines = [f"col{j}: mean={stats[j, 0]:7.3f} sd={stats[j, 1]:.3f} n_out={outliers[j]}" for j in range(X.shape[1])]
    corr = np.corrcoef(X, rowvar=False)
    return {"stats": stats, "table": table, "lines": lines, "skew": skew, "kurt": kurt,
            "corr": corr, "max_corr": np.abs(corr - np.eye(X.shape[1])).max()}


def anova_one_way(np, values_host, groups_host):
    v, g = np.asarray(values_host), np.asarray(groups_host)
    k = g.max() + 1
    n_g = np.bincount(g, minlength=k)
    means = np.bincount(g, weights=v, minlength=k) / n_g
    grand = v.mean()
    ss_between = np.sum(n_g * (means - grand) ** 2)
    ss_within = np.sum((v - means[g]) ** 2)
    df_b, df_w = k - 1, v.size - k
    F = (ss_between / df_b) / (ss_within / df_w)
    eta2 = ss_between / (ss_between + ss_within)
    return {"n_g": n_g, "means": means, "F": F, "eta2": eta2, "df": (int(df_b), int(df_w)),
            "row": f"F({df_b}, {df_w}) = {F:.3f}"}


def histogram_rules(np, x_host):
    x = np.asarray(x_host)
    n = x.size
    k_sturges = round(np.log2(n) + 1)
    iqr = np.subtract(*np.percentile(x, [75, 25]))
    width = 2 * iqr / np.cbrt(n)
    k_fd = round(np.ptp(x) / width)
    counts, edges = np.histogram(x, bins=k_sturges)
    centers = (edges[:-1] + edges[1:]) / 2
    mean_binned = np.sum(counts * centers) / counts.sum()
    bars = [f"{c:7.2f} | {'#' * int(v)}" for c, v in zip(centers, counts, strict=True)]
    return {"k_sturges": k_sturges, "k_fd": k_fd, "counts": counts, "edges": edges, "mean_binned": mean_binned,
            "bars": bars, "auto": np.histogram_bin_edges(x, bins="fd").size - 1, "types": type(k_sturges).__name__}


def bootstrap_sample_size(np, x_host, target_se=0.05):
    x = np.asarray(x_host)
    sd = x.std(ddof=1)
    n_needed = round(float((sd / target_se) ** 2))
    power_n = round((1.96 + 0.84) ** 2 * 2 * x.var(ddof=1) / 0.5**2)
    grid = np.arange(10, max(n_needed, power_n) + 1, 10)
    se = sd / np.sqrt(grid)
    return {"n": n_needed, "power_n": power_n, "grid": grid, "se": se,
            "first_ok": int(grid[np.argmax(se <= target_se)]),
            "msg": f"need {n_needed} samples (sd={sd:.3f})"}


def test_welch_and_paired_t():
    rng = np.random.default_rng(701)
    check(welch_and_paired_t, rng.normal(10, 2, 30), rng.normal(9, 3, 25))


def test_chi_square_independence():
    rng = np.random.default_rng(702)
    x = rng.integers(0, 3, 200)
    check(chi_square_independence, x, (x + rng.integers(0, 3, 200)) % 4)


def test_bootstrap_confidence_interval():
    rng = np.random.default_rng(703)
    check(bootstrap_ci, rng.exponential(2.0, 40), rng.integers(0, 40, (300, 40)))


def test_permutation_test():
    rng = np.random.default_rng(704)
    check(permutation_test, rng.normal(0.5, 1, 15), rng.normal(0, 1, 18), rng.random((400, 33)))


def test_ecdf_and_ks_distance():
    rng = np.random.default_rng(705)
    check(ecdf_and_ks, rng.normal(size=50), rng.normal(0.3, 1.2, size=40))


def test_gaussian_kde_broadcast():
    rng = np.random.default_rng(706)
    check(gaussian_kde, np.concatenate([rng.normal(-2, 0.5, 60), rng.normal(1.5, 1, 90)]), rtol=1e-3, atol=1e-4)


def test_summary_table_printed():
    rng = np.random.default_rng(707)
    check(summary_table, rng.normal([1, 5, -2], [1, 2, 0.5], size=(40, 3)).round(2))


def test_anova_one_way():
    rng = np.random.default_rng(708)
    g = rng.integers(0, 4, 80)
    check(anova_one_way, rng.normal(size=80) + 0.5 * g, g)


def test_histogram_bin_rules_round_of_results():
    rng = np.random.default_rng(709)
    check(histogram_rules, rng.gamma(2.0, 1.5, 120))


def test_sample_size_by_round():
    check(bootstrap_sample_size, np.random.default_rng(710).normal(3, 0.6, 50))
