"""Electrical circuits as EE course notebooks write them: nodal analysis with a conductance matrix stamped by
`np.add.at` from a branch list and solved by `np.linalg.solve`, AC phasors in complex128 (series RLC impedance over
a frequency sweep, `np.angle(deg=True)`, `np.unwrap`, half-power bandwidth), AC nodal analysis as a batched complex
solve over frequencies, RC step responses (analytic against forward Euler, rise time by `np.interp`, time constant by
`searchsorted`), an RLC transient by the state-space matrix exponential from `np.linalg.eig`, balanced three-phase
power, a Thevenin equivalent from two solves, and E12 preferred values by `searchsorted` on decades (tests/porting)."""

import numpy as np
from harness import check


def nodal_dc(np, branches, conductance, n_nodes, sources):
    branches, g = np.asarray(branches), np.asarray(conductance)
    a, b = branches[:, 0], branches[:, 1]
    G = np.zeros((n_nodes + 1, n_nodes + 1))
    np.add.at(G, (a, a), g)
    np.add.at(G, (b, b), g)
    np.add.at(G, (a, b), -g)
    np.add.at(G, (b, a), -g)
    G = G[1:, 1:]  # node 0 is ground
    I = np.zeros(n_nodes)
    for node, amps in sources:
        I[node - 1] += amps
    v = np.linalg.solve(G, I)
    V = np.concatenate([[0.0], v])
    current = (V[a] - V[b]) * g
    power = current ** 2 / g
    kcl = np.zeros(n_nodes + 1)
    np.add.at(kcl, a, current)
    np.subtract.at(kcl, b, current)
    return {"V": V, "I": current, "P": power, "P_total": power.sum(), "kcl": kcl[1:] - I,
            "cond": np.linalg.cond(G) < 1e6, "hottest": int(np.argmax(power))}


def rlc_phasors(np, R, L, C, freqs):
    f = np.asarray(freqs)
    w = 2 * np.pi * f
    Z = R + 1j * (w * L - 1 / (w * C))
    I = 1.0 / Z
    V_C = I / (1j * w * C)
    mag_db = 20 * np.log10(np.abs(V_C))
    phase = np.angle(V_C, deg=True)
    unwrapped = np.degrees(np.unwrap(np.radians(phase)))
    k = int(np.argmax(np.abs(I)))
    half = np.abs(I) >= np.abs(I).max() / np.sqrt(2)
    edges = f[np.flatnonzero(np.diff(half.astype(np.int8)))]
    f0 = 1 / (2 * np.pi * np.sqrt(L * C))
    return {"Z": Z[::10], "mag_db": mag_db, "phase": unwrapped, "f_peak": f[k], "f0": f0,
            "bandwidth": edges, "Q": f0 / (edges[-1] - edges[0]) if edges.size == 2 else -1.0,
            "pf": np.cos(np.angle(Z))[::10]}


def ac_nodal_batched(np, freqs, R1, R2, L, C):
    w = 2 * np.pi * np.asarray(freqs)
    yR1, yR2 = 1 / R1, 1 / R2
    yL = 1 / (1j * w * L)
    yC = 1j * w * C
    Y = np.zeros((len(w), 2, 2), dtype=complex)
    Y[:, 0, 0] = yR1 + yL
    Y[:, 0, 1] = -yL
    Y[:, 1, 0] = -yL
    Y[:, 1, 1] = yL + yC + yR2
    src = np.zeros((len(w), 2), dtype=complex)
    src[:, 0] = 1.0 * yR1  # 1 V source through R1 as a Norton current
    V = np.linalg.solve(Y, src[..., None])[..., 0]
    H = V[:, 1]
    gain_db = 20 * np.log10(np.abs(H))
    cutoff = np.asarray(freqs)[np.argmin(np.abs(gain_db - (gain_db[0] - 3)))]
    return {"H": H, "gain_db": gain_db, "phase": np.angle(H), "cutoff": cutoff,
            "residual": np.abs(np.einsum("fij,fj->fi", Y, V) - src).max() < 1e-6}


def rc_step(np, R, C, V, t_end, n):
    tau = R * C
    t = np.linspace(0, t_end, n)
    dt = t[1] - t[0]
    v_exact = V * (1 - np.exp(-t / tau))
    v = np.zeros(n)
    for k in range(1, n):
        v[k] = v[k - 1] + dt * (V - v[k - 1]) / tau
    i_c = np.gradient(v_exact, t) * C
    t10 = np.interp(0.1 * V, v_exact, t)
    t90 = np.interp(0.9 * V, v_exact, t)
    k63 = int(np.searchsorted(v_exact, (1 - np.exp(-1)) * V))
    energy = np.trapezoid(i_c ** 2 * R, t)
    return {"exact": v_exact[::20], "euler": v[::20], "err": np.abs(v - v_exact).max(),
            "rise": t90 - t10, "rise_theory": tau * np.log(9), "tau_est": t[k63], "energy": energy,
            "half_cap_energy": 0.5 * C * V ** 2}


def rlc_state_space(np, R, L, C, x0, times):
    A = np.array([[0.0, 1.0 / C], [-1.0 / L, -R / L]])  # state: capacitor voltage, inductor current
    lam, V = np.linalg.eig(A)
    Vinv = np.linalg.inv(V)
    t = np.asarray(times)
    expm = np.einsum("ij,tj,jk->tik", V, np.exp(np.outer(t, lam)), Vinv)
    x = (expm @ np.asarray(x0)).real
    zeta = R / 2 * np.sqrt(C / L)
    kind = "under" if zeta < 1 else ("critical" if zeta == 1 else "over")
    sign_changes = np.count_nonzero(np.diff(np.sign(x[:, 0])) != 0)
    energy = 0.5 * C * x[:, 0] ** 2 + 0.5 * L * x[:, 1] ** 2
    return {"x": x, "eig": np.sort_complex(lam), "zeta": zeta, "kind": kind, "crossings": sign_changes,
            "energy_decay": bool(np.all(np.diff(energy) <= 1e-12)), "wd": np.abs(lam.imag).max()}


def three_phase(np, V_line, Z_load):
    Vp = V_line / np.sqrt(3)
    angles = np.deg2rad([0.0, -120.0, 120.0])
    Va = Vp * np.exp(1j * angles)
    Z = np.asarray(Z_load)
    Ia = Va / Z
    S = Va * np.conj(Ia)
    neutral = Ia.sum()
    Vll = Va - np.roll(Va, -1)
    return {"I_mag": np.abs(Ia), "I_deg": np.angle(Ia, deg=True), "P": S.real, "Q": S.imag,
            "pf": S.real.sum() / np.abs(S.sum()), "neutral": np.abs(neutral),
            "Vll": np.abs(Vll), "S_total": np.round(S.sum(), 6)}


def thevenin(np, G, load_node):
    G = np.asarray(G)
    n = G.shape[0]
    I = np.zeros(n)
    I[0] = 1e-3
    v_open = np.linalg.solve(G, I)[load_node]
    G_short = G.copy()
    G_short[load_node, :] = 0.0
    G_short[load_node, load_node] = 1.0
    I_s = I.copy()
    I_s[load_node] = 0.0
    v_short = np.linalg.solve(G_short, I_s)
    i_sc = -(G[load_node] @ v_short - I[load_node])
    R_th = v_open / i_sc
    loads = np.logspace(1, 5, 41)
    P = v_open ** 2 * loads / (R_th + loads) ** 2
    return {"V_th": v_open, "R_th": R_th, "I_sc": i_sc, "P_load": P, "best_load": loads[np.argmax(P)],
            "R_th_direct": np.linalg.inv(G)[load_node, load_node]}


def e12_values(np, targets):
    e12 = np.array([1.0, 1.2, 1.5, 1.8, 2.2, 2.7, 3.3, 3.9, 4.7, 5.6, 6.8, 8.2])
    t = np.asarray(targets)
    decade = np.floor(np.log10(t)).astype(int)
    mant = t / 10.0 ** decade
    ext = np.append(e12, 10.0)
    j = np.clip(np.searchsorted(ext, mant), 1, len(ext) - 1)
    lo, hi = ext[j - 1], ext[j]
    pick = np.where(mant / lo <= hi / mant, lo, hi)
    value = pick * 10.0 ** decade
    err_pct = 100 * (value - t) / t
    exp10 = np.floor(np.log10(value)).astype(int) - 1
    digits = np.round(value / 10.0 ** exp10).astype(int)
    bands = np.column_stack([digits // 10, digits % 10, exp10])
    return {"value": value, "err_pct": err_pct, "worst": np.abs(err_pct).max(), "bands": bands}


def _ladder(n):
    G = np.zeros((n, n))
    for i in range(n):
        G[i, i] += 1 / 1000 + (1 / 2200 if i + 1 < n else 0) + (1 / 2200 if i > 0 else 0)
        if i + 1 < n:
            G[i, i + 1] = G[i + 1, i] = -1 / 2200
    return G


def test_nodal_dc_stamped():
    rng = np.random.default_rng(1411)
    branches = np.array([[1, 0], [1, 2], [2, 0], [2, 3], [3, 0], [3, 4], [4, 0], [1, 4], [2, 4]])
    check(nodal_dc, branches, 1 / rng.uniform(100, 5000, len(branches)), 4, [(1, 0.01), (3, -0.004)],
          rtol=1e-3, atol=1e-6)


def test_rlc_series_phasor_sweep():
    check(rlc_phasors, 10.0, 1e-3, 1e-6, np.linspace(2000.0, 8000.0, 301), rtol=1e-3, atol=1e-3)


def test_ac_nodal_batched_solve():
    check(ac_nodal_batched, np.logspace(1, 5, 50), 100.0, 1000.0, 10e-3, 1e-6, rtol=1e-3, atol=1e-4)


def test_rc_step_response():
    check(rc_step, 1e3, 1e-6, 5.0, 5e-3, 401, rtol=1e-3, atol=1e-5)


def test_rlc_state_space_transient():
    t = np.linspace(0, 2e-3, 60)
    check(rlc_state_space, 20.0, 10e-3, 1e-6, np.array([5.0, 0.0]), t, rtol=1e-3, atol=1e-4)
    check(rlc_state_space, 400.0, 10e-3, 1e-6, np.array([5.0, 0.0]), t, rtol=1e-3, atol=1e-4)


def test_three_phase_unbalanced_load():
    check(three_phase, 400.0, np.array([10 + 5j, 12 + 0j, 8 - 4j]), rtol=1e-4, atol=1e-6)


def test_thevenin_two_solves():
    check(thevenin, _ladder(5), 4, rtol=1e-3, atol=1e-6)


def test_e12_preferred_values():
    rng = np.random.default_rng(1418)
    check(e12_values, 10 ** rng.uniform(1, 6, 30))
