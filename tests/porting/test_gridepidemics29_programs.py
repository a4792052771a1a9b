"""Epidemics on grids and of agents in plain NumPy, with every uniform draw passed in: a cellular SIR automaton whose
infected neighbours are counted by `np.roll` (periodic) or by slicing a padded grid (closed borders), states held in
`int8` and `uint8` arrays, a probabilistic spread with per-cell immunity, agents on a lattice moving by passed-in
steps with `np.clip`, contact counts by `np.add.at` on grid cells, household clustering by `np.unique` with
`return_inverse`/`return_counts`, vaccination by `argpartition` of degrees, and epidemic curves summarised by
`np.diff`, `argmax`, `np.cumsum` and `np.searchsorted` (tests/porting)."""

import numpy as np
from harness import check

S, I, R = 0, 1, 2


def sir_automaton_roll(np, grid, u, beta, gamma):
    g = np.asarray(grid, dtype=np.int8)
    u = np.asarray(u)
    history = []
    for t in range(u.shape[0]):
        inf = (g == I).astype(np.uint8)
        n_inf = sum(np.roll(inf, s, axis=a) for s in (-1, 1) for a in (0, 1))
        p = 1.0 - (1.0 - beta) ** n_inf
        new_inf = (g == S) & (u[t, 0] < p)
        recover = (g == I) & (u[t, 1] < gamma)
        g[new_inf] = I
        g[recover] = R
        history.append(np.bincount(g.ravel(), minlength=3))
    hist = np.array(history)
    return {"final": g, "hist": hist, "peak_t": int(hist[:, I].argmax()), "peak": hist[:, I].max(),
            "n_inf_dtype": n_inf.dtype.kind, "attack": hist[-1, R] / g.size}


def sir_automaton_padded(np, grid, u, beta, gamma):
    g = np.asarray(grid).astype(np.uint8)
    for t in range(u.shape[0]):
        P = np.pad(g == I, 1, mode="constant", constant_values=False).astype(np.int16)
        n_inf = P[:-2, 1:-1] + P[2:, 1:-1] + P[1:-1, :-2] + P[1:-1, 2:]
        n_diag = P[:-2, :-2] + P[2:, 2:] + P[:-2, 2:] + P[2:, :-2]
        pressure = beta * n_inf + 0.5 * beta * n_diag
        infect = (g == S) & (u[t, 0] < 1 - np.exp(-pressure))
        recover = (g == I) & (u[t, 1] < gamma)
        g = np.where(infect, I, np.where(recover, R, g)).astype(np.uint8)
    rows_hit = np.any(g != S, axis=1)
    return {"final": g, "counts": np.unique(g, return_counts=True)[1], "rows_hit": np.flatnonzero(rows_hit),
            "dtype": str(g.dtype), "edge_frac": np.mean(g[[0, -1], :] != S)}


def immunity_waning(np, grid, u, beta, gamma, omega, steps):
    g = np.array(grid, dtype=np.int8)
    days_immune = np.zeros(g.shape, dtype=np.uint16)
    prevalence = np.zeros(steps)
    for t in range(steps):
        inf = g == I
        k = np.zeros(g.shape, dtype=np.int8)
        k[1:, :] += inf[:-1, :]
        k[:-1, :] += inf[1:, :]
        k[:, 1:] += inf[:, :-1]
        k[:, :-1] += inf[:, 1:]
        ut = u[t]
        new_inf = (g == S) & (ut[0] < beta * k)
        rec = inf & (ut[1] < gamma)
        wane = (g == R) & (ut[2] < omega * np.minimum(days_immune, 10) / 10)
        days_immune[g == R] += 1
        g[new_inf], g[rec], g[wane] = I, R, S
        days_immune[wane] = 0
        prevalence[t] = inf.mean()
    waves = np.flatnonzero((prevalence[1:-1] > prevalence[:-2]) & (prevalence[1:-1] >= prevalence[2:])) + 1
    return {"prev": prevalence, "final": g, "immune_days": days_immune.max(), "waves": waves,
            "mean_days": days_immune.mean(where=g == R) if np.any(g == R) else 0.0}


def agents_on_lattice(np, pos, steps, u, size, beta, gamma):
    pos = np.array(pos, dtype=np.int64)
    state = np.zeros(len(pos), dtype=np.int8)
    state[:3] = I
    curve = []
    for t in range(steps.shape[0]):
        pos = np.clip(pos + steps[t], 0, size - 1)
        cell = pos[:, 0] * size + pos[:, 1]
        inf_count = np.zeros(size * size, dtype=np.int32)
        np.add.at(inf_count, cell[state == I], 1)
        exposure = inf_count[cell]
        infect = (state == S) & (u[t, :, 0] < 1 - (1 - beta) ** exposure)
        recover = (state == I) & (u[t, :, 1] < gamma)
        state[infect] = I
        state[recover] = R
        curve.append([np.sum(state == s) for s in (S, I, R)])
    curve = np.array(curve)
    occupancy = np.bincount(cell, minlength=size * size).reshape(size, size)
    return {"curve": curve, "state": state, "occupancy": occupancy, "crowded": np.argwhere(occupancy >= 3),
            "cum_inf": np.cumsum(np.diff(curve[:, 2], prepend=0))}


def households(np, household, infected_idx, sar):
    household = np.asarray(household)
    ids, inv, size = np.unique(household, return_inverse=True, return_counts=True)
    index_case = np.zeros(len(household), dtype=bool)
    index_case[infected_idx] = True
    cases_per_house = np.bincount(inv, weights=index_case, minlength=len(ids))
    p_escape = (1 - sar) ** cases_per_house
    expected_secondary = (size - cases_per_house) * (1 - p_escape)
    first, last = np.unique(inv, return_index=True)[1], len(inv) - 1 - np.unique(inv[::-1], return_index=True)[1]
    return {"ids": ids, "size": size, "cases": cases_per_house, "expected": expected_secondary,
            "total": expected_secondary.sum(), "first": first, "last": last,
            "largest": ids[np.argsort(-size, kind="stable")[:3]]}


def targeted_vaccination(np, adj, n_vacc, beta, u):
    A = np.asarray(adj)
    deg = A.sum(axis=1)  # weighted degree (contact strength)
    top = np.argpartition(-deg, n_vacc)[:n_vacc]
    vacc = np.zeros(len(A), dtype=bool)
    vacc[top] = True
    infected = np.zeros(len(A), dtype=bool)
    infected[np.argmin(np.where(vacc, np.inf, deg))] = True
    ever = infected.copy()
    sizes = [int(infected.sum())]
    for t in range(u.shape[0]):
        pressure = A @ infected.astype(float)
        new = (~ever) & (~vacc) & (u[t] < 1 - (1 - beta) ** pressure)
        infected = new
        ever |= new
        sizes.append(int(new.sum()))
    return {"top_sorted": np.sort(top), "ever": ever, "sizes": sizes, "final": int(ever.sum()),
            "deg_vacc": deg[vacc].sum(), "gen_cum": np.cumsum(sizes)}


def epidemic_curve_stats(np, incidence, serial):
    inc = np.asarray(incidence, dtype=float)
    cum = np.cumsum(inc)
    half = np.searchsorted(cum, cum[-1] / 2)
    growth = np.diff(np.log(inc, out=np.full_like(inc, np.nan), where=inc > 0))
    r_t = inc[serial:] / np.maximum(np.convolve(inc, np.ones(serial) / serial, mode="valid")[:-1], 1e-12)
    week = inc[: len(inc) // 7 * 7].reshape(-1, 7).sum(axis=1)
    return {"half": half, "peak": int(np.argmax(inc)), "growth": np.nanmean(growth[:10]),
            "r_t": np.round(r_t, 3), "weekly": week, "doubling": np.log(2) / np.nanmax(growth),
            "quartiles": np.searchsorted(cum / cum[-1], [0.25, 0.5, 0.75])}


def _grid(seed, n, seeds=3):
    g = np.zeros((n, n), dtype=np.int64)
    rng = np.random.default_rng(seed)
    g[rng.integers(0, n, seeds), rng.integers(0, n, seeds)] = I
    return g


def test_sir_automaton_roll():
    check(sir_automaton_roll, _grid(2910, 16), np.random.default_rng(2911).uniform(size=(12, 2, 16, 16)), 0.3, 0.2)


def test_sir_automaton_padded():
    check(sir_automaton_padded, _grid(2912, 12), np.random.default_rng(2913).uniform(size=(10, 2, 12, 12)),
          0.25, 0.15)


def test_immunity_waning():
    check(immunity_waning, _grid(2914, 14, 5), np.random.default_rng(2915).uniform(size=(30, 3, 14, 14)),
          0.3, 0.2, 0.3, 30)


def test_agents_on_lattice():
    rng = np.random.default_rng(2916)
    n, T, size = 60, 15, 8
    check(agents_on_lattice, rng.integers(0, size, (n, 2)), rng.integers(-1, 2, (T, n, 2)),
          rng.uniform(size=(T, n, 2)), size, 0.4, 0.1)


def test_households():
    rng = np.random.default_rng(2917)
    check(households, rng.integers(100, 130, 80), rng.choice(80, 10, replace=False), 0.3)


def test_targeted_vaccination():
    rng = np.random.default_rng(2918)
    n = 40
    A = (rng.uniform(size=(n, n)) < 0.12) * rng.uniform(0.5, 1.0, (n, n))  # contact weights: no tied degrees
    A = np.triu(A, 1)
    A = A + A.T
    check(targeted_vaccination, A, 5, 0.3, rng.uniform(size=(8, n)))


def test_epidemic_curve_stats():
    t = np.arange(60)
    inc = np.round(200 * np.exp(-0.5 * ((t - 25) / 7) ** 2)).astype(np.int64)
    inc[:3] = 0
    check(epidemic_curve_stats, inc, 5)
