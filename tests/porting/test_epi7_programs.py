"""Epidemiology as NumPy code writes it: SIR and SEIR by Euler steps into preallocated arrays, an age-structured
SIR with a contact matrix, an agent-based outbreak with boolean masks and precomputed random draws, R0 and the
herd-immunity threshold from the next-generation matrix's spectral radius, an epidemic curve's doubling time by
a log-linear fit, and case counts per region and week with add.at and cumsum (tests/porting)."""

import numpy as np
from harness import check


def sir_euler(np, beta=0.3, gamma=0.1, days=160, dt=0.5):
    steps = int(days / dt)
    y = np.zeros((steps + 1, 3))
    y[0] = [0.99, 0.01, 0.0]
    for k in range(steps):
        S, I, R = y[k]
        new_inf = beta * S * I * dt
        new_rec = gamma * I * dt
        y[k + 1] = y[k] + np.array([-new_inf, new_inf - new_rec, new_rec])
    peak_day = np.argmax(y[:, 1]) * dt
    return {"y": y[::20], "peak": y[:, 1].max(), "peak_day": peak_day, "final_R": y[-1, 2],
            "conserved": bool(np.allclose(y.sum(axis=1), 1.0))}


def seir_vectorised(np, betas_host, sigma=0.2, gamma=0.1, days=120):
    beta = np.asarray(betas_host)[:, None]
    S, E, I, R = np.full((4, beta.shape[0], 1), 0.0)
    S += 0.999
    E += 0.001
    hist = []
    for _ in range(days):
        dS = -beta * S * I
        dE = beta * S * I - sigma * E
        dI = sigma * E - gamma * I
        S, E, I, R = S + dS, E + dE, I + dI, R + gamma * I
        hist.append(I[:, 0])
    curve = np.stack(hist, axis=1)
    return {"curve": curve[:, ::10], "peak_t": curve.argmax(axis=1), "attack": R[:, 0],
            "r0": betas_host / gamma}


def age_structured(np, C_host, N_host, beta=0.05, gamma=0.2, days=60):
    C, N = np.asarray(C_host), np.asarray(N_host, dtype=float)
    I = np.zeros_like(N)
    I[2] = 10
    S = N - I
    R = np.zeros_like(N)
    for _ in range(days):
        force = beta * C @ (I / N)
        new = np.minimum(S * force, S)
        rec = gamma * I
        S -= new
        I += new - rec
        R += rec
    ngm = beta / gamma * C * N[:, None] / N[None, :]
    r0 = np.max(np.abs(np.linalg.eigvals(ngm)))
    return {"S": S, "I": I, "R": R, "attack_by_age": R / N, "r0": r0, "herd": 1 - 1 / r0}


def agent_based(np, pos_host, draws_host, radius=0.08, p_inf=0.3, recover_after=5):
    pos = np.asarray(pos_host)
    draws = np.asarray(draws_host)
    n = pos.shape[0]
    state = np.zeros(n, dtype=np.int8)
    state[:3] = 1
    days_ill = np.zeros(n, dtype=int)
    d2 = ((pos[:, None, :] - pos[None, :, :]) ** 2).sum(-1)
    near = (d2 < radius**2) & ~np.eye(n, dtype=bool)
    counts = []
    for t in range(draws.shape[0]):
        infectious = state == 1
        exposure = near[:, infectious].sum(axis=1)
        p = 1 - (1 - p_inf) ** exposure
        new = (state == 0) & (draws[t] < p)
        days_ill[infectious] += 1
        state[infectious & (days_ill >= recover_after)] = 2
        state[new] = 1
        counts.append(np.bincount(state, minlength=3))
    counts = np.array(counts)
    return {"counts": counts, "degree": near.sum(1), "final": np.bincount(state, minlength=3),
            "never": np.flatnonzero(state == 0)[:10]}


def doubling_time(np, cases_host):
    cases = np.asarray(cases_host)
    days = np.arange(cases.size)
    ok = cases > 0
    slope, intercept = np.polyfit(days[ok], np.log(cases[ok]), 1)
    td = np.log(2) / slope
    weekly = np.convolve(cases, np.ones(7) / 7, mode="valid")
    growth = weekly[7:] / weekly[:-7]
    rt = growth ** (5 / 7)
    return {"slope": slope, "td": td, "weekly": weekly, "rt": rt, "msg": f"doubling every {td:.1f} days",
            "first_over_100": int(np.argmax(cases > 100))}


def cases_by_region_week(np, region_host, day_host, n_regions=4):
    region, day = np.asarray(region_host), np.asarray(day_host)
    week = day // 7
    table = np.zeros((n_regions, week.max() + 1), dtype=np.int64)
    np.add.at(table, (region, week), 1)
    cum = np.cumsum(table, axis=1)
    share = table / table.sum(axis=0, keepdims=True)
    rising = np.diff(table, axis=1) > 0
    streak = np.zeros(n_regions, dtype=int)
    run = np.zeros(n_regions, dtype=int)
    for col in rising.T:
        run = np.where(col, run + 1, 0)
        streak = np.maximum(streak, run)
    return {"table": table, "cum": cum, "share": np.nan_to_num(share), "streak": streak,
            "worst_week": table.sum(0).argmax(), "total": int(table.sum())}


def stochastic_sir_chain_binomial(np, u_inf_host, u_rec_host, N=500, beta=0.4, gamma=0.15):
    u_inf, u_rec = np.asarray(u_inf_host), np.asarray(u_rec_host)
    S, I, R = N - 5, 5, 0
    hist = np.zeros((u_inf.shape[0] + 1, 3), dtype=np.int64)
    hist[0] = S, I, R
    for t in range(u_inf.shape[0]):
        p_inf = 1 - np.exp(-beta * I / N)
        p_rec = 1 - np.exp(-gamma)
        new_inf = np.count_nonzero(u_inf[t, :S] < p_inf)
        new_rec = np.count_nonzero(u_rec[t, :I] < p_rec)
        S, I, R = S - new_inf, I + new_inf - new_rec, R + new_rec
        hist[t + 1] = S, I, R
    incidence = -np.diff(hist[:, 0])
    return {"hist": hist, "peak": int(hist[:, 1].max()), "peak_t": int(hist[:, 1].argmax()),
            "final_size": int(hist[-1, 2] + hist[-1, 1]), "weekly": np.add.reduceat(incidence, np.arange(0, 60, 7))}


def test_sir_euler_steps():
    check(sir_euler, rtol=1e-3, atol=1e-5)


def test_seir_vectorised_over_betas():
    check(seir_vectorised, np.array([0.2, 0.3, 0.5]), rtol=1e-3, atol=1e-5)


def test_age_structured_sir():
    rng = np.random.default_rng(741)
    C = rng.uniform(0.5, 3, (4, 4))
    check(age_structured, (C + C.T) / 2, np.array([2000, 3000, 2500, 1500]), rtol=1e-3, atol=1e-3)


def test_agent_based_outbreak_masks():
    rng = np.random.default_rng(742)
    check(agent_based, rng.random((60, 2)), rng.random((15, 60)))


def test_doubling_time_log_linear():
    rng = np.random.default_rng(743)
    check(doubling_time, np.round(5 * np.exp(0.12 * np.arange(40)) * rng.uniform(0.8, 1.2, 40)), rtol=1e-3,
          atol=1e-4)


def test_cases_by_region_and_week():
    rng = np.random.default_rng(744)
    check(cases_by_region_week, rng.integers(0, 4, 300), np.sort(rng.integers(0, 56, 300)))


def test_stochastic_sir_chain_binomial():
    rng = np.random.default_rng(745)
    check(stochastic_sir_chain_binomial, rng.random((60, 500)), rng.random((60, 500)))
