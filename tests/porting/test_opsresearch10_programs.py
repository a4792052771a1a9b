"""Operations research: 0/1 knapsack by a rolling DP row (np.maximum of a shifted copy), assignment by brute force
over itertools.permutations with fancy indexing, an M/M/1 queue by the Lindley recursion (and a vectorised
np.maximum.accumulate form), an (s, S) inventory policy simulation with backorders, the transportation problem's
north-west corner start, a shortest path by Bellman-Ford relaxations on an edge array, and a newsvendor optimum by
np.argmax over an order grid (tests/porting)."""

import itertools

import numpy as np
from harness import check


def knapsack(np, weights, values, capacity):
    best = np.zeros(capacity + 1, dtype=np.int64)
    keep = np.zeros((len(weights), capacity + 1), dtype=bool)
    for i, (w, v) in enumerate(zip(weights, values, strict=False)):
        cand = best[: capacity + 1 - w] + v
        better = cand > best[w:]
        keep[i, w:] = better
        best[w:] = np.where(better, cand, best[w:])
    chosen = []
    c = capacity
    for i in range(len(weights) - 1, -1, -1):
        if keep[i, c]:
            chosen.append(i)
            c -= weights[i]
    chosen = sorted(chosen)
    return {"best": best, "value": int(best[-1]), "chosen": chosen,
            "weight": int(np.asarray(weights)[chosen].sum()), "frac": float(best[-1] / np.sum(values))}


def assignment_brute_force(np, cost):
    n = cost.shape[0]
    perms = np.array(list(itertools.permutations(range(n))))
    totals = cost[np.arange(n), perms].sum(axis=1)
    k = np.argmin(totals)
    worst = np.argmax(totals)
    rows = np.arange(n)
    greedy = []
    used = set()
    for r in rows:
        order = np.argsort(cost[r])
        c = next(int(j) for j in order if int(j) not in used)
        used.add(c)
        greedy.append(c)
    return {"best": perms[k], "cost": totals[k], "worst": float(totals[worst]),
            "greedy": greedy, "greedy_cost": float(cost[rows, greedy].sum()), "n_opt": int((totals == totals[k]).sum())}


def mm1_queue(np, interarrival, service):
    arrivals = np.cumsum(interarrival)
    n = len(arrivals)
    wait = np.zeros(n)
    for i in range(1, n):
        wait[i] = max(0.0, wait[i - 1] + service[i - 1] - interarrival[i])
    # the same by a running maximum of the random walk
    x = np.concatenate([[0.0], service[:-1] - interarrival[1:]])
    s = np.cumsum(x)
    wait2 = s - np.minimum.accumulate(np.minimum(s, 0))
    depart = arrivals + wait + service
    in_system = np.searchsorted(np.sort(depart), arrivals, side="right")
    queue_len = np.arange(1, n + 1) - in_system
    util = service.sum() / depart.max()
    return {"wait": wait, "same": bool(np.allclose(wait, wait2)), "mean_wait": wait.mean(), "util": util,
            "qmax": int(queue_len.max()), "p_wait": float(np.mean(wait > 0))}


def inventory_sS(np, demand, s, S, lead):
    level = S
    pipeline = []
    levels, orders, short = [], [], 0
    for t, d in enumerate(demand):
        arriving = [q for (due, q) in pipeline if due == t]
        pipeline = [(due, q) for (due, q) in pipeline if due != t]
        level += sum(arriving)
        level -= int(d)
        if level < 0:
            short += -level
        position = level + sum(q for _, q in pipeline)
        if position <= s:
            q = S - position
            pipeline.append((t + lead, q))
            orders.append(t)
        levels.append(level)
    lv = np.array(levels)
    holding = np.clip(lv, 0, None).sum()
    backlog = -np.clip(lv, None, 0).sum()
    return {"levels": lv, "orders": orders, "short": short, "holding": int(holding), "backlog": int(backlog),
            "fill": float(1 - np.minimum(lv, 0).sum() / -np.sum(demand)), "cycle": np.diff(orders).tolist()}


def northwest_corner(np, supply, demand):
    supply = np.array(supply)
    demand = np.array(demand)
    X = np.zeros((len(supply), len(demand)), dtype=int)
    i = j = 0
    while i < len(supply) and j < len(demand):
        q = min(supply[i], demand[j])
        X[i, j] = q
        supply[i] -= q
        demand[j] -= q
        if supply[i] == 0:
            i += 1
        else:
            j += 1
    basic = np.argwhere(X > 0)
    return {"X": X, "basic": basic, "rows": X.sum(axis=1), "cols": X.sum(axis=0), "nb": len(basic)}


def bellman_ford(np, edges, weights, n, src):
    u, v = edges[:, 0], edges[:, 1]
    dist = np.full(n, np.inf)
    dist[src] = 0
    pred = np.full(n, -1)
    for _ in range(n - 1):
        cand = dist[u] + weights
        better = cand < dist[v]
        if not better.any():
            break
        # several edges may improve one node: keep the smallest candidate per node
        order = np.lexsort((cand, v))
        vs, cs, us = v[order], cand[order], u[order]
        first = np.concatenate([[True], vs[1:] != vs[:-1]])
        vs, cs, us = vs[first], cs[first], us[first]
        upd = cs < dist[vs]
        dist[vs[upd]] = cs[upd]
        pred[vs[upd]] = us[upd]
    negative = bool(np.any(dist[u] + weights < dist[v] - 1e-9))
    reach = np.isfinite(dist)
    return {"dist": np.where(reach, dist, -1), "pred": pred, "neg": negative, "reach": int(reach.sum())}


def newsvendor(np, demand_samples, price, cost, salvage):
    orders = np.arange(0, demand_samples.max() + 1)
    sold = np.minimum(orders[:, None], demand_samples[None, :])
    left = orders[:, None] - sold
    profit = price * sold - cost * orders[:, None] + salvage * left
    expected = profit.mean(axis=1)
    q = int(orders[np.argmax(expected)])
    ratio = (price - cost) / (price - salvage)
    q_quantile = np.quantile(demand_samples, ratio, method="inverted_cdf")
    try:
        np.quantile(demand_samples, 100 * ratio)  # a percentage where a fraction goes
        bad = None
    except ValueError as e:
        bad = type(e).__name__
    return {"expected": expected, "q": q, "q_quantile": int(q_quantile), "best": float(expected.max()), "bad": bad,
            "msg": f"order {q} units (critical ratio {ratio:.2f})"}


def test_knapsack_rolling_row():
    rng = np.random.default_rng(1501)
    check(knapsack, rng.integers(1, 10, 8).tolist(), rng.integers(1, 30, 8).tolist(), 20)


def test_assignment_brute_force():
    rng = np.random.default_rng(1502)
    check(assignment_brute_force, rng.integers(1, 20, (5, 5)).astype(float))


def test_mm1_queue_lindley():
    rng = np.random.default_rng(1503)
    check(mm1_queue, rng.exponential(1.0, 60), rng.exponential(0.8, 60), rtol=1e-4, atol=1e-4)


def test_inventory_s_S_policy():
    rng = np.random.default_rng(1504)
    check(inventory_sS, rng.poisson(4, 40), 8, 25, 2)


def test_transportation_northwest_corner():
    check(northwest_corner, [20, 30, 25], [10, 25, 15, 25])


def test_bellman_ford_edge_relaxation():
    rng = np.random.default_rng(1505)
    edges = rng.integers(0, 8, (20, 2))
    edges = edges[edges[:, 0] != edges[:, 1]]
    check(bellman_ford, edges, rng.integers(1, 10, len(edges)).astype(float), 8, 0)


def test_newsvendor_order_grid():
    rng = np.random.default_rng(1506)
    check(newsvendor, rng.poisson(12, 200), 5.0, 3.0, 1.0, rtol=1e-4, atol=1e-4)
