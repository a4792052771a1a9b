"""Sports and ranking: Elo updates over a season of games (Python scalar loop and a vectorised expected-score
matrix), Bradley-Terry strengths by the MM (Zermelo) iteration on a win matrix, Colley and Massey ratings by
np.linalg.solve, a league table with np.lexsort tie-breaks and formatted standings, a round-robin schedule by the
circle method with np.roll, and PageRank-style team ranking by power iteration (tests/porting)."""

import numpy as np
from harness import check


def elo_season(np, games, k):
    n = int(games[:, :2].max()) + 1
    r = np.full(n, 1500.0)
    history = []
    for home, away, result in games.tolist():
        home, away = int(home), int(away)
        ea = 1 / (1 + 10 ** ((r[away] - r[home]) / 400))
        delta = k * (result - ea)
        r[home] += delta
        r[away] -= delta
        history.append(round(float(r[home]), 2))
    expected = 1 / (1 + 10 ** ((r[None, :] - r[:, None]) / 400))
    best = int(np.argmax(r))
    return {"r": r, "hist": history, "E": expected, "best": best, "sym": bool(np.allclose(expected + expected.T, 1)),
            "line": f"team {best} leads with {r[best]:.1f}", "spread": float(np.ptp(r))}


def bradley_terry(np, wins, iters):
    W = np.asarray(wins, dtype=float)
    N = W + W.T
    p = np.ones(len(W))
    total = W.sum(axis=1)
    for _ in range(iters):
        denom = (N / (p[:, None] + p[None, :])).sum(axis=1)
        p = total / denom
        p /= p.sum()
    prob = p[:, None] / (p[:, None] + p[None, :])
    ranking = np.argsort(-p)
    return {"p": p, "prob": prob, "ranking": ranking, "loglik": float(np.sum(W * np.log(prob)))}


def colley_massey(np, games, n):
    C = 2 * np.eye(n)
    b = np.ones(n)
    M = np.zeros((n, n))
    pdiff = np.zeros(n)
    for i, j, si, sj in games:
        C[i, i] += 1
        C[j, j] += 1
        C[i, j] -= 1
        C[j, i] -= 1
        w = 1 if si > sj else -1
        b[i] += w / 2
        b[j] -= w / 2
        M[i, i] += 1
        M[j, j] += 1
        M[i, j] -= 1
        M[j, i] -= 1
        pdiff[i] += si - sj
        pdiff[j] += sj - si
    colley = np.linalg.solve(C, b)
    laplacian_rank = int(np.linalg.matrix_rank(M))  # Massey's matrix is singular until a row is replaced
    M[-1, :] = 1
    pdiff[-1] = 0
    massey = np.linalg.solve(M, pdiff)
    return {"colley": colley, "massey": massey, "mean": float(colley.mean()), "rank": laplacian_rank,
            "order": np.argsort(-np.round(colley, 4), kind="stable").tolist()}


def league_table(np, home, away, hg, ag, n):
    pts = np.zeros(n, dtype=int)
    gf = np.zeros(n, dtype=int)
    ga = np.zeros(n, dtype=int)
    hw = hg > ag
    dr = hg == ag
    np.add.at(pts, home, np.where(hw, 3, np.where(dr, 1, 0)))
    np.add.at(pts, away, np.where(hw, 0, np.where(dr, 1, 3)))
    np.add.at(gf, home, hg)
    np.add.at(gf, away, ag)
    np.add.at(ga, home, ag)
    np.add.at(ga, away, hg)
    gd = gf - ga
    order = np.lexsort((-gf, -gd, -pts))
    rows = [f"{pos + 1:>2} T{t:<2} {pts[t]:>3} {gd[t]:+4d}" for pos, t in enumerate(order.tolist())]
    played = np.bincount(np.concatenate([home, away]), minlength=n)
    return {"pts": pts, "gd": gd, "order": order, "rows": rows, "played": played,
            "ppg": np.round(pts / played, 3), "top": int(order[0])}


def round_robin(np, n):
    teams = np.arange(n)
    rounds = []
    rest = teams[1:]
    for _ in range(n - 1):
        line = np.concatenate([[teams[0]], rest])
        pairs = np.stack([line[: n // 2], line[::-1][: n // 2]], axis=1)
        rounds.append(pairs)
        rest = np.roll(rest, 1)
    R = np.stack(rounds)
    flat = np.sort(R.reshape(-1, 2), axis=1)
    codes = flat[:, 0] * n + flat[:, 1]
    met = np.zeros((n, n), dtype=bool)
    met[flat[:, 0], flat[:, 1]] = True
    return {"R": R, "unique": len(np.unique(codes)) == n * (n - 1) // 2, "met": met | met.T,
            "first": R[0].tolist()}


def pagerank_teams(np, games, n, d):
    L = np.zeros((n, n))
    for winner, loser, margin in games:
        L[loser, winner] += margin
    out = L.sum(axis=1, keepdims=True)
    P = np.divide(L, out, out=np.full_like(L, 1 / n), where=out > 0)
    r = np.full(n, 1 / n)
    deltas = []
    for _ in range(50):
        r_new = (1 - d) / n + d * r @ P
        deltas.append(np.abs(r_new - r).sum())
        r = r_new
        if deltas[-1] < 1e-6:
            break
    return {"r": r, "iters": len(deltas), "rank": np.argsort(r)[::-1], "total": r.sum()}


def glicko_period(np, r, rd, opponents, scores):
    q = np.log(10) / 400
    r = np.asarray(r, dtype=float)
    rd = np.asarray(rd, dtype=float)
    opp = np.asarray(opponents)
    s = np.asarray(scores, dtype=float)
    played = opp >= 0
    oj = np.where(played, opp, 0)
    g = 1 / np.sqrt(1 + 3 * q ** 2 * rd[oj] ** 2 / np.pi ** 2)
    E = 1 / (1 + 10 ** (-g * (r[:, None] - r[oj]) / 400))
    d2 = 1 / (q ** 2 * np.sum(np.where(played, g ** 2 * E * (1 - E), 0), axis=1))
    delta = np.sum(np.where(played, g * (s - E), 0), axis=1)
    denom = 1 / rd ** 2 + 1 / d2
    r_new = r + q / denom * delta
    rd_new = np.sqrt(1 / denom)
    table = [f"{int(i):>2} {a:7.1f} -> {b:7.1f} (RD {c:5.1f})" for i, a, b, c in
             zip(np.argsort(-r_new), r[np.argsort(-r_new)], np.sort(r_new)[::-1], rd_new[np.argsort(-r_new)],
                 strict=True)]
    return {"r": r_new, "rd": rd_new, "table": table, "games": played.sum(axis=1).tolist()}


def test_elo_season():
    rng = np.random.default_rng(1201)
    games = [(int(h), int(a), float(res)) for h, a, res in zip(rng.integers(0, 6, 40), rng.integers(0, 6, 40),
                                                                rng.choice([0, 0.5, 1], 40), strict=True) if h != a]
    check(elo_season, np.array(games), 24, rtol=1e-4, atol=1e-3)


def test_glicko_rating_period():
    rng = np.random.default_rng(1206)
    opponents = rng.integers(0, 6, (6, 4))
    opponents[opponents == np.arange(6)[:, None]] = -1  # no game against oneself
    opponents[0, 3] = -1
    check(glicko_period, rng.normal(1500, 150, 6), rng.uniform(50, 300, 6), opponents,
          rng.choice([0.0, 0.5, 1.0], (6, 4)), rtol=1e-4, atol=1e-2)


def test_bradley_terry_mm():
    rng = np.random.default_rng(1202)
    W = rng.integers(0, 6, (5, 5))
    np.fill_diagonal(W, 0)
    check(bradley_terry, W, 40, rtol=1e-3, atol=1e-5)


def test_colley_massey_ratings():
    rng = np.random.default_rng(1203)
    pairs = [(i, j) for i in range(5) for j in range(i + 1, 5)]
    games = [(i, j, int(rng.integers(0, 5)), int(rng.integers(0, 5))) for i, j in pairs]
    check(colley_massey, games, 5, rtol=1e-4, atol=1e-4)


def test_league_table_lexsort():
    rng = np.random.default_rng(1204)
    home, away = np.array([(i, j) for i in range(6) for j in range(6) if i != j]).T
    check(league_table, home, away, rng.poisson(1.4, len(home)), rng.poisson(1.1, len(home)), 6)


def test_round_robin_circle_method():
    check(round_robin, 8)


def test_pagerank_team_ranking():
    rng = np.random.default_rng(1205)
    games = [(int(a), int(b), int(m)) for a, b, m in zip(rng.integers(0, 6, 30), rng.integers(0, 6, 30),
                                                          rng.integers(1, 20, 30), strict=True) if a != b]
    check(pagerank_teams, games, 6, 0.85, rtol=1e-3, atol=1e-5)
