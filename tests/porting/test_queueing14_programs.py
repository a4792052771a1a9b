"""Queueing and inventory simulation as operations-research notebooks write it: an M/M/1 queue by Lindley's
recursion in a loop and in closed form by `np.cumsum` and `np.minimum.accumulate` (against the theory's mean wait),
queue length over time from merged arrival/departure events (`np.argsort(kind="stable")`, a `cumsum` of +1/-1 and a
time-weighted mean by `np.diff`), an M/M/c bank with servers' free times and `np.argmin`, Erlang B and C by the
vectorised recursion over server counts, an (s, S) inventory policy with lead times and lost sales, base-stock
policies vectorised over a grid of levels by broadcasting and `cumsum`, priority classes served by `np.lexsort`,
and an EOQ cost surface over `np.meshgrid` with `np.unravel_index` of its minimum (tests/porting)."""

import math

import numpy as np
from harness import check


def mm1_lindley(np, interarrival, service):
    A, S = np.asarray(interarrival), np.asarray(service)
    n = len(A)
    W = np.zeros(n)
    for k in range(1, n):
        W[k] = max(0.0, W[k - 1] + S[k - 1] - A[k])
    U = np.concatenate([[0.0], S[:-1] - A[1:]])
    C = np.cumsum(U)
    W_vec = C - np.minimum.accumulate(np.minimum(C, 0.0))
    arrive = np.cumsum(A)
    depart = arrive + W_vec + S
    busy = np.maximum.accumulate(depart)
    lam, mu = 1 / A.mean(), 1 / S.mean()
    rho = lam / mu
    return {"W": W[::50], "same": np.abs(W - W_vec).max() < 1e-3 * W.max(), "mean_W": W_vec.mean(),
            "theory_Wq": rho / (mu - lam), "rho": rho, "p_wait": np.mean(W_vec > 0),
            "monotone": bool(np.all(np.diff(busy) >= 0)), "q99": np.quantile(W_vec, 0.99)}


def queue_length_events(np, arrive, depart, horizon):
    arrive, depart = np.asarray(arrive), np.asarray(depart)
    times = np.concatenate([arrive, depart])
    delta = np.concatenate([np.ones(len(arrive), dtype=int), -np.ones(len(depart), dtype=int)])
    order = np.argsort(times, kind="stable")
    times, delta = times[order], delta[order]
    L = np.cumsum(delta)
    keep = times <= horizon
    t_k, L_k = times[keep], L[keep]
    durations = np.diff(np.append(t_k, horizon))
    mean_L = np.sum(L_k * durations) / horizon
    grid = np.arange(0, horizon, horizon / 50)
    sampled = L[np.searchsorted(times, grid, side="right") - 1].clip(0)
    hist = np.bincount(L_k, weights=durations) / horizon
    return {"mean_L": mean_L, "max_L": int(L_k.max()), "sampled": sampled, "time_share": hist,
            "idle": hist[0] if hist.size else 0.0}


def mmc_bank(np, arrive, service, c):
    arrive, service = np.asarray(arrive), np.asarray(service)
    free = np.zeros(c, dtype=arrive.dtype)  # kdsl's default is float32 (documented); the clock needs float64
    start = np.empty_like(arrive)
    teller = np.empty(len(arrive), dtype=int)
    for i, (a, s) in enumerate(zip(arrive, service, strict=True)):
        k = int(np.argmin(free))
        start[i] = max(a, free[k])
        teller[i] = k
        free[k] = start[i] + s
    wait = start - arrive
    util = np.bincount(teller, weights=service, minlength=c) / free.max()
    return {"wait": wait[::20], "mean_wait": wait.mean(), "served": np.bincount(teller, minlength=c),
            "util": util, "waited": np.count_nonzero(wait > 1e-9), "makespan": free.max()}


def erlang(np, offered_load, max_servers):
    a = np.asarray(offered_load)[:, None]
    B = np.ones((a.shape[0], max_servers + 1))
    for c in range(1, max_servers + 1):
        B[:, c] = a[:, 0] * B[:, c - 1] / (c + a[:, 0] * B[:, c - 1])
    c = np.arange(max_servers + 1)[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = a / c
        C = np.where(rho < 1, B / (1 - rho * (1 - B)), 1.0)
    needed = np.argmax(C < 0.2, axis=1)
    fact = np.array([math.factorial(k) for k in range(max_servers + 1)], dtype=float)
    direct = (a ** c / fact) / np.cumsum(a ** c / fact, axis=1)
    return {"B": B, "C": np.where(np.isfinite(C), C, -1.0), "needed": needed, "direct": direct,
            "agree": bool(np.allclose(B, direct, rtol=1e-4))}


def s_S_inventory(np, demand, s, S, lead, hold, order_cost, lost_cost):
    d = np.asarray(demand)
    on_hand = S
    pipeline = np.zeros(lead + 1)
    level = np.empty(len(d))
    lost = np.zeros(len(d))
    orders = np.zeros(len(d), dtype=bool)
    for t in range(len(d)):
        on_hand += pipeline[0]
        pipeline = np.roll(pipeline, -1)
        pipeline[-1] = 0.0
        sold = min(on_hand, d[t])
        lost[t] = d[t] - sold
        on_hand -= sold
        position = on_hand + pipeline.sum()
        if position <= s:
            pipeline[lead - 1] += S - position
            orders[t] = True
        level[t] = on_hand
    cost = hold * level.sum() + order_cost * orders.sum() + lost_cost * lost.sum()
    fill = 1 - lost.sum() / d.sum()
    return {"level": level[::7], "orders": np.flatnonzero(orders), "lost": lost.sum(), "fill": fill,
            "cost": cost, "stockout_days": int(np.count_nonzero(lost)), "avg_level": level.mean()}


def base_stock_grid(np, demand, levels, hold, backorder):
    d = np.asarray(demand)
    cum = np.cumsum(d)
    lv = np.asarray(levels)[:, None]
    # order-up-to each period with zero lead time: net stock at period end is level - demand of the period
    net = lv - d[None, :]
    h = np.maximum(net, 0).sum(axis=1) * hold
    b = np.maximum(-net, 0).sum(axis=1) * backorder
    total = h + b
    best = int(np.argmin(total))
    ratio = backorder / (backorder + hold)
    return {"total": total, "best_level": levels[best], "critical": ratio,
            "quantile": np.quantile(d, ratio, method="inverted_cdf"), "cum": cum[::10],
            "service": (lv >= d[None, :]).mean(axis=1)}


def priority_service(np, arrive, priority, service):
    arrive, priority, service = np.asarray(arrive), np.asarray(priority), np.asarray(service)
    order = np.lexsort((arrive, priority))
    start = np.cumsum(np.concatenate([[0.0], service[order][:-1]]))
    wait = np.empty_like(start)
    wait[order] = start
    by_class = np.bincount(priority, weights=wait) / np.bincount(priority)
    rank = np.empty(len(order), dtype=int)
    rank[order] = np.arange(len(order))
    return {"order": order, "wait": wait, "by_class": by_class, "rank": rank,
            "cls_last": np.maximum.reduceat(wait[order], np.searchsorted(priority[order], np.unique(priority)))}


def eoq_surface(np, demand_rate, order_costs, hold_costs):
    K, h = np.meshgrid(np.asarray(order_costs), np.asarray(hold_costs), indexing="ij")
    Q = np.sqrt(2 * demand_rate * K / h)
    cost = demand_rate / Q * K + h * Q / 2
    qs = np.linspace(50, 1500, 30)
    grid_cost = demand_rate / qs[:, None, None] * K + h * qs[:, None, None] / 2
    i, j, k = np.unravel_index(np.argmin(grid_cost), grid_cost.shape)
    return {"Q": Q, "cost": cost, "cycles": demand_rate / Q, "argmin": [int(i), int(j), int(k)],
            "grid_best": grid_cost.min(axis=0), "gap": (grid_cost.min(axis=0) - cost).max()}


def test_mm1_lindley_recursion():
    rng = np.random.default_rng(1441)
    n = 3000
    check(mm1_lindley, rng.exponential(1 / 0.8, n), rng.exponential(1.0, n), rtol=1e-3, atol=1e-3)


def test_queue_length_from_events():
    rng = np.random.default_rng(1442)
    arrive = np.cumsum(rng.exponential(1.0, 300))
    service = rng.exponential(0.7, 300)
    depart = np.empty(300)
    t = 0.0
    for i in range(300):
        t = max(t, arrive[i]) + service[i]
        depart[i] = t
    check(queue_length_events, arrive, depart, 250.0, rtol=1e-4, atol=1e-6)


def test_mmc_bank_tellers():
    rng = np.random.default_rng(1443)
    check(mmc_bank, np.cumsum(rng.exponential(0.5, 200)), rng.exponential(1.2, 200), 3, rtol=1e-4, atol=1e-6)


def test_erlang_b_and_c():
    check(erlang, np.array([0.5, 2.0, 5.0, 9.5]), 14, rtol=1e-4, atol=1e-7)


def test_s_S_inventory_policy():
    rng = np.random.default_rng(1445)
    check(s_S_inventory, rng.poisson(12, 120).astype(float), 40.0, 110.0, 3, 0.2, 50.0, 4.0, rtol=1e-5)


def test_base_stock_level_grid():
    rng = np.random.default_rng(1446)
    check(base_stock_grid, rng.poisson(30, 200), np.arange(20, 46), 1.0, 9.0, rtol=1e-5)


def test_priority_classes_lexsort():
    rng = np.random.default_rng(1447)
    n = 40
    check(priority_service, rng.uniform(0, 10, n).round(2), rng.integers(0, 3, n), rng.uniform(0.1, 0.5, n),
          rtol=1e-4, atol=1e-6)


def test_eoq_cost_surface():
    check(eoq_surface, 12000.0, np.array([25.0, 50.0, 100.0, 200.0]), np.array([0.5, 1.0, 2.0, 4.0, 8.0]),
          rtol=1e-4, atol=1e-5)
