"""Demography as population analysts write it in NumPy: period life tables from death counts and exposures
(`np.divide(where=)`, reversed `cumsum`, `np.interp` for median age at death), Leslie-matrix projections with the
dominant eigenvalue by `np.linalg.eig` and by power iteration with an early exit, a cohort-component projection
with migration added by `np.add.at` into 5-year groups, age heaping (Whipple and Myers indices with `bincount`
and `%`), single-year counts regrouped by `np.add.reduceat`, population pyramids by `np.histogram` with integer
ages, and dependency ratios of age masks (tests/porting)."""

import numpy as np
from harness import check


def life_table(np, deaths, exposure):
    deaths, exposure = np.asarray(deaths), np.asarray(exposure)
    n = len(deaths)
    mx = np.divide(deaths, exposure, out=np.zeros_like(exposure, dtype=float), where=exposure > 0)
    ax = np.full(n, 0.5)
    ax[0] = 0.1
    qx = mx / (1 + (1 - ax) * mx)
    qx[-1] = 1.0
    qx = np.clip(qx, 0, 1)
    lx = np.empty(n)
    lx[0] = 100_000
    lx[1:] = 100_000 * np.cumprod(1 - qx[:-1])
    dx = lx * qx
    Lx = lx - (1 - ax) * dx
    Lx[-1] = lx[-1] / mx[-1] if mx[-1] > 0 else 0.0
    Tx = np.cumsum(Lx[::-1])[::-1]
    ex = Tx / lx
    survivors = lx / lx[0]
    median_age = np.interp(0.5, survivors[::-1], np.arange(n)[::-1].astype(float))
    return {"qx": qx, "lx": lx, "dx": dx, "ex": ex, "e0": float(ex[0]), "median": median_age,
            "modal": int(np.argmax(dx[5:])) + 5, "dx_sum": dx.sum()}


def leslie_projection(np, fert, surv, pop0, years):
    fert, surv, pop0 = np.asarray(fert), np.asarray(surv), np.asarray(pop0)
    k = len(fert)
    L = np.zeros((k, k))
    L[0, :] = fert
    L[np.arange(1, k), np.arange(k - 1)] = surv
    pops = [pop0]
    for _ in range(years):
        pops.append(L @ pops[-1])
    P = np.stack(pops)
    vals, vecs = np.linalg.eig(L)
    dom = np.argmax(np.abs(vals))
    lam = vals[dom].real
    stable = np.abs(vecs[:, dom].real)
    stable /= stable.sum()
    growth = P[1:].sum(axis=1) / P[:-1].sum(axis=1)
    return {"P": P, "lam": lam, "stable": stable, "growth": growth,
            "share_last": P[-1] / P[-1].sum(), "R0": float(fert @ np.concatenate(([1.0], np.cumprod(surv))))}


def power_iteration_growth(np, L, tol):
    L = np.asarray(L, dtype=np.float32)
    v = np.ones(len(L), dtype=np.float32) / len(L)
    lam_old = 0.0
    history = []
    for _ in range(500):
        w = L @ v
        lam = w.sum() / v.sum()
        v = w / w.sum()
        history.append(lam)
        if abs(lam - lam_old) < tol:
            break
        lam_old = lam
    reproductive = v[1:4].sum()
    return {"lam": lam, "v": v, "iters": len(history), "history": np.array(history), "repro": reproductive,
            "r": np.log(lam), "doubling": np.log(2) / np.log(lam)}


def cohort_component(np, pop, surv5, fert5, migrants_age, migrants_n, steps):
    pop = np.asarray(pop, dtype=float)
    surv5, fert5 = np.asarray(surv5), np.asarray(fert5)
    ages, counts = np.asarray(migrants_age), np.asarray(migrants_n)
    groups = ages // 5
    series = [pop.copy()]
    for _ in range(steps):
        births = (fert5 * (pop + np.roll(pop, -1)) / 2).sum() * 5
        new = np.empty_like(pop)
        new[1:] = pop[:-1] * surv5[:-1]
        new[-1] += pop[-1] * surv5[-1]
        new[0] = births * surv5[0] / 2
        np.add.at(new, groups, counts)
        pop = new
        series.append(pop.copy())
    S = np.array(series)
    return {"S": S, "total": S.sum(axis=1), "old_share": S[:, 13:].sum(axis=1) / S.sum(axis=1),
            "groups": np.bincount(groups, minlength=len(pop))}


def age_heaping(np, ages):
    ages = np.asarray(ages)
    counts = np.bincount(ages, minlength=100)
    window = counts[23:63]
    whipple = 500 * window[(np.arange(23, 63) % 5) == 0].sum() / window.sum()
    digits = np.zeros(10)
    for start in (10, 20):
        block = counts[start:start + 70].reshape(7, 10).sum(axis=0)
        digits += np.roll(block, start % 10) * (1 if start == 10 else 2)
    share = digits / digits.sum() * 100
    myers = np.abs(share - 10).sum() / 2
    terminal = np.bincount(ages % 10, minlength=10)
    return {"whipple": whipple, "myers": myers, "terminal": terminal, "preferred": int(np.argmax(terminal)),
            "avoided": np.argsort(terminal)[:3]}


def regroup_ages(np, single):
    single = np.asarray(single)
    edges = np.array([0, 1, 5, 15, 25, 45, 65, 85])
    broad = np.add.reduceat(single, edges)
    widths = np.diff(np.append(edges, len(single)))
    per_year = broad / widths
    peak = np.maximum.reduceat(single, edges)
    ends = np.append(edges[1:], len(single))
    youngest_peak = edges + np.array([np.argmax(single[a:b]) for a, b in zip(edges, ends, strict=True)])
    return {"broad": broad, "per_year": per_year, "peak": peak, "at": youngest_peak, "widths": widths,
            "check": bool(broad.sum() == single.sum())}


def pyramid(np, ages, male):
    ages, male = np.asarray(ages), np.asarray(male)
    bins = np.arange(0, 105, 5)
    m, _ = np.histogram(ages[male], bins=bins)
    f, _ = np.histogram(ages[~male], bins=bins)
    sex_ratio = np.divide(100.0 * m, f, out=np.full(len(m), np.nan), where=f > 0)
    young = ages < 15
    old = ages >= 65
    work = ~(young | old)
    dep = (young.sum() + old.sum()) / work.sum() * 100
    median = np.median(ages)
    q = np.percentile(ages, [25, 75])
    return {"m": m, "f": f, "ratio": sex_ratio, "dep": dep, "old_dep": old.sum() / work.sum() * 100,
            "median": median, "iqr": q[1] - q[0], "mean_m": ages[male].mean(), "mean_f": ages[~male].mean()}


def _mortality(seed, n=90):
    rng = np.random.default_rng(seed)
    age = np.arange(n)
    mx = 0.0002 * np.exp(0.085 * age) + 0.004 * np.exp(-age)
    exposure = rng.integers(20_000, 60_000, n).astype(float) * np.exp(-0.02 * age)
    deaths = rng.poisson(mx * exposure).astype(float)
    return deaths, exposure, rng


def test_life_table():
    deaths, exposure, _ = _mortality(3211)
    check(life_table, deaths, exposure, rtol=1e-3, atol=1e-3)


def test_leslie_projection():
    fert = np.array([0.0, 0.3, 1.1, 0.9, 0.4, 0.1])
    surv = np.array([0.95, 0.92, 0.9, 0.85, 0.7])
    check(leslie_projection, fert, surv, np.array([100.0, 80, 70, 60, 40, 20]), 12, rtol=1e-3, atol=1e-4)


def test_power_iteration_growth():
    L = np.zeros((6, 6))
    L[0] = [0.0, 0.4, 1.2, 0.8, 0.3, 0.05]
    L[np.arange(1, 6), np.arange(5)] = [0.9, 0.88, 0.85, 0.8, 0.6]
    check(power_iteration_growth, L, 1e-5, rtol=1e-3, atol=1e-5)


def test_cohort_component():
    rng = np.random.default_rng(3214)
    pop = rng.integers(5_000, 9_000, 18).astype(float)
    surv5 = np.linspace(0.995, 0.6, 18)
    fert5 = np.zeros(18)
    fert5[3:10] = [0.02, 0.08, 0.1, 0.08, 0.05, 0.02, 0.005]
    ages = rng.integers(0, 90, 300)
    check(cohort_component, pop, surv5, fert5, ages, rng.integers(1, 30, 300).astype(float), 5, rtol=1e-4)


def test_age_heaping():
    rng = np.random.default_rng(3215)
    ages = rng.integers(0, 95, 4000)
    heap = rng.random(4000) < 0.2
    ages[heap] = np.round(ages[heap] / 5).astype(ages.dtype) * 5
    check(age_heaping, np.minimum(ages, 99), rtol=1e-4)


def test_regroup_ages():
    rng = np.random.default_rng(3216)
    check(regroup_ages, rng.integers(100, 1000, 100))


def test_pyramid():
    rng = np.random.default_rng(3217)
    ages = np.minimum(rng.gamma(2.0, 18.0, 3000).astype(np.int64), 100)
    check(pyramid, ages, rng.random(3000) < 0.49, rtol=1e-4)
