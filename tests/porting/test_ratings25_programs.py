"""Ratings and A/B tests in plain NumPy: Elo updated game by game in a Python loop over 0-d results (`+=` on
fancy-indexed entries), a vectorised Elo season by `np.add.at`, Glicko-1 rating periods with `einsum`-free
broadcasting and `sqrt`/`pi` constants, Bradley-Terry by minorise-maximise iterations, a two-proportion z-test with
`math.erf` on 0-d arrays, a Welch t-test with `var(ddof=1)`, sequential peeking by `cumsum` with an O'Brien-Fleming
boundary, a sample-size table by `ceil` on broadcast grids, and a chi-square independence test over a contingency
table by `outer` (tests/porting)."""

import math

import numpy as np
from harness import check


def elo_games(np, winners, losers, n_players, k):
    r = np.full(n_players, 1500.0)
    history = []
    for w, l in zip(winners, losers, strict=True):
        e = 1.0 / (1.0 + 10 ** ((r[l] - r[w]) / 400))
        r[w] += k * (1 - e)
        r[l] -= k * (1 - e)
        history.append(float(e))
    rank = np.argsort(-r, kind="stable")
    return {"r": r, "expected": np.array(history), "rank": rank, "sum": r.sum(), "spread": np.ptp(r)}


def elo_season(np, winners, losers, n_players, k, rounds):
    w, l = np.asarray(winners), np.asarray(losers)
    r = np.full(n_players, 1500.0)
    for _ in range(rounds):
        e = 1 / (1 + np.power(10.0, (r[l] - r[w]) / 400))
        delta = np.zeros(n_players)
        np.add.at(delta, w, k * (1 - e))
        np.add.at(delta, l, -k * (1 - e))
        r += delta
    games = np.bincount(w, minlength=n_players) + np.bincount(l, minlength=n_players)
    wins = np.bincount(w, minlength=n_players)
    pct = np.divide(wins, games, out=np.full(n_players, np.nan), where=games > 0)
    return {"r": r, "games": games, "pct": pct, "best": np.nanargmax(pct), "corr": np.corrcoef(r[games > 0],
                                                                                             pct[games > 0])[0, 1]}


def glicko(np, r, rd, opp_r, opp_rd, scores):
    q = np.log(10) / 400
    r, rd = np.asarray(r, dtype=float), np.asarray(rd, dtype=float)
    orr, ord_, s = np.asarray(opp_r), np.asarray(opp_rd), np.asarray(scores)
    g = 1 / np.sqrt(1 + 3 * q**2 * ord_**2 / np.pi**2)
    E = 1 / (1 + 10 ** (-g * (r[:, None] - orr) / 400))
    played = ~np.isnan(s)
    with np.errstate(divide="ignore"):  # a player without games: d2 = inf, as Glicko's formula says
        d2 = 1 / (q**2 * np.sum(np.where(played, g**2 * E * (1 - E), 0.0), axis=1))
    gain = np.nansum(g * (s - E), axis=1)
    denom = 1 / rd**2 + 1 / d2
    new_r = r + q / denom * gain
    new_rd = np.sqrt(1 / denom)
    idle = ~played.any(axis=1)
    new_rd[idle] = np.minimum(np.sqrt(rd[idle] ** 2 + 30.0**2), 350)
    new_r[idle] = r[idle]
    return {"g": g, "E": E, "r": new_r, "rd": new_rd, "idle": idle}


def bradley_terry(np, W, iters):
    W = np.asarray(W, dtype=float)
    N = W + W.T
    wins = W.sum(axis=1)
    p = np.ones(len(W))
    for _ in range(iters):
        denom = (N / (p[:, None] + p[None, :])).sum(axis=1)
        p = wins / denom
        p /= np.exp(np.mean(np.log(p)))
    P = p[:, None] / (p[:, None] + p[None, :])
    return {"p": p, "P": P, "order": np.argsort(p)[::-1], "ll": np.sum(W * np.log(P))}


def normal_cdf(x):
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def two_proportion(np, conv_a, n_a, conv_b, n_b):
    pa, pb = conv_a / n_a, conv_b / n_b
    p = (conv_a + conv_b) / (n_a + n_b)
    se = np.sqrt(p * (1 - p) * (1 / n_a + 1 / n_b))
    z = (pb - pa) / se
    pval = 2 * (1 - normal_cdf(abs(z)))
    lift = (pb - pa) / pa
    se_diff = np.sqrt(pa * (1 - pa) / n_a + pb * (1 - pb) / n_b)
    ci = (pb - pa) + np.array([-1.96, 1.96]) * se_diff
    return {"z": float(z), "p": pval, "lift": lift, "ci": ci, "significant": bool(pval < 0.05)}


def welch(np, a, b):
    a, b = np.asarray(a), np.asarray(b)
    va, vb = a.var(ddof=1), b.var(ddof=1)
    na, nb = a.size, b.size
    t = (a.mean() - b.mean()) / np.sqrt(va / na + vb / nb)
    df = (va / na + vb / nb) ** 2 / ((va / na) ** 2 / (na - 1) + (vb / nb) ** 2 / (nb - 1))
    pooled = np.sqrt(((na - 1) * va + (nb - 1) * vb) / (na + nb - 2))
    d = (a.mean() - b.mean()) / pooled
    boot = np.mean(np.stack([a[:10], b[:10]]), axis=1)
    return {"t": t, "df": df, "d": d, "boot": boot, "med": np.median(a) - np.median(b)}


def peeking(np, xa, xb, looks):
    xa, xb = np.asarray(xa), np.asarray(xb)
    n = np.arange(1, xa.size + 1)
    ca, cb = np.cumsum(xa), np.cumsum(xb)
    pa, pb = ca / n, cb / n
    p = (ca + cb) / (2 * n)
    se = np.sqrt(np.maximum(p * (1 - p) * 2 / n, 1e-12))
    z = (pb - pa) / se
    at = np.asarray(looks) - 1
    info = (at + 1) / xa.size
    bound = 1.96 / np.sqrt(info)
    stop = np.abs(z[at]) > bound
    first = at[np.argmax(stop)] + 1 if stop.any() else -1
    naive = np.flatnonzero(np.abs(z) > 1.96)
    return {"z": z[at], "bound": bound, "stop": stop, "first": first, "naive_hits": naive.size}


def sample_size(np, base_rates, lifts):
    p1 = np.asarray(base_rates)[:, None]
    p2 = p1 * (1 + np.asarray(lifts)[None, :])
    za, zb = 1.959964, 0.841621
    pbar = (p1 + p2) / 2
    num = (za * np.sqrt(2 * pbar * (1 - pbar)) + zb * np.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2
    n = np.ceil(num / (p2 - p1) ** 2).astype(np.int64)
    return {"n": n, "days": np.ceil(2 * n / 5000).astype(int), "feasible": (2 * n / 5000) <= 28}


def chi_square(np, table):
    T = np.asarray(table)
    row, col = T.sum(axis=1), T.sum(axis=0)
    E = np.outer(row, col) / T.sum()
    chi2 = np.sum((T - E) ** 2 / E)
    dof = (T.shape[0] - 1) * (T.shape[1] - 1)
    resid = (T - E) / np.sqrt(E)
    cramer = np.sqrt(chi2 / (T.sum() * (min(T.shape) - 1)))
    return {"E": E, "chi2": chi2, "dof": dof, "resid": resid, "v": cramer,
            "cell": np.unravel_index(np.argmax(np.abs(resid)), T.shape)}


def test_elo_games():
    rng = np.random.default_rng(2561)
    w = rng.integers(0, 6, 30)
    l = (w + rng.integers(1, 6, 30)) % 6
    check(elo_games, w, l, 6, 32.0, rtol=1e-4, atol=1e-3)


def test_elo_season():
    rng = np.random.default_rng(2562)
    w = rng.integers(0, 7, 60)
    l = (w + rng.integers(1, 6, 60)) % 8
    check(elo_season, w, l, 9, 16.0, 5, rtol=1e-4, atol=1e-3)


def test_glicko():
    s = np.array([[1.0, 0.0, 0.0], [0.5, np.nan, 1.0], [np.nan, np.nan, np.nan], [0.0, 1.0, np.nan]])
    check(glicko, np.array([1500, 1600, 1450, 1700]), np.array([200, 80, 300, 50]), np.array([1400.0, 1550, 1700]),
          np.array([30.0, 100, 300]), s, rtol=1e-4, atol=1e-3)


def test_bradley_terry():
    W = np.array([[0, 7, 9, 4], [3, 0, 6, 5], [1, 4, 0, 3], [6, 5, 7, 0]])
    check(bradley_terry, W, 50, rtol=1e-3, atol=1e-4)


def test_two_proportion():
    check(two_proportion, np.int64(412), np.int64(5000), np.int64(468), np.int64(5100), rtol=1e-4, atol=1e-6)


def test_welch():
    rng = np.random.default_rng(2563)
    check(welch, rng.normal(10, 2, 40), rng.normal(11, 3, 55), rtol=1e-4, atol=1e-5)


def test_peeking():
    rng = np.random.default_rng(2564)
    xa = (rng.random(2000) < 0.10).astype(np.int8)
    xb = (rng.random(2000) < 0.13).astype(np.int8)
    check(peeking, xa, xb, np.array([250, 500, 1000, 1500, 2000]), rtol=1e-4, atol=1e-5)


def test_sample_size():
    check(sample_size, np.array([0.02, 0.05, 0.1]), np.array([0.05, 0.1, 0.2]))


def test_chi_square():
    check(chi_square, np.array([[120, 90, 40], [80, 110, 60]]), rtol=1e-5, atol=1e-6)
