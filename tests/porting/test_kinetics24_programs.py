"""Chemical kinetics in plain NumPy: first-order networks by the matrix exponential from `eig`, RK4 on a
Michaelis-Menten system with state stacked by `np.stack`, Arrhenius fits by `polyfit` of `log k` against `1/T`,
half-lives by `searchsorted` on a decreasing trace, equilibrium by Newton's method on `linalg.solve`, a stoichiometric
null space by `svd`, titration curves by `np.roots` per point, Gillespie-free stochastic propensities passed in,
and a batch reactor's conversion table by `einsum` over reactions (tests/porting)."""

import numpy as np
from harness import check


def first_order_network(np, k12, k21, k23, times):
    K = np.array([[-k12, k21, 0.0], [k12, -(k21 + k23), 0.0], [0.0, k23, 0.0]])
    w, V = np.linalg.eig(K)
    c0 = np.array([1.0, 0.0, 0.0])
    coef = np.linalg.solve(V, c0)
    t = np.asarray(times)
    C = (V @ (coef[:, None] * np.exp(np.outer(w, t)))).real.T  # (times, species)
    mass = C.sum(axis=1)
    peak_t = t[np.argmax(C[:, 1])]
    return {"C": C, "mass": mass, "peak_t": peak_t, "rates": np.sort(w.real),
            "monotone": bool(np.all(np.diff(C[:, 2]) >= -1e-9))}


def michaelis_menten_rk4(np, s0, e0, k1, km1, k2, dt, steps):
    def f(y):
        s, e, c, p = y
        v1 = k1 * s * e - km1 * c
        v2 = k2 * c
        return np.stack([-v1, -v1 + v2, v1 - v2, v2])

    y = np.array([s0, e0, 0.0, 0.0])
    traj = [y]
    for _ in range(steps):
        a = f(y)
        b = f(y + dt / 2 * a)
        c = f(y + dt / 2 * b)
        d = f(y + dt * c)
        y = y + dt / 6 * (a + 2 * b + 2 * c + d)
        traj.append(y)
    T = np.array(traj)
    return {"T": T, "enzyme_total": T[:, 1] + T[:, 2], "substrate_total": T[:, 0] + T[:, 2] + T[:, 3],
            "half": int(np.argmax(T[:, 3] >= s0 / 2))}


def arrhenius(np, T, k):
    T, k = np.asarray(T), np.asarray(k)
    x, y = 1.0 / T, np.log(k)
    slope, intercept = np.polyfit(x, y, 1)
    R = 8.314
    Ea = -slope * R
    A = np.exp(intercept)
    fitted = A * np.exp(-Ea / (R * T))
    resid = np.log(k / fitted)
    q10 = k[1:] / k[:-1]
    return {"Ea": Ea / 1000, "lnA": intercept, "resid": resid, "q10": q10,
            "worst": int(np.argmax(np.abs(resid))), "r2": 1 - np.sum(resid ** 2) / np.sum((y - y.mean()) ** 2)}


def half_lives(np, conc, t):
    C, t = np.asarray(conc), np.asarray(t)
    out = []
    for row in C:
        target = row[0] / 2
        j = np.searchsorted(-row, -target)  # row decreases: search its negation
        frac = (row[j - 1] - target) / (row[j - 1] - row[j])
        out.append(t[j - 1] + frac * (t[j] - t[j - 1]))
    hl = np.array(out)
    k_est = np.log(2) / hl
    ln = np.log(C / C[:, :1])
    k_fit = -np.sum(ln * t, axis=1) / np.sum(t * t)
    return {"hl": hl, "k_est": k_est, "k_fit": k_fit, "order": np.argsort(hl)}


def equilibrium(np, K, total_a, total_b, iters):
    # A + B <-> C with K = c / (a b); unknowns a, b, c
    x = np.array([total_a, total_b, 0.0]) * 0.5
    history = []
    for _ in range(iters):
        a, b, c = x
        F = np.array([c - K * a * b, a + c - total_a, b + c - total_b])
        J = np.array([[-K * b, -K * a, 1.0], [1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
        dx = np.linalg.solve(J, -F)
        x = x + dx
        history.append(np.linalg.norm(F))
    return {"x": x, "res": history[-1] < 1e-5, "Q": x[2] / (x[0] * x[1]), "hist": np.array(history[:3])}


def stoichiometry(np, S):
    S = np.asarray(S, dtype=float)  # species x reactions
    U, s, Vt = np.linalg.svd(S)
    rank = int(np.sum(s > 1e-10 * s.max()))
    null = Vt[rank:].T  # reaction null space: cycles
    left = U[:, rank:]  # conserved moieties
    check_null = np.abs(S @ null).max() if null.size else 0.0
    check_left = np.abs(left.T @ S).max() if left.size else 0.0
    return {"rank": rank, "n_cycles": null.shape[1], "n_conserved": left.shape[1],
            "ok": bool(check_null < 1e-6 and check_left < 1e-6), "sv": s}


def titration(np, Ka, Ca, Cb_values, Kw):
    pH = []
    for Cb in np.asarray(Cb_values):
        # charge balance: h^3 + (Ka + Cb) h^2 + (Ka (Cb - Ca) - Kw) h - Ka Kw = 0
        r = np.roots([1.0, Ka + Cb, Ka * (Cb - Ca) - Kw, -Ka * Kw])
        h = r.real[(np.abs(r.imag) < 1e-12) & (r.real > 0)].max()
        pH.append(-np.log10(h))
    pH = np.array(pH)
    slope = np.gradient(pH, np.asarray(Cb_values))
    half = np.argmin(np.abs(np.asarray(Cb_values) - Ca / 2))
    return {"pH": pH, "equiv": int(np.argmax(slope)), "buffer": float(pH[half])}


def propensities(np, counts, stoich, rates, u):
    X, N, c = np.asarray(counts), np.asarray(stoich), np.asarray(rates)
    reactants = np.where(N < 0, -N, 0)  # (reactions, species)
    a = c * np.prod(np.where(reactants > 0, X[None, :] ** reactants, 1), axis=1)
    a0 = a.sum()
    cum = np.cumsum(a) / a0
    chosen = np.searchsorted(cum, np.asarray(u))
    X_next = X + N[chosen].sum(axis=0)
    return {"a": a, "a0": a0, "chosen": chosen, "X": X_next, "freq": np.bincount(chosen, minlength=len(c)) / len(u)}


def batch_conversion(np, nu, rates, c0, dt, steps):
    nu, r, c = np.asarray(nu, dtype=float), np.asarray(rates), np.asarray(c0)
    rows = [c]
    for _ in range(steps):
        extent = r * np.prod(np.where(nu < 0, c[None, :], 1.0) ** np.abs(np.minimum(nu, 0)), axis=1)
        c = np.maximum(c + dt * np.einsum("rs,r->s", nu, extent), 0.0)
        rows.append(c)
    C = np.vstack(rows)
    conversion = 1 - C[:, 0] / C[0, 0]
    return {"C": C, "conversion": conversion, "selectivity": C[-1, 2] / np.maximum(C[-1, 3], 1e-12),
            "t90": int(np.searchsorted(conversion, 0.9))}


def test_first_order_network():
    check(first_order_network, 0.8, 0.3, 0.5, np.linspace(0, 10, 21), atol=2e-5)


def test_michaelis_menten_rk4():
    check(michaelis_menten_rk4, 10.0, 1.0, 1.0, 0.5, 0.3, 0.05, 120, rtol=1e-3, atol=1e-4)


def test_arrhenius():
    T = np.array([290.0, 300, 310, 320, 330, 340])
    k = 1e7 * np.exp(-50000 / (8.314 * T)) * np.array([1.02, 0.97, 1.01, 0.99, 1.03, 0.98])
    check(arrhenius, T, k, rtol=2e-3, atol=2e-3)


def test_half_lives():
    t = np.linspace(0, 20, 41)
    C = np.exp(-np.outer([0.1, 0.35, 0.7], t)) * np.array([[2.0], [1.0], [5.0]])
    check(half_lives, C, t, rtol=1e-3)


def test_equilibrium():
    check(equilibrium, 4.0, 1.0, 0.6, 12, rtol=1e-3, atol=1e-5)


def test_stoichiometry():
    S = np.array([[-1, 0, 1, 0], [1, -1, 0, 0], [0, 1, -1, 0], [0, 0, 0, -1], [0, 0, 0, 1]])
    check(stoichiometry, S, atol=1e-5)


def test_titration():
    check(titration, 1.8e-5, 0.1, np.linspace(0.005, 0.15, 30), 1e-14, rtol=2e-3, atol=2e-3)


def test_propensities():
    rng = np.random.default_rng(2411)
    N = np.array([[-1, -1, 1, 0], [0, 0, -1, 1], [1, 0, 0, -1], [-2, 1, 0, 0]])
    check(propensities, np.array([50, 20, 5, 3]), N, np.array([0.01, 0.5, 0.2, 0.001]), rng.random(200))


def test_batch_conversion():
    nu = [[-1, -1, 1, 0], [-1, 0, 0, 1]]
    check(batch_conversion, nu, np.array([0.8, 0.2]), np.array([1.0, 1.5, 0.0, 0.0]), 0.05, 150,
          rtol=1e-3, atol=1e-5)
