"""Traffic simulation as modelling-course notebooks write it: the Nagel-Schreckenberg cellular automaton on a ring of
cells (velocities in an int array with -1 for empty cells, gaps by `np.roll` of occupancy and
`minimum.accumulate`-free distance scans, random braking from host uniforms, a space-time diagram and flow at a
detector), NaSch on a sorted car list with gaps from `np.diff` and wrap-around, a fundamental diagram swept over
densities, queue lengths at a fixed-time signal (arrivals per second from a Poisson draw, `np.maximum` discharge,
cycle-wise `reshape` statistics), loop-detector counts aggregated into 5-minute bins by `np.add.reduceat` with
harmonic mean speeds, the Biham-Middleton-Levine model by `np.roll` masks, the intelligent driver model on a ring,
and all-pairs travel times by Floyd-Warshall with broadcast `np.minimum` (tests/porting)."""

import numpy as np
from harness import check


def nasch_cells(np, L, cars, vmax, p_slow, uniforms, init_pos):
    road = np.full(L, -1)
    road[np.asarray(init_pos)] = 0
    diagram = np.zeros((len(uniforms), L), dtype=np.int8)
    flow = 0
    for t, u in enumerate(np.asarray(uniforms)):
        occ = np.flatnonzero(road >= 0)
        v = road[occ]
        gaps = (np.roll(occ, -1) - occ - 1) % L
        v = np.minimum(v + 1, vmax)
        v = np.minimum(v, gaps)
        slow = (u[: len(occ)] < p_slow) & (v > 0)
        v[slow] -= 1
        new = (occ + v) % L
        flow += int(np.sum((occ < L // 2) & (occ + v >= L // 2)))
        road = np.full(L, -1)
        road[new] = v
        diagram[t] = road >= 0
    speeds = road[road >= 0]
    return {"diagram": diagram[-20:], "mean_v": speeds.mean(), "flow": flow, "stopped": int((speeds == 0).sum()),
            "hist": np.bincount(speeds, minlength=vmax + 1), "cars": int((road >= 0).sum())}


def nasch_sorted(np, L, positions, vmax, p_slow, uniforms):
    x = np.sort(np.asarray(positions))
    v = np.zeros_like(x)
    mean_speed = []
    jam = []
    for u in np.asarray(uniforms):
        gap = np.diff(x, append=x[0] + L) - 1
        v = np.minimum(np.minimum(v + 1, vmax), gap)
        v = np.where((u < p_slow) & (v > 0), v - 1, v)
        x = x + v
        wrapped = x >= L
        x = np.where(wrapped, x - L, x)
        order = np.argsort(x)
        x, v = x[order], v[order]
        mean_speed.append(v.mean())
        jam.append(int(np.sum(v == 0)))
    return {"x": x, "v": v, "mean_speed": np.array(mean_speed), "jam": jam,
            "flow": np.mean(mean_speed[len(mean_speed) // 2:]) * len(x) / L}


def fundamental_diagram(np, L, densities, vmax, p_slow, uniforms):
    flows = []
    for rho, u in zip(densities, np.asarray(uniforms), strict=True):
        n = max(1, int(round(rho * L)))
        x = np.linspace(0, L, n, endpoint=False).astype(int)
        v = np.zeros(n, dtype=int)
        moved = 0
        for t in range(u.shape[0]):
            gap = (np.roll(x, -1) - x - 1) % L
            if n == 1:
                gap[:] = L - 1
            v = np.minimum(np.minimum(v + 1, vmax), gap)
            v[(u[t, :n] < p_slow) & (v > 0)] -= 1
            x = (x + v) % L
            if t >= u.shape[0] // 2:
                moved += v.sum()
        flows.append(moved / (L * (u.shape[0] - u.shape[0] // 2)))
    flows = np.array(flows)
    k = int(np.argmax(flows))
    return {"flow": flows, "capacity": flows[k], "critical": densities[k],
            "slope": np.gradient(flows, np.asarray(densities))[:3]}


def signal_queue(np, arrivals, cycle, green, sat_per_s):
    a = np.asarray(arrivals)
    t = np.arange(len(a))
    is_green = (t % cycle) < green
    q = np.zeros(len(a))
    queue = 0.0
    served = np.zeros(len(a))
    for k in range(len(a)):
        queue += a[k]
        s = min(queue, sat_per_s) if is_green[k] else 0.0
        queue -= s
        served[k] = s
        q[k] = queue
    per_cycle = q[: len(q) // cycle * cycle].reshape(-1, cycle)
    max_q = per_cycle.max(axis=1)
    residual = per_cycle[:, -1]
    delay = q.sum() / max(a.sum(), 1)
    overflow = np.flatnonzero(residual > 0)
    vc = a.mean() / (sat_per_s * green / cycle)
    return {"max_q": max_q, "residual": residual, "delay": delay, "overflow": overflow, "vc": vc,
            "served": served.reshape(-1, cycle).sum(axis=1), "p95": np.percentile(q, 95)}


def loop_detector(np, times_s, speeds_kmh, lengths_m, bin_s):
    t, v, length = np.asarray(times_s), np.asarray(speeds_kmh), np.asarray(lengths_m)
    order = np.argsort(t, kind="stable")
    t, v, length = t[order], v[order], length[order]
    bins = (t // bin_s).astype(np.int64)
    starts = np.flatnonzero(np.r_[True, bins[1:] != bins[:-1]])
    counts = np.diff(np.r_[starts, len(t)])
    inv = np.add.reduceat(1.0 / v, starts)
    hmean = counts / inv
    amean = np.add.reduceat(v, starts) / counts
    occ_time = np.add.reduceat(length / (v / 3.6), starts)
    occupancy = 100 * occ_time / bin_s
    flow_hr = counts * 3600 / bin_s
    density = flow_hr / hmean
    long_veh = np.add.reduceat((length > 7.5).astype(int), starts)
    return {"bin": bins[starts], "counts": counts, "hmean": hmean, "amean": amean, "occ": occupancy,
            "density": density, "trucks": long_veh, "congested": bins[starts][hmean < 50]}


def bml_model(np, grid, steps):
    g = np.asarray(grid)
    moved = []
    for s in range(steps):
        if s % 2 == 0:
            cars = g == 1
            ahead = np.roll(g, -1, axis=1)
            move = cars & (ahead == 0)
            g = np.where(move, 0, g)
            g = np.where(np.roll(move, 1, axis=1), 1, g)
        else:
            cars = g == 2
            ahead = np.roll(g, -1, axis=0)
            move = cars & (ahead == 0)
            g = np.where(move, 0, g)
            g = np.where(np.roll(move, 1, axis=0), 2, g)
        moved.append(int(move.sum()))
    return {"grid": g, "moved": moved, "counts": np.bincount(g.ravel(), minlength=3),
            "row_east": (g == 1).sum(axis=1), "jammed": moved[-1] == 0}


def idm_ring(np, L, x0, v0, steps, dt, v_des, T, a_max, b, s0, delta):
    x, v = np.asarray(x0, dtype=float).copy(), np.asarray(v0, dtype=float).copy()
    min_gap = []
    for _ in range(steps):
        gap = (np.roll(x, -1) - x) % L - 5.0
        dv = v - np.roll(v, -1)
        s_star = s0 + np.maximum(0.0, v * T + v * dv / (2 * np.sqrt(a_max * b)))
        acc = a_max * (1 - (v / v_des) ** delta - (s_star / gap) ** 2)
        v = np.maximum(v + acc * dt, 0.0)
        x = (x + v * dt) % L
        min_gap.append(gap.min())
    return {"v": v, "x_order": np.argsort(x), "mean_v": v.mean(), "min_gap": np.array(min_gap)[::10],
            "spread": np.ptp(v)}


def floyd_warshall(np, n, edges, minutes):
    D = np.full((n, n), np.inf)
    np.fill_diagonal(D, 0.0)
    e = np.asarray(edges)
    D[e[:, 0], e[:, 1]] = np.asarray(minutes)
    D[e[:, 1], e[:, 0]] = np.minimum(D[e[:, 1], e[:, 0]], np.asarray(minutes))
    nxt = np.where(np.isfinite(D), np.arange(n)[None, :], -1)
    for k in range(n):
        via = D[:, k, None] + D[None, k, :]
        better = via < D
        D = np.where(better, via, D)
        nxt = np.where(better, nxt[:, k, None], nxt)
    path = [0]
    while path[-1] != n - 1 and len(path) <= n:
        path.append(int(nxt[path[-1], n - 1]))
    ecc = D.max(axis=1)
    return {"D": D, "path": path, "center": int(np.argmin(ecc)), "diameter": D.max(),
            "reach10": (D <= 10).sum(axis=1)}


def test_nagel_schreckenberg_cells():
    rng = np.random.default_rng(1431)
    L, cars = 100, 30
    check(nasch_cells, L, cars, 5, 0.3, rng.random((80, cars)), rng.choice(L, cars, replace=False))


def test_nagel_schreckenberg_sorted_cars():
    rng = np.random.default_rng(1432)
    check(nasch_sorted, 200, rng.choice(200, 45, replace=False), 5, 0.25, rng.random((100, 45)), rtol=1e-4)


def test_fundamental_diagram_sweep():
    rng = np.random.default_rng(1433)
    dens = np.array([0.05, 0.1, 0.15, 0.2, 0.3, 0.45, 0.6])
    check(fundamental_diagram, 80, dens, 5, 0.2, rng.random((len(dens), 60, 80)), rtol=1e-4)


def test_signal_queue_lengths():
    rng = np.random.default_rng(1434)
    check(signal_queue, rng.poisson(0.35, 90 * 20), 90, 40, 0.5, rtol=1e-4, atol=1e-6)


def test_loop_detector_reduceat():
    rng = np.random.default_rng(1435)
    n = 600
    t = rng.uniform(0, 3600, n)
    v = np.where(t < 1800, rng.normal(95, 10, n), rng.normal(45, 12, n)).clip(10, None)
    check(loop_detector, t, v, rng.choice([4.5, 5.0, 12.0, 16.5], n, p=[0.5, 0.3, 0.15, 0.05]), 300.0, rtol=1e-3)


def test_biham_middleton_levine():
    rng = np.random.default_rng(1436)
    grid = rng.choice(3, (24, 24), p=[0.65, 0.175, 0.175])
    check(bml_model, grid, 60)


def test_intelligent_driver_ring():
    L, n = 300.0, 15
    x0 = np.linspace(0, L, n, endpoint=False)
    x0[3] += 8.0
    check(idm_ring, L, x0, np.full(n, 5.0), 200, 0.1, 30.0, 1.5, 1.0, 1.5, 2.0, 4, rtol=1e-3, atol=1e-3)


def test_floyd_warshall_travel_times():
    rng = np.random.default_rng(1438)
    n = 12
    edges = np.array([[i, (i + 1) % n] for i in range(n)] + [[0, 6], [3, 9], [2, 7], [5, 11]])
    check(floyd_warshall, n, edges, rng.uniform(2, 9, len(edges)).round(1), rtol=1e-5)
