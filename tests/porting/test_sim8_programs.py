"""Simulations: Game of Life by np.roll neighbour sums (and a glider on a padded board), an Ising model with
checkerboard Metropolis sweeps (host random numbers), random walks by cumsum with first-passage times, Monte Carlo
pi and integration with standard errors, N-body accelerations by broadcasting with np.linalg.norm and a leapfrog
step, the Nagel-Schreckenberg traffic automaton, and diffusion-limited aggregation steps on an int8 grid
(tests/porting)."""

import numpy as np
from harness import check


def life_roll(np, board, steps):
    b = np.asarray(board).astype(np.uint8)
    history = []
    for _ in range(steps):
        n = sum(np.roll(np.roll(b, i, 0), j, 1) for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0))
        b = ((n == 3) | ((b == 1) & (n == 2))).astype(np.uint8)
        history.append(int(b.sum()))
    rows = ["".join("#" if v else "." for v in row) for row in b[:4].tolist()]
    return {"board": b, "alive": history, "rows": rows, "dtype": str(b.dtype)}


def glider_padded(np, steps):
    Z = np.zeros((8, 8), dtype=int)
    Z[1, 2] = Z[2, 3] = Z[3, 1] = Z[3, 2] = Z[3, 3] = 1
    for _ in range(steps):
        N = (Z[0:-2, 0:-2] + Z[0:-2, 1:-1] + Z[0:-2, 2:] + Z[1:-1, 0:-2] + Z[1:-1, 2:]
             + Z[2:, 0:-2] + Z[2:, 1:-1] + Z[2:, 2:])
        birth = (N == 3) & (Z[1:-1, 1:-1] == 0)
        survive = ((N == 2) | (N == 3)) & (Z[1:-1, 1:-1] == 1)
        Z[...] = 0
        Z[1:-1, 1:-1][birth | survive] = 1
    ys, xs = np.nonzero(Z)
    return {"Z": Z, "com": [float(ys.mean()), float(xs.mean())], "n": int(Z.sum())}


def ising_checkerboard(np, spins, uniforms, beta):
    s = np.asarray(spins, dtype=np.int8)
    L = s.shape[0]
    ii, jj = np.indices((L, L))
    masks = [(ii + jj) % 2 == 0, (ii + jj) % 2 == 1]
    mags = []
    for u in uniforms:
        for c, mask in enumerate(masks):
            nb = (np.roll(s, 1, 0) + np.roll(s, -1, 0) + np.roll(s, 1, 1) + np.roll(s, -1, 1)).astype(np.int32)
            dE = 2 * s * nb
            accept = (dE <= 0) | (u[c] < np.exp(-beta * dE))
            flip = mask & accept
            s[flip] *= -1
        mags.append(float(np.abs(s.mean())))
    E = -np.sum(s * (np.roll(s, 1, 0) + np.roll(s, 1, 1)), dtype=np.int64)
    return {"s": s, "mag": np.round(mags, 4), "E": int(E), "dtype": str(s.dtype)}


def random_walks(np, steps):
    walks = np.cumsum(steps, axis=1)
    final = walks[:, -1]
    hit = np.abs(walks) >= 10
    first = np.where(hit.any(axis=1), hit.argmax(axis=1), -1)
    rms = np.sqrt(np.mean(walks.astype(np.float64) ** 2, axis=0))
    maxes = np.maximum.accumulate(walks, axis=1)[:, -1]
    returns = (walks == 0).sum(axis=1)
    return {"final": final, "first": first, "rms": rms[::10], "maxes": maxes, "returns": returns,
            "mean": round(float(final.mean()), 3), "hist": np.histogram(final, bins=5, range=(-40, 40))[0]}


def monte_carlo(np, xy):
    inside = np.sum(xy ** 2, axis=1) <= 1
    pi = 4 * inside.mean()
    se = 4 * np.sqrt(inside.mean() * (1 - inside.mean()) / len(xy))
    f = np.exp(-xy[:, 0] ** 2)
    est = f.mean()
    err = f.std(ddof=1) / np.sqrt(len(f))
    running = 4 * np.cumsum(inside) / np.arange(1, len(xy) + 1)
    line = f"pi ~ {pi:.4f} +/- {se:.4f}; int ~ {est:.5f}"
    return {"pi": pi, "se": se, "est": est, "err": err, "running": running[::250], "line": line}


def nbody(np, pos, vel, mass, steps, dt):
    def accel(p):
        d = p[None, :, :] - p[:, None, :]
        r = np.linalg.norm(d, axis=-1) + np.eye(len(p))
        inv3 = mass[None, :] / r ** 3
        np.fill_diagonal(inv3, 0)
        return (d * inv3[..., None]).sum(axis=1)

    a = accel(pos)
    energies = []
    for _ in range(steps):
        vel = vel + 0.5 * dt * a
        pos = pos + dt * vel
        a = accel(pos)
        vel = vel + 0.5 * dt * a
        d = np.linalg.norm(pos[:, None] - pos[None, :], axis=-1)
        iu = np.triu_indices(len(pos), 1)
        pe = -np.sum(mass[iu[0]] * mass[iu[1]] / d[iu])
        ke = 0.5 * np.sum(mass * np.sum(vel ** 2, axis=1))
        energies.append(ke + pe)
    momentum = (mass[:, None] * vel).sum(axis=0)
    return {"pos": pos, "E": np.array(energies), "p": momentum, "com": np.average(pos, axis=0, weights=mass)}


def traffic(np, road, vel, randoms, vmax):
    L = len(road)
    pos = np.flatnonzero(road)
    v = np.asarray(vel).copy()
    flows = []
    for r in randoms:
        gaps = (np.roll(pos, -1) - pos - 1) % L
        v = np.minimum(v + 1, vmax)
        v = np.minimum(v, gaps)
        slow = (r[: len(v)] < 0.3) & (v > 0)
        v[slow] -= 1
        pos = (pos + v) % L
        order = np.argsort(pos)
        pos, v = pos[order], v[order]
        flows.append(int(v.sum()))
    grid = np.full(L, -1)
    grid[pos] = v
    return {"pos": pos, "v": v, "flow": flows, "grid": grid, "mean_v": float(v.mean())}


def dla_steps(np, moves, seeds):
    grid = np.zeros((15, 15), dtype=np.int8)
    grid[7, 7] = 1
    dirs = np.array([[0, 1], [1, 0], [0, -1], [-1, 0]])
    stuck = 0
    for start, walk in zip(seeds, moves, strict=True):
        p = np.array(start)
        for m in walk:
            p = np.clip(p + dirs[m], 0, 14)
            nb = grid[max(p[0] - 1, 0):p[0] + 2, max(p[1] - 1, 0):p[1] + 2]
            if nb.any():
                grid[p[0], p[1]] = 1
                stuck += 1
                break
    ys, xs = np.nonzero(grid)
    radius = np.sqrt(((ys - 7) ** 2 + (xs - 7) ** 2).max())
    return {"grid": grid, "stuck": stuck, "radius": radius, "rows": grid.sum(axis=1, dtype=np.int16)}


def test_game_of_life_with_roll():
    check(life_roll, np.random.default_rng(841).random((12, 12)) < 0.35, 8)


def test_glider_on_padded_board():
    check(glider_padded, 8)


def test_ising_checkerboard_metropolis():
    rng = np.random.default_rng(842)
    check(ising_checkerboard, rng.choice([-1, 1], size=(10, 10)), rng.random((6, 2, 10, 10)), 0.6)


def test_random_walks_cumsum_first_passage():
    check(random_walks, np.random.default_rng(843).choice([-1, 1], size=(20, 100)))


def test_monte_carlo_pi_and_integral():
    check(monte_carlo, np.random.default_rng(844).random((2000, 2)), rtol=1e-4, atol=1e-5)


def test_nbody_leapfrog_energy():
    rng = np.random.default_rng(845)
    check(nbody, rng.normal(size=(5, 2)) * 2, rng.normal(size=(5, 2)) * 0.1, rng.random(5) + 0.5, 20, 0.01,
          rtol=2e-3, atol=1e-3)


def test_nagel_schreckenberg_traffic():
    rng = np.random.default_rng(846)
    road = np.zeros(40, dtype=int)
    road[rng.choice(40, 12, replace=False)] = 1
    check(traffic, road, rng.integers(0, 3, 12), rng.random((15, 12)), 4)


def test_diffusion_limited_aggregation_int8():
    rng = np.random.default_rng(847)
    check(dla_steps, rng.integers(0, 4, (12, 40)), rng.integers(0, 15, (12, 2)))
