"""Latent-variable models in plain NumPy: Gaussian-mixture EM in one and two dimensions (responsibilities by
`logsumexp` written with `max(keepdims=True)`, weighted covariances by `einsum`, `slogdet` and `cholesky`), the
scaled forward-backward pass of a discrete HMM, Viterbi in log space with back-pointers, Baum-Welch
re-estimation with `np.add.at`, a bootstrap particle filter with systematic resampling by `searchsorted` on a
`cumsum` (noise passed in), and the posterior decoding statistics of a state sequence (tests/porting)."""

import numpy as np
from harness import check


def gmm_1d(np, x, mu, sigma, w, iters):
    x = np.asarray(x)[:, None]
    mu, sigma, w = (np.asarray(v, dtype=np.float64) for v in (mu, sigma, w))
    lls = []
    for _ in range(iters):
        log_p = -0.5 * ((x - mu) / sigma) ** 2 - np.log(sigma * np.sqrt(2 * np.pi)) + np.log(w)
        m = log_p.max(axis=1, keepdims=True)
        lse = m + np.log(np.exp(log_p - m).sum(axis=1, keepdims=True))
        r = np.exp(log_p - lse)
        lls.append(lse.sum())
        nk = r.sum(axis=0)
        w = nk / len(x)
        mu = (r * x).sum(axis=0) / nk
        sigma = np.sqrt((r * (x - mu) ** 2).sum(axis=0) / nk)
    labels = r.argmax(axis=1)
    return {"mu": mu, "sigma": sigma, "w": w, "ll": np.array(lls), "labels": labels,
            "counts": np.bincount(labels, minlength=len(mu)), "increasing": bool(np.all(np.diff(lls) > -1e-6))}


def gmm_2d(np, X, means, iters):
    X = np.asarray(X)
    n, d = X.shape
    k = len(means)
    mu = np.array(means, dtype=float)
    cov = np.stack([np.eye(d)] * k)
    pi = np.full(k, 1.0 / k)
    for _ in range(iters):
        diff = X[:, None, :] - mu[None, :, :]
        L = np.linalg.cholesky(cov)
        sol = np.linalg.solve(L[None], diff[..., None])[..., 0]
        maha = np.sum(sol**2, axis=-1)
        sign, logdet = np.linalg.slogdet(cov)
        log_p = np.log(pi) - 0.5 * (maha + logdet + d * np.log(2 * np.pi))
        log_norm = np.logaddexp.reduce(log_p, axis=1, keepdims=True)
        r = np.exp(log_p - log_norm)
        nk = r.sum(0)
        pi = nk / n
        mu = (r.T @ X) / nk[:, None]
        diff = X[:, None, :] - mu[None]
        cov = np.einsum("nk,nki,nkj->kij", r, diff, diff) / nk[:, None, None] + 1e-6 * np.eye(d)
    return {"pi": pi, "mu": mu, "cov": cov, "ll": log_norm.sum(), "sign": sign,
            "hard": np.argmax(r, axis=1)}


def forward_backward(np, A, B, pi, obs):
    A, B, pi = np.asarray(A), np.asarray(B), np.asarray(pi)
    obs = np.asarray(obs)
    T, N = len(obs), len(pi)
    alpha = np.zeros((T, N))
    c = np.zeros(T)
    alpha[0] = pi * B[:, obs[0]]
    c[0] = alpha[0].sum()
    alpha[0] /= c[0]
    for t in range(1, T):
        alpha[t] = (alpha[t - 1] @ A) * B[:, obs[t]]
        c[t] = alpha[t].sum()
        alpha[t] /= c[t]
    beta = np.ones((T, N))
    for t in range(T - 2, -1, -1):
        beta[t] = A @ (B[:, obs[t + 1]] * beta[t + 1]) / c[t + 1]
    gamma = alpha * beta
    gamma /= gamma.sum(axis=1, keepdims=True)
    xi = alpha[:-1, :, None] * A[None] * (B[:, obs[1:]].T * beta[1:])[:, None, :] / c[1:, None, None]
    return {"loglik": np.log(c).sum(), "gamma": gamma, "xi_sum": xi.sum(axis=0),
            "posterior_path": gamma.argmax(axis=1), "rows_one": np.allclose(xi.sum(axis=(1, 2)), 1.0)}


def viterbi(np, log_A, log_B, log_pi, obs):
    log_A, log_B = np.asarray(log_A), np.asarray(log_B)
    T, N = len(obs), log_A.shape[0]
    delta = np.empty((T, N))
    psi = np.zeros((T, N), dtype=np.int64)
    delta[0] = log_pi + log_B[:, obs[0]]
    for t in range(1, T):
        scores = delta[t - 1][:, None] + log_A
        psi[t] = np.argmax(scores, axis=0)
        delta[t] = scores[psi[t], np.arange(N)] + log_B[:, obs[t]]
    path = np.zeros(T, dtype=int)
    path[-1] = delta[-1].argmax()
    for t in range(T - 2, -1, -1):
        path[t] = psi[t + 1, path[t + 1]]
    runs = np.flatnonzero(np.diff(path)) + 1
    return {"path": path, "best": delta[-1].max(), "psi": psi, "switches": runs,
            "lengths": np.diff(np.concatenate(([0], runs, [T])))}


def baum_welch_counts(np, obs, gamma, xi_sum, n_symbols):
    obs = np.asarray(obs)
    gamma = np.asarray(gamma)
    N = gamma.shape[1]
    A_new = xi_sum / xi_sum.sum(axis=1, keepdims=True)
    B_num = np.zeros((N, n_symbols))
    np.add.at(B_num.T, obs, gamma)
    B_new = B_num / gamma.sum(axis=0)[:, None]
    onehot = np.eye(n_symbols)[obs]
    B_alt = gamma.T @ onehot / gamma.sum(axis=0, keepdims=True).T
    return {"A": A_new, "B": B_new, "same": np.allclose(B_new, B_alt), "pi": gamma[0],
            "entropy": -(B_new * np.log(B_new, where=B_new > 0, out=np.zeros_like(B_new))).sum(axis=1)}


def particle_filter(np, zs, x0, proc_noise, meas_sigma, uniforms):
    zs = np.asarray(zs)
    x = np.asarray(x0, dtype=np.float64).copy()
    n = x.size
    means, ess_hist, resampled = [], [], 0
    w = np.full(n, 1.0 / n)
    for t, z in enumerate(zs):
        x = 0.5 * x + 25 * x / (1 + x**2) + 8 * np.cos(1.2 * t) + proc_noise[t]
        w = w * np.exp(-0.5 * ((z - x**2 / 20) / meas_sigma) ** 2)
        w = w + 1e-300
        w /= w.sum()
        ess = 1.0 / np.sum(w**2)
        ess_hist.append(ess)
        means.append(np.sum(w * x))
        if ess < n / 2:
            positions = (np.arange(n) + uniforms[t]) / n
            idx = np.searchsorted(np.cumsum(w), positions)
            idx = np.minimum(idx, n - 1)
            x = x[idx]
            w = np.full(n, 1.0 / n)
            resampled += 1
    return {"means": np.array(means), "ess": np.array(ess_hist), "resampled": resampled,
            "spread": np.ptp(x), "final": np.sort(x)}


def posterior_decoding(np, gamma, truth):
    gamma = np.asarray(gamma)
    truth = np.asarray(truth)
    pred = gamma.argmax(axis=1)
    conf = gamma.max(axis=1)
    n = gamma.shape[1]
    confusion = np.zeros((n, n), dtype=int)
    np.add.at(confusion, (truth, pred), 1)
    bins = np.digitize(conf, [0.5, 0.7, 0.9])
    acc_by_bin = np.array([np.mean(pred[bins == b] == truth[bins == b]) if np.any(bins == b) else np.nan
                           for b in range(4)])
    order = np.lexsort((np.arange(len(conf)), -conf))
    plogp = np.where(gamma > 0, gamma * np.log(np.where(gamma > 0, gamma, 1.0)), 0.0)
    return {"confusion": confusion, "acc": np.trace(confusion) / len(truth), "bins": np.bincount(bins, minlength=4),
            "acc_by_bin": acc_by_bin, "least_sure": order[-3:], "entropy": -plogp.sum(axis=1)}


def _hmm():
    A = np.array([[0.85, 0.1, 0.05], [0.1, 0.8, 0.1], [0.2, 0.1, 0.7]])
    B = np.array([[0.6, 0.3, 0.1, 0.0], [0.1, 0.2, 0.3, 0.4], [0.25, 0.25, 0.25, 0.25]])
    pi = np.array([0.5, 0.3, 0.2])
    rng = np.random.default_rng(2810)
    s, states, obs = 0, [], []
    for _ in range(40):
        states.append(s)
        obs.append(rng.choice(4, p=B[s]))
        s = rng.choice(3, p=A[s])
    return A, B, pi, np.array(obs), np.array(states)


def test_gmm_1d():
    rng = np.random.default_rng(2811)
    x = np.concatenate([rng.normal(-2, 0.5, 60), rng.normal(1.5, 1.0, 90)])
    check(gmm_1d, x, [-1.0, 1.0], [1.0, 1.0], [0.5, 0.5], 15, rtol=1e-3, atol=1e-4)


def test_gmm_2d():
    rng = np.random.default_rng(2812)
    X = np.vstack([rng.normal([0, 0], 0.6, (40, 2)), rng.normal([3, 2], [0.8, 0.4], (50, 2))])
    check(gmm_2d, X, [[0.5, 0.5], [2.5, 1.5]], 8, rtol=2e-3, atol=1e-4)


def test_forward_backward():
    A, B, pi, obs, _ = _hmm()
    check(forward_backward, A, B, pi, obs, rtol=1e-4, atol=1e-6)


def test_viterbi():
    A, B, pi, obs, _ = _hmm()
    with np.errstate(divide="ignore"):
        check(viterbi, np.log(A), np.log(B), np.log(pi), obs)


def test_baum_welch_counts():
    A, B, pi, obs, _ = _hmm()
    fb = forward_backward(np, A, B, pi, obs)
    check(baum_welch_counts, obs, fb["gamma"], fb["xi_sum"], 4)


def test_particle_filter():
    rng = np.random.default_rng(2815)
    T, n = 15, 64
    x, zs = 0.1, []
    for t in range(T):
        x = 0.5 * x + 25 * x / (1 + x**2) + 8 * np.cos(1.2 * t) + rng.normal(0, 1)
        zs.append(x**2 / 20 + rng.normal(0, 1))
    check(particle_filter, np.array(zs), rng.normal(0, 2, n), rng.normal(0, 1, (T, n)), 1.0,
          rng.uniform(size=T), rtol=1e-3, atol=1e-4)


def test_posterior_decoding():
    A, B, pi, obs, states = _hmm()
    fb = forward_backward(np, A, B, pi, obs)
    check(posterior_decoding, fb["gamma"], states)
