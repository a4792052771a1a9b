"""Programs from N. Rougier's "From Python to NumPy" written as its chapters do: the vectorised random walk with a
subsequence search through as_strided, Gray-Scott reaction-diffusion by slicing a padded grid, one Boids step
(alignment, cohesion, separation from a distance matrix), a typed list as offsets from cumsum, the DART blue-noise
rejection test with broadcasting, Bellman-Ford value propagation on a maze, and the anatomy-of-an-array views,
strides and index arithmetic (tests/porting)."""

import numpy as np
from harness import check


def random_walk_crossing(np, steps_host):
    steps = np.asarray(steps_host)
    walk = np.cumsum(steps)
    target = 5
    hit = np.argmax(np.abs(walk) >= target)
    sub = np.array([1, 1, 1])
    n = len(walk) - len(sub) + 1
    strided = np.lib.stride_tricks.as_strided(steps, shape=(n, len(sub)), strides=(steps.itemsize, steps.itemsize))
    runs = np.flatnonzero(np.all(strided == sub, axis=1))
    returns = np.flatnonzero(walk == 0)
    return {"walk": walk, "hit": int(hit), "runs": runs, "returns": returns, "max": int(walk.max()),
            "min": int(walk.min()), "final": int(walk[-1])}


def gray_scott(np, noise_host, steps=40):
    n = noise_host.shape[0]
    Du, Dv, F, k = 0.16, 0.08, 0.035, 0.065
    U = np.ones((n + 2, n + 2))
    V = np.zeros((n + 2, n + 2))
    u, v = U[1:-1, 1:-1], V[1:-1, 1:-1]
    r = n // 5
    u[n // 2 - r : n // 2 + r, n // 2 - r : n // 2 + r] = 0.50
    v[n // 2 - r : n // 2 + r, n // 2 - r : n // 2 + r] = 0.25
    u += 0.05 * np.asarray(noise_host)
    v += 0.05 * np.asarray(noise_host)
    for _ in range(steps):
        Lu = U[0:-2, 1:-1] + U[1:-1, 0:-2] - 4 * U[1:-1, 1:-1] + U[1:-1, 2:] + U[2:, 1:-1]
        Lv = V[0:-2, 1:-1] + V[1:-1, 0:-2] - 4 * V[1:-1, 1:-1] + V[1:-1, 2:] + V[2:, 1:-1]
        uvv = u * v * v
        u += Du * Lu - uvv + F * (1 - u)
        v += Dv * Lv + uvv - (F + k) * v
    return {"U": U, "V": V, "vsum": float(v.sum()), "umin": float(u.min())}


def boids_step(np, pos_host, vel_host, radius=2.0):
    pos, vel = np.asarray(pos_host), np.asarray(vel_host)
    dx = np.subtract.outer(pos[:, 0], pos[:, 0])
    dy = np.subtract.outer(pos[:, 1], pos[:, 1])
    dist = np.hypot(dx, dy)
    mask_0 = dist > 0
    mask_1 = dist < radius
    mask_2 = dist < radius / 2
    mask_1 *= mask_0
    mask_2 *= mask_0
    count_1 = np.maximum(mask_1.sum(axis=1), 1)
    count_2 = np.maximum(mask_2.sum(axis=1), 1)
    target = np.dot(mask_1, vel) / count_1.reshape(-1, 1)
    norm = np.sqrt((target * target).sum(axis=1)).reshape(-1, 1)
    target *= np.divide(1.0, norm, out=np.zeros_like(norm), where=norm != 0)
    alignment = target - vel
    center = np.dot(mask_1, pos) / count_1.reshape(-1, 1)
    cohesion = center - pos
    rep_x = np.multiply(mask_2, dx).sum(axis=1) / count_2
    rep_y = np.multiply(mask_2, dy).sum(axis=1) / count_2
    separation = np.c_[rep_x, rep_y]
    acc = 1.5 * separation + alignment + cohesion
    new_vel = vel + 0.1 * acc
    speed = np.linalg.norm(new_vel, axis=1, keepdims=True)
    new_vel = np.where(speed > 1.0, new_vel / speed, new_vel)
    return {"alignment": alignment, "cohesion": cohesion, "separation": separation, "vel": new_vel,
            "pos": pos + new_vel, "neighbours": mask_1.sum(axis=1)}


def typed_list(np, sizes_host, values_host):
    sizes = np.asarray(sizes_host)
    values = np.asarray(values_host)
    stops = np.cumsum(sizes)
    starts = stops - sizes
    items = [values[a:b] for a, b in zip(starts, stops, strict=True)]
    owner = np.repeat(np.arange(len(sizes)), sizes)
    sums = np.add.reduceat(values, starts[sizes > 0]) if (sizes > 0).all() else None
    lengths = np.diff(np.concatenate([[0], stops]))
    inserted = np.insert(values, stops[1], -1)
    means = np.bincount(owner, weights=values) / sizes
    return {"starts": starts, "owner": owner, "sums": sums, "lengths": lengths, "inserted": inserted,
            "means": means, "item2": items[2], "longest": int(np.argmax(sizes))}


def dart_sampling(np, candidates_host, r=0.12):
    candidates = np.asarray(candidates_host)
    points = candidates[:1]
    for c in candidates[1:]:
        d = np.sqrt(((points - c) ** 2).sum(axis=1))
        if np.all(d > r):
            points = np.vstack([points, c])
    D = np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(-1))
    np.fill_diagonal(D, np.inf)
    return {"points": points, "n": len(points), "min_dist": float(D.min()), "nearest": D.argmin(axis=1)}


def maze_bellman_ford(np, walls_host):
    walls = np.asarray(walls_host)
    G = np.where(walls, 0.0, 1.0)
    Z = np.zeros(G.shape)
    goal = (G.shape[0] - 2, G.shape[1] - 2)
    Z[goal] = 1.0
    gamma = 0.9
    for _ in range(60):
        N = np.zeros(G.shape)
        N[1:-1, 1:-1] = np.maximum.reduce([Z[:-2, 1:-1], Z[2:, 1:-1], Z[1:-1, :-2], Z[1:-1, 2:]])
        Z_new = np.maximum(Z, gamma * N * G)
        Z_new[goal] = 1.0
        if np.allclose(Z_new, Z):
            break
        Z = Z_new
    path = [(1, 1)]
    while path[-1] != goal and len(path) < 80 and Z[path[-1]] > 0:
        y, x = path[-1]
        nb = [(y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)]
        vals = np.array([Z[p] for p in nb])
        path.append(nb[int(np.argmax(vals))])
    return {"Z": Z, "path": path, "reached": path[-1] == goal}


def array_anatomy(np):
    Z = np.arange(24, dtype=np.int16).reshape(4, 6)
    strides = Z.strides
    index = 2 * strides[0] + 3 * strides[1]
    offset = index // Z.itemsize
    flat = Z.ravel()[offset]
    V = Z[::2, ::3]
    V_strides = V.strides
    V *= 10
    W = Z[1:3][:, [0, 2]]
    W[...] = -1
    T = Z.T
    return {"strides": strides, "flat": flat, "Z": Z, "V": V, "V_strides": V_strides, "W": W,
            "T_strides": T.strides, "nbytes": Z.nbytes, "shares": np.shares_memory(Z, V)}


def test_random_walk_crossing_and_as_strided_runs():
    steps = 2 * np.random.default_rng(531).integers(0, 2, 200) - 1
    check(random_walk_crossing, steps)


def test_gray_scott_reaction_diffusion_slices():
    check(gray_scott, np.random.default_rng(532).random((24, 24)), rtol=1e-3, atol=1e-4)


def test_boids_step_distance_masks():
    rng = np.random.default_rng(533)
    check(boids_step, rng.uniform(0, 6, (25, 2)), rng.normal(0, 0.5, (25, 2)), rtol=1e-3, atol=1e-4)


def test_typed_list_offsets_reduceat_repeat():
    rng = np.random.default_rng(534)
    sizes = rng.integers(1, 5, 7)
    check(typed_list, sizes, rng.normal(size=int(sizes.sum())).round(3))


def test_dart_blue_noise_rejection():
    check(dart_sampling, np.random.default_rng(535).random((60, 2)), rtol=1e-4, atol=1e-5)


def test_maze_bellman_ford_value_propagation():
    rng = np.random.default_rng(536)
    walls = rng.random((11, 11)) < 0.2
    walls[0, :] = walls[-1, :] = walls[:, 0] = walls[:, -1] = True
    walls[1, 1] = walls[-2, -2] = False
    check(maze_bellman_ford, walls)


def test_array_anatomy_strides_views_offsets():
    check(array_anatomy)
