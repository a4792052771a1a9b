"""More statistics programs: weighted averages, histogram2d, digitize, z-scores, ranks by argsort of argsort,
permutation tests with index arrays, contingency tables (tests/porting)."""

import numpy as np
from harness import check


def weighted_stats(np, x_host, w_host):
    x, w = np.asarray(x_host), np.asarray(w_host)
    avg, wsum = np.average(x, weights=w, returned=True)
    col_avg = np.average(x.reshape(-1, 5), axis=0, weights=w.reshape(-1, 5))
    wvar = np.average((x - avg) ** 2, weights=w)
    order = np.argsort(x)
    cw = np.cumsum(w[order])
    wmedian = x[order][np.searchsorted(cw, 0.5 * cw[-1])]
    ess = w.sum() ** 2 / (w**2).sum()
    trimmed = np.sort(x)[len(x) // 10: -len(x) // 10].mean()
    z = (x - x.mean()) / x.std()
    robust = (x - np.median(x)) / (1.4826 * np.median(np.abs(x - np.median(x))))
    ranks = np.argsort(np.argsort(x)) + 1
    pct_rank = (ranks - 0.5) / len(x)
    return {"avg": float(avg), "wsum": float(wsum), "col_avg": col_avg, "wvar": float(wvar), "wmedian":
            float(wmedian), "ess": float(ess), "trimmed": float(trimmed), "z": z, "robust": robust, "ranks": ranks,
            "pct": pct_rank, "n_out": int(np.sum(np.abs(z) > 2))}


def binning(np, x_host, y_host):
    x, y = np.asarray(x_host), np.asarray(y_host)
    H, xe, ye = np.histogram2d(x, y, bins=(4, 5), range=[[-3, 3], [-3, 3]])
    bins = np.linspace(-2, 2, 5)
    ix = np.digitize(x, bins)
    ix_right = np.digitize(x, bins, right=True)
    means = np.array([y[ix == b].mean() if np.any(ix == b) else np.nan for b in range(len(bins) + 1)])
    counts = np.bincount(ix, minlength=len(bins) + 1)
    q = np.quantile(x, [0.2, 0.4, 0.6, 0.8])
    quint = np.searchsorted(q, x)
    joint = np.zeros((5, 6), dtype=np.int64)
    np.add.at(joint, (quint, ix), 1)
    dens, edges = np.histogram(y, bins="auto", density=True)
    area = float((dens * np.diff(edges)).sum())
    cum = np.cumsum(np.histogram(x, bins=edges)[0])
    return {"H": H, "xe": xe, "ye": ye, "ix": ix, "ixr": ix_right, "means": means, "counts": counts, "q": q,
            "joint": joint, "dens": dens, "area": area, "cum": cum}


def correlation_tests(np, X_host, perm_idx_host):
    X = np.asarray(X_host, dtype=np.float64)
    a, b = X[:, 0], X[:, 1]
    r = np.corrcoef(a, b)[0, 1]
    ra = np.argsort(np.argsort(a)).astype(float)
    rb = np.argsort(np.argsort(b)).astype(float)
    spearman = np.corrcoef(ra, rb)[0, 1]
    idx = np.asarray(perm_idx_host)
    null = np.array([np.corrcoef(a, b[p])[0, 1] for p in idx])
    pval = (np.sum(np.abs(null) >= abs(r)) + 1) / (len(null) + 1)
    C = np.cov(X, rowvar=False, ddof=1)
    sd = np.sqrt(np.diag(C))
    R = C / np.outer(sd, sd)
    Cb = np.cov(X.T, bias=True)
    slope = C[0, 1] / C[0, 0]
    intercept = b.mean() - slope * a.mean()
    t = r * np.sqrt((len(a) - 2) / (1 - r**2))
    return {"r": float(r), "spearman": float(spearman), "p": float(pval), "R": R, "Cb": Cb,
            "line": [float(slope), float(intercept)], "t": float(t), "same": bool(np.allclose(R, np.corrcoef(X.T)))}


def bootstrap_and_jackknife(np, x_host, idx_host):
    x = np.asarray(x_host)
    idx = np.asarray(idx_host)
    samples = x[idx]
    boot_med = np.median(samples, axis=1)
    boot_mean = samples.mean(axis=1)
    ci = np.percentile(boot_mean, [2.5, 97.5])
    n = len(x)
    loo = (x.sum() - x) / (n - 1)
    jk_se = np.sqrt((n - 1) / n * ((loo - loo.mean()) ** 2).sum())
    mask = ~np.eye(n, dtype=bool)
    loo_var = np.array([x[m].var(ddof=1) for m in mask])
    bias = (n - 1) * (loo_var.mean() - x.var(ddof=1))
    counts = np.apply_along_axis(lambda row: np.bincount(row, minlength=n), 1, idx)
    return {"boot_med": boot_med, "ci": ci, "se": float(boot_mean.std(ddof=1)), "jk_se": float(jk_se),
            "bias": float(bias), "counts_ok": bool((counts.sum(axis=1) == n).all()), "max_dup": int(counts.max())}


def contingency(np, a_host, b_host):
    a, b = np.asarray(a_host), np.asarray(b_host)
    ua, ia = np.unique(a, return_inverse=True)
    ub, ib = np.unique(b, return_inverse=True)
    table = np.zeros((len(ua), len(ub)), dtype=np.int64)
    np.add.at(table, (ia, ib), 1)
    flat = np.bincount(ia * len(ub) + ib, minlength=table.size).reshape(table.shape)
    row, col = table.sum(axis=1, keepdims=True), table.sum(axis=0, keepdims=True)
    expected = row * col / table.sum()
    chi2 = ((table - expected) ** 2 / expected).sum()
    dof = (table.shape[0] - 1) * (table.shape[1] - 1)
    cramers_v = np.sqrt(chi2 / (table.sum() * (min(table.shape) - 1)))
    p_joint = table / table.sum()
    pa, pb = p_joint.sum(1), p_joint.sum(0)
    nz = p_joint > 0
    mi = (p_joint[nz] * np.log(p_joint[nz] / np.outer(pa, pb)[nz])).sum()
    return {"table": table, "same": bool((table == flat).all()), "expected": expected, "chi2": float(chi2),
            "dof": dof, "v": float(cramers_v), "mi": float(mi)}


def moments_and_kde(np, x_host):
    x = np.asarray(x_host, dtype=np.float64)
    m = x.mean()
    c = x - m
    m2, m3, m4 = (c**2).mean(), (c**3).mean(), (c**4).mean()
    skew = m3 / m2**1.5
    kurt = m4 / m2**2 - 3
    h = 1.06 * x.std(ddof=1) * len(x) ** (-1 / 5)
    grid = np.linspace(x.min() - 1, x.max() + 1, 50)
    kde = np.exp(-0.5 * ((grid[:, None] - x[None, :]) / h) ** 2).sum(axis=1) / (len(x) * h * np.sqrt(2 * np.pi))
    mass = np.trapezoid(kde, grid)
    mode = grid[np.argmax(kde)]
    ecdf_x = np.sort(x)
    ecdf_y = np.arange(1, len(x) + 1) / len(x)
    ks = np.max(np.abs(ecdf_y - 0.5 * (1 + np.tanh(ecdf_x * 0.7978845608 * (1 + 0.044715 * ecdf_x**2)))))
    return {"skew": float(skew), "kurt": float(kurt), "kde": kde, "mass": float(mass), "mode": float(mode),
            "ks": float(ks), "ptp": float(np.ptp(x)), "iqr": float(np.subtract(*np.percentile(x, [75, 25])))}


def test_weighted_average_ranks_zscores():
    rng = np.random.default_rng(51)
    check(weighted_stats, rng.normal(size=40), rng.random(40), rtol=1e-3, atol=1e-4)


def test_histogram2d_digitize_quantile_bins():
    rng = np.random.default_rng(52)
    x = rng.normal(size=200)
    check(binning, x, 0.5 * x + rng.normal(size=200), rtol=1e-3, atol=1e-4)


def test_pearson_spearman_permutation_test():
    rng = np.random.default_rng(53)
    X = rng.normal(size=(30, 3))
    X[:, 1] += 0.6 * X[:, 0]
    check(correlation_tests, X, np.array([rng.permutation(30) for _ in range(50)]), rtol=1e-3, atol=1e-4)


def test_bootstrap_jackknife_apply_along_axis():
    rng = np.random.default_rng(54)
    check(bootstrap_and_jackknife, rng.exponential(size=25), rng.integers(0, 25, size=(60, 25)), rtol=1e-3,
          atol=1e-4)


def test_contingency_table_chi2_mutual_information():
    rng = np.random.default_rng(55)
    a = rng.integers(0, 3, 120)
    b = (a + rng.integers(0, 2, 120)) % 4
    check(contingency, a * 10, b, rtol=1e-3, atol=1e-5)


def test_moments_kde_ecdf():
    check(moments_and_kde, np.random.default_rng(56).gamma(2.0, size=60), rtol=1e-3, atol=1e-4)
