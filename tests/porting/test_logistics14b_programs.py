"""Logistics and routing as operations-research course notebooks write them: a distance matrix by broadcasting
(and by the `|a|^2 + |b|^2 - 2ab` trick with `np.maximum(., 0)`), a nearest-neighbour tour with a visited mask
and `np.inf` fills, 2-opt improvement by fancy-index reversal `tour[i:j+1] = tour[i:j+1][::-1]`, first-fit
bin packing with `argmax` over a boolean mask, a depot assignment by `argmin` and `np.bincount` loads, a
savings list by `np.triu_indices` and `lexsort`, and a time-window schedule by `cumsum` and `np.maximum`
(tests/porting)."""

import numpy as np
from harness import check


def distance_matrices(np, xy, depots):
    diff = xy[:, None, :] - xy[None, :, :]
    D = np.sqrt((diff ** 2).sum(-1))
    sq = (xy ** 2).sum(1)
    D2 = np.sqrt(np.maximum(sq[:, None] + sq[None, :] - 2 * xy @ xy.T, 0))
    manhattan = np.abs(diff).sum(-1)
    Dd = np.linalg.norm(xy[:, None] - depots[None], axis=2)
    nearest = Dd.argmin(axis=1)
    load = np.bincount(nearest, minlength=len(depots))
    np.fill_diagonal(D2, np.inf)
    return {"D": D, "same": bool(np.allclose(D[~np.eye(len(xy), dtype=bool)], D2[np.isfinite(D2)], atol=1e-3)),
            "manhattan": manhattan.sum(axis=1), "nearest": nearest, "load": load,
            "closest_pair": np.unravel_index(np.argmin(D2), D2.shape), "sym": bool((D == D.T).all())}


def _tour_length(np, D, tour):
    return D[tour, np.roll(tour, -1)].sum()


def nearest_neighbour_tour(np, xy, start):
    n = len(xy)
    D = np.linalg.norm(xy[:, None] - xy[None], axis=-1)
    visited = np.zeros(n, dtype=bool)
    tour = [start]
    visited[start] = True
    for _ in range(n - 1):
        d = np.where(visited, np.inf, D[tour[-1]])
        nxt = int(np.argmin(d))
        tour.append(nxt)
        visited[nxt] = True
    tour = np.array(tour)
    return {"tour": tour, "length": _tour_length(np, D, tour), "all_visited": bool(visited.all()),
            "legs": D[tour[:-1], tour[1:]]}


def two_opt(np, xy, tour):
    D = np.linalg.norm(xy[:, None] - xy[None], axis=-1)
    tour = tour.copy()
    n = len(tour)
    start_len = _tour_length(np, D, tour)
    improved, passes = True, 0
    while improved and passes < 20:
        improved = False
        passes += 1
        for i in range(1, n - 1):
            a, b = tour[i - 1], tour[i]
            j = np.arange(i + 1, n)
            c, d = tour[j], tour[(j + 1) % n]
            delta = D[a, c] + D[b, d] - D[a, b] - D[c, d]
            k = int(np.argmin(delta))
            if delta[k] < -1e-6:
                jj = j[k]
                tour[i:jj + 1] = tour[i:jj + 1][::-1]
                improved = True
    return {"tour": tour, "start": start_len, "end": _tour_length(np, D, tour), "passes": passes,
            "perm": bool((np.sort(tour) == np.arange(n)).all())}


def first_fit(np, sizes, capacity):
    order = np.argsort(-sizes, kind="stable")
    remaining = np.full(len(sizes), capacity, dtype=sizes.dtype)
    assign = np.empty(len(sizes), dtype=int)
    for item in order:
        fits = remaining >= sizes[item]
        b = int(np.argmax(fits))
        assign[item] = b
        remaining[b] -= sizes[item]
    used = int(np.max(assign)) + 1
    fill = np.bincount(assign, weights=sizes, minlength=used)[:used]
    lower = int(np.ceil(sizes.sum() / capacity))
    return {"assign": assign, "used": used, "fill": fill, "lower_bound": lower,
            "waste": capacity * used - sizes.sum(), "items_per_bin": np.bincount(assign)}


def clarke_wright_savings(np, xy, depot):
    d0 = np.linalg.norm(xy - depot, axis=1)
    D = np.linalg.norm(xy[:, None] - xy[None], axis=-1)
    i, j = np.triu_indices(len(xy), k=1)
    s = d0[i] + d0[j] - D[i, j]
    order = np.lexsort((j, i, -np.round(s, 6)))
    top = order[:10]
    return {"savings": s[top], "pairs": np.stack([i[top], j[top]], axis=1), "n_pairs": len(s),
            "positive": int((s > 0).sum()), "round_trip": 2 * d0.sum()}


def time_windows(np, travel, service, open_, close):
    arrive = np.zeros(len(travel))
    start = np.zeros(len(travel))
    t = 0.0
    for k in range(len(travel)):
        t += travel[k]
        arrive[k] = t
        start[k] = max(t, open_[k])
        t = start[k] + service[k]
    wait = start - arrive
    late = np.maximum(start - close, 0)
    naive = np.cumsum(travel + service) - service
    return {"start": start, "wait": wait, "late": late, "n_late": int(np.count_nonzero(late)),
            "naive_ok": bool(np.all(naive <= start + 1e-9)), "finish": t}


def vehicle_loads(np, demand, route_id, n_routes, cap):
    load = np.zeros(n_routes)
    np.add.at(load, route_id, demand)
    order = np.argsort(route_id, kind="stable")
    starts = np.searchsorted(route_id[order], np.arange(n_routes))
    per_route_max = np.maximum.reduceat(demand[order], starts)
    over = load > cap
    util = np.round(load / cap * 100, 1)
    uniq, inv, cnt = np.unique(route_id, return_inverse=True, return_counts=True)
    return {"load": load, "max": per_route_max, "over": np.flatnonzero(over), "util": util,
            "stops": cnt, "inv_ok": bool((uniq[inv] == route_id).all())}


def test_distance_matrices():
    rng = np.random.default_rng(14321)
    check(distance_matrices, rng.uniform(0, 100, (40, 2)), rng.uniform(0, 100, (4, 2)), rtol=1e-3, atol=1e-2)


def test_nearest_neighbour_tour():
    check(nearest_neighbour_tour, np.random.default_rng(14322).uniform(0, 10, (30, 2)), 0, rtol=1e-3, atol=1e-3)


def test_two_opt_fancy_reversal():
    rng = np.random.default_rng(14323)
    check(two_opt, rng.uniform(0, 10, (25, 2)), rng.permutation(25), rtol=1e-3, atol=1e-3)


def test_first_fit_decreasing():
    rng = np.random.default_rng(14324)
    check(first_fit, rng.integers(5, 60, 50), 100, rtol=1e-4)


def test_clarke_wright_savings():
    rng = np.random.default_rng(14325)
    check(clarke_wright_savings, rng.uniform(0, 50, (20, 2)), np.array([25.0, 25.0]), rtol=1e-3, atol=1e-3)


def test_time_window_schedule():
    rng = np.random.default_rng(14326)
    open_ = np.cumsum(rng.uniform(5, 20, 15))
    check(time_windows, rng.uniform(3, 15, 15), rng.uniform(2, 8, 15), open_, open_ + 10, rtol=1e-3, atol=1e-3)


def test_vehicle_loads():
    rng = np.random.default_rng(14327)
    check(vehicle_loads, rng.uniform(1, 20, 60), rng.integers(0, 6, 60), 6, 150.0, rtol=1e-3, atol=1e-3)
