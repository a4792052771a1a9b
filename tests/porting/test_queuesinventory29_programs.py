"""Queue and inventory simulations in plain NumPy, with every random draw passed in: a single-server queue by the
Lindley recursion and by its closed form with `np.maximum.accumulate`, a multi-server queue whose event times are
merged by `np.lexsort`, the number in system over time by `searchsorted` on sorted arrivals and departures, (s, S)
inventory with lead times and a backlog, newsvendor profits over a grid of order sizes by broadcasting, a call-centre
staffing table with `np.add.reduceat` over hourly bins and `np.repeat` of per-hour rates, and time-weighted averages
with `np.diff` and `np.histogram(weights=)` (tests/porting)."""

import numpy as np
from harness import check


def lindley(np, inter, service):
    inter, service = np.asarray(inter), np.asarray(service)
    n = len(inter)
    wait = np.zeros(n)
    for k in range(1, n):
        wait[k] = max(0.0, wait[k - 1] + service[k - 1] - inter[k])
    # closed form: W_k = S_k - min_{j<=k} S_j with S the partial sums of (service - inter)
    u = np.concatenate([[0.0], service[:-1] - inter[1:]])
    S = np.cumsum(u)
    closed = S - np.minimum.accumulate(np.minimum(S, 0))
    arrive = np.cumsum(inter)
    depart = arrive + wait + service
    busy = np.sum(service) / depart[-1]
    return {"wait": wait, "closed": closed, "same": np.allclose(wait, closed), "mean_wait": wait.mean(),
            "p_wait": np.mean(wait > 0), "util": busy, "q90": np.quantile(wait, 0.9)}


def number_in_system(np, arrivals, departures, t_grid):
    a = np.sort(np.asarray(arrivals))
    d = np.sort(np.asarray(departures))
    n_t = np.searchsorted(a, t_grid, side="right") - np.searchsorted(d, t_grid, side="right")
    times = np.concatenate([a, d])
    steps = np.concatenate([np.ones_like(a), -np.ones_like(d)])
    order = np.lexsort((-steps, times))  # departures before arrivals at equal times
    level = np.cumsum(steps[order])
    t_sorted = times[order]
    dt = np.diff(t_sorted, append=t_sorted[-1])
    avg = np.sum(level * dt) / (t_sorted[-1] - t_sorted[0])
    hist, _ = np.histogram(level, bins=np.arange(level.max() + 2) - 0.5, weights=dt)
    return {"n_t": n_t, "max": level.max(), "avg": avg, "hist": hist / hist.sum(),
            "peak_time": t_sorted[np.argmax(level)]}


def multi_server(np, inter, service, c):
    arrive = np.cumsum(np.asarray(inter))
    free = np.zeros(c)
    start = np.empty_like(arrive)
    server = np.empty(len(arrive), dtype=np.int64)
    for k, t in enumerate(arrive):
        j = np.argmin(free)
        start[k] = max(t, free[j])
        free[j] = start[k] + service[k]
        server[k] = j
    wait = start - arrive
    per_server = np.bincount(server, weights=service, minlength=c)
    return {"wait": wait, "server": server, "load": per_server / free.max(), "n_waited": np.count_nonzero(wait),
            "sorted_free": np.sort(free)}


def s_S_inventory(np, demand, lead, s, S, h, p, K):
    demand = np.asarray(demand)
    T = len(demand)
    on_hand = np.zeros(T + 1, dtype=np.int64)
    on_hand[0] = S
    pipeline = np.zeros(T + lead + 1, dtype=np.int64)
    orders = np.zeros(T, dtype=np.int64)
    cost = np.zeros(T)
    for t in range(T):
        level = on_hand[t] + pipeline[t]
        position = level + pipeline[t + 1: t + lead + 1].sum()
        if position <= s:
            orders[t] = S - position
            pipeline[t + lead] += orders[t]
        on_hand[t + 1] = level - demand[t]
        cost[t] = h * max(on_hand[t + 1], 0) + p * max(-on_hand[t + 1], 0) + K * (orders[t] > 0)
    stockout = on_hand[1:] < 0
    return {"on_hand": on_hand, "orders": orders, "cost": cost.sum(), "fill": 1 - np.sum(np.minimum(on_hand[1:], 0)
            ) / -demand.sum(), "stockouts": np.flatnonzero(stockout), "n_orders": np.count_nonzero(orders)}


def newsvendor(np, demand, price, cost, salvage):
    D = np.asarray(demand)
    Q = np.arange(D.min(), D.max() + 1)
    sold = np.minimum(Q[:, None], D[None, :])
    left = Q[:, None] - sold
    profit = price * sold + salvage * left - cost * Q[:, None]
    mean_profit = profit.mean(axis=1)
    best = Q[np.argmax(mean_profit)]
    ratio = (price - cost) / (price - salvage)
    q_crit = np.quantile(D, ratio, method="inverted_cdf")
    return {"best": best, "q_crit": q_crit, "curve": mean_profit, "risk": profit.std(axis=1),
            "p_loss": np.mean(profit < 0, axis=1)}


def staffing(np, call_times, durations, hours, target):
    t, dur = np.asarray(call_times), np.asarray(durations)
    order = np.argsort(t, kind="stable")
    t, dur = t[order], dur[order]
    edges = np.arange(hours + 1) * 60.0
    starts = np.searchsorted(t, edges[:-1])
    counts = np.diff(np.append(starts, len(t)))
    load = np.add.reduceat(dur, starts) if starts[-1] < len(t) else None
    load = np.where(counts > 0, load, 0)
    erlangs = load / 60.0
    agents = np.ceil(erlangs / target).astype(np.int64)
    per_minute = np.repeat(agents, 60)
    return {"counts": counts, "erlangs": erlangs, "agents": agents, "agent_minutes": per_minute.sum(),
            "peak_hour": int(np.argmax(counts)), "busiest": np.argsort(counts)[::-1][:3]}


def test_lindley():
    rng = np.random.default_rng(2980)
    check(lindley, rng.exponential(1.0, 80), rng.exponential(0.8, 80))


def test_number_in_system():
    rng = np.random.default_rng(2981)
    a = np.cumsum(rng.exponential(1.0, 40))
    d = a + rng.exponential(2.0, 40)
    check(number_in_system, a, d, np.linspace(0, 45, 31))


def test_multi_server():
    rng = np.random.default_rng(2982)
    check(multi_server, rng.exponential(0.5, 60), rng.exponential(1.2, 60), 3)


def test_s_S_inventory():
    check(s_S_inventory, np.random.default_rng(2983).poisson(4, 40), 2, 6, 20, 1.0, 5.0, 12.0)


def test_newsvendor():
    check(newsvendor, np.random.default_rng(2984).poisson(30, 200), 5.0, 3.0, 1.0)


def test_staffing():
    rng = np.random.default_rng(2985)
    hours = 8
    rate = np.array([5, 12, 20, 25, 18, 10, 6, 3])
    calls = np.concatenate([h * 60 + rng.uniform(0, 60, r) for h, r in enumerate(rate)])
    rng.shuffle(calls)
    check(staffing, calls, rng.exponential(4.0, len(calls)), hours, 0.8)
