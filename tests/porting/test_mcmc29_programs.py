"""Markov chain Monte Carlo in plain NumPy, with every proposal and uniform passed in: random-walk Metropolis on a
banana density, many independent chains stepped together by boolean acceptance masks, Metropolis-Hastings for a
logistic-regression posterior (log-likelihood by `np.logaddexp`), a Gibbs sampler for a bivariate normal, an Ising
model by checkerboard Metropolis sweeps with `np.roll`, and the diagnostics users compute afterwards: acceptance
rates, autocorrelation by `np.correlate` and by FFT-free sums, effective sample size, the Gelman-Rubin R-hat and
quantile summaries by `np.quantile` (tests/porting)."""

import numpy as np
from harness import check


def banana_metropolis(np, proposals, uniforms, step):
    def log_p(v):
        x, y = v[..., 0], v[..., 1]
        return -0.5 * (x**2 / 4 + (y - 0.5 * x**2 + 1) ** 2)

    n = len(uniforms)
    chain = np.empty((n + 1, 2))
    chain[0] = 0.0
    lp = log_p(chain[0])
    accepted = 0
    for t in range(n):
        cand = chain[t] + step * proposals[t]
        lp_c = log_p(cand)
        if np.log(uniforms[t]) < lp_c - lp:
            chain[t + 1] = cand
            lp = lp_c
            accepted += 1
        else:
            chain[t + 1] = chain[t]
    burned = chain[n // 4:]
    return {"rate": accepted / n, "mean": burned.mean(axis=0), "cov": np.cov(burned.T),
            "q": np.quantile(burned[:, 0], [0.05, 0.5, 0.95]), "last": chain[-1]}


def parallel_chains(np, x0, proposals, uniforms, step):
    x = np.array(x0, dtype=float)  # (chains, dim)
    n_steps = proposals.shape[0]

    def logp(v):
        return -0.5 * np.sum(v**2 / np.array([1.0, 4.0, 0.25]), axis=-1)

    lp = logp(x)
    trace = np.empty((n_steps,) + x.shape)
    acc = np.zeros(x.shape[0], dtype=np.int64)
    for t in range(n_steps):
        cand = x + step * proposals[t]
        lp_c = logp(cand)
        ok = np.log(uniforms[t]) < lp_c - lp
        x[ok] = cand[ok]
        lp = np.where(ok, lp_c, lp)
        acc += ok
        trace[t] = x
    return {"acc": acc, "trace_mean": trace[n_steps // 2:].mean(axis=(0, 1)),
            "trace_var": trace[n_steps // 2:].var(axis=(0, 1)), "final": x}


def logistic_posterior(np, X, y, proposals, uniforms, prior_sd, step):
    X, y = np.asarray(X), np.asarray(y)

    def log_post(w):
        z = X @ w
        ll = np.sum(y * z - np.logaddexp(0.0, z))
        return ll - 0.5 * np.sum(w**2) / prior_sd**2

    w = np.zeros(X.shape[1])
    lp = log_post(w)
    samples, acc = [], 0
    for t in range(len(uniforms)):
        cand = w + step * proposals[t]
        lp_c = log_post(cand)
        if uniforms[t] < np.exp(min(0.0, lp_c - lp)):
            w, lp = cand, lp_c
            acc += 1
        samples.append(w)
    S = np.array(samples)[len(samples) // 3:]
    prob = 1 / (1 + np.exp(-X @ S.T))
    return {"post_mean": S.mean(axis=0), "post_sd": S.std(axis=0, ddof=1), "acc": acc,
            "pred": prob.mean(axis=1), "ci": np.percentile(S, [2.5, 97.5], axis=0)}


def gibbs_bivariate(np, z, rho, mu):
    z = np.asarray(z)
    mu = np.asarray(mu, dtype=float)
    s = np.sqrt(1 - rho**2)
    out = np.zeros((len(z), 2))
    x, y = 0.0, 0.0
    for t in range(len(z)):
        x = mu[0] + rho * (y - mu[1]) + s * z[t, 0]
        y = mu[1] + rho * (x - mu[0]) + s * z[t, 1]
        out[t] = x, y
    c = np.corrcoef(out[100:], rowvar=False)
    return {"mean": out[100:].mean(0), "corr": c[0, 1], "trace": out[:5], "p_quad": np.mean(np.all(out > mu, axis=1))}


def ising_checkerboard(np, spins, uniforms, beta):
    s = np.array(spins, dtype=np.int8)
    n = s.shape[0]
    ii, jj = np.indices(s.shape)
    colours = [(ii + jj) % 2 == c for c in (0, 1)]
    mags, energies = [], []
    for t in range(uniforms.shape[0]):
        for c, sub in enumerate(colours):
            nb = np.roll(s, 1, 0) + np.roll(s, -1, 0) + np.roll(s, 1, 1) + np.roll(s, -1, 1)
            dE = 2 * s * nb
            flip = sub & (uniforms[t, c] < np.exp(-beta * dE))
            s[flip] *= -1
        mags.append(s.mean())
        energies.append(-np.sum(s * (np.roll(s, 1, 0) + np.roll(s, 1, 1))) / n**2)
    return {"spins": s, "mag": np.array(mags), "energy": np.array(energies), "dtype": s.dtype.kind,
            "domain": np.sum(s == s[0, 0])}


def autocorrelation_ess(np, chain, max_lag):
    x = np.asarray(chain, dtype=float)
    x = x - x.mean()
    n = len(x)
    full = np.correlate(x, x, mode="full")[n - 1:]
    rho = full[: max_lag + 1] / full[0]
    direct = np.array([np.dot(x[: n - k], x[k:]) for k in range(max_lag + 1)]) / np.dot(x, x)
    neg = np.flatnonzero(rho < 0)
    cut = neg[0] if neg.size else max_lag + 1
    tau = 1 + 2 * rho[1:cut].sum()
    batch = x[: n // 10 * 10].reshape(10, -1).mean(axis=1)
    return {"rho": rho, "direct": direct, "tau": tau, "ess": n / tau, "cut": cut,
            "batch_se": batch.std(ddof=1) / np.sqrt(10)}


def gelman_rubin(np, chains):
    c = np.asarray(chains, dtype=float)  # (m chains, n draws)
    m, n = c.shape
    means = c.mean(axis=1)
    W = c.var(axis=1, ddof=1).mean()
    B = n * means.var(ddof=1)
    var_hat = (n - 1) / n * W + B / n
    halves = c[:, : n // 2 * 2].reshape(m * 2, -1)
    hm = halves.mean(axis=1, keepdims=True)
    W2 = np.mean(np.sum((halves - hm) ** 2, axis=1) / (halves.shape[1] - 1))
    ranks = np.argsort(np.argsort(c, axis=None)).reshape(c.shape)
    return {"rhat": np.sqrt(var_hat / W), "W": W, "B": B, "split_W": W2,
            "rank_means": ranks.mean(axis=1), "summary": np.quantile(c, [0.025, 0.5, 0.975], axis=1).T}


def test_banana_metropolis():
    rng = np.random.default_rng(2930)
    n = 400
    check(banana_metropolis, rng.standard_normal((n, 2)), rng.uniform(size=n), 0.8, rtol=1e-3, atol=1e-4)


def test_parallel_chains():
    rng = np.random.default_rng(2931)
    check(parallel_chains, rng.normal(size=(16, 3)), rng.standard_normal((60, 16, 3)), rng.uniform(size=(60, 16)),
          0.7, rtol=1e-3, atol=1e-4)


def test_logistic_posterior():
    rng = np.random.default_rng(2932)
    X = np.column_stack([np.ones(40), rng.normal(size=(40, 2))])
    y = (X @ [0.3, 1.5, -1.0] + rng.logistic(size=40) > 0).astype(float)
    check(logistic_posterior, X, y, rng.standard_normal((300, 3)), rng.uniform(size=300), 5.0, 0.3,
          rtol=1e-3, atol=1e-4)


def test_gibbs_bivariate():
    check(gibbs_bivariate, np.random.default_rng(2933).standard_normal((500, 2)), 0.8, [1.0, -2.0],
          rtol=1e-3, atol=1e-4)


def test_ising_checkerboard():
    rng = np.random.default_rng(2934)
    check(ising_checkerboard, rng.choice([-1, 1], (10, 10)), rng.uniform(size=(12, 2, 10, 10)), 0.45)


def test_autocorrelation_ess():
    rng = np.random.default_rng(2935)
    e = rng.standard_normal(300)
    x = np.zeros(300)
    for t in range(1, 300):
        x[t] = 0.7 * x[t - 1] + e[t]
    check(autocorrelation_ess, x, 20, rtol=1e-3, atol=1e-4)


def test_gelman_rubin():
    rng = np.random.default_rng(2936)
    chains = rng.normal(size=(4, 101)) + np.array([[0.0], [0.1], [-0.1], [0.5]])
    check(gelman_rubin, chains)
