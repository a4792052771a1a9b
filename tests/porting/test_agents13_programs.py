"""Agent models and automata as complexity-science notebooks write them: Langton's ant on a uint8 grid (direction
lookup tables, modular wrap-around), Boids flocking (pairwise offsets by broadcasting, neighbour masks, `np.einsum`
sums, speed limits through `np.linalg.norm(keepdims=True)`), a Boltzmann money-exchange economy with host-drawn
pairs (`np.add.at`/`np.subtract.at`, Gini from the sorted wealth, `np.histogram`), a Sugarscape-style forager
(argmax over a `sliding_window_view` neighbourhood, `np.unravel_index`, regrowth capped by `np.minimum`), a voter
model with `np.take` of neighbour opinions, a rock-paper-scissors cyclic automaton through `np.roll` stacks and
`np.any(axis=0)`, and a 1-d totalistic automaton packed with `np.packbits` then printed with
`np.array2string(formatter=)` (tests/porting)."""

import numpy as np
from harness import check


def langtons_ant(np, size, steps):
    grid = np.zeros((size, size), dtype=np.uint8)
    moves = np.array([[-1, 0], [0, 1], [1, 0], [0, -1]])
    pos = np.array([size // 2, size // 2])
    heading = 0
    visits = np.zeros((size, size), dtype=np.int64)
    for _ in range(steps):
        r, c = pos
        turn = 1 if grid[r, c] == 0 else -1
        heading = (heading + turn) % 4
        grid[r, c] ^= 1
        visits[r, c] += 1
        pos = (pos + moves[heading]) % size
    return {"grid": grid, "black": int(grid.sum()), "pos": pos, "heading": heading,
            "most_visited": np.unravel_index(np.argmax(visits), visits.shape), "visits_max": visits.max()}


def boids(np, pos, vel, steps, radius, max_speed):
    n = len(pos)
    for _ in range(steps):
        diff = pos[:, None, :] - pos[None, :, :]
        dist = np.sqrt((diff ** 2).sum(axis=-1))
        near = (dist < radius) & ~np.eye(n, dtype=bool)
        count = near.sum(axis=1, keepdims=True)
        safe = np.maximum(count, 1)
        cohesion = (near @ pos) / safe - pos
        alignment = (near @ vel) / safe - vel
        too_close = near & (dist < radius / 3)
        separation = np.einsum("ij,ijk->ik", too_close.astype(pos.dtype), diff)
        vel = vel + np.where(count > 0, 0.01 * cohesion + 0.05 * alignment, 0) + 0.05 * separation
        speed = np.linalg.norm(vel, axis=1, keepdims=True)
        vel = np.where(speed > max_speed, vel / speed * max_speed, vel)
        pos = (pos + vel) % 10.0
    order = np.linalg.norm(vel.mean(axis=0)) / np.linalg.norm(vel, axis=1).mean()
    return {"pos": pos, "vel": vel, "order": order, "neighbours": near.sum(axis=1)}


def money_exchange(np, pairs, n_agents, start):
    wealth = np.full(n_agents, start)
    broke_steps = 0
    for giver, taker in pairs:
        if giver == taker:
            continue
        if wealth[giver] > 0:
            np.subtract.at(wealth, [giver], 1)
            np.add.at(wealth, [taker], 1)
        else:
            broke_steps += 1
    w = np.sort(wealth)
    n = len(w)
    gini = (2 * np.arange(1, n + 1) - n - 1) @ w / (n * w.sum())
    hist, _ = np.histogram(wealth, bins=np.arange(0, wealth.max() + 2, 2))
    top10 = w[-n // 10:].sum() / w.sum()
    return {"wealth": wealth, "gini": gini, "hist": hist, "top10": top10, "broke": int((wealth == 0).sum()),
            "broke_steps": broke_steps, "total": int(wealth.sum())}


def sugarscape(np, sugar_cap, agents, steps):
    sugar = sugar_cap.astype(np.float64).copy()
    size = sugar.shape[0]
    pos = agents.copy()
    stores = np.zeros(len(pos))
    path = []
    for _ in range(steps):
        padded = np.pad(sugar, 1, mode="wrap")
        windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3))
        for a in range(len(pos)):
            r, c = pos[a]
            win = windows[r, c]
            dr, dc = np.unravel_index(np.argmax(win), win.shape)
            pos[a] = [(r + dr - 1) % size, (c + dc - 1) % size]
            stores[a] += sugar[pos[a, 0], pos[a, 1]]
            sugar[pos[a, 0], pos[a, 1]] = 0
        sugar = np.minimum(sugar + 1, sugar_cap)
        path.append(pos[0].copy())
    return {"pos": pos, "stores": stores, "sugar_left": sugar.sum(), "path": np.array(path),
            "richest": int(np.argmax(stores))}


def voter_model(np, opinions, picks, neighbour_choice):
    h, w = opinions.shape
    flat = opinions.ravel().copy()
    offsets = np.array([-w, w, -1, 1])
    fractions = []
    for agent, k in zip(picks, neighbour_choice, strict=True):
        r, c = divmod(int(agent), w)
        nbr = np.ravel_multi_index(((r + offsets[k] // w) % h, (c + (offsets[k] if abs(offsets[k]) == 1 else 0)) % w),
                                   (h, w))
        flat[agent] = np.take(flat, nbr)
        fractions.append(flat.mean())
    grid = flat.reshape(h, w)
    interfaces = (grid != np.roll(grid, 1, axis=0)).sum() + (grid != np.roll(grid, 1, axis=1)).sum()
    return {"grid": grid, "fractions": np.array(fractions)[::25], "interfaces": int(interfaces)}


def rock_paper_scissors(np, grid, steps, threshold):
    history = []
    for _ in range(steps):
        beats = (grid + 1) % 3
        shifted = np.stack([np.roll(grid, s, axis=a) for a in (0, 1) for s in (-1, 1)])
        predators = (shifted == beats[None]).sum(axis=0)
        grid = np.where(predators >= threshold, beats, grid)
        history.append(np.bincount(grid.ravel(), minlength=3))
    history = np.array(history)
    any_change = np.any(np.diff(history, axis=0) != 0, axis=1)
    return {"grid": grid, "history": history, "changing": any_change}


def totalistic_packed(np, width, steps, rule_code):
    rule = np.array([(rule_code // 3 ** k) % 3 for k in range(7)], dtype=np.uint8)
    row = np.zeros(width, dtype=np.uint8)
    row[width // 2] = 1
    rows = [row]
    for _ in range(steps):
        total = np.roll(row, 1) + row + np.roll(row, -1)
        row = rule[total]
        rows.append(row)
    field = np.array(rows)
    packed = np.packbits(field > 0, axis=1)
    text = np.array2string(field[:6, width // 2 - 6:width // 2 + 7], separator="",
                           formatter={"int": lambda v: " .#"[v]})
    return {"field": field, "packed": packed, "text": text, "density": (field > 0).mean(axis=1)}


def test_langtons_ant():
    check(langtons_ant, 21, 400)


def test_boids_flocking():
    rng = np.random.default_rng(1322)
    check(boids, rng.random((30, 2)) * 10, rng.normal(0, 0.1, (30, 2)), 15, 2.0, 0.3, rtol=2e-3, atol=1e-4)


def test_boltzmann_money_exchange():
    rng = np.random.default_rng(1323)
    check(money_exchange, rng.integers(0, 50, (1500, 2)), 50, 10)


def test_sugarscape_forager():
    rng = np.random.default_rng(1324)
    cap = rng.integers(0, 5, (12, 12))
    check(sugarscape, cap, rng.integers(0, 12, (5, 2)), 8)


def test_voter_model_ravel_multi_index():
    rng = np.random.default_rng(1325)
    check(voter_model, rng.integers(0, 2, (10, 10)), rng.integers(0, 100, 300), rng.integers(0, 4, 300))


def test_cyclic_rock_paper_scissors():
    rng = np.random.default_rng(1326)
    check(rock_paper_scissors, rng.integers(0, 3, (24, 24)), 12, 2)


def test_totalistic_automaton_packbits_text():
    check(totalistic_packed, 41, 20, 777)
