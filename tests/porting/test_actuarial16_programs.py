"""Actuarial science as life-contingencies course notebooks write it: a Gompertz-Makeham life table with
`lx` by `np.cumprod`, `dx` by `np.diff(append=0)` and `Tx` by a reversed `cumsum`, printed with
`np.array2string`; whole-life and term annuities and insurances for every age at once from an upper-triangular
survival matrix (`np.triu`, `cumprod` along rows); net premium reserves prospectively and by Fackler's
recursion (`np.allclose` between them); a healthy-disabled-dead Markov model with per-age transition matrices
stacked in a 3-d array (occupancies by `@` in a loop, `matrix_power`, `einsum` cash flows); a chain-ladder claims
triangle with NaNs (`np.nansum`, `np.isnan` masks, the lower triangle filled in place); Buhlmann credibility and a
Panjer recursion for aggregate claims; and commutation columns with `np.set_printoptions` (tests/porting)."""

import numpy as np
from harness import check


def life_table(np, A, B, c, ages):
    mu_int = A + B * c ** ages * (c - 1) / np.log(c)
    qx = 1 - np.exp(-mu_int)
    qx[-1] = 1.0
    lx = 100_000 * np.concatenate([[1.0], np.cumprod(1 - qx)[:-1]])
    dx = -np.diff(lx, append=0.0)
    Lx = lx - dx / 2
    Tx = np.cumsum(Lx[::-1])[::-1]
    ex = Tx / lx
    median = ages[np.argmax(lx < lx[0] / 2)]
    text = np.array2string(np.round(qx[::10], 4), precision=4, separator=", ", suppress_small=True)
    return {"qx": qx, "lx": lx, "dx": dx, "ex": ex, "median": int(median), "deaths": dx.sum(),
            "modal": int(ages[np.argmax(dx)]), "text": text, "e65": ex[ages == 65][0]}


def annuities(np, qx, i, n_term):
    px = 1 - qx
    v = 1 / (1 + i)
    n = len(qx)
    P = np.triu(np.tile(px, (n, 1)))
    P[np.tril_indices(n, -1)] = 1.0
    surv = np.cumprod(P, axis=1)
    kpx = np.triu(np.hstack([np.ones((n, 1)), surv[:, :-1]]))
    lag = np.arange(n)[None, :] - np.arange(n)[:, None]
    disc = v ** np.maximum(lag, 0)
    a_due = (kpx * disc).sum(axis=1)
    d = i / (1 + i)
    Ax = 1 - d * a_due
    term_mask = lag < n_term
    a_term = (kpx * disc * term_mask).sum(axis=1)
    kqx = kpx * qx[None, :]
    A_check = (kqx * disc * v).sum(axis=1)
    # a_x = 1 + v p_x a_{x+1}: the backward recursion a student writes first
    rec = np.zeros(n + 1)
    for x in range(n - 1, -1, -1):
        rec[x] = 1 + v * px[x] * rec[x + 1]
    return {"a_due": a_due, "Ax": Ax, "a_term": a_term, "same": np.allclose(Ax, A_check, atol=1e-5),
            "recursion": rec[:-1], "premium": Ax / a_due}


def reserves(np, qx, i, x0, sum_assured):
    v = 1 / (1 + i)
    px = 1 - qx
    n = len(qx)
    a = np.zeros(n + 1)
    A = np.zeros(n + 1)
    for x in range(n - 1, -1, -1):
        a[x] = 1 + v * px[x] * a[x + 1]
        A[x] = v * qx[x] + v * px[x] * A[x + 1]
    P = A[x0] / a[x0]
    t = np.arange(n - x0)
    prospective = sum_assured * (A[x0 + t] - P * a[x0 + t])
    fackler = np.zeros(n - x0 + 1)
    for k in range(n - x0):
        x = x0 + k
        fackler[k + 1] = ((fackler[k] + sum_assured * P) * (1 + i) - sum_assured * qx[x]) / px[x] \
            if px[x] > 0 else sum_assured
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = prospective[1:] / fackler[1:-1]
    # forward recursions divide by p_x: past ~40 years float32's rounding grows by (1 + i) / p_x a step
    return {"P": P * sum_assured, "prospective": prospective[::5], "fackler": fackler[:40:5],
            "agree": np.allclose(prospective[:40], fackler[:40], rtol=1e-3, atol=1.0),
            "peak_t": int(np.argmax(prospective)), "ratio_ok": bool(np.all(np.abs(ratio[:20] - 1) < 1e-2))}


def markov_disability(np, ages, i, benefit):
    n = len(ages)
    inc = 0.0005 * np.exp(0.06 * (ages - 30))
    rec = np.full(n, 0.15)
    q_h = 0.0002 * np.exp(0.09 * (ages - 30))
    q_d = 2.5 * q_h
    T = np.zeros((n, 3, 3))
    T[:, 0, 1] = inc
    T[:, 0, 2] = q_h
    T[:, 1, 0] = rec
    T[:, 1, 2] = q_d
    T[:, 2, 2] = 1.0
    idx = np.arange(2)
    T[:, idx, idx] = 1 - T[:, idx, :].sum(axis=2)
    occ = np.zeros((n + 1, 3))
    occ[0] = [1.0, 0.0, 0.0]
    for t in range(n):
        occ[t + 1] = occ[t] @ T[t]
    v = (1 + i) ** -np.arange(1, n + 1)
    epv_benefit = benefit * np.einsum("t,t->", v, occ[1:, 1])
    epv_premium = np.einsum("t,t->", v / (1 + i) ** -1, occ[:-1, 0])
    steady = np.linalg.matrix_power(T[n // 2], 200)[0]
    rows_ok = np.allclose(T.sum(axis=2), 1.0)
    return {"occ": occ[::10], "epv_b": epv_benefit, "epv_p": epv_premium, "premium": epv_benefit / epv_premium,
            "steady": steady, "rows_ok": rows_ok, "peak_dis": int(np.argmax(occ[:, 1])), "alive": occ[-1, :2].sum()}


def chain_ladder(np, incremental):
    tri = np.asarray(incremental, dtype=float)
    n = tri.shape[0]
    cum = np.cumsum(np.nan_to_num(tri), axis=1)
    observed = ~np.isnan(tri)
    cum[~observed] = np.nan
    f = np.empty(n - 1)
    for j in range(n - 1):
        rows = observed[:, j + 1]
        f[j] = np.nansum(cum[rows, j + 1]) / np.nansum(cum[rows, j])
    full = cum.copy()
    for j in range(1, n):
        miss = np.isnan(full[:, j])
        full[miss, j] = full[miss, j - 1] * f[j - 1]
    latest = cum[np.arange(n), n - 1 - np.arange(n)]
    ultimate = full[:, -1]
    ibnr = ultimate - latest
    cdf = np.cumprod(f[::-1])[::-1]
    return {"f": f, "cdf": cdf, "ultimate": ultimate, "ibnr": ibnr, "total": np.round(ibnr.sum(), 0),
            "latest": latest, "full": full, "observed": observed.sum()}


def credibility_and_panjer(np, claims, severity_probs, lam, limit):
    n_groups, n_years = claims.shape
    means = claims.mean(axis=1)
    mu = means.mean()
    epv = claims.var(axis=1, ddof=1).mean()
    vhm = means.var(ddof=1) - epv / n_years
    k = epv / vhm
    Z = n_years / (n_years + k)
    premium = Z * means + (1 - Z) * mu
    f = severity_probs
    g = np.zeros(limit)
    g[0] = np.exp(lam * (f[0] - 1))
    j = np.arange(1, len(f))
    for s in range(1, limit):
        jj = j[j <= s]
        g[s] = lam / s * np.sum(jj * f[jj] * g[s - jj])
    G = np.cumsum(g)
    var99 = int(np.searchsorted(G, 0.99))
    mean_agg = np.dot(np.arange(limit), g)
    return {"Z": Z, "premium": premium, "k": k, "g": g[:30], "var99": var99, "mean": mean_agg,
            "expected": lam * np.dot(np.arange(len(f)), f), "mass": G[-1]}


def commutation(np, lx, i):
    ages = np.arange(len(lx))
    v = 1 / (1 + i)
    Dx = v ** ages * lx
    Nx = np.cumsum(Dx[::-1])[::-1]
    dx = -np.diff(lx, append=0)
    Cx = v ** (ages + 1) * dx
    Mx = np.cumsum(Cx[::-1])[::-1]
    ax = Nx / Dx
    Ax = Mx / Dx
    table = np.column_stack([ages, Dx, Nx, Cx, Mx])[20:70:10]
    with np.printoptions(precision=2, suppress=True, linewidth=200):
        text = str(np.round(table[:, [0, 4]] / 1000, 2))
    np.set_printoptions(precision=3)
    short = np.array2string(ax[30:90:20])
    np.set_printoptions(precision=8)
    return {"ax": ax, "Ax": Ax, "identity": np.allclose(Ax, 1 - (i / (1 + i)) * ax, atol=1e-5), "text": text,
            "short": short, "table": table}


def _qx(ages):
    mu = 0.0005 + 0.00003 * 1.1 ** ages
    q = 1 - np.exp(-mu)
    q[-1] = 1.0
    return q


def test_life_table_gompertz_makeham():
    check(life_table, 0.0005, 0.00003, 1.1, np.arange(0, 111.0), rtol=1e-3, atol=1e-3)


def test_annuities_for_every_age():
    check(annuities, _qx(np.arange(40, 111.0)), 0.04, 20, rtol=1e-3, atol=1e-5)


def test_reserves_prospective_and_recursive():
    check(reserves, _qx(np.arange(0, 111.0)), 0.03, 40, 100_000.0, rtol=2e-3, atol=2.0)


def test_multistate_disability_markov():
    check(markov_disability, np.arange(30, 90.0), 0.035, 12_000.0, rtol=1e-3, atol=1e-5)


def test_chain_ladder_triangle():
    rng = np.random.default_rng(1605)
    n = 8
    pattern = np.array([0.45, 0.25, 0.12, 0.08, 0.05, 0.03, 0.015, 0.005])
    premiums = rng.uniform(800, 1200, n)
    tri = np.round(premiums[:, None] * pattern[None, :] * rng.lognormal(0, 0.1, (n, n)), 1)
    tri[np.add.outer(np.arange(n), np.arange(n)) >= n] = np.nan
    check(chain_ladder, tri, rtol=1e-3, atol=1e-2)


def test_credibility_and_panjer_recursion():
    rng = np.random.default_rng(1606)
    claims = rng.gamma(5, 100 * rng.uniform(0.7, 1.3, (6, 1)), (6, 8))
    f = np.array([0.0, 0.4, 0.3, 0.15, 0.1, 0.05])
    check(credibility_and_panjer, claims, f, 3.0, 60, rtol=1e-3, atol=1e-6)


def test_commutation_columns_printed():
    lx = 100_000 * np.concatenate([[1.0], np.cumprod(1 - _qx(np.arange(0, 101.0)))[:-1]])
    check(commutation, lx, 0.04, rtol=1e-3, atol=1e-3)
