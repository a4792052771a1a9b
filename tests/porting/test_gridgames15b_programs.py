"""Cellular and grid games as recreational-programming notebooks write them: Langton's ant with its heading in
a lookup table and cell flips by scalar indexing, an abelian sandpile toppled by a `while` loop over a mask with
`np.pad` neighbour sums, a forest fire on host-drawn uniforms, Wireworld with int8 states and
neighbour counts by `np.roll`, a Game of Life with `sliding_window_view` counts and period detection by
`tobytes` hashes, and a Brian's brain / majority vote rule by `np.select` (tests/porting)."""

import numpy as np
from harness import check


def langtons_ant(np, n, steps):
    grid = np.zeros((n, n), dtype=np.int8)
    moves = np.array([[-1, 0], [0, 1], [1, 0], [0, -1]])
    pos = np.array([n // 2, n // 2])
    heading = 0
    path = []
    for _ in range(steps):
        i, j = pos
        heading = (heading + (1 if grid[i, j] == 0 else -1)) % 4
        grid[i, j] ^= 1
        pos = (pos + moves[heading]) % n
        path.append(pos.copy())
    path = np.array(path)
    return {"grid": grid, "black": int(grid.sum()), "pos": pos, "visited": len(np.unique(path, axis=0))}


def sandpile(np, grains):
    grains = np.asarray(grains)
    g = grains.copy()
    topples = np.zeros_like(g)
    rounds = 0
    while (g >= 4).any():
        over = g >= 4
        q = np.where(over, g // 4, 0)
        topples += over
        g -= 4 * q
        p = np.pad(q, 1)
        g += p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:]
        rounds += 1
    return {"stable": g, "topples": topples, "rounds": rounds, "hist": np.bincount(g.ravel(), minlength=4)}


def forest_fire(np, forest, uniforms, p_grow, p_light):
    forest, uniforms = np.asarray(forest), np.asarray(uniforms)
    EMPTY, TREE, FIRE = 0, 1, 2
    g = forest.copy()
    burnt = []
    for u in uniforms:
        fire = g == FIRE
        near = np.zeros_like(fire)
        near[1:] |= fire[:-1]
        near[:-1] |= fire[1:]
        near[:, 1:] |= fire[:, :-1]
        near[:, :-1] |= fire[:, 1:]
        new = g.copy()
        new[fire] = EMPTY
        ignite = (g == TREE) & (near | (u < p_light))
        new[ignite] = FIRE
        new[(g == EMPTY) & (u < p_grow)] = TREE
        burnt.append(int(ignite.sum()))
        g = new
    return {"final": g, "burnt": np.array(burnt), "counts": np.bincount(g.ravel(), minlength=3)}


def wireworld(np, grid, steps):
    grid = np.asarray(grid)
    g = grid.astype(np.int8)
    heads = []
    for _ in range(steps):
        head = (g == 1).astype(np.int8)
        n = sum(np.roll(np.roll(head, di, 0), dj, 1) for di in (-1, 0, 1) for dj in (-1, 0, 1)
                if (di, dj) != (0, 0))
        new = g.copy()
        new[g == 1] = 2
        new[g == 2] = 3
        new[(g == 3) & ((n == 1) | (n == 2))] = 1
        g = new
        heads.append(np.argwhere(g == 1))
    return {"final": g, "n_heads": [len(h) for h in heads], "last": heads[-1]}


def life_period(np, board, max_steps):
    board = np.asarray(board)
    b = board.astype(np.uint8)
    seen = {}
    for t in range(max_steps):
        key = b.tobytes()
        if key in seen:
            return {"start": seen[key], "period": t - seen[key], "board": b, "pop": int(b.sum())}
        seen[key] = t
        p = np.pad(b, 1, mode="wrap")
        n = np.lib.stride_tricks.sliding_window_view(p, (3, 3)).sum(axis=(2, 3)) - b
        b = ((n == 3) | ((b == 1) & (n == 2))).astype(np.uint8)
    return {"start": -1, "period": 0, "board": b, "pop": int(b.sum())}


def brians_brain_majority(np, states, steps):
    states = np.asarray(states)
    s = states.copy()
    for _ in range(steps):
        on = (s == 1).astype(np.int32)
        n = sum(np.roll(on, sh, ax) for sh in (-1, 1) for ax in (0, 1))
        s = np.select([s == 1, s == 2, (s == 0) & (n == 2)], [2, 0, 1], default=0)
    maj = (s > 0).astype(int)
    for _ in range(3):
        n = sum(np.roll(np.roll(maj, di, 0), dj, 1) for di in (-1, 0, 1) for dj in (-1, 0, 1))
        maj = np.where(n >= 5, 1, 0)
    return {"states": s, "maj": maj, "hist": np.bincount(s.ravel(), minlength=3)}


def test_langtons_ant():
    check(langtons_ant, 21, 400)


def test_sandpile_while_mask():
    g = np.zeros((11, 11), dtype=np.int64)
    g[5, 5] = 300
    g[2, 7] = 40
    check(sandpile, g)


def test_forest_fire_uniforms():
    rng = np.random.default_rng(1521)
    forest = (rng.random((20, 20)) < 0.6).astype(np.int64)
    forest[10, 10] = 2
    check(forest_fire, forest, rng.random((15, 20, 20)), 0.05, 0.001)


def test_wireworld_int8():
    g = np.zeros((9, 14), dtype=np.int64)
    g[4, 1:13] = 3
    g[2:7, 12] = 3
    g[4, 2], g[4, 1] = 1, 2
    check(wireworld, g, 12)


def test_life_period_by_tobytes():
    board = np.zeros((10, 10), dtype=bool)
    board[1, 2] = board[2, 3] = board[3, 1] = board[3, 2] = board[3, 3] = True
    check(life_period, board, 60)


def test_brians_brain_select_majority():
    rng = np.random.default_rng(1526)
    check(brians_brain_majority, rng.integers(0, 3, (16, 16)), 6)
