"""Reliability engineering in plain NumPy: Kaplan-Meier curves from censored lifetimes by `unique(return_counts=)`
and `cumprod`, Nelson-Aalen hazards, Weibull fits by `lstsq` on median ranks, series/parallel/k-out-of-n systems by
`prod` and `logical_or.reduce` over component states, minimal cut sets of a fault tree by boolean matrices, a
repairable system's availability from a Markov generator by `solve` with a replaced row, burn-in screening by
`percentile`, and warranty returns by `histogram` and `searchsorted` on a cumulative hazard (tests/porting)."""

import numpy as np
from harness import check


def kaplan_meier(np, times, observed):
    t, e = np.asarray(times), np.asarray(observed).astype(bool)
    order = np.argsort(t, kind="stable")
    t, e = t[order], e[order]
    ut, first, counts = np.unique(t, return_index=True, return_counts=True)
    deaths = np.add.reduceat(e.astype(int), first)
    at_risk = len(t) - first
    S = np.cumprod(1 - deaths / at_risk)
    var = S ** 2 * np.cumsum(deaths / (at_risk * np.maximum(at_risk - deaths, 1)))
    H = np.cumsum(deaths / at_risk)  # Nelson-Aalen
    median = ut[np.argmax(S <= 0.5)] if np.any(S <= 0.5) else np.inf
    return {"t": ut, "S": S, "se": np.sqrt(var), "H": H, "median": median, "at_risk": at_risk, "ties": counts.max()}


def weibull_fit(np, failures):
    x = np.sort(np.asarray(failures))
    n = len(x)
    i = np.arange(1, n + 1)
    F = (i - 0.3) / (n + 0.4)  # Benard's median ranks
    X = np.column_stack([np.log(x), np.ones(n)])
    y = np.log(-np.log(1 - F))
    (beta, c), *_ = np.linalg.lstsq(X, y, rcond=None)
    eta = np.exp(-c / beta)
    t = np.array([0.5, 1.0, 2.0]) * eta
    R = np.exp(-(t / eta) ** beta)
    b10 = eta * (-np.log(0.9)) ** (1 / beta)
    return {"beta": beta, "eta": eta, "R": R, "b10": b10, "hazard_rising": bool(beta > 1)}


def system_structures(np, states, k):
    S = np.asarray(states).astype(bool)  # (trials, components)
    series = np.logical_and.reduce(S, axis=1)
    parallel = np.logical_or.reduce(S, axis=1)
    k_of_n = S.sum(axis=1) >= k
    bridge = (S[:, 0] & S[:, 3]) | (S[:, 1] & S[:, 4]) | (S[:, 0] & S[:, 2] & S[:, 4]) | (S[:, 1] & S[:, 2] & S[:, 3])
    p = S.mean(axis=0)
    return {"series": series.mean(), "parallel": parallel.mean(), "k": k_of_n.mean(), "bridge": bridge.mean(),
            "p": p, "series_indep": np.prod(p), "parallel_indep": 1 - np.prod(1 - p)}


def cut_sets(np, paths):
    P = np.asarray(paths).astype(bool)  # (path sets, components): the system works if any path works
    n = P.shape[1]
    masks = ((np.arange(1, 2 ** n)[:, None] >> np.arange(n)) & 1).astype(bool)  # every failed set
    cuts = np.all(np.any(P[None, :, :] & masks[:, None, :], axis=2), axis=1)  # every path broken
    C = masks[cuts]
    sizes = C.sum(axis=1)
    # minimal: no other cut set is a proper subset of it
    subset = np.all(~C[:, None, :] | C[None, :, :], axis=2) & (sizes[:, None] > sizes[None, :])
    minimal = C[~subset.any(axis=1)]
    order = np.lexsort(minimal.T[::-1])
    return {"n_cuts": int(cuts.sum()), "minimal": minimal[order].astype(np.int8), "orders": np.bincount(minimal.sum(1))}


def availability(np, lam, mu):
    lam, mu = np.asarray(lam), np.asarray(mu)
    # two units with one repair crew: states 0, 1, 2 failed units
    Q = np.array([[-2 * lam[0], 2 * lam[0], 0.0],
                  [mu[0], -(mu[0] + lam[1]), lam[1]],
                  [0.0, mu[1], -mu[1]]])
    A = Q.T.copy()
    A[-1] = 1.0
    b = np.zeros(3)
    b[-1] = 1.0
    pi = np.linalg.solve(A, b)
    mttf = np.linalg.solve(-Q[:2, :2], np.ones(2))[0]
    w, _ = np.linalg.eig(Q)
    return {"pi": pi, "avail": pi[:2].sum(), "mttf": mttf, "rates": np.sort(w.real), "balance": pi @ Q}


def burn_in(np, weak, strong, screen):
    w, s = np.asarray(weak), np.asarray(strong)
    lifetimes = np.concatenate([w, s])
    is_weak = np.concatenate([np.ones(len(w), bool), np.zeros(len(s), bool)])
    survived = lifetimes > screen
    caught = np.mean(~survived[is_weak])
    lost = np.mean(~survived[~is_weak])
    remaining = lifetimes[survived] - screen
    return {"caught": caught, "lost": lost, "p10": np.percentile(remaining, 10),
            "p10_before": np.percentile(lifetimes, 10), "mean_gain": remaining.mean() - lifetimes.mean(),
            "weak_left": np.count_nonzero(survived & is_weak)}


def warranty(np, ages, hazard_rate, edges, horizon):
    ages = np.asarray(ages)
    t = np.linspace(0, horizon, 121)
    H = np.cumsum(np.r_[0.0, np.diff(t) * hazard_rate(t[1:])])  # cumulative hazard on a grid
    F = 1 - np.exp(-H)
    expected = np.interp(ages, t, F)
    idx = np.searchsorted(H, -np.log(0.95))
    hist, _ = np.histogram(ages, bins=edges)
    per_bin = np.bincount(np.digitize(ages, edges) - 1, weights=expected, minlength=len(edges) + 1)[: len(edges) - 1]
    return {"F": F[::20], "expected": expected.sum(), "t5": t[idx], "hist": hist, "per_bin": per_bin}


def _bathtub(t):
    return 0.02 + 0.05 * np.exp(-t) + 0.001 * t ** 2


def test_kaplan_meier():
    rng = np.random.default_rng(2451)
    t = np.round(rng.weibull(1.5, 40) * 10)  # ties
    check(kaplan_meier, t, rng.random(40) < 0.7)


def test_weibull_fit():
    rng = np.random.default_rng(2452)
    check(weibull_fit, 1000 * rng.weibull(2.2, 25), rtol=1e-3)


def test_system_structures():
    rng = np.random.default_rng(2453)
    check(system_structures, rng.random((500, 5)) < np.array([0.9, 0.8, 0.95, 0.7, 0.85]), 3)


def test_cut_sets():
    paths = np.array([[1, 0, 0, 1, 0], [0, 1, 0, 0, 1], [1, 0, 1, 0, 1], [0, 1, 1, 1, 0]])  # the bridge
    check(cut_sets, paths)


def test_availability():
    check(availability, np.array([0.01, 0.02]), np.array([0.5, 0.4]), rtol=1e-3)


def test_burn_in():
    rng = np.random.default_rng(2454)
    check(burn_in, rng.exponential(5, 30), 50 + rng.weibull(3, 200) * 100, 20.0)


def test_warranty():
    rng = np.random.default_rng(2455)
    check(warranty, rng.uniform(0, 3, 60), _bathtub, np.array([0.0, 0.5, 1, 2, 3]), 3.0, rtol=1e-3)
