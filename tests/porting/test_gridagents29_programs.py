"""Grid automata and agents in plain NumPy, with every random draw passed in: an Abelian sandpile toppled by
`while np.any(g >= 4)` with neighbour shares added through slices, the avalanche sizes of grains dropped one by
one, a forest-fire automaton on an `int8` grid with a Moore neighbourhood from `sliding_window_view` of a padded
grid, Schelling's segregation model (unhappy agents found by neighbour counts, moved to empty cells listed by
`np.argwhere`), a predator-prey lattice with `np.ravel_multi_index` cell ids and `np.unique` occupancy, and a
rumour spreading over a ring lattice with `np.take(mode='wrap')`, a voter model whose
cells copy passed-in neighbours by fancy indexing with `np.indices` (tests/porting)."""

import numpy as np
from harness import check


def sandpile(np, grid, drops):
    g = np.array(grid, dtype=np.int64)
    sizes = []
    for r, c in drops:
        g[r, c] += 1
        toppled = np.zeros_like(g, dtype=bool)
        while np.any(g >= 4):
            over = g >= 4
            toppled |= over
            share = np.where(over, g // 4, 0)
            g -= 4 * share
            g[1:, :] += share[:-1, :]
            g[:-1, :] += share[1:, :]
            g[:, 1:] += share[:, :-1]
            g[:, :-1] += share[:, 1:]
        sizes.append(int(toppled.sum()))
    sizes = np.array(sizes)
    vals, counts = np.unique(sizes[sizes > 0], return_counts=True)
    return {"g": g, "sizes": sizes, "vals": vals, "counts": counts, "mass": g.sum(), "hist": np.bincount(g.ravel(),
            minlength=4)}


def forest_fire(np, grid, u, p_grow, p_light):
    EMPTY, TREE, FIRE = 0, 1, 2
    g = np.asarray(grid).astype(np.int8)
    burnt = []
    for t in range(u.shape[0]):
        padded = np.pad(g == FIRE, 1)
        win = np.lib.stride_tricks.sliding_window_view(padded, (3, 3))
        burning_nb = win.any(axis=(-2, -1))
        new = g.copy()
        new[g == FIRE] = EMPTY
        catch = (g == TREE) & (burning_nb | (u[t, 0] < p_light))
        new[catch] = FIRE
        new[(g == EMPTY) & (u[t, 1] < p_grow)] = TREE
        burnt.append(int(np.count_nonzero(catch)))
        g = new
    return {"g": g, "burnt": burnt, "trees": np.count_nonzero(g == TREE), "dtype": g.dtype.name,
            "density": np.mean(g == TREE, axis=0)}


def schelling(np, grid, order_u, threshold, rounds):
    g = np.array(grid, dtype=np.int8)  # 0 empty, 1 and 2 two groups
    n = g.shape[0]
    moved_hist = []
    for t in range(rounds):
        same = np.zeros(g.shape, dtype=np.int16)
        occ = np.zeros(g.shape, dtype=np.int16)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if dr == dc == 0:
                    continue
                nb = np.roll(g, (dr, dc), axis=(0, 1))
                same += (nb == g) & (g > 0)
                occ += nb > 0
        frac = np.divide(same, occ, out=np.ones(g.shape), where=occ > 0)
        unhappy = np.argwhere((g > 0) & (frac < threshold))
        empty = np.argwhere(g == 0)
        k = min(len(unhappy), len(empty))
        order = np.argsort(order_u[t][: len(empty)], kind="stable")[:k]
        src, dst = unhappy[:k], empty[order]
        g[dst[:, 0], dst[:, 1]] = g[src[:, 0], src[:, 1]]
        g[src[:, 0], src[:, 1]] = 0
        moved_hist.append(k)
    return {"g": g, "moved": moved_hist, "counts": np.bincount(g.ravel(), minlength=3),
            "happy_frac": float(np.mean(frac[g > 0] >= threshold)), "n": n}


def predator_prey(np, pos, kind, steps, size):
    pos = np.array(pos, dtype=np.int64)
    kind = np.asarray(kind)
    alive = np.ones(len(pos), dtype=bool)
    eaten_log = []
    for t in range(steps.shape[0]):
        pos = (pos + steps[t]) % size
        cell = np.ravel_multi_index((pos[:, 0], pos[:, 1]), (size, size))
        wolves = np.unique(cell[alive & (kind == 1)])
        at_risk = alive & (kind == 0) & np.isin(cell, wolves)
        alive &= ~at_risk
        eaten_log.append(int(at_risk.sum()))
    occ_cells, occ = np.unique(cell[alive], return_counts=True)
    rows, cols = np.unravel_index(occ_cells, (size, size))
    return {"alive": alive, "eaten": eaten_log, "occ": occ, "rows": rows, "cols": cols,
            "sheep_left": int(np.sum(alive & (kind == 0)))}


def rumour_ring(np, n, k, seeds, u, p):
    offsets = np.concatenate([np.arange(-k, 0), np.arange(1, k + 1)])
    nbrs = np.take(np.arange(n), np.arange(n)[:, None] + offsets[None, :], mode="wrap")
    know = np.zeros(n, dtype=bool)
    know[seeds] = True
    first = np.where(know, 0, -1)
    for t in range(u.shape[0]):
        exposed = know[nbrs].sum(axis=1)
        new = ~know & (u[t] < 1 - (1 - p) ** exposed)
        know |= new
        first[new] = t + 1
    return {"nbrs_row0": nbrs[0], "know": know, "first": first, "reach_time": np.bincount(first + 1),
            "frac": know.mean()}


def voter_model(np, grid, picks, steps):
    g = np.array(grid, dtype=np.uint8)
    n = g.shape[0]
    dirs = np.array([[-1, 0], [1, 0], [0, -1], [0, 1]])
    ii, jj = np.indices(g.shape)
    consensus = []
    for t in range(steps):
        d = dirs[picks[t]]                       # (n, n, 2): each cell copies one neighbour
        src_i = (ii + d[..., 0]) % n
        src_j = (jj + d[..., 1]) % n
        g = g[src_i, src_j]
        consensus.append(np.bincount(g.ravel(), minlength=3).max() / g.size)
    edges = np.count_nonzero(g != np.roll(g, 1, axis=0)) + np.count_nonzero(g != np.roll(g, 1, axis=1))
    return {"g": g, "consensus": np.array(consensus), "interfaces": edges, "dtype": g.dtype.name}


def test_sandpile():
    rng = np.random.default_rng(3020)
    grid = rng.integers(0, 4, (7, 7))
    check(sandpile, grid, rng.integers(0, 7, (40, 2)))


def test_forest_fire():
    rng = np.random.default_rng(3021)
    check(forest_fire, rng.choice([0, 1, 2], (12, 12), p=[0.3, 0.68, 0.02]), rng.uniform(size=(10, 2, 12, 12)),
          0.05, 0.001)


def test_schelling():
    rng = np.random.default_rng(3022)
    check(schelling, rng.choice([0, 1, 2], (10, 10), p=[0.2, 0.4, 0.4]), rng.uniform(size=(6, 100)), 0.5, 6)


def test_predator_prey():
    rng = np.random.default_rng(3023)
    n, T, size = 40, 12, 6
    check(predator_prey, rng.integers(0, size, (n, 2)), (rng.uniform(size=n) < 0.2).astype(int),
          rng.integers(-1, 2, (T, n, 2)), size)


def test_voter_model():
    rng = np.random.default_rng(3025)
    check(voter_model, rng.integers(0, 3, (9, 9)), rng.integers(0, 4, (20, 9, 9)), 20)


def test_rumour_ring():
    rng = np.random.default_rng(3024)
    check(rumour_ring, 50, 2, [0, 25], rng.uniform(size=(15, 50)), 0.3)
