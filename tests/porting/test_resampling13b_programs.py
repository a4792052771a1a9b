"""Random-sampling statistics as stats courses write them, with NumPy's `default_rng` passed in (kdsl's streams
differ by design, so the generator stays NumPy's and hands kdsl its arrays): bootstrap confidence intervals by an
index matrix (percentile and basic intervals, the bootstrap of a median), a two-sample permutation test with
`rng.permutation` of a kdsl array, the jackknife by `np.delete` and by a leave-one-out mask, Metropolis-Hastings
for a bimodal target with an acceptance rate and a burn-in, inverse-CDF sampling by `np.searchsorted` of a
cumulative table, rejection sampling, a Gibbs sampler for a bivariate normal, and a Kolmogorov-Smirnov statistic
by hand (tests/porting)."""

import numpy as np
from harness import check


def bootstrap_ci(np, x, rng, B):
    x = np.asarray(x)
    n = len(x)
    idx = rng.integers(0, n, size=(B, n))
    boots = x[idx].mean(axis=1)
    lo, hi = np.percentile(boots, [2.5, 97.5])
    theta = x.mean()
    basic = (2 * theta - hi, 2 * theta - lo)
    med = np.median(x[idx], axis=1)
    se = boots.std(ddof=1)
    bias = boots.mean() - theta
    hist, edges = np.histogram(boots, bins=10)
    return {"ci": (lo, hi), "basic": basic, "se": se, "bias": bias, "med_ci": np.quantile(med, [0.05, 0.95]),
            "hist": hist, "edges": edges}


def permutation_test(np, a, b, rng, n_perm):
    a, b = np.asarray(a), np.asarray(b)
    observed = a.mean() - b.mean()
    pooled = np.concatenate([a, b])
    n = len(a)
    diffs = np.empty(n_perm)
    for i in range(n_perm):
        perm = rng.permutation(pooled)
        diffs[i] = perm[:n].mean() - perm[n:].mean()
    p = (np.sum(np.abs(diffs) >= np.abs(observed)) + 1) / (n_perm + 1)
    idx = np.argsort(rng.random((n_perm, len(pooled))), axis=1)
    shuffled = pooled[idx]
    diffs2 = shuffled[:, :n].mean(axis=1) - shuffled[:, n:].mean(axis=1)
    p2 = np.mean(np.abs(diffs2) >= abs(observed))
    return {"obs": observed, "diffs": diffs, "p": p, "p2": p2, "extreme": int((diffs2 > observed).sum())}


def jackknife(np, x):
    x = np.asarray(x)
    n = len(x)
    loo = np.array([np.delete(x, i).mean() for i in range(n)])
    mask = ~np.eye(n, dtype=bool)
    loo2 = (np.broadcast_to(x, (n, n)) * mask).sum(axis=1) / (n - 1)
    loo_var = np.array([x[mask[i]].var(ddof=1) for i in range(n)])
    jk_se = np.sqrt((n - 1) / n * np.sum((loo - loo.mean()) ** 2))
    pseudo = n * x.var(ddof=1) - (n - 1) * loo_var
    return {"loo": loo, "same": np.allclose(loo, loo2), "se": jk_se, "pseudo_mean": pseudo.mean(),
            "influence": np.argmax(np.abs(loo - x.mean()))}


def metropolis(np, rng, n_steps, step):
    def log_target(z):
        return np.logaddexp(-0.5 * (z - 2) ** 2, -0.5 * (z + 2) ** 2)

    proposals = rng.normal(0, step, n_steps)
    log_u = np.log(rng.random(n_steps))
    chain = np.zeros(n_steps)
    x = np.asarray(0.0)
    lp = log_target(x)
    accepted = 0
    for i in range(n_steps):
        y = x + proposals[i]
        lq = log_target(y)
        if log_u[i] < lq - lp:
            x, lp = y, lq
            accepted += 1
        chain[i] = x
    burned = chain[n_steps // 5:]
    return {"rate": accepted / n_steps, "mean": burned.mean(), "pos": np.mean(burned > 0),
            "chain": chain[::25], "lag1": np.corrcoef(burned[:-1], burned[1:])[0, 1]}


def inverse_cdf(np, pmf, rng, n):
    pmf = np.asarray(pmf, dtype=float)
    pmf = pmf / pmf.sum()
    cdf = np.cumsum(pmf)
    cdf[-1] = 1.0
    u = rng.random(n)
    draws = np.searchsorted(cdf, u, side="right")
    counts = np.bincount(draws, minlength=len(pmf))
    pos = pmf > 0
    chi2 = np.sum((counts[pos] - n * pmf[pos]) ** 2 / (n * pmf[pos]))
    expo = -np.log1p(-u[:200]) / 2.0  # exponential(rate=2) by inversion
    return {"counts": counts, "freq": counts / n, "chi2": chi2, "expo_mean": expo.mean(),
            "digitized": np.digitize(u[:20], cdf, right=False)}


def rejection(np, rng, n):
    x = rng.uniform(0, 1, n)
    u = rng.uniform(0, 2.0, n)
    x = np.asarray(x)
    f = 6 * x * (1 - x)  # Beta(2, 2), bounded by 1.5 < 2
    keep = u < f
    samples = x[keep]
    hist, _ = np.histogram(samples, bins=5, range=(0, 1))
    return {"n": samples.size, "rate": keep.mean(), "mean": samples.mean(), "var": samples.var(), "hist": hist}


def gibbs(np, rng, n, rho):
    z = rng.standard_normal((n, 2))
    s = np.sqrt(1 - rho ** 2)
    out = np.empty((n, 2))
    x = y = 0.0
    for i in range(n):
        x = rho * y + s * z[i, 0]
        y = rho * x + s * z[i, 1]
        out[i] = (x, y)
    c = np.cov(out[100:], rowvar=False)
    return {"cov": c, "corr": c[0, 1] / np.sqrt(c[0, 0] * c[1, 1]), "last": out[-3:], "means": out.mean(axis=0)}


def ks_statistic(np, a, b):
    a, b = np.sort(np.asarray(a)), np.sort(np.asarray(b))
    grid = np.concatenate([a, b])
    cdf_a = np.searchsorted(a, grid, side="right") / len(a)
    cdf_b = np.searchsorted(b, grid, side="right") / len(b)
    d = np.abs(cdf_a - cdf_b)
    at = grid[np.argmax(d)]
    n_eff = len(a) * len(b) / (len(a) + len(b))
    lam = (np.sqrt(n_eff) + 0.12 + 0.11 / np.sqrt(n_eff)) * d.max()
    k = np.arange(1, 101)
    p = 2 * np.sum((-1.0) ** (k - 1) * np.exp(-2 * k ** 2 * lam ** 2))
    return {"D": d.max(), "at": at, "p": np.clip(p, 0, 1)}


def test_bootstrap_confidence_intervals():
    rng = np.random.default_rng(1351)
    check(bootstrap_ci, rng.exponential(2.0, 40), np.random.default_rng(1), 400, rtol=1e-3, atol=1e-5)


def test_permutation_test():
    rng = np.random.default_rng(1352)
    check(permutation_test, rng.normal(0.5, 1, 15), rng.normal(0, 1, 18), np.random.default_rng(2), 60,
          rtol=1e-3, atol=1e-5)


def test_jackknife():
    rng = np.random.default_rng(1353)
    check(jackknife, rng.gamma(2.0, 1.0, 25), rtol=1e-3, atol=1e-5)


def test_metropolis_hastings():
    check(metropolis, np.random.default_rng(1354), 300, 1.5, rtol=1e-3, atol=1e-4)


def test_inverse_cdf_sampling():
    check(inverse_cdf, [1, 3, 0, 4, 2], np.random.default_rng(1355), 1000, rtol=1e-3)


def test_rejection_sampling():
    check(rejection, np.random.default_rng(1356), 800, rtol=1e-3)


def test_gibbs_bivariate_normal():
    check(gibbs, np.random.default_rng(1357), 400, 0.8, rtol=1e-3, atol=1e-4)


def test_ks_statistic_by_hand():
    rng = np.random.default_rng(1358)
    check(ks_statistic, rng.normal(size=30), rng.normal(0.4, 1.2, size=25), rtol=1e-3, atol=1e-5)
