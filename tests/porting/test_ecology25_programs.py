"""Population ecology in plain NumPy: Leslie matrices (dominant eigenvalue by `eig`, stable age distribution,
reproductive value from the left eigenvector, sensitivities by `outer`), Lotka-Volterra by RK4 on stacked states,
logistic-map bifurcation data with `unique(return_counts=)`, mark-recapture (Lincoln-Petersen and Schnabel) with
integer arithmetic, stochastic-free metapopulation occupancy by `matrix_power`, species diversity indices (Shannon,
Simpson, Chao1) with `where`/`log` guards, a life table by `cumprod`/`diff`, and density-dependent Ricker fits by
`polyfit` (tests/porting)."""

import numpy as np
from harness import check


def leslie(np, fecundity, survival, n0, years):
    f, s = np.asarray(fecundity, dtype=float), np.asarray(survival, dtype=float)
    k = f.size
    L = np.zeros((k, k))
    L[0] = f
    L[np.arange(1, k), np.arange(k - 1)] = s
    vals, vecs = np.linalg.eig(L)
    i = np.argmax(np.abs(vals))
    lam = vals[i].real
    w = np.real(vecs[:, i])
    w = w / w.sum()
    lv, lvec = np.linalg.eig(L.T)
    v = np.real(lvec[:, np.argmax(lv.real)])
    v = v / v[0]
    S = np.outer(v, w) / (v @ w)
    E = S * L / lam
    n = np.asarray(n0, dtype=float)
    traj = [n]
    for _ in range(years):
        n = L @ n
        traj.append(n)
    traj = np.array(traj)
    growth = traj[1:].sum(axis=1) / traj[:-1].sum(axis=1)
    return {"lam": lam, "w": w, "v": v, "E": E, "Esum": E.sum(), "traj": traj, "growth": growth,
            "R0": np.sum(f * np.concatenate(([1.0], np.cumprod(s))))}


def lotka_volterra(np, y0, params, dt, steps):
    a, b, c, d = params

    def rhs(y):
        prey, pred = y[..., 0], y[..., 1]
        return np.stack([a * prey - b * prey * pred, d * prey * pred - c * pred], axis=-1)

    y = np.asarray(y0, dtype=float)
    out = np.empty((steps + 1,) + y.shape)
    out[0] = y
    for k in range(steps):
        k1 = rhs(y)
        k2 = rhs(y + 0.5 * dt * k1)
        k3 = rhs(y + 0.5 * dt * k2)
        k4 = rhs(y + dt * k3)
        y = y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        out[k + 1] = y
    V = d * out[..., 0] - c * np.log(out[..., 0]) + b * out[..., 1] - a * np.log(out[..., 1])
    peaks = np.flatnonzero((out[1:-1, 0, 0] > out[:-2, 0, 0]) & (out[1:-1, 0, 0] > out[2:, 0, 0])) + 1
    return {"out": out[::10], "V_drift": np.ptp(V, axis=0), "peaks": peaks, "max": out.max(axis=0)}


def logistic_map(np, rs, n_burn, n_keep):
    r = np.asarray(rs)[:, None]
    x = np.full((r.shape[0], 1), 0.5)
    for _ in range(n_burn):
        x = r * x * (1 - x)
    keep = np.empty((r.shape[0], n_keep))
    for k in range(n_keep):
        x = r * x * (1 - x)
        keep[:, k] = x[:, 0]
    rounded = np.round(keep, 4)
    periods = np.array([np.unique(row).size for row in rounded])
    lyap = np.mean(np.log(np.abs(r * (1 - 2 * keep))), axis=1)
    vals, counts = np.unique(rounded[0], return_counts=True)
    return {"periods": periods, "lyap": lyap, "chaotic": lyap > 0, "vals": vals, "counts": counts}


def mark_recapture(np, marked, caught, recaptured):
    M, C, R = np.asarray(marked), np.asarray(caught), np.asarray(recaptured)
    lp = M * C // np.maximum(R, 1)
    chapman = (M + 1) * (C + 1) / (R + 1) - 1
    var = (M + 1) * (C + 1) * (M - R) * (C - R) / ((R + 1) ** 2 * (R + 2))
    ci = chapman[:, None] + np.array([-1.96, 1.96]) * np.sqrt(var)[:, None]
    Mt = np.cumsum(np.concatenate(([0], C[:-1] - R[:-1])))
    schnabel = np.sum(C * Mt) / np.sum(R)
    return {"lp": lp, "dtype": lp.dtype.kind, "chapman": chapman, "ci": ci, "Mt": Mt, "schnabel": schnabel}


def metapopulation(np, T, p0, steps):
    T = np.asarray(T)
    T = T / T.sum(axis=1, keepdims=True)
    p = np.asarray(p0) @ np.linalg.matrix_power(T, steps)
    w, V = np.linalg.eig(T.T)
    stat = np.real(V[:, np.isclose(w, 1.0)])[:, 0]
    stat = stat / stat.sum()
    return {"T": T, "p": p, "stat": stat, "close": np.allclose(p, stat, atol=1e-6), "absorb": T.diagonal()}


def diversity(np, counts):
    c = np.asarray(counts)  # (sites, species) integer counts
    N = c.sum(axis=1, keepdims=True)
    p = c / N
    logp = np.log(p, where=p > 0, out=np.zeros_like(p))
    H = -np.sum(p * logp, axis=1)
    simpson = 1 - np.sum(c * (c - 1), axis=1) / (N[:, 0] * (N[:, 0] - 1))
    S = np.count_nonzero(c, axis=1)
    f1 = (c == 1).sum(axis=1)
    f2 = (c == 2).sum(axis=1)
    chao1 = np.where(f2 > 0, S + f1**2 / (2 * np.maximum(f2, 1)), S + f1 * (f1 - 1) / 2)
    evenness = np.divide(H, np.log(S), out=np.zeros_like(H), where=S > 1)
    jaccard = (c[:, None, :] > 0) & (c[None, :, :] > 0)
    union = (c[:, None, :] > 0) | (c[None, :, :] > 0)
    J = jaccard.sum(-1) / union.sum(-1)
    return {"H": H, "simpson": simpson, "S": S, "chao1": chao1, "even": evenness, "J": J}


def life_table(np, nx):
    nx = np.asarray(nx)
    lx = nx / nx[0]
    dx = -np.diff(nx, append=0)
    qx = np.divide(dx, nx, out=np.ones(nx.shape), where=nx > 0)
    px = 1 - qx
    Lx = (nx + np.append(nx[1:], 0)) / 2
    Tx = np.cumsum(Lx[::-1])[::-1]
    ex = np.divide(Tx, nx, out=np.zeros(nx.shape), where=nx > 0)
    check_lx = np.concatenate(([1.0], np.cumprod(px)[:-1]))
    return {"lx": lx, "dx": dx, "qx": qx, "ex": ex, "same": np.allclose(check_lx, lx),
            "median_age": int(np.searchsorted(-lx, -0.5))}


def ricker_fit(np, N):
    N = np.asarray(N, dtype=float)
    y = np.log(N[1:] / N[:-1])
    b, a = np.polyfit(N[:-1], y, 1)
    K = -a / b
    pred = N[:-1] * np.exp(a + b * N[:-1])
    resid = N[1:] - pred
    coeffs, cov = np.polyfit(N[:-1], y, 1, cov=True)
    return {"r": a, "K": K, "pred": pred, "rss": resid @ resid, "se": np.sqrt(np.diag(cov)), "c": coeffs}


def test_leslie():
    check(leslie, np.array([0.0, 1.2, 1.5, 0.4]), np.array([0.6, 0.7, 0.5]), np.array([100, 50, 30, 10]), 12,
          rtol=1e-3, atol=1e-4)


def test_lotka_volterra():
    y0 = np.array([[10.0, 5.0], [20.0, 4.0]])
    check(lotka_volterra, y0, (1.1, 0.4, 0.4, 0.1), 0.02, 300, rtol=2e-3, atol=1e-3)


def test_logistic_map():
    check(logistic_map, np.array([2.8, 3.2, 3.5, 3.9]), 500, 64, rtol=1e-3, atol=1e-3)


def test_mark_recapture():
    check(mark_recapture, np.array([50, 60, 80, 40]), np.array([40, 55, 70, 35]), np.array([10, 12, 0, 7]),
          rtol=1e-5, atol=1e-6)


def test_metapopulation():
    rng = np.random.default_rng(2541)
    check(metapopulation, rng.uniform(0.1, 1, (4, 4)), np.array([1.0, 0, 0, 0]), 60, rtol=1e-4, atol=1e-5)


def test_diversity():
    rng = np.random.default_rng(2542)
    c = rng.poisson(2.0, (5, 12))
    c[4] = 0
    c[4, 3] = 9
    check(diversity, c, rtol=1e-5, atol=1e-6)


def test_life_table():
    check(life_table, np.array([1000, 820, 700, 610, 430, 200, 60, 5, 0]))


def test_ricker_fit():
    rng = np.random.default_rng(2543)
    N = [20.0]
    for _ in range(30):
        N.append(N[-1] * np.exp(0.8 * (1 - N[-1] / 150)) * np.exp(rng.normal(0, 0.05)))
    check(ricker_fit, np.array(N), rtol=2e-3, atol=1e-3)
