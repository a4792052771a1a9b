"""Counting with generating functions as NumPy users write it: the distribution of the sum of many dice by
repeated `np.polymul` (thousands of coefficients, exact int64 counts), coin-change counts by in-place DP on slices
(the sequential loop and NumPy's overlapping `ways[c:] += ways[:-c]`, which reads a copy), Pascal rows by
overlapping slice assignment, Catalan numbers by dot products of reversed slices, partitions by Euler's
pentagonal recurrence, Stirling numbers in a table filled row by row, derangements by `cumprod` and alternating
sums, and the Poisson-binomial distribution of biased coins by `np.polynomial.Polynomial` products
(tests/porting)."""

import numpy as np
from harness import check


def dice_sums(np, n_dice, faces):
    die = np.ones(faces, dtype=np.int64)
    counts = np.array([1], dtype=np.int64)
    for _ in range(12):
        counts = np.polymul(counts, die)
    dist = np.full(faces, 1 / faces, dtype=np.float64)  # float32 (kdsl's default) underflows past 57 dice
    n = 1
    while n < n_dice:  # binary powering of the generating function (float64 underflows past ~400 dice)
        dist = np.polymul(dist, dist)
        n *= 2
    totals = np.arange(n, n * faces + 1)
    mean = (totals * dist).sum()
    var = ((totals - mean) ** 2 * dist).sum()
    cdf = np.cumsum(dist)
    q = totals[np.searchsorted(cdf, [0.025, 0.5, 0.975])]
    return {"len": len(dist), "counts": counts, "mode": totals[np.argmax(dist)], "mean": mean, "var": var, "q": q,
            "total": dist.sum(), "peak": dist.max(), "sym": bool(np.allclose(dist, dist[::-1], atol=1e-12)),
            "exact_sym": bool(np.array_equal(counts, counts[::-1]))}


def coin_change(np, coins, target):
    coins = np.asarray(coins)
    ways = np.zeros(target + 1, dtype=np.int64)
    ways[0] = 1
    for c in coins:
        for x in range(c, target + 1, c):  # block by block: each block reads the finished one before it
            end = min(x + c, target + 1)
            ways[x:end] += ways[x - c:end - c]
    overlap = np.zeros(target + 1, dtype=np.int64)
    overlap[0] = 1
    for c in coins:
        overlap[c:] += overlap[:-c]  # NumPy reads a copy of the overlapping operand: one coin of each kind at most
    poly = np.array([1], dtype=np.int64)
    for c in coins:
        term = np.zeros(target // c * c + 1, dtype=np.int64)
        term[::c] = 1
        poly = np.polymul(poly[::-1], term[::-1])[::-1][:target + 1]
    return {"ways": ways, "overlap": overlap, "poly": poly, "last": int(ways[-1]),
            "agree": bool(np.array_equal(ways, poly[:target + 1]))}


def pascal_rows(np, n):
    row = np.zeros(n + 1, dtype=np.int64)
    row[0] = 1
    rows = []
    for k in range(1, n + 1):
        row[1:k + 1] = row[1:k + 1] + row[:k]
        rows.append(row.copy())
    T = np.array(rows)
    by_poly = np.array([1], dtype=np.int64)
    for _ in range(n):
        by_poly = np.polymul(by_poly, [1, 1])
    central = T[np.arange(1, n, 2), np.arange(1, n, 2) // 2 + 1]
    return {"last": row, "T_sum": T.sum(axis=1), "poly": by_poly, "central": central,
            "odd": (T % 2 == 1).sum(axis=1)}


def catalan(np, n):
    c = np.zeros(n + 1, dtype=np.int64)
    c[0] = 1
    for k in range(n):
        c[k + 1] = np.dot(c[:k + 1], c[k::-1])
    ratio = c[1:] / c[:-1]
    closed = np.ones(n + 1, dtype=np.int64)
    for k in range(1, n + 1):
        closed[k] = closed[k - 1] * 2 * (2 * k - 1) // (k + 1)
    return {"c": c, "ratio": ratio, "closed": closed, "same": bool((c == closed).all())}


def partitions(np, n):
    p = np.zeros(n + 1, dtype=np.int64)
    p[0] = 1
    k = np.arange(1, 40)
    pent = np.concatenate([k * (3 * k - 1) // 2, k * (3 * k + 1) // 2])
    sign = np.concatenate([(-1) ** (k + 1), (-1) ** (k + 1)])
    order = np.argsort(pent, kind="stable")
    pent, sign = pent[order], sign[order]
    for m in range(1, n + 1):
        use = pent <= m
        p[m] = (sign[use] * p[m - pent[use]]).sum()
    return {"p": p, "pent": pent[:10], "log": np.log(p[1:].astype(float)), "growth": np.diff(np.log(p[1:] + 0.0))}


def stirling(np, n):
    S2 = np.zeros((n + 1, n + 1), dtype=np.int64)
    S1 = np.zeros((n + 1, n + 1), dtype=np.int64)
    S2[0, 0] = S1[0, 0] = 1
    for i in range(1, n + 1):
        k = np.arange(1, i + 1)
        S2[i, 1:i + 1] = k * S2[i - 1, 1:i + 1] + S2[i - 1, 0:i]
        S1[i, 1:i + 1] = (i - 1) * S1[i - 1, 1:i + 1] + S1[i - 1, 0:i]
    bell = S2.sum(axis=1)
    return {"S2": S2, "S1": S1, "bell": bell, "fact": S1.sum(axis=1), "diag": np.diagonal(S2, offset=-1)}


def derangements(np, n):
    k = np.arange(n + 1)
    fact = np.cumprod(np.concatenate(([1], np.arange(1, n + 1)))).astype(np.int64)
    D = np.zeros(n + 1, dtype=np.int64)
    D[0] = 1
    for m in range(2, n + 1):
        D[m] = (m - 1) * (D[m - 1] + D[m - 2])
    incl = np.array([(fact[m] // fact[:m + 1] * (-1) ** k[:m + 1]).sum() for m in range(n + 1)])
    return {"D": D, "incl": incl, "ratio": D[1:] / fact[1:], "limit": abs(D[-1] / fact[-1] - np.exp(-1))}


def poisson_binomial(np, p):
    p = np.asarray(p)
    P = np.polynomial.Polynomial([1.0])
    for pi in p:
        P = P * np.polynomial.Polynomial([1 - pi, pi])
    pmf = P.coef
    by_polymul = np.array([1.0])
    for pi in p:
        by_polymul = np.polymul(by_polymul, [pi, 1 - pi])
    k = np.arange(len(pmf))
    mean = (k * pmf).sum()
    return {"pmf": pmf, "rev": by_polymul[::-1], "mean": mean, "expected": p.sum(),
            "var": (k**2 * pmf).sum() - mean**2, "at_least_half": pmf[len(p) // 2:].sum(),
            "roots": np.sort(P.roots().real)}


def test_dice_sums():
    check(dice_sums, 256, 6, rtol=1e-4, atol=1e-9)


def test_coin_change():
    check(coin_change, [1, 2, 5, 10, 20, 50, 100, 200], 300)


def test_pascal_rows():
    check(pascal_rows, 60)


def test_catalan():
    check(catalan, 30, rtol=1e-6)


def test_partitions():
    check(partitions, 200, rtol=1e-6)


def test_stirling():
    check(stirling, 20)


def test_derangements():
    check(derangements, 20, rtol=1e-6)


def test_poisson_binomial():
    rng = np.random.default_rng(3241)
    check(poisson_binomial, rng.uniform(0.05, 0.95, 12), rtol=1e-4, atol=1e-7)
