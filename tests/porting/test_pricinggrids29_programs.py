"""Option pricing beyond plain Monte Carlo, in plain NumPy: the Black-Scholes PDE by an explicit finite-difference
grid on `np.ogrid` axes with boundary rows set through slices, Carr-Madan pricing from the characteristic function
with complex arithmetic and `np.fft.fft` (Simpson weights, `np.interp` onto strikes), a binomial tree by backward
induction on a shrinking vector, knocked-out paths set to NaN and summarised by `np.nanpercentile`/`np.nanmean`,
the joint law of two terminal prices by `np.histogram2d` and its marginals, payoff buckets by `np.digitize`, and
scenario P&L by `np.tensordot` of position and shock tensors (tests/porting)."""

import math

import numpy as np
from harness import check


def explicit_fd(np, K, r, sigma, T, s_max, ns, nt):
    ds, dt = s_max / ns, T / nt
    S = np.linspace(0, s_max, ns + 1)
    i = np.arange(1, ns)
    a = 0.5 * dt * (sigma**2 * i**2 - r * i)
    b = 1 - dt * (sigma**2 * i**2 + r)
    c = 0.5 * dt * (sigma**2 * i**2 + r * i)
    V = np.maximum(S - K, 0.0)
    for k in range(nt):
        tau = (k + 1) * dt
        V[1:-1] = a * V[:-2] + b * V[1:-1] + c * V[2:]
        V[0] = 0.0
        V[-1] = s_max - K * np.exp(-r * tau)
    delta = np.gradient(V, ds)
    gamma = np.gradient(delta, ds)
    return {"V": V[::10], "at_K": np.interp(K, S, V), "delta": delta[::10], "gamma_max": gamma.max(),
            "stable": bool(np.all(b > 0))}


def carr_madan(np, s0, r, sigma, T, alpha, N, eta):
    j = np.arange(N)
    v = eta * j
    lam = 2 * np.pi / (N * eta)
    b = N * lam / 2
    ku = -b + lam * j
    u = v - (alpha + 1) * 1j
    phi = np.exp(1j * u * (np.log(s0) + (r - 0.5 * sigma**2) * T) - 0.5 * sigma**2 * u**2 * T)
    psi = np.exp(-r * T) * phi / (alpha**2 + alpha - v**2 + 1j * (2 * alpha + 1) * v)
    w = eta / 3 * (3 + (-1) ** (j + 1))
    w[0] = eta / 3
    x = np.exp(1j * b * v) * psi * w
    calls = np.exp(-alpha * ku) / np.pi * np.fft.fft(x).real
    strikes = np.exp(ku)
    grid = np.array([80.0, 90, 100, 110, 120])
    prices = np.interp(np.log(grid), ku, calls)
    return {"prices": prices, "dtype": x.dtype.kind, "phi0": phi[0], "lam": lam,
            "mono": bool(np.all(np.diff(prices) < 0)), "n_pos": int(np.sum((calls > 0) & (strikes < 200)))}


def binomial_tree(np, s0, K, r, sigma, T, steps, american):
    dt = T / steps
    u = math.exp(sigma * math.sqrt(dt))
    d = 1 / u
    p = (math.exp(r * dt) - d) / (u - d)
    disc = math.exp(-r * dt)
    S = s0 * u ** np.arange(steps, -1, -1) * d ** np.arange(0, steps + 1)
    V = np.maximum(K - S, 0)
    early = 0
    for _ in range(steps):
        S = S[:-1] / u
        cont = disc * (p * V[:-1] + (1 - p) * V[1:])
        if american:
            ex = np.maximum(K - S, 0)
            early += int(np.count_nonzero(ex > cont))
            V = np.maximum(cont, ex)
        else:
            V = cont
    return {"price": V[0], "early": early, "p": p}


def knocked_paths(np, z, s0, barrier, r, sigma, dt):
    z = np.asarray(z)
    logS = np.log(s0) + np.cumsum((r - 0.5 * sigma**2) * dt + sigma * np.sqrt(dt) * z, axis=1)
    S = np.exp(logS)
    dead = np.maximum.accumulate(S <= barrier, axis=1)
    alive = np.where(dead, np.nan, S)
    with np.errstate(invalid="ignore"):
        live_mean = np.nanmean(alive, axis=0)
    surv = np.mean(~dead, axis=0)
    last_ok = surv > 0
    q = np.nanpercentile(alive[:, last_ok], [5, 50, 95], axis=0)
    return {"surv": surv, "live_mean": np.nan_to_num(live_mean, nan=-1.0), "q": q,
            "n_dead": int(dead[:, -1].sum()), "nanmax": np.nanmax(alive[:, :5], axis=0)}


def joint_terminal(np, z1, z2, rho, sigma1, sigma2):
    z1, z2 = np.asarray(z1), np.asarray(z2)
    w2 = rho * z1 + np.sqrt(1 - rho**2) * z2
    S1 = 100 * np.exp(-0.5 * sigma1**2 + sigma1 * z1)
    S2 = 50 * np.exp(-0.5 * sigma2**2 + sigma2 * w2)
    H, xe, ye = np.histogram2d(S1, S2, bins=[8, 6], range=[[40, 220], [20, 110]])
    marg1 = H.sum(axis=1)
    dens, _, _ = np.histogram2d(S1, S2, bins=[xe, ye], density=True)
    spread = np.maximum(S1 - 2 * S2, 0)
    bucket = np.digitize(spread, [0.0, 5.0, 20.0, 50.0], right=True)
    return {"H": H, "marg1": marg1, "inside": H.sum() / len(S1), "dens_int": np.sum(dens * np.outer(np.diff(xe),
            np.diff(ye))), "buckets": np.bincount(bucket, minlength=5), "spread_mean": spread.mean()}


def scenario_pnl(np, positions, deltas, shocks):
    P = np.asarray(positions)          # (books, assets)
    D = np.asarray(deltas)             # (assets, factors)
    X = np.asarray(shocks)             # (scenarios, factors)
    exposure = np.tensordot(P, D, axes=([1], [0]))        # (books, factors)
    pnl = np.tensordot(exposure, X, axes=([1], [1]))      # (books, scenarios)
    pnl2 = np.einsum("ba,af,sf->bs", P, D, X)
    worst = np.argmin(pnl, axis=1)
    total = pnl.sum(axis=0)
    return {"exposure": exposure, "pnl": pnl, "same": np.allclose(pnl, pnl2), "worst": worst,
            "total_worst": total.min(), "contrib": pnl[:, np.argmin(total)], "axes0": np.tensordot(P, P, 0).shape}


def test_explicit_fd():
    check(explicit_fd, 100.0, 0.05, 0.2, 0.5, 300.0, 60, 200, rtol=1e-3, atol=1e-3)


def test_carr_madan():
    check(carr_madan, 100.0, 0.03, 0.25, 1.0, 1.5, 256, 0.25, rtol=2e-3, atol=2e-3)


def test_binomial_tree():
    check(binomial_tree, 100.0, 100.0, 0.05, 0.3, 1.0, 60, True, rtol=1e-4, atol=1e-5)


def test_knocked_paths():
    check(knocked_paths, np.random.default_rng(2999).standard_normal((300, 12)), 100.0, 85.0, 0.02, 0.3, 1 / 12,
          rtol=1e-3, atol=1e-4)


def test_joint_terminal():
    rng = np.random.default_rng(3000)
    check(joint_terminal, rng.standard_normal(500), rng.standard_normal(500), 0.6, 0.3, 0.25, rtol=1e-3, atol=1e-5)


def test_scenario_pnl():
    rng = np.random.default_rng(3001)
    check(scenario_pnl, rng.normal(size=(3, 5)), rng.normal(size=(5, 4)), rng.normal(size=(20, 4)))
