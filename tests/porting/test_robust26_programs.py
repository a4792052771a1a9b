"""Robust statistics and extreme values in plain NumPy: MAD and IQR scales with `np.percentile(method=)`,
trimmed and winsorised means by `np.partition`/`clip`, Huber M-estimates of location and regression by iteratively
reweighted `lstsq`, Hodges-Lehmann and Theil-Sen estimators over `triu_indices` of `np.subtract.outer`, masked
outlier rejection by `np.ma`, block maxima by `reshape(...).max(axis=1)` with Gumbel return levels, GEV
probability-weighted moments, and peaks over a threshold declustered into runs by `np.diff` of a boolean
(tests/porting)."""

import numpy as np
from harness import check


def scales(np, X):
    X = np.asarray(X)
    med = np.median(X, axis=0)
    mad = np.median(np.abs(X - med), axis=0) * 1.4826
    q75, q25 = np.percentile(X, [75, 25], axis=0)
    iqr = (q75 - q25) / 1.349
    qn = np.percentile(X, [25, 50, 75], axis=0, method="median_unbiased")
    z = (X - med) / mad
    out = np.abs(z) > 3.5
    return {"med": med, "mad": mad, "iqr": iqr, "qn": qn, "n_out": out.sum(axis=0),
            "rows": np.unique(np.nonzero(out)[0]), "ratio": mad / X.std(axis=0, ddof=1)}


def trimmed(np, x, prop):
    x = np.asarray(x)
    n = x.size
    k = int(np.floor(prop * n))
    part = np.partition(x, (k, n - k - 1))
    srt = np.sort(x)
    tmean = srt[k: n - k].mean()
    lo, hi = np.percentile(x, [100 * prop, 100 * (1 - prop)], method="lower"), \
        np.percentile(x, 100 * (1 - prop), method="higher")
    wins = np.clip(x, srt[k], srt[n - k - 1])
    return {"k": k, "tmean": tmean, "wmean": wins.mean(), "wvar": wins.var(ddof=1), "part_lo": part[k],
            "part_hi": part[n - k - 1], "pct": np.array([lo[0], lo[1], hi]), "mean": x.mean()}


def huber_location(np, x, c, iters):
    x = np.asarray(x)
    mu = np.median(x)
    s = np.median(np.abs(x - mu)) / 0.6745
    trace = []
    for _ in range(iters):
        r = (x - mu) / s
        w = np.where(np.abs(r) <= c, 1.0, c / np.abs(r))
        mu = np.sum(w * x) / np.sum(w)
        trace.append(mu)
    psi = np.clip((x - mu) / s, -c, c)
    return {"mu": mu, "trace": np.array(trace), "psi_mean": psi.mean(), "down": np.count_nonzero(w < 1),
            "w": w}


def huber_regression(np, X, y, c, iters):
    X, y = np.asarray(X), np.asarray(y)
    A = np.column_stack([np.ones(len(y)), X])
    beta = np.linalg.lstsq(A, y, rcond=None)[0]
    ols = beta.copy()
    for _ in range(iters):
        r = y - A @ beta
        s = np.median(np.abs(r - np.median(r))) / 0.6745
        u = np.abs(r / s)
        w = np.minimum(1.0, c / np.maximum(u, 1e-12))
        sw = np.sqrt(w)
        beta = np.linalg.lstsq(A * sw[:, None], y * sw, rcond=None)[0]
    return {"ols": ols, "huber": beta, "w_min": w.min(), "flagged": np.flatnonzero(w < 0.5),
            "resid_mad": np.median(np.abs(y - A @ beta))}


def hodges_theil(np, x, y):
    x, y = np.asarray(x), np.asarray(y)
    i, j = np.triu_indices(len(x), k=0)
    walsh = (y[i] + y[j]) / 2
    hl = np.median(walsh)
    dx = np.subtract.outer(x, x)
    dy = np.subtract.outer(y, y)
    iu = np.triu_indices_from(dx, k=1)
    ok = dx[iu] != 0
    slopes = dy[iu][ok] / dx[iu][ok]
    slope = np.median(slopes)
    icpt = np.median(y - slope * x)
    return {"hl": hl, "n_walsh": walsh.size, "slope": slope, "icpt": icpt,
            "ci": np.percentile(slopes, [2.5, 97.5]), "n_slopes": slopes.size}


def masked_reject(np, x, nsig, iters):
    data = np.ma.masked_invalid(np.asarray(x))
    for _ in range(iters):
        m, s = data.mean(), data.std()
        data = np.ma.masked_where(np.abs(data - m) > nsig * s, data)
    return {"mean": data.mean(), "std": data.std(), "n": int(data.count()),
            "rejected": np.flatnonzero(np.ma.getmaskarray(data)), "filled": data.filled(np.nan)}


def block_maxima(np, daily, block):
    daily = np.asarray(daily)
    n = daily.size // block
    M = daily[: n * block].reshape(n, block).max(axis=1)
    when = daily[: n * block].reshape(n, block).argmax(axis=1)
    mu_hat, s_hat = M.mean(), M.std(ddof=1)
    beta = s_hat * np.sqrt(6) / np.pi
    mu = mu_hat - 0.5772156649 * beta
    T = np.array([2, 10, 50, 100])
    levels = mu - beta * np.log(-np.log(1 - 1 / T))
    srt = np.sort(M)
    pp = (np.arange(1, n + 1) - 0.44) / (n + 0.12)
    return {"M": M, "when": when, "beta": beta, "mu": mu, "levels": levels,
            "emp": np.interp(1 - 1 / T[:2], pp, srt), "exceed": (M[:, None] > levels).mean(axis=0)}


def gev_pwm(np, M):
    x = np.sort(np.asarray(M))
    n = x.size
    j = np.arange(n)
    b0 = x.mean()
    b1 = np.sum(j / (n - 1) * x) / n
    b2 = np.sum(j * (j - 1) / ((n - 1) * (n - 2)) * x) / n
    c = (2 * b1 - b0) / (3 * b2 - b0) - np.log(2) / np.log(3)
    k = 7.8590 * c + 2.9554 * c**2
    from math import gamma
    g = gamma(1 + float(k))
    alpha = (2 * b1 - b0) * k / (g * (1 - 2.0 ** (-k)))
    xi = b0 + alpha * (g - 1) / k
    return {"b": np.array([b0, b1, b2]), "k": k, "alpha": alpha, "xi": xi,
            "q100": xi + alpha / k * (1 - (-np.log(0.99)) ** k)}


def peaks_over_threshold(np, x, u, gap):
    x = np.asarray(x)
    above = x > u
    edges = np.diff(np.concatenate([[False], above, [False]]).astype(np.int8))
    starts = np.flatnonzero(edges == 1)
    ends = np.flatnonzero(edges == -1)
    merged_s, merged_e = [starts[0]], [ends[0]]
    for s, e in zip(starts[1:], ends[1:], strict=True):
        if s - merged_e[-1] < gap:
            merged_e[-1] = e
        else:
            merged_s.append(s)
            merged_e.append(e)
    ms, me = np.array(merged_s), np.array(merged_e)
    peaks = np.array([x[s:e].max() for s, e in zip(ms, me, strict=True)])
    excess = peaks - u
    xi_mom = 0.5 * (1 - excess.mean() ** 2 / excess.var())
    return {"starts": ms, "lengths": me - ms, "peaks": peaks, "mean_excess": excess.mean(),
            "xi": xi_mom, "rate": len(ms) / x.size, "raw_clusters": starts.size}


def test_scales():
    rng = np.random.default_rng(2641)
    X = rng.standard_t(3, (60, 3))
    X[[4, 17], 1] = [25.0, -30.0]
    check(scales, X)


def test_trimmed():
    rng = np.random.default_rng(2642)
    x = rng.standard_cauchy(41)
    check(trimmed, x, 0.1)
    check(trimmed, x[:10], 0.2)


def test_huber_location():
    rng = np.random.default_rng(2643)
    x = np.concatenate([rng.normal(5, 1, 30), [40.0, 55.0, -20.0]])
    check(huber_location, x, 1.345, 15)


def test_huber_regression():
    rng = np.random.default_rng(2644)
    X = rng.uniform(0, 10, (40, 2))
    y = 1 + X @ np.array([2.0, -0.5]) + rng.normal(0, 0.5, 40)
    y[[3, 11, 29]] += [15, -20, 12]
    check(huber_regression, X, y, 1.345, 20, rtol=1e-3, atol=1e-4)


def test_hodges_theil():
    rng = np.random.default_rng(2645)
    x = np.round(rng.uniform(0, 20, 25), 1)
    check(hodges_theil, x, 3 + 0.7 * x + rng.standard_t(2, 25))


def test_masked_reject():
    rng = np.random.default_rng(2646)
    x = rng.normal(10, 2, 50)
    x[[5, 30]] = [40.0, -25.0]
    x[12] = np.nan
    check(masked_reject, x, 3.0, 3)


def test_block_maxima():
    rng = np.random.default_rng(2647)
    check(block_maxima, rng.gumbel(20, 5, 365 * 12 + 40), 365)


def test_gev_pwm():
    rng = np.random.default_rng(2648)
    check(gev_pwm, rng.gumbel(30, 4, 40) + rng.exponential(2, 40), rtol=1e-3)


def test_peaks_over_threshold():
    rng = np.random.default_rng(2649)
    x = np.abs(np.cumsum(rng.normal(0, 1, 400)) * 0.2) + rng.exponential(1, 400)
    check(peaks_over_threshold, x, np.quantile(x, 0.9), 5)
