"""Tournament and rating code as a sports-analytics hobbyist writes it: Elo updates in a Python loop over games
with in-place fancy writes, round-robin schedules by the circle method with `np.roll`, head-to-head tables by
`np.add.at`, standings by `lexsort` on points, goal difference and goals, Bradley-Terry strengths by fixed-point
iteration, Swiss pairings by an argsort and a used mask, Colley and Massey ratings by `linalg.solve`/`lstsq`,
Monte Carlo seasons on passed-in uniforms, knockout brackets by `reshape(-1, 2)`, a printed league table, and
rating histories through `ndenumerate`/`nditer` (tests/porting)."""

import numpy as np
from harness import check


def elo_ratings(np, home, away, result, n_teams):
    home, away, result = np.asarray(home), np.asarray(away), np.asarray(result)
    rating = np.full(n_teams, 1500.0)
    history = np.zeros((len(home), n_teams))
    for g in range(len(home)):
        h, a = home[g], away[g]
        expected = 1.0 / (1.0 + 10 ** ((rating[a] - rating[h] - 50.0) / 400.0))
        delta = 20.0 * (result[g] - expected)
        rating[[h, a]] += [delta, -delta]
        history[g] = rating
    return {"rating": rating, "rank": np.argsort(-rating, kind="stable"), "total": rating.sum(),
            "peak": history.max(axis=0), "peak_game": history.argmax(axis=0), "spread": np.ptp(rating)}


def round_robin_schedule(np, n):
    teams = np.arange(n)
    rounds = []
    rest = teams[1:]
    for _ in range(n - 1):
        line = np.concatenate([[teams[0]], rest])
        rounds.append(np.stack([line[: n // 2], line[::-1][: n // 2]], axis=1))
        rest = np.roll(rest, 1)
    sched = np.stack(rounds)
    pairs = np.sort(sched.reshape(-1, 2), axis=1)
    meet = np.zeros((n, n), dtype=int)
    np.add.at(meet, (pairs[:, 0], pairs[:, 1]), 1)
    return {"sched": sched, "unique_pairs": len(np.unique(pairs, axis=0)), "meet": meet + meet.T,
            "each_round_all": bool(np.all(np.sort(sched.reshape(n - 1, -1), axis=1) == teams))}


def league_table(np, home, away, hg, ag, n):
    home, away, hg, ag = (np.asarray(x) for x in (home, away, hg, ag))
    pts = np.zeros(n, dtype=int)
    gf, ga = np.bincount(home, hg, n) + np.bincount(away, ag, n), np.bincount(home, ag, n) + np.bincount(away, hg, n)
    np.add.at(pts, home, np.select([hg > ag, hg == ag], [3, 1], 0))
    np.add.at(pts, away, np.select([ag > hg, hg == ag], [3, 1], 0))
    gd = gf - ga
    order = np.lexsort((-gf, -gd, -pts))
    h2h = np.zeros((n, n), dtype=int)
    np.add.at(h2h, (home, away), hg - ag)
    wins = np.bincount(home[hg > ag], minlength=n) + np.bincount(away[ag > hg], minlength=n)
    return {"pts": pts, "gf": gf, "ga": ga, "order": order, "h2h": h2h - h2h.T, "wins": wins,
            "table": np.column_stack([order, pts[order], gd[order].astype(int)])}


def bradley_terry(np, wins):
    wins = np.asarray(wins, dtype=float)
    games = wins + wins.T
    total_wins = wins.sum(axis=1)
    p = np.ones(len(wins))
    for _ in range(100):
        denom = np.divide(games, p[:, None] + p[None, :], out=np.zeros_like(games), where=games > 0).sum(axis=1)
        p = total_wins / denom
        p /= np.exp(np.log(p).mean())  # fix the scale: geometric mean one
    prob = p[:, None] / (p[:, None] + p[None, :])
    return {"strength": p, "order": np.argsort(-p), "prob": prob, "sym": bool(np.allclose(prob + prob.T, 1.0))}


def swiss_pairing(np, score, rating, played):
    score, rating, played = np.asarray(score), np.asarray(rating), np.asarray(played)
    order = np.lexsort((-rating, -score))
    used = np.zeros(len(score), dtype=bool)
    pairs = []
    for i in order:
        if used[i]:
            continue
        free = ~used & ~played[i]
        free[i] = False
        cands = order[free[order]]
        if len(cands) == 0:
            continue
        j = cands[0]
        used[[i, j]] = True
        pairs.append((int(i), int(j)))
    return {"order": order, "pairs": pairs, "bye": np.flatnonzero(~used)}


def colley_massey(np, home, away, margin, n):
    home, away, margin = np.asarray(home), np.asarray(away), np.asarray(margin)
    C = 2 * np.eye(n)
    np.add.at(C, (home, home), 1)
    np.add.at(C, (away, away), 1)
    np.add.at(C, (home, away), -1)
    np.add.at(C, (away, home), -1)
    w = np.bincount(home[margin > 0], minlength=n) + np.bincount(away[margin < 0], minlength=n)
    lo = np.bincount(home[margin < 0], minlength=n) + np.bincount(away[margin > 0], minlength=n)
    colley = np.linalg.solve(C, 1 + (w - lo) / 2)
    M = np.zeros((len(home), n))
    M[np.arange(len(home)), home] = 1
    M[np.arange(len(home)), away] = -1
    M = np.vstack([M, np.ones(n)])
    massey = np.linalg.lstsq(M, np.append(margin, 0.0), rcond=None)[0]
    return {"colley": colley, "mean_colley": colley.mean(), "massey": massey,
            "c_rank": np.argsort(-colley.round(6), kind="stable"),
            "m_rank": np.argsort(-massey.round(4), kind="stable")}


def season_monte_carlo(np, strength, uniforms):
    strength, uniforms = np.asarray(strength), np.asarray(uniforms)
    n = len(strength)
    i, j = np.triu_indices(n, 1)
    p_home = strength[i] / (strength[i] + strength[j])
    home_wins = uniforms < p_home  # seasons down the rows, games across
    wins = np.zeros((len(uniforms), n), dtype=int)
    for s in range(len(uniforms)):
        wins[s] = np.bincount(i[home_wins[s]], minlength=n) + np.bincount(j[~home_wins[s]], minlength=n)
    champ = wins.argmax(axis=1)
    return {"mean_wins": wins.mean(axis=0), "titles": np.bincount(champ, minlength=n) / len(uniforms),
            "expected": np.bincount(i, p_home, n) + np.bincount(j, 1 - p_home, n),
            "wins_q": np.percentile(wins, [10, 90], axis=0)}


def knockout_bracket(np, seeds, strength):
    seeds, strength = np.asarray(seeds), np.asarray(strength)
    alive = seeds.copy()
    rounds = []
    while len(alive) > 1:
        pairs = alive.reshape(-1, 2)
        winner = np.where(strength[pairs[:, 0]] >= strength[pairs[:, 1]], pairs[:, 0], pairs[:, 1])
        rounds.append(winner)
        alive = winner
    eliminated_in = np.full(len(seeds), len(rounds))
    for r, w in enumerate(rounds):
        out = np.setdiff1d(np.concatenate(rounds[r - 1:r]) if r else seeds, w)
        eliminated_in[out] = r
    return {"rounds": rounds, "champion": int(alive[0]), "eliminated_in": eliminated_in}


def printed_standings(np, pts, gd):
    pts, gd = np.asarray(pts), np.asarray(gd)
    order = np.lexsort((-gd, -pts))
    lines = [f"{pos + 1:>2}. team {t:<2} {pts[t]:3d} {gd[t]:+4d}" for pos, t in enumerate(order)]
    with np.printoptions(formatter={"int": lambda v: f"{v:02d}"}):
        compact = str(pts[order])
    return {"lines": "\n".join(lines), "compact": compact, "repr_pts": np.array2string(pts, separator=","),
            "leader": int(order[0]), "tied": [int(t) for t in np.flatnonzero(pts == pts[order[0]])]}


def rating_history_walk(np, history):
    history = np.asarray(history)
    best = {}
    for (game, team), r in np.ndenumerate(history):
        if r > best.get(team, (-np.inf, -1))[0]:
            best[team] = (float(r), game)
    climbs = 0
    for a, b in np.nditer([history[:-1], history[1:]]):
        climbs += int(b > a)
    return {"best": [best[t] for t in sorted(best)], "climbs": climbs,
            "first_over": [int(np.argmax(col > 1510)) if (col > 1510).any() else -1 for col in history.T]}


def test_elo_ratings():
    rng = np.random.default_rng(2021)
    h = rng.integers(0, 6, 30)
    a = (h + rng.integers(1, 6, 30)) % 6
    check(elo_ratings, h, a, rng.choice([0.0, 0.5, 1.0], 30), 6, rtol=1e-4)


def test_round_robin_schedule():
    check(round_robin_schedule, 6)


def test_league_table():
    rng = np.random.default_rng(2023)
    i, j = np.triu_indices(6, 1)
    check(league_table, np.concatenate([i, j]), np.concatenate([j, i]), rng.poisson(1.5, 30), rng.poisson(1.1, 30), 6)


def test_bradley_terry():
    rng = np.random.default_rng(2024)
    wins = rng.integers(1, 6, (5, 5))
    np.fill_diagonal(wins, 0)
    check(bradley_terry, wins, rtol=1e-3)


def test_swiss_pairing():
    rng = np.random.default_rng(2025)
    played = np.zeros((9, 9), dtype=bool)
    played[[0, 2, 4], [1, 3, 5]] = played[[1, 3, 5], [0, 2, 4]] = True
    check(swiss_pairing, rng.integers(0, 3, 9) * 0.5, rng.integers(1400, 1900, 9), played)


def test_colley_massey():
    rng = np.random.default_rng(2026)
    i, j = np.triu_indices(5, 1)
    margin = rng.integers(-10, 11, len(i))
    margin[margin == 0] = 1
    check(colley_massey, i, j, margin, 5, rtol=1e-3, atol=1e-4)


def test_season_monte_carlo():
    rng = np.random.default_rng(2027)
    check(season_monte_carlo, np.array([1.0, 1.5, 2.0, 0.7, 1.2]), rng.random((40, 10)), rtol=1e-4)


def test_knockout_bracket():
    rng = np.random.default_rng(2028)
    check(knockout_bracket, rng.permutation(8), rng.random(8))


def test_printed_standings():
    check(printed_standings, np.array([10, 7, 10, 3, 7]), np.array([4, -1, 6, -8, 2]))


def test_rating_history_walk():
    rng = np.random.default_rng(2030)
    check(rating_history_walk, 1500 + np.cumsum(rng.normal(0, 8, (12, 4)), axis=0))
