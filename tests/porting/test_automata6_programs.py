"""Cellular automata as NumPy programs write them: elementary rules by a lookup table indexed with the
neighbourhood's bits, Brian's Brain and Wireworld with np.select, a forest fire and Nagel-Schreckenberg traffic
driven by host random draws, a checkerboard Metropolis Ising sweep, site percolation with cluster labels by
repeated neighbour minima, a majority-vote smoother with convolution counts, and Conway's rules on a torus by
np.roll counted in uint8 (tests/porting)."""

import numpy as np
from harness import check


def elementary_rules(np, width=64, steps=32):
    out = {}
    for rule in (30, 90, 110, 184):
        table = (rule >> np.arange(8)) & 1
        row = np.zeros(width, dtype=np.int8)
        row[width // 2] = 1
        history = np.empty((steps, width), dtype=np.int8)
        for t in range(steps):
            history[t] = row
            idx = 4 * np.roll(row, 1) + 2 * row + np.roll(row, -1)
            row = table[idx].astype(np.int8)
        out[f"r{rule}"] = history
        out[f"density{rule}"] = history.mean(axis=1)
    return out


def brians_brain(np, seed_host, steps=12):
    grid = np.asarray(seed_host).astype(np.int8)  # 0 off, 1 on, 2 dying
    counts = []
    for _ in range(steps):
        on = (grid == 1).astype(np.int8)
        p = np.pad(on, 1)
        n = sum(p[1 + dy : p.shape[0] - 1 + dy, 1 + dx : p.shape[1] - 1 + dx]
                for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx)
        grid = np.select([grid == 1, grid == 2, (grid == 0) & (n == 2)], [2, 0, 1], 0).astype(np.int8)
        counts.append(np.bincount(grid.ravel(), minlength=3))
    return {"grid": grid, "counts": np.array(counts)}


def wireworld(np, steps=16):
    EMPTY, HEAD, TAIL, WIRE = 0, 1, 2, 3
    g = np.zeros((9, 20), dtype=np.int8)
    g[4, 1:19] = WIRE
    g[2:7, 10] = WIRE
    g[2, 10:15] = WIRE
    g[6, 10:15] = WIRE
    g[4, 2], g[4, 1] = HEAD, TAIL
    heads = []
    for _ in range(steps):
        h = np.pad((g == HEAD).astype(np.int8), 1)
        n = (h[:-2, :-2] + h[:-2, 1:-1] + h[:-2, 2:] + h[1:-1, :-2] + h[1:-1, 2:]
             + h[2:, :-2] + h[2:, 1:-1] + h[2:, 2:])
        g = np.select([g == HEAD, g == TAIL, (g == WIRE) & ((n == 1) | (n == 2))], [TAIL, WIRE, HEAD], g)
        heads.append(np.argwhere(g == HEAD))
    return {"g": g, "n_heads": [len(h) for h in heads], "last_heads": heads[-1], "empty": int((g == EMPTY).sum())}


def forest_fire(np, draws_host, p_grow=0.05, p_light=0.002):
    EMPTY, TREE, FIRE = 0, 1, 2
    draws = np.asarray(draws_host)
    steps, h, w = draws.shape
    g = np.zeros((h, w), dtype=np.int8)
    g[::2, ::3] = TREE
    history = []
    for t in range(steps):
        fire = np.pad(g == FIRE, 1)
        near = fire[:-2, 1:-1] | fire[2:, 1:-1] | fire[1:-1, :-2] | fire[1:-1, 2:]
        r = draws[t]
        new = g.copy()
        new[g == FIRE] = EMPTY
        new[(g == EMPTY) & (r < p_grow)] = TREE
        new[(g == TREE) & (near | (r > 1 - p_light))] = FIRE
        g = new
        history.append([int((g == k).sum()) for k in (EMPTY, TREE, FIRE)])
    return {"g": g, "history": np.array(history)}


def traffic(np, draws_host, length=60, n_cars=18, vmax=5, p_slow=0.3):
    draws = np.asarray(draws_host)
    pos = np.linspace(0, length, n_cars, endpoint=False).astype(int)
    vel = np.zeros(n_cars, dtype=int)
    flow = []
    for t in range(draws.shape[0]):
        gap = (np.roll(pos, -1) - pos - 1) % length
        vel = np.minimum(vel + 1, vmax)
        vel = np.minimum(vel, gap)
        vel = np.where((draws[t] < p_slow) & (vel > 0), vel - 1, vel)
        pos = (pos + vel) % length
        flow.append(vel.mean())
    road = np.full(length, -1)
    road[pos] = vel
    return {"pos": pos, "vel": vel, "flow": np.array(flow), "road": road, "jammed": int((vel == 0).sum())}


def ising_checkerboard(np, spins_host, draws_host, beta=0.6):
    s = np.asarray(spins_host).astype(np.int8) * 2 - 1
    draws = np.asarray(draws_host)
    n = s.shape[0]
    ii, jj = np.indices((n, n))
    colours = [(ii + jj) % 2 == 0, (ii + jj) % 2 == 1]
    energy, magnet = [], []
    for sweep in range(draws.shape[0]):
        for c, mask in enumerate(colours):
            nb = np.roll(s, 1, 0) + np.roll(s, -1, 0) + np.roll(s, 1, 1) + np.roll(s, -1, 1)
            dE = 2 * s * nb
            accept = (dE <= 0) | (draws[sweep, c] < np.exp(-beta * dE))
            s = np.where(mask & accept, -s, s).astype(np.int8)
        nb = np.roll(s, 1, 0) + np.roll(s, 1, 1)
        energy.append(-float((s * nb).sum()) / n**2)
        magnet.append(float(s.mean()))
    return {"s": s, "energy": energy, "magnet": magnet}


def percolation(np, open_host):
    open_ = np.asarray(open_host)
    h, w = open_.shape
    big = h * w
    label = np.where(open_, np.arange(big).reshape(h, w), big)
    while True:
        p = np.pad(label, 1, constant_values=big)
        m = np.minimum.reduce([p[1:-1, 1:-1], p[:-2, 1:-1], p[2:, 1:-1], p[1:-1, :-2], p[1:-1, 2:]])
        m = np.where(open_, m, big)
        if np.array_equal(m, label):
            break
        label = m
    top = np.unique(label[0][label[0] < big])
    bottom = np.unique(label[-1][label[-1] < big])
    spanning = np.intersect1d(top, bottom)
    ids, sizes = np.unique(label[label < big], return_counts=True)
    return {"label": label, "percolates": bool(spanning.size), "n_clusters": len(ids),
            "largest": int(sizes.max()), "spanning": spanning}


def majority_smoother(np, noisy_host, rounds=4):
    g = np.asarray(noisy_host).astype(np.uint8)
    changed = []
    for _ in range(rounds):
        p = np.pad(g, 1, mode="edge")
        votes = sum(p[dy : dy + g.shape[0], dx : dx + g.shape[1]] for dy in range(3) for dx in range(3))
        new = (votes >= 5).astype(np.uint8)
        changed.append(int((new != g).sum()))
        g = new
    return {"g": g, "changed": changed, "ones": int(g.sum()), "votes_dtype": str(votes.dtype)}


def life_torus_uint8(np, seed_host, steps=20):
    Z = np.asarray(seed_host).astype(np.uint8)
    alive = []
    for _ in range(steps):
        N = sum(np.roll(np.roll(Z, dy, 0), dx, 1) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx)
        Z = ((N == 3) | ((Z == 1) & (N == 2))).astype(np.uint8)
        alive.append(int(Z.sum()))
    rows, cols = np.nonzero(Z)
    box = (rows.min(), rows.max(), cols.min(), cols.max()) if rows.size else None
    return {"Z": Z, "alive": alive, "box": [int(b) for b in box] if box else None}


def test_elementary_rules_lookup_table():
    check(elementary_rules)


def test_brians_brain_select():
    check(brians_brain, np.random.default_rng(631).random((16, 16)) < 0.3)


def test_wireworld_signal():
    check(wireworld)


def test_forest_fire_host_draws():
    check(forest_fire, np.random.default_rng(633).random((25, 16, 16)))


def test_nagel_schreckenberg_traffic():
    check(traffic, np.random.default_rng(634).random((40, 18)))


def test_ising_checkerboard_metropolis():
    rng = np.random.default_rng(635)
    check(ising_checkerboard, rng.random((12, 12)) < 0.5, rng.random((8, 2, 12, 12)))


def test_site_percolation_cluster_labels():
    rng = np.random.default_rng(636)
    check(percolation, rng.random((14, 14)) < 0.6)
    check(percolation, rng.random((14, 14)) < 0.4)


def test_majority_vote_smoother():
    rng = np.random.default_rng(637)
    clean = np.zeros((16, 16), dtype=bool)
    clean[4:12, 3:10] = True
    check(majority_smoother, clean ^ (rng.random((16, 16)) < 0.15))


def test_life_on_torus_uint8_glider():
    Z = np.zeros((12, 12), dtype=bool)
    Z[1, 2] = Z[2, 3] = Z[3, 1] = Z[3, 2] = Z[3, 3] = True
    Z[7:9, 1:3] = True
    check(life_torus_uint8, Z)
