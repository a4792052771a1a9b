"""Lattice and grid models as physics notebooks write them: a D2Q9 lattice Boltzmann channel (np.roll streaming of
each population, the equilibrium by einsum, bounce-back through a boolean obstacle mask), 2-D heat diffusion with
in-place slice updates (`u[1:-1, 1:-1] += ...`), an Abelian sandpile toppled until stable (np.where of one argument,
np.add.at of the grains), an SIR epidemic on a grid of uint8 states with neighbour counts from a padded array,
Brian's Brain and a HighLife rule (Game of Life variants), a forest-fire model with host random fields, and a
Schelling segregation step with sliding_window_view neighbourhoods (tests/porting)."""

import numpy as np
from harness import check


def lattice_boltzmann(np, nx, ny, steps, tau, u0):
    c = np.array([[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1], [1, 1], [-1, 1], [-1, -1], [1, -1]])
    w = np.array([4 / 9] + [1 / 9] * 4 + [1 / 36] * 4)
    opposite = np.array([0, 3, 4, 1, 2, 7, 8, 5, 6])
    yy, xx = np.meshgrid(np.arange(ny), np.arange(nx), indexing="ij")
    obstacle = (xx - nx // 4) ** 2 + (yy - ny // 2) ** 2 < (ny // 6) ** 2

    def equilibrium(rho, u):
        cu = 3.0 * np.einsum("qd,dyx->qyx", c, u)
        usq = 1.5 * (u[0] ** 2 + u[1] ** 2)
        return rho * w[:, None, None] * (1 + cu + 0.5 * cu ** 2 - usq)

    rho = np.ones((ny, nx))
    u = np.zeros((2, ny, nx))
    u[0] = u0
    f = equilibrium(rho, u)
    for _ in range(steps):
        for q in range(9):
            f[q] = np.roll(np.roll(f[q], c[q, 0], axis=1), c[q, 1], axis=0)
        bounced = f[opposite][:, obstacle]
        rho = f.sum(axis=0)
        u = np.einsum("qd,qyx->dyx", c, f) / rho
        u[:, obstacle] = 0
        f += (equilibrium(rho, u) - f) / tau
        f[:, obstacle] = bounced
    speed = np.hypot(u[0], u[1])
    return {"rho_total": rho.sum(), "speed": speed, "max_speed": speed.max(), "mass": f.sum(),
            "vorticity": (np.gradient(u[1], axis=1) - np.gradient(u[0], axis=0))[::4, ::4]}


def heat_diffusion(np, n, steps, alpha):
    u = np.zeros((n, n))
    u[n // 2 - 2:n // 2 + 2, n // 2 - 2:n // 2 + 2] = 100.0
    u[0, :] = 50.0  # a hot wall
    total0 = u[1:-1, 1:-1].sum()
    history = []
    for k in range(steps):
        lap = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]
        u[1:-1, 1:-1] += alpha * lap
        if k % 10 == 0:
            history.append(float(u[n // 2, n // 2]))
    profile = u[:, n // 2]
    hottest = np.unravel_index(np.argmax(u[1:, :]), u[1:, :].shape)
    return {"u": u, "history": history, "profile": profile, "hottest": tuple(int(i) for i in hottest),
            "gain": u[1:-1, 1:-1].sum() - total0, "above": int((u > 10).sum())}


def sandpile(np, grid, max_rounds):
    z = np.array(grid, dtype=np.int64)
    topples = np.zeros_like(z)
    rounds = 0
    while (z >= 4).any() and rounds < max_rounds:
        rows, cols = np.where(z >= 4)
        topples[rows, cols] += 1
        z[rows, cols] -= 4
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            r, cc = rows + dr, cols + dc
            keep = (r >= 0) & (r < z.shape[0]) & (cc >= 0) & (cc < z.shape[1])
            np.add.at(z, (r[keep], cc[keep]), 1)
        rounds += 1
    return {"z": z, "topples": topples, "rounds": rounds, "stable": bool((z < 4).all()),
            "hist": np.bincount(z.ravel(), minlength=4), "lost": int(np.sum(grid) - z.sum())}


def grid_sir(np, state, rand, beta, gamma, steps):
    S, I, R = 0, 1, 2
    s = np.asarray(state, dtype=np.uint8)
    counts = []
    for t in range(steps):
        infected = np.pad((s == I).astype(np.uint8), 1)
        nbrs = (infected[:-2, 1:-1] + infected[2:, 1:-1] + infected[1:-1, :-2] + infected[1:-1, 2:])
        p_inf = 1 - (1 - beta) ** nbrs
        new_inf = (s == S) & (rand[t] < p_inf)
        recover = (s == I) & (rand[t] < gamma)
        s[new_inf] = I
        s[recover] = R
        counts.append(np.bincount(s.ravel(), minlength=3).tolist())
    C = np.array(counts)
    peak = int(np.argmax(C[:, 1]))
    return {"s": s, "counts": C, "peak": peak, "attack": C[-1, 2] / s.size, "nbrs_max": int(nbrs.max())}


def life_variants(np, board, steps):
    def neighbours(g):
        return sum(np.roll(np.roll(g, dr, 0), dc, 1) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                   if (dr, dc) != (0, 0))

    hl = np.array(board, dtype=bool)
    for _ in range(steps):
        n = neighbours(hl.astype(np.int8))
        hl = np.where(hl, (n == 2) | (n == 3), (n == 3) | (n == 6))
    # Brian's Brain: 0 off, 1 on, 2 dying
    b = np.array(board, dtype=np.uint8)
    pop = []
    for _ in range(steps):
        n = neighbours((b == 1).astype(np.uint8))
        nb = np.zeros_like(b)
        nb[(b == 0) & (n == 2)] = 1
        nb[b == 1] = 2
        b = nb
        pop.append(int(np.count_nonzero(b == 1)))
    return {"highlife": hl, "alive": int(hl.sum()), "brain": b, "pop": pop,
            "dying": np.argwhere(b == 2)[:5]}


def forest_fire(np, n, steps, rand, p_grow, p_light):
    EMPTY, TREE, FIRE = 0, 1, 2
    g = np.zeros((n, n), dtype=np.int8)
    burnt = []
    for t in range(steps):
        fire = np.pad(g == FIRE, 1)
        near = fire[:-2, 1:-1] | fire[2:, 1:-1] | fire[1:-1, :-2] | fire[1:-1, 2:]
        new = g.copy()
        new[g == FIRE] = EMPTY
        ignite = (g == TREE) & (near | (rand[t] < p_light))
        new[ignite] = FIRE
        new[(g == EMPTY) & (rand[t] < p_grow)] = TREE
        burnt.append(int(np.sum(g == FIRE)))
        g = new
    density = np.mean(g == TREE)
    return {"g": g, "burnt": burnt, "density": density, "max_burn": max(burnt),
            "fires_at": np.flatnonzero(np.asarray(burnt) > 0)[:5]}


def schelling(np, grid, threshold, rounds, order):
    g = np.array(grid, dtype=np.int8)
    swv = np.lib.stride_tricks.sliding_window_view
    moved_counts = []
    for r in range(rounds):
        padded = np.pad(g, 1)
        win = swv(padded, (3, 3))
        same = (win == g[:, :, None, None]).sum(axis=(2, 3)) - 1
        occupied = (win != 0).sum(axis=(2, 3)) - (g != 0)
        with np.errstate(invalid="ignore", divide="ignore"):
            frac = np.where(occupied > 0, same / np.maximum(occupied, 1), 1.0)
        unhappy = (g != 0) & (frac < threshold)
        movers = np.flatnonzero(unhappy)
        empties = np.flatnonzero(g == 0)
        k = min(len(movers), len(empties))
        flat = g.ravel()
        dest = empties[order[r][:k] % len(empties)] if k else empties[:0]
        dest = np.unique(dest)
        k = len(dest)
        flat[dest] = flat[movers[:k]]
        flat[movers[:k]] = 0
        g = flat.reshape(g.shape)
        moved_counts.append(k)
    return {"g": g, "moved": moved_counts, "unhappy_left": int(unhappy.sum()),
            "groups": np.unique(g, return_counts=True)}


def test_lattice_boltzmann_channel():
    check(lattice_boltzmann, 24, 12, 12, 0.8, 0.05, rtol=2e-3, atol=1e-5)


def test_heat_diffusion_in_place():
    check(heat_diffusion, 16, 60, 0.2, rtol=1e-4, atol=1e-3)


def test_abelian_sandpile():
    rng = np.random.default_rng(1131)
    grid = rng.integers(0, 4, (9, 9))
    grid[4, 4] = 40
    check(sandpile, grid, 200)


def test_sir_on_a_grid():
    rng = np.random.default_rng(1132)
    state = np.zeros((14, 14), dtype=np.uint8)
    state[7, 7] = state[2, 11] = 1
    check(grid_sir, state, rng.random((15, 14, 14)), 0.35, 0.2, 15)


def test_highlife_and_brians_brain():
    rng = np.random.default_rng(1133)
    check(life_variants, (rng.random((12, 12)) < 0.35).astype(int), 8)


def test_forest_fire():
    rng = np.random.default_rng(1134)
    check(forest_fire, 12, 20, rng.random((20, 12, 12)), 0.1, 0.002)


def test_schelling_segregation_step():
    rng = np.random.default_rng(1135)
    grid = rng.choice([0, 1, 2], size=(10, 10), p=[0.2, 0.4, 0.4])
    check(schelling, grid, 0.5, 4, rng.integers(0, 1000, (4, 100)))
