"""Sports tables and traffic queues as analysts script them in NumPy: a league table from match results with
`np.add.at`, points/goal difference/goals ordered by `np.lexsort` (and a stable `argsort` on a combined key),
head-to-head tie-breaks, Elo updates in a loop, a fixed-time traffic signal with arrivals from `cumsum` of gaps and
departures by `searchsorted` into green windows, queue lengths by `np.diff` of cumulative curves, a Webster
cycle-length table, and a printed league table with f-string alignment (tests/porting)."""

import numpy as np
from harness import check


def league_table(np, home, away, hg, ag, n):
    home, away, hg, ag = (np.asarray(v) for v in (home, away, hg, ag))
    pts = np.zeros(n, dtype=np.int64)
    gf = np.zeros(n, dtype=np.int64)
    ga = np.zeros(n, dtype=np.int64)
    won = np.zeros(n, dtype=np.int64)
    hw, aw, dr = hg > ag, hg < ag, hg == ag
    np.add.at(pts, home, np.where(hw, 3, np.where(dr, 1, 0)))
    np.add.at(pts, away, np.where(aw, 3, np.where(dr, 1, 0)))
    np.add.at(gf, home, hg)
    np.add.at(gf, away, ag)
    np.add.at(ga, home, ag)
    np.add.at(ga, away, hg)
    np.add.at(won, home[hw], 1)
    np.add.at(won, away[aw], 1)
    gd = gf - ga
    order = np.lexsort((np.arange(n), -gf, -gd, -pts))
    key = pts * 10**6 + (gd + 1000) * 10**3 + gf
    order2 = np.argsort(-key, kind="stable")
    played = np.bincount(home, minlength=n) + np.bincount(away, minlength=n)
    return {"order": order, "same": bool(np.array_equal(order, order2)), "pts": pts[order], "gd": gd[order],
            "played": played, "won": won, "ppg": np.round(pts / np.maximum(played, 1), 3)}


def head_to_head(np, home, away, hg, ag, tied):
    home, away, hg, ag = (np.asarray(v) for v in (home, away, hg, ag))
    tied = np.asarray(tied)
    among = np.isin(home, tied) & np.isin(away, tied)
    h, a, x, y = home[among], away[among], hg[among], ag[among]
    idx = {int(t): i for i, t in enumerate(tied)}
    mini = np.zeros(len(tied), dtype=np.int64)
    for hh, aa, g1, g2 in zip(h.tolist(), a.tolist(), x.tolist(), y.tolist(), strict=True):
        if g1 > g2:
            mini[idx[hh]] += 3
        elif g1 < g2:
            mini[idx[aa]] += 3
        else:
            mini[idx[hh]] += 1
            mini[idx[aa]] += 1
    rank = tied[np.argsort(-mini, kind="stable")]
    return {"games": int(among.sum()), "mini": mini, "rank": rank}


def elo(np, home, away, hg, ag, n, k, home_adv):
    r = np.full(n, 1500.0)
    history = np.empty((len(home), 2))
    for i, (h, a) in enumerate(zip(home, away, strict=True)):
        exp_h = 1 / (1 + 10 ** ((r[a] - r[h] - home_adv) / 400))
        s = 1.0 if hg[i] > ag[i] else 0.5 if hg[i] == ag[i] else 0.0
        margin = np.log1p(abs(hg[i] - ag[i]))
        delta = k * max(margin, 1.0) * (s - exp_h)
        r[h] += delta
        r[a] -= delta
        history[i] = r[h], r[a]
    return {"r": r, "history": history, "top": int(np.argmax(r)), "spread": np.ptp(r), "sum": r.sum()}


def signal_queue(np, gaps, cycle, green, sat_headway):
    arrivals = np.cumsum(np.asarray(gaps))
    n_cycles = int(np.ceil(arrivals[-1] / cycle)) + 3
    starts = np.arange(n_cycles) * cycle
    # departures: each vehicle leaves at the first green slot not before it and not before the previous + headway
    dep = np.empty_like(arrivals)
    t_prev = -np.inf
    for i, t in enumerate(arrivals):
        t = max(t, t_prev + sat_headway)
        c = np.searchsorted(starts, t, side="right") - 1
        if t - starts[c] >= green:
            t = starts[c + 1]
        dep[i] = t
        t_prev = t
    delay = dep - arrivals
    grid = np.linspace(0, dep[-1], 200)
    queue = np.searchsorted(arrivals, grid, side="right") - np.searchsorted(dep, grid, side="right")
    per_cycle = np.bincount((dep // cycle).astype(np.int64), minlength=n_cycles)
    return {"dep": dep, "delay_mean": delay.mean(), "delay_p95": np.percentile(delay, 95), "max_q": queue.max(),
            "per_cycle": per_cycle, "stops": int(np.count_nonzero(delay > 1e-9)),
            "headways": np.diff(dep, prepend=dep[0])}


def cumulative_curves(np, arrivals, departures, t_grid):
    A = np.searchsorted(np.sort(arrivals), t_grid, side="right")
    D = np.searchsorted(np.sort(departures), t_grid, side="right")
    q = A - D
    dt = np.diff(t_grid, append=t_grid[-1])
    total_delay = np.sum(q * dt)
    busy = np.flatnonzero(np.diff((q > 0).astype(np.int8), prepend=0, append=0))
    return {"A": A, "D": D, "q": q, "total_delay": total_delay, "busy_periods": busy.reshape(-1, 2),
            "max_at": t_grid[np.argmax(q)]}


def webster(np, flows, sat_flows, lost_per_phase):
    y = np.asarray(flows) / np.asarray(sat_flows)
    Y = y.max(axis=1).sum()
    L = lost_per_phase * y.shape[0]
    C0 = (1.5 * L + 5) / (1 - Y)
    cycles = np.clip(np.round(C0 / 5) * 5, 40, 150)
    effective = cycles - L
    greens = effective * y.max(axis=1) / Y
    critical = np.argmax(y, axis=1)
    return {"y": y, "Y": Y, "C0": C0, "cycle": cycles, "greens": np.round(greens, 1), "critical": critical,
            "oversat": bool(Y >= 1)}


def printed_table(np, names, pts, gd, gf):
    pts, gd, gf = np.asarray(pts), np.asarray(gd), np.asarray(gf)
    order = np.lexsort((gf * -1, -gd, -pts))
    lines = [f"{'#':>2} {'team':<10}{'Pts':>4}{'GD':>5}{'GF':>4}"]
    for pos, i in enumerate(order, start=1):
        lines.append(f"{pos:>2} {names[i]:<10}{pts[i]:>4}{gd[i]:>+5}{gf[i]:>4}")
    lines.append(f"leader by {pts[order[0]] - pts[order[1]]} point(s); mean GF {gf.mean():.2f}")
    return {"text": "\n".join(lines)}


def _season(seed, n=6):
    rng = np.random.default_rng(seed)
    pairs = np.array([(h, a) for h in range(n) for a in range(n) if h != a])
    strength = rng.normal(0, 0.4, n)
    hg = rng.poisson(np.exp(0.3 + strength[pairs[:, 0]] - strength[pairs[:, 1]]))
    ag = rng.poisson(np.exp(0.1 + strength[pairs[:, 1]] - strength[pairs[:, 0]]))
    return pairs[:, 0], pairs[:, 1], hg, ag


def test_league_table():
    h, a, hg, ag = _season(3191)
    check(league_table, h, a, hg, ag, 6)


def test_head_to_head():
    h, a, hg, ag = _season(3192)
    check(head_to_head, h, a, hg, ag, np.array([1, 3, 4]))


def test_elo():
    h, a, hg, ag = _season(3193)
    check(elo, h, a, hg, ag, 6, 20.0, 60.0)


def test_signal_queue():
    rng = np.random.default_rng(3194)
    check(signal_queue, rng.exponential(4.0, 60), 60.0, 27.0, 2.0)


def test_cumulative_curves():
    rng = np.random.default_rng(3195)
    arr = np.cumsum(rng.exponential(3.0, 40))
    dep = arr + rng.uniform(0, 10, 40)
    check(cumulative_curves, arr, dep, np.linspace(0, dep.max() + 1, 120))


def test_webster():
    flows = np.array([[450, 300], [600, 520], [200, 260]])
    check(webster, flows, np.full((3, 2), 1800), 4.0)


def test_printed_table():
    check(printed_table, ["Ajax", "Brann", "Celtic", "Derby", "Everton"], [10, 12, 10, 7, 12], [3, 5, 3, -4, 8],
          [9, 11, 12, 5, 14])
