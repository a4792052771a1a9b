"""Event-log analytics as backend engineers script them in NumPy on int64 epoch seconds: sessions split at idle
gaps by `np.diff` and `np.split`, per-user aggregates by `lexsort` and `np.add.reduceat`/`np.maximum.reduceat`,
hour-of-day profiles by `floor_divide` and `bincount(minlength=)`, funnel conversion with `np.isin` and
`intersect1d(return_indices=True)`, a rolling median of latencies over `sliding_window_view` with robust z-scores,
resampling to fixed buckets with gap filling by `np.interp`, and retention cohorts by `np.unique(return_inverse=True)`
into a 2-d `np.add.at` table (tests/porting)."""

import numpy as np
from harness import check


def sessions(np, user, ts, idle):
    user, ts = np.asarray(user), np.asarray(ts, dtype=np.int64)
    order = np.lexsort((ts, user))
    u, t = user[order], ts[order]
    new = np.ones(len(t), dtype=bool)
    new[1:] = (u[1:] != u[:-1]) | (np.diff(t) > idle)
    starts = np.flatnonzero(new)
    ends = np.r_[starts[1:], len(t)]
    length = np.maximum.reduceat(t, starts) - np.minimum.reduceat(t, starts)
    events = ends - starts
    per_user = np.bincount(u[starts], minlength=int(user.max()) + 1)
    pieces = np.split(t, starts[1:])
    return {"starts": starts, "length": length, "events": events, "per_user": per_user,
            "longest": int(np.argmax(length)), "n_pieces": len(pieces), "first_piece": pieces[0]}


def user_aggregates(np, user, amount, ts):
    user, amount, ts = np.asarray(user), np.asarray(amount), np.asarray(ts, dtype=np.int64)
    order = np.argsort(user, kind="stable")
    u = user[order]
    bounds = np.flatnonzero(np.r_[True, u[1:] != u[:-1]])
    ids = u[bounds]
    total = np.add.reduceat(amount[order], bounds)
    biggest = np.maximum.reduceat(amount[order], bounds)
    count = np.diff(np.r_[bounds, len(u)])
    last_seen = np.maximum.reduceat(ts[order], bounds)
    rank = np.argsort(-total, kind="stable")
    return {"ids": ids, "total": total, "biggest": biggest, "count": count, "mean": total / count,
            "last_seen": last_seen, "top3": ids[rank[:3]]}


def hourly_profile(np, ts, tz_offset_h):
    ts = np.asarray(ts, dtype=np.int64) + tz_offset_h * 3600
    hour = np.floor_divide(ts, 3600) % 24
    dow = (np.floor_divide(ts, 86400) + 4) % 7  # 1970-01-01 was a Thursday
    per_hour = np.bincount(hour, minlength=24)
    grid = np.zeros((7, 24), dtype=np.int64)
    np.add.at(grid, (dow, hour), 1)
    peak = np.unravel_index(np.argmax(grid), grid.shape)
    share = per_hour / per_hour.sum()
    return {"per_hour": per_hour, "grid_rows": grid.sum(axis=1), "peak": peak, "busiest_hour": int(np.argmax(share)),
            "night": float(share[:6].sum()), "weekend": int(grid[5:].sum())}


def funnel(np, users_visit, users_cart, users_buy):
    v, c, b = (np.unique(np.asarray(x)) for x in (users_visit, users_cart, users_buy))
    carted = np.isin(v, c)
    bought = np.isin(v, b)
    both, i_c, i_b = np.intersect1d(c, b, return_indices=True)
    steps = np.array([len(v), carted.sum(), (carted & bought).sum()])
    leaked = np.setdiff1d(b, c)
    return {"steps": steps, "rates": steps[1:] / steps[:-1], "both": both, "i_c": i_c, "i_b": i_b,
            "leaked": leaked, "union": np.union1d(c, b).size, "xor": np.setxor1d(c, b)}


def latency_outliers(np, latency_ms, window, thresh):
    x = np.asarray(latency_ms, dtype=np.float64)
    w = np.lib.stride_tricks.sliding_window_view(x, window)
    med = np.median(w, axis=-1)
    mad = np.median(np.abs(w - med[:, None]), axis=-1)
    centre = x[window - 1:]
    z = 0.6745 * (centre - med) / np.where(mad > 0, mad, np.nan)
    flags = np.flatnonzero(np.abs(np.nan_to_num(z)) > thresh) + window - 1
    p = np.percentile(x, [50, 90, 99], method="higher")
    return {"med": med, "z": np.round(z, 3), "flags": flags, "p": p, "clipped_mean": np.clip(x, None, p[1]).mean()}


def resample(np, ts, value, start, stop, step):
    ts, value = np.asarray(ts, dtype=np.int64), np.asarray(value, dtype=np.float64)
    edges = np.arange(start, stop + step, step)
    idx = np.searchsorted(edges, ts, side="right") - 1
    ok = (idx >= 0) & (idx < len(edges) - 1)
    n = len(edges) - 1
    sums = np.bincount(idx[ok], weights=value[ok], minlength=n)
    counts = np.bincount(idx[ok], minlength=n)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = sums / counts
    have = counts > 0
    centres = edges[:-1] + step / 2
    filled = np.interp(centres, centres[have], means[have])
    return {"counts": counts, "means": means, "filled": filled, "gaps": np.flatnonzero(~have)}


def retention(np, user, signup_day, active_day, weeks):
    user = np.asarray(user)
    cohort_of = dict(zip(np.asarray(signup_day[0]).tolist(), np.asarray(signup_day[1]).tolist(), strict=True))
    cohort = np.array([cohort_of[u] for u in user.tolist()]) // 7
    week = (np.asarray(active_day) // 7) - cohort
    keep = (week >= 0) & (week < weeks)
    cohorts, inv = np.unique(cohort[keep], return_inverse=True)
    table = np.zeros((len(cohorts), weeks), dtype=np.int64)
    pairs = np.unique(np.stack([inv, week[keep], user[keep]], axis=1), axis=0)
    np.add.at(table, (pairs[:, 0], pairs[:, 1]), 1)
    rate = table / np.maximum(table[:, :1], 1)
    return {"cohorts": cohorts, "table": table, "rate": np.round(rate, 3), "pairs": len(pairs)}


def _events(seed, n=200, users=12):
    rng = np.random.default_rng(seed)
    user = rng.integers(0, users, n)
    ts = 1_700_000_000 + np.cumsum(rng.exponential(900, n)).astype(np.int64)
    return user, ts, rng


def test_sessions():
    user, ts, _ = _events(3241)
    check(sessions, user, ts, 1800)


def test_user_aggregates():
    user, ts, rng = _events(3242)
    check(user_aggregates, user, np.round(rng.gamma(2, 20, user.size), 2), ts)


def test_hourly_profile():
    _, ts, _ = _events(3243, n=400)
    check(hourly_profile, ts, -5)


def test_funnel():
    rng = np.random.default_rng(3244)
    visit = rng.integers(0, 60, 150)
    cart = rng.choice(np.unique(visit), 25, replace=False)
    buy = np.concatenate([rng.choice(cart, 10, replace=False), [61, 62]])
    check(funnel, visit, cart, buy)


def test_latency_outliers():
    rng = np.random.default_rng(3245)
    x = rng.lognormal(3, 0.3, 120)
    x[[30, 75, 100]] *= 8
    check(latency_outliers, x, 15, 3.5)


def test_resample():
    rng = np.random.default_rng(3246)
    ts = np.sort(rng.integers(0, 3600, 80))
    ts = ts[(ts < 1200) | (ts > 1800)]  # a gap to fill
    check(resample, ts, rng.normal(20, 2, ts.size), 0, 3600, 300)


def test_retention():
    rng = np.random.default_rng(3247)
    users = np.arange(30)
    signup = rng.integers(0, 28, 30)
    active_user = rng.choice(users, 300)
    active_day = signup[active_user] + rng.integers(0, 40, 300)
    check(retention, active_user, (users, signup), active_day, 5)
