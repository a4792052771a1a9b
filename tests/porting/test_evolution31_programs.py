"""Evolutionary algorithms as optimisation courses write them in NumPy, with every random number drawn on the host
and passed in: a bit-string genetic algorithm (roulette selection by `cumsum`/`searchsorted`, one-point crossover
by a broadcast mask, bit-flip mutation with `^`, elitism by `argpartition`), tournament selection with
`take_along_axis`, a real-coded GA with blend crossover and `np.clip` bounds, differential evolution on the Rastrigin
function, a (1+1)-ES with the one-fifth rule, NSGA-style non-dominated sorting by broadcasting comparisons, and a
travelling-salesman 2-opt with `np.roll` tour lengths and reversed slices (tests/porting)."""

import numpy as np
from harness import check


def onemax_ga(np, pop, sel_u, cut, mut_u, p_mut, elite):
    pop = np.asarray(pop, dtype=np.uint8)
    n, L = pop.shape
    history = []
    for g in range(sel_u.shape[0]):
        fit = pop.sum(axis=1).astype(np.float64)
        history.append(fit.max())
        probs = fit / fit.sum()
        cdf = np.cumsum(probs)
        parents = np.searchsorted(cdf, sel_u[g] * cdf[-1], side="right")
        parents = np.minimum(parents, n - 1)
        a, b = pop[parents[0::2]], pop[parents[1::2]]
        mask = np.arange(L)[None, :] < cut[g][:, None]
        kids = np.concatenate([np.where(mask, a, b), np.where(mask, b, a)])
        kids ^= (mut_u[g] < p_mut).astype(np.uint8)
        best = np.argpartition(-fit, elite)[:elite]
        kids[:elite] = pop[best]
        pop = kids
    fit = pop.sum(axis=1)
    return {"history": np.array(history), "final_best": fit.max(), "mean": fit.mean(),
            "diversity": np.mean(pop != pop[np.argmax(fit)]), "dtype": pop.dtype.name}


def tournament(np, fitness, contenders):
    fitness = np.asarray(fitness)
    c = np.asarray(contenders)
    f = fitness[c]
    winners_pos = np.argmax(f, axis=1, keepdims=True)
    winners = np.take_along_axis(c, winners_pos, axis=1).ravel()
    counts = np.bincount(winners, minlength=len(fitness))
    ranks = np.argsort(np.argsort(-fitness, kind="stable"), kind="stable")
    pressure = np.corrcoef(-ranks, counts)[0, 1]
    return {"winners": winners, "counts": counts, "pressure": pressure, "never": np.flatnonzero(counts == 0)}


def real_ga(np, pop, lo, hi, pairs, alpha_u, mut, sigma):
    pop = np.asarray(pop, dtype=np.float64)
    lo, hi = np.asarray(lo), np.asarray(hi)

    def sphere(x):
        return np.sum((x - 1.5) ** 2, axis=-1)

    best = []
    for g in range(pairs.shape[0]):
        f = sphere(pop)
        best.append(f.min())
        p1, p2 = pop[pairs[g, :, 0]], pop[pairs[g, :, 1]]
        cmin, cmax = np.minimum(p1, p2), np.maximum(p1, p2)
        span = cmax - cmin
        kids = cmin - 0.5 * span + alpha_u[g] * 2 * span  # BLX-0.5
        kids += mut[g] * sigma
        np.clip(kids, lo, hi, out=kids)
        merged = np.vstack([pop, kids])
        keep = np.argsort(sphere(merged), kind="stable")[: len(pop)]
        pop = merged[keep]
    return {"best": np.array(best), "final": pop[0], "spread": pop.std(axis=0), "at_bounds":
            int(np.sum((pop == lo) | (pop == hi)))}


def differential_evolution(np, pop, idx, cr_u, jrand, F, CR):
    pop = np.asarray(pop, dtype=np.float64)
    n, d = pop.shape

    def rastrigin(x):
        return 10 * d + np.sum(x**2 - 10 * np.cos(2 * np.pi * x), axis=1)

    f = rastrigin(pop)
    trace = [f.min()]
    for g in range(idx.shape[0]):
        a, b, c = pop[idx[g, :, 0]], pop[idx[g, :, 1]], pop[idx[g, :, 2]]
        mutant = a + F * (b - c)
        cross = cr_u[g] < CR
        cross[np.arange(n), jrand[g]] = True
        trial = np.where(cross, mutant, pop)
        ft = rastrigin(trial)
        better = ft <= f
        pop[better] = trial[better]
        f = np.where(better, ft, f)
        trace.append(f.min())
    return {"trace": np.array(trace), "best": pop[np.argmin(f)], "f": np.sort(f)[:5],
            "improved": bool(trace[-1] < trace[0])}


def one_plus_one_es(np, x0, z, sigma0):
    x = np.asarray(x0, dtype=np.float64)
    z = np.asarray(z)

    def rosen(v):
        return np.sum(100 * (v[1:] - v[:-1] ** 2) ** 2 + (1 - v[:-1]) ** 2)

    fx, sigma = rosen(x), sigma0
    sigmas, success = [], np.zeros(len(z), dtype=bool)
    for t in range(len(z)):
        y = x + sigma * z[t]
        fy = rosen(y)
        if fy <= fx:
            x, fx = y, fy
            success[t] = True
        if (t + 1) % 10 == 0:
            rate = success[t - 9:t + 1].mean()
            sigma *= 1.22 if rate > 0.2 else 0.82
        sigmas.append(sigma)
    return {"x": x, "f": fx, "sigmas": np.array(sigmas), "success_rate": success.mean()}


def nondominated_sort(np, F):
    F = np.asarray(F)
    le = np.all(F[:, None, :] <= F[None, :, :], axis=2)
    lt = np.any(F[:, None, :] < F[None, :, :], axis=2)
    dominates = le & lt
    n_dominated_by = dominates.sum(axis=0)
    fronts = np.full(len(F), -1)
    remaining = np.ones(len(F), dtype=bool)
    k = 0
    while remaining.any():
        counts = np.sum(dominates[remaining][:, remaining], axis=0)
        current = np.flatnonzero(remaining)[counts == 0]
        fronts[current] = k
        remaining[current] = False
        k += 1
    # crowding distance of the first front
    first = F[fronts == 0]
    order = np.argsort(first, axis=0, kind="stable")
    sorted_f = np.take_along_axis(first, order, axis=0)
    span = np.ptp(first, axis=0)
    gaps = np.zeros_like(first)
    inner = (sorted_f[2:] - sorted_f[:-2]) / np.where(span > 0, span, 1)
    np.put_along_axis(gaps, order[1:-1], inner, axis=0)
    np.put_along_axis(gaps, order[[0, -1]], np.inf, axis=0)
    return {"fronts": fronts, "n_fronts": k, "dominated_by": n_dominated_by, "crowding": gaps.sum(axis=1)}


def two_opt(np, xy, tour):
    xy = np.asarray(xy)
    tour = np.array(tour)

    def length(t):
        p = xy[t]
        return np.sum(np.linalg.norm(p - np.roll(p, -1, axis=0), axis=1))

    best = length(tour)
    lengths = [best]
    improved = True
    while improved:
        improved = False
        for i in range(1, len(tour) - 1):
            for j in range(i + 1, len(tour)):
                cand = tour.copy()
                cand[i:j + 1] = tour[i:j + 1][::-1]
                c = length(cand)
                if c < best - 1e-9:
                    tour, best, improved = cand, c, True
                    lengths.append(best)
    D = np.sqrt(((xy[:, None, :] - xy[None, :, :]) ** 2).sum(-1))
    nn = np.argsort(D, axis=1)[:, 1]
    return {"tour": tour, "best": best, "lengths": np.array(lengths), "nn": nn,
            "edges_nn": int(np.sum(nn[tour] == np.roll(tour, -1)) + np.sum(nn[tour] == np.roll(tour, 1)))}


def test_onemax_ga():
    rng = np.random.default_rng(3171)
    n, L, G = 12, 16, 6
    check(onemax_ga, rng.integers(0, 2, (n, L)), rng.random((G, n)), rng.integers(1, L, (G, n // 2)),
          rng.random((G, n, L)), 0.02, 2)


def test_tournament():
    rng = np.random.default_rng(3172)
    check(tournament, rng.normal(size=15), rng.integers(0, 15, (40, 3)))


def test_real_ga():
    rng = np.random.default_rng(3173)
    n, d, G = 10, 3, 8
    check(real_ga, rng.uniform(-5, 5, (n, d)), [-5.0, -5.0, 0.0], [5.0, 5.0, 1.0], rng.integers(0, n, (G, n, 2)),
          rng.random((G, n, d)), rng.normal(size=(G, n, d)), 0.1)


def test_differential_evolution():
    rng = np.random.default_rng(3174)
    n, d, G = 12, 2, 10
    check(differential_evolution, rng.uniform(-5.12, 5.12, (n, d)), rng.integers(0, n, (G, n, 3)),
          rng.random((G, n, d)), rng.integers(0, d, (G, n)), 0.7, 0.9)


def test_one_plus_one_es():
    rng = np.random.default_rng(3175)
    check(one_plus_one_es, [-1.0, 1.5, 0.5], rng.normal(size=(60, 3)), 0.3, rtol=1e-6)


def test_nondominated_sort():
    rng = np.random.default_rng(3176)
    F = rng.integers(0, 6, (14, 2)).astype(float)
    check(nondominated_sort, F)


def test_two_opt():
    rng = np.random.default_rng(3177)
    check(two_opt, rng.uniform(0, 10, (8, 2)), rng.permutation(8))
