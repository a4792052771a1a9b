"""Dynamic programming and simulation programs written with vector rows: edit distance and LCS row by row,
0/1 knapsack with shifted maxima, value iteration on a grid world, Conway's game of life with np.roll, an
elementary cellular automaton, the abelian sandpile, a queue simulation from host arrivals (tests/porting)."""

import numpy as np
from harness import check


def edit_distance_rows(np, a_host, b_host):
    a, b = np.asarray(a_host), np.asarray(b_host)
    prev = np.arange(len(b) + 1)
    rows = [prev]
    for i in range(1, len(a) + 1):
        sub = prev[:-1] + (a[i - 1] != b)
        dele = prev[1:] + 1
        best = np.minimum(sub, dele)
        cur = np.empty_like(prev)
        cur[0] = i
        for j in range(1, len(b) + 1):
            cur[j] = min(best[j - 1], cur[j - 1] + 1)
        rows.append(cur)
        prev = cur
    L = np.zeros((len(a) + 1, len(b) + 1), dtype=int)
    for i in range(1, len(a) + 1):
        match = a[i - 1] == b
        L[i, 1:] = np.where(match, L[i - 1, :-1] + 1, np.maximum(L[i - 1, 1:], 0))
        L[i] = np.maximum.accumulate(np.maximum(L[i], L[i - 1]))
    return {"dist": int(prev[-1]), "table": np.array(rows), "lcs_table": L, "lcs": int(L[-1, -1])}


def knapsack(np, w_host, v_host, cap=20):
    w, v = np.asarray(w_host), np.asarray(v_host)
    best = np.zeros(cap + 1, dtype=np.int64)
    take = np.zeros((len(w), cap + 1), dtype=bool)
    for i in range(len(w)):
        shifted = np.full(cap + 1, -1, dtype=np.int64)
        shifted[w[i]:] = best[: cap + 1 - w[i]] + v[i]
        take[i] = shifted > best
        best = np.maximum(best, shifted)
    c, chosen = cap, []
    for i in range(len(w) - 1, -1, -1):
        if take[i, c]:
            chosen.append(i)
            c -= int(w[i])
    unbounded = np.zeros(cap + 1, dtype=np.int64)
    for c in range(1, cap + 1):
        fits = w <= c
        if fits.any():
            unbounded[c] = max(unbounded[c - 1], int((unbounded[c - w[fits]] + v[fits]).max()))
    return {"best": best, "chosen": sorted(chosen), "value": int(best[-1]), "unbounded": unbounded}


def grid_value_iteration(np, rewards_host, gamma=0.9, iters=60):
    R = np.asarray(rewards_host)
    h, w = R.shape
    V = np.zeros((h, w))
    walls = R < -5
    deltas = []
    for _ in range(iters):
        P = np.pad(V, 1, mode="edge")
        moves = np.stack([P[:-2, 1:-1], P[2:, 1:-1], P[1:-1, :-2], P[1:-1, 2:]])
        moves = np.where(walls[None], -np.inf, moves)
        Q = R[None] + gamma * moves
        newV = np.where(walls, 0.0, Q.max(axis=0))
        deltas.append(float(np.abs(newV - V).max()))
        V = newV
    policy = np.argmax(np.where(walls[None], -np.inf, Q), axis=0)
    return {"V": V, "policy": np.where(walls, -1, policy), "converged": deltas[-1] < 1e-3,
            "deltas": deltas[::10]}


def game_of_life(np, board_host, steps=12):
    B = np.asarray(board_host).astype(np.int8)
    pop = []
    for _ in range(steps):
        n = sum(np.roll(np.roll(B, dy, axis=0), dx, axis=1) for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                if (dy, dx) != (0, 0))
        B = ((n == 3) | ((B == 1) & (n == 2))).astype(np.int8)
        pop.append(int(B.sum()))
    rows_alive = np.flatnonzero(B.any(axis=1))
    return {"B": B, "pop": pop, "rows": rows_alive, "density": float(B.mean())}


def cellular_automaton(np, rule=30, width=41, steps=20):
    bits = np.array([(rule >> i) & 1 for i in range(8)], dtype=np.uint8)
    state = np.zeros(width, dtype=np.uint8)
    state[width // 2] = 1
    history = [state]
    for _ in range(steps):
        idx = (np.roll(state, 1) << 2) | (state << 1) | np.roll(state, -1)
        state = bits[idx]
        history.append(state)
    H = np.array(history)
    packed = np.packbits(H[:, :40], axis=1)
    return {"H": H, "counts": H.sum(axis=1), "packed": packed, "center": H[:, width // 2]}


def sandpile(np, n=9, grains=60):
    S = np.zeros((n, n), dtype=int)
    S[n // 2, n // 2] = grains
    topples = 0
    while (S >= 4).any():
        T = S >= 4
        topples += int(T.sum())
        S = S - 4 * T
        S[1:, :] += T[:-1, :]
        S[:-1, :] += T[1:, :]
        S[:, 1:] += T[:, :-1]
        S[:, :-1] += T[:, 1:]
    return {"S": S, "topples": topples, "lost": grains - int(S.sum()), "sym": bool(np.array_equal(S, S.T))}


def queue_simulation(np, arrivals_host, services_host):
    arr = np.cumsum(np.asarray(arrivals_host))
    svc = np.asarray(services_host)
    start = np.empty_like(arr)
    finish = np.empty_like(arr)
    free = 0.0
    for i in range(len(arr)):
        start[i] = max(arr[i], free)
        finish[i] = start[i] + svc[i]
        free = finish[i]
    wait = start - arr
    t = np.sort(np.concatenate([arr, finish]))
    delta = np.concatenate([np.ones_like(arr), -np.ones_like(finish)])[np.argsort(np.concatenate([arr, finish]),
                                                                                   kind="stable")]
    in_system = np.cumsum(delta)
    busy = np.sum(svc) / finish[-1]
    return {"wait": wait, "mean_wait": float(wait.mean()), "max_q": int(in_system.max()), "t": t,
            "util": float(busy), "p90": float(np.percentile(wait, 90))}


def test_edit_distance_lcs_rows():
    check(edit_distance_rows, np.array([1, 2, 3, 4, 2, 1, 5]), np.array([2, 3, 1, 4, 2, 5, 5, 1]))


def test_knapsack_shifted_rows_backtrack():
    check(knapsack, np.array([3, 4, 5, 9, 4, 2]), np.array([4, 5, 6, 10, 6, 3]))


def test_value_iteration_grid_pad_edge():
    R = np.full((5, 6), -0.04)
    R[0, 5], R[1, 5], R[2, 2], R[3, 1] = 1.0, -1.0, -10.0, -10.0
    check(grid_value_iteration, R, rtol=1e-4, atol=1e-4)


def test_game_of_life_roll():
    rng = np.random.default_rng(371)
    check(game_of_life, rng.random((16, 16)) < 0.3)


def test_rule30_packbits():
    check(cellular_automaton)


def test_sandpile_toppling():
    check(sandpile)


def test_queue_simulation_cumsum_events():
    rng = np.random.default_rng(372)
    check(queue_simulation, rng.exponential(1.0, 30), rng.exponential(0.8, 30), rtol=1e-4, atol=1e-4)
