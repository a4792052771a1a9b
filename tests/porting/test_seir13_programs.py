"""Epidemic models as epidemiology course notebooks write them: SEIR by forward Euler with the state in one array
(`np.vstack` history, peak by `argmax`, final size), a metapopulation SIR with a mobility matrix (`@` coupling,
`np.outer` force of infection), a stochastic SIR on a grid with host-drawn uniforms (neighbours by `np.roll` and
`np.pad`, state changes by boolean masks, counts by `np.bincount`), contact tracing on an edge list (`np.add.at`
infection pressure, `np.unique(return_counts=True)` secondary cases), age-structured R0 from the next-generation
matrix (`np.linalg.eigvals`, `np.abs().max()`), an epidemic curve from line-list onset days (`np.histogram`,
7-day means by `np.convolve`, doubling times from `np.polyfit` on logs, `np.digitize` age bands) and a
vaccination sweep vectorised over coverage with `np.meshgrid`, and surveillance counts with missing days
(rolling `np.nanmean` over `sliding_window_view(axis=1)`, forward fill by `np.maximum.accumulate(out=)` and
`take_along_axis`, `np.interp` per region, `np.ma.masked_invalid`) (tests/porting)."""

import warnings

import numpy as np
from harness import check


def seir_euler(np, beta, sigma, gamma, N, I0, days, dt):
    y = np.array([N - I0, 0.0, I0, 0.0])
    history = [y]
    for _ in range(int(days / dt)):
        S, E, I, R = y
        new_inf = beta * S * I / N
        dy = np.array([-new_inf, new_inf - sigma * E, sigma * E - gamma * I, gamma * I])
        y = y + dt * dy
        history.append(y)
    h = np.vstack(history)[::int(1 / dt)]
    peak = int(np.argmax(h[:, 2]))
    return {"daily": h[::10], "peak_day": peak, "peak_I": h[peak, 2], "final_R": h[-1, 3] / N,
            "conserved": np.abs(h.sum(axis=1) - N).max() < 1e-3 * N, "R0": beta / gamma}


def metapopulation(np, pops, mobility, beta, gamma, steps):
    n = len(pops)
    travel = mobility / mobility.sum(axis=1, keepdims=True)
    I = np.zeros(n)
    I[0] = 10.0
    S = pops - I
    R = np.zeros(n)
    arrival = np.full(n, -1)
    for t in range(steps):
        eff_I = travel.T @ I
        eff_N = travel.T @ pops
        force = beta * travel @ (eff_I / eff_N)
        new_inf = S * (1 - np.exp(-force))
        rec = gamma * I
        S, I, R = S - new_inf, I + new_inf - rec, R + rec
        arrival[(arrival < 0) & (I > 1)] = t
    contact = np.outer(pops, pops) * travel
    return {"attack": R / pops, "arrival": arrival, "I_end": I, "order": np.argsort(arrival, kind="stable"),
            "contact_rowsum": contact.sum(axis=1)}


def grid_sir(np, uniforms, p_inf, p_rec):
    steps, h, w = uniforms.shape[0], uniforms.shape[2], uniforms.shape[3]
    state = np.zeros((h, w), dtype=np.int8)
    state[h // 2, w // 2] = 1
    counts = []
    for t in range(steps):
        inf = (state == 1).astype(np.int32)
        padded = np.pad(inf, 1)
        nbrs = padded[:-2, 1:-1] + padded[2:, 1:-1] + padded[1:-1, :-2] + padded[1:-1, 2:]
        diag = np.roll(np.roll(inf, 1, 0), 1, 1) + np.roll(np.roll(inf, -1, 0), -1, 1)
        p = 1 - (1 - p_inf) ** (nbrs + 0.5 * diag)
        catch = (state == 0) & (uniforms[t, 0] < p)
        recover = (state == 1) & (uniforms[t, 1] < p_rec)
        state[catch] = 1
        state[recover] = 2
        counts.append(np.bincount(state.ravel(), minlength=3))
    counts = np.array(counts)
    rows, cols = np.nonzero(state == 2)
    return {"counts": counts, "final": state, "extent": [int(rows.min()), int(rows.max()), int(cols.min()),
                                                           int(cols.max())], "peak": int(counts[:, 1].argmax())}


def contact_tracing(np, edges, infected_at, n):
    src, dst = edges[:, 0], edges[:, 1]
    pressure = np.zeros(n)
    np.add.at(pressure, dst, infected_at[src] >= 0)
    degree = np.bincount(np.concatenate([src, dst]), minlength=n)
    infectors = src[(infected_at[src] >= 0) & (infected_at[dst] > infected_at[src])]
    who, secondary = np.unique(infectors, return_counts=True)
    r_dist = np.bincount(secondary)
    superspreaders = who[secondary >= np.percentile(secondary, 80)]
    adj = np.zeros((n, n), dtype=bool)
    adj[src, dst] = True
    adj |= adj.T
    second_ring = (adj.astype(np.int32) @ adj.astype(np.int32) > 0) & ~adj
    np.fill_diagonal(second_ring, False)
    return {"pressure": pressure, "degree": degree, "who": who, "secondary": secondary, "r_dist": r_dist,
            "super": superspreaders, "mean_R": secondary.mean(), "ring2": second_ring.sum(axis=1)}


def next_generation(np, contacts, pop_share, susceptibility, infectious_days):
    K = susceptibility[:, None] * contacts * pop_share[None, :] / pop_share[:, None] * infectious_days
    ev = np.linalg.eigvals(K)
    R0 = np.abs(ev).max()
    w, v = np.linalg.eig(K)
    lead = np.real(v[:, np.argmax(np.abs(w))])
    lead = lead / lead.sum()
    scale = 1.0 / R0
    herd = 1 - 1 / R0
    vacc = K * (1 - np.array([0.0, 0.5, 0.8]))[None, :]
    R_vacc = np.max(np.abs(np.linalg.eigvals(vacc)))
    return {"R0": R0, "lead": np.abs(lead), "herd": herd, "scale": scale, "R_vacc": R_vacc,
            "row_sums": K.sum(axis=1)}


def epidemic_curve(np, onset_days, ages):
    days = np.arange(onset_days.max() + 1)
    cases, _ = np.histogram(onset_days, bins=np.append(days, days[-1] + 1))
    weekly = np.convolve(cases, np.ones(7) / 7, mode="valid")
    growth = weekly[:20] > 0
    slope, intercept = np.polyfit(np.arange(20)[growth], np.log(weekly[:20][growth]), 1)
    bands = np.digitize(ages, [18, 40, 65])
    by_band = np.bincount(bands, minlength=4)
    first_by_band = np.full(4, onset_days.max() + 1)
    np.minimum.at(first_by_band, bands, onset_days)
    cum = np.cumsum(cases)
    half = int(np.searchsorted(cum, cum[-1] / 2))
    return {"cases": cases, "weekly": weekly, "doubling": np.log(2) / slope, "by_band": by_band,
            "first": first_by_band, "half_day": half, "peak_week": int(np.argmax(weekly))}


def vaccination_sweep(np, R0s, coverages, efficacy):
    R, C = np.meshgrid(R0s, coverages, indexing="ij")
    Reff = R * (1 - C * efficacy)
    z = np.full(Reff.shape, 0.5)
    for _ in range(60):
        z = 1 - np.exp(-Reff * z)
    z = np.where(Reff <= 1, 0.0, z)
    controlled = Reff < 1
    needed = np.clip((1 - 1 / R0s) / efficacy, 0, None)
    first_ok = np.where(controlled.any(axis=1), np.argmax(controlled, axis=1), -1)
    return {"Reff": Reff, "final_size": z, "needed": needed, "first_ok": first_ok,
            "averted": (z[:, :1] - z).sum(axis=1)}


def clean_surveillance(np, counts):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN windows: NumPy warns, both give NaN
        win = np.lib.stride_tricks.sliding_window_view(counts, 7, axis=1)
        rolling = np.nanmean(win, axis=-1)
        region_max = np.nanmax(counts, axis=1)
    ok = ~np.isnan(counts)
    days = np.arange(counts.shape[1])
    idx = np.where(ok, days, 0)
    np.maximum.accumulate(idx, axis=1, out=idx)
    ffill = np.take_along_axis(counts, idx, axis=1)
    interp = np.array([np.interp(days, days[m], row[m]) if m.any() else np.full(len(days), np.nan)
                       for row, m in zip(counts, ok, strict=True)])
    with np.errstate(divide="ignore", invalid="ignore"):
        growth = interp[:, 1:] / interp[:, :-1]
    growth = np.where(np.isfinite(growth), growth, np.nan)
    masked = np.ma.masked_invalid(counts)
    return {"rolling": rolling, "max": region_max, "ffill": ffill, "interp": interp, "growth": growth,
            "missing": (~ok).sum(axis=1), "ma_mean": masked.mean(axis=1).filled(-1),
            "ma_count": masked.count(axis=1)}


def test_seir_euler_peak_and_final_size():
    check(seir_euler, 0.5, 1 / 5.2, 1 / 7.0, 1e6, 10.0, 160, 0.25, rtol=2e-3, atol=1e-2)


def test_metapopulation_mobility():
    rng = np.random.default_rng(1312)
    mob = rng.random((6, 6)) + np.eye(6) * 20
    check(metapopulation, rng.integers(10_000, 100_000, 6).astype(float), mob, 0.4, 0.2, 80, rtol=2e-3, atol=1e-2)


def test_grid_sir_stochastic():
    rng = np.random.default_rng(1313)
    check(grid_sir, rng.random((25, 2, 21, 21)), 0.3, 0.15)


def test_contact_tracing_edge_list():
    rng = np.random.default_rng(1314)
    n = 40
    edges = rng.integers(0, n, (120, 2))
    edges = edges[edges[:, 0] != edges[:, 1]]
    infected_at = np.where(rng.random(n) < 0.5, rng.integers(0, 30, n), -1)
    check(contact_tracing, edges, infected_at, n)


def test_next_generation_matrix_R0():
    contacts = np.array([[8.0, 3.0, 1.0], [3.0, 6.0, 2.0], [1.0, 2.0, 3.0]])
    check(next_generation, contacts, np.array([0.25, 0.55, 0.2]), np.array([0.05, 0.04, 0.06]), 5.0,
          rtol=1e-3)


def test_epidemic_curve_line_list():
    rng = np.random.default_rng(1316)
    onset = np.floor(rng.gamma(9, 4, 800)).astype(np.int64)
    check(epidemic_curve, onset, rng.integers(0, 90, 800), rtol=1e-3)


def test_vaccination_coverage_sweep():
    check(vaccination_sweep, np.array([1.2, 2.0, 3.5, 6.0]), np.linspace(0, 1, 11), 0.9, rtol=1e-3, atol=1e-4)


def test_surveillance_gaps_filled():
    rng = np.random.default_rng(1318)
    counts = rng.poisson(20, (4, 30)).astype(float)
    counts[rng.random((4, 30)) < 0.2] = np.nan
    counts[1, :9] = np.nan
    counts[2, 0] = 20.0
    check(clean_surveillance, counts, rtol=1e-3)
