"""Elections and voting as political-science course notebooks write them: Borda counts from ranked ballots
(`argsort` of positions, `np.add.at`), instant-runoff rounds that strike out the last candidate by a mask
(`np.argmax` over the remaining preferences per ballot), a Condorcet pairwise matrix (`np.einsum` of position
comparisons, Copeland scores, a Smith-set check), D'Hondt and Sainte-Lague apportionment (`np.divide.outer`,
`argsort` of the quotient table, `np.bincount` of the winners), approval and score voting with `np.unique(axis=0)`
ballot profiles, turnout by district (`np.histogram2d`, `np.digitize`), and a gerrymandering efficiency gap
(wasted votes by `np.where`) (tests/porting)."""

import numpy as np
from harness import check


def borda_count(np, ballots):
    n_voters, n_cand = ballots.shape
    positions = np.argsort(ballots, axis=1)  # positions[v, c]: where voter v ranked candidate c
    points = n_cand - 1 - positions
    scores = points.sum(axis=0)
    # the same by scatter: each ballot's first choice gets n-1, the next n-2...
    scatter = np.zeros(n_cand, dtype=np.int64)
    weights = np.tile(np.arange(n_cand - 1, -1, -1), n_voters)
    np.add.at(scatter, ballots.ravel(), weights)
    firsts = np.bincount(ballots[:, 0], minlength=n_cand)
    ranking = np.lexsort((-firsts, -scores))
    return {"scores": scores, "scatter": scatter, "firsts": firsts, "ranking": ranking,
            "winner": int(ranking[0]), "plurality": int(np.argmax(firsts)), "mean_pos": positions.mean(axis=0)}


def instant_runoff(np, ballots):
    n_voters, n_cand = ballots.shape
    alive = np.ones(n_cand, dtype=bool)
    rounds = []
    eliminated = []
    while True:
        ok = alive[ballots]  # (voters, ranks): is the candidate at that rank still running
        first_rank = np.argmax(ok, axis=1)
        choice = ballots[np.arange(n_voters), first_rank]
        tally = np.bincount(choice, minlength=n_cand)
        rounds.append(tally)
        if tally.max() * 2 > n_voters or alive.sum() == 1:
            break
        masked = np.where(alive, tally, np.iinfo(np.int64).max)
        loser = int(np.argmin(masked))
        alive[loser] = False
        eliminated.append(loser)
    table = np.array(rounds)
    return {"rounds": table, "eliminated": eliminated, "winner": int(np.argmax(table[-1])),
            "share": np.round(table[-1] / n_voters * 100, 2), "exhausted": n_voters - table.sum(axis=1)}


def condorcet_matrix(np, ballots):
    n_cand = ballots.shape[1]
    pos = np.argsort(ballots, axis=1)
    prefers = (pos[:, :, None] < pos[:, None, :]).astype(np.int32)
    P = prefers.sum(axis=0)  # P[a, b]: voters ranking a above b
    P2 = np.einsum("vab->ab", prefers)
    margin = P - P.T
    wins = margin > 0
    copeland = wins.sum(axis=1) - (margin < 0).sum(axis=1)
    condorcet = np.flatnonzero(wins.sum(axis=1) == n_cand - 1)
    # Smith set by transitive closure of "beats or ties"
    reach = (margin >= 0).astype(np.int64)
    for _ in range(n_cand):
        reach = ((reach @ reach) > 0).astype(np.int64) | reach
    top = int(np.argmax(copeland))
    smith = np.flatnonzero(reach[:, top] & reach[top, :])
    minimax = np.argmin(np.max(np.where(np.eye(n_cand, dtype=bool), 0, P.T), axis=1))
    return {"P": P, "same": bool(np.array_equal(P, P2)), "margin": margin, "copeland": copeland,
            "condorcet": condorcet, "smith": smith, "minimax": int(minimax)}


def dhondt(np, votes, seats, threshold):
    share = votes / votes.sum()
    eligible = share >= threshold
    v = np.where(eligible, votes, 0)
    divisors = np.arange(1, seats + 1)
    quotients = np.divide.outer(v, divisors)
    flat = quotients.ravel()
    order = np.argsort(-flat, kind="stable")[:seats]
    party = order // seats
    alloc = np.bincount(party, minlength=len(votes))
    # Sainte-Lague: odd divisors
    sl = np.divide.outer(v, 2 * divisors - 1)
    sl_alloc = np.bincount(np.argsort(-sl.ravel(), kind="stable")[:seats] // seats, minlength=len(votes))
    last_quota = flat[order[-1]]
    gallagher = np.sqrt(0.5 * np.sum((share * 100 - alloc / seats * 100) ** 2))
    return {"dhondt": alloc, "sainte_lague": sl_alloc, "quota": last_quota, "eligible": eligible,
            "gallagher": gallagher, "quotients": quotients[:, :4]}


def approval_profiles(np, approvals, scores):
    profiles, inverse, counts = np.unique(approvals, axis=0, return_inverse=True, return_counts=True)
    approval_totals = approvals.sum(axis=0)
    by_profile = np.zeros((len(profiles), approvals.shape[1]))
    np.add.at(by_profile, inverse.ravel(), scores)
    star_top2 = np.argsort(scores.mean(axis=0))[::-1][:2]
    a, b = star_top2
    runoff = int(np.sum(scores[:, a] > scores[:, b])) - int(np.sum(scores[:, b] > scores[:, a]))
    bullet = (approvals.sum(axis=1) == 1).mean()
    return {"profiles": profiles, "counts": counts, "totals": approval_totals, "by_profile": by_profile,
            "star_top2": star_top2, "runoff_margin": runoff, "bullet": bullet,
            "median_score": np.median(scores, axis=0)}


def turnout_map(np, x, y, age, voted):
    H, xe, ye = np.histogram2d(x, y, bins=[4, 3], range=[[0, 1], [0, 1]])
    Hv, _, _ = np.histogram2d(x[voted], y[voted], bins=[xe, ye])
    with np.errstate(divide="ignore", invalid="ignore"):
        turnout = np.where(H > 0, Hv / H, np.nan)
    band = np.digitize(age, [25, 35, 50, 65])
    by_band = np.bincount(band, weights=voted.astype(float), minlength=5) / np.bincount(band, minlength=5)
    cum = np.cumsum(np.bincount(band, minlength=5))
    return {"H": H, "turnout": turnout, "by_band": by_band, "cum": cum, "best": np.nanargmax(turnout),
            "overall": np.nanmean(turnout)}


def efficiency_gap(np, dem, rep):
    total = dem + rep
    need = total // 2 + 1
    dem_wins = dem > rep
    wasted_d = np.where(dem_wins, dem - need, dem)
    wasted_r = np.where(dem_wins, rep, rep - need)
    gap = (wasted_r.sum() - wasted_d.sum()) / total.sum()
    seats_d = dem_wins.sum()
    margins = (dem - rep) / total
    order = np.argsort(margins)
    tipping = order[np.searchsorted(np.cumsum(np.ones_like(margins)[order]), len(dem) / 2)]
    swing = np.linspace(-0.1, 0.1, 9)
    curve = ((margins[None, :] + 2 * swing[:, None]) > 0).sum(axis=1)
    return {"wasted_d": wasted_d, "wasted_r": wasted_r, "gap": gap, "seats_d": int(seats_d),
            "tipping": int(tipping), "curve": curve, "close": np.isclose(margins, 0, atol=0.05)}


def _ballots(rng, voters, cands):
    utility = rng.normal(size=(voters, cands)) + np.linspace(0.6, 0, cands)
    return np.argsort(-utility, axis=1)


def test_borda_count():
    check(borda_count, _ballots(np.random.default_rng(1401), 60, 5))


def test_instant_runoff_rounds():
    check(instant_runoff, _ballots(np.random.default_rng(1402), 101, 6))


def test_condorcet_pairwise_matrix():
    check(condorcet_matrix, _ballots(np.random.default_rng(1403), 45, 5))


def test_dhondt_apportionment():
    votes = np.array([340_000, 280_000, 160_000, 60_000, 15_000, 145_000])
    check(dhondt, votes, 12, 0.03)


def test_approval_and_score_voting():
    rng = np.random.default_rng(1405)
    approvals = (rng.random((50, 4)) < 0.35).astype(np.int64)
    check(approval_profiles, approvals, rng.integers(0, 6, (50, 4)).astype(float))


def test_turnout_by_district():
    rng = np.random.default_rng(1406)
    n = 400
    check(turnout_map, rng.random(n), rng.random(n), rng.integers(18, 90, n), rng.random(n) < 0.6)


def test_efficiency_gap():
    rng = np.random.default_rng(1407)
    dem = rng.integers(20_000, 80_000, 15)
    check(efficiency_gap, dem, rng.integers(20_000, 80_000, 15))
