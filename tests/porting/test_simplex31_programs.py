"""Linear programming and matrix games as operations-research courses write them in NumPy: a dense tableau simplex
with Bland's rule and the ratio test by `np.divide(where=)`, a two-phase start with artificial variables, the dual
values read off the final tableau, a zero-sum matrix game solved as an LP, a transportation problem by Vogel's
approximation with masked penalties, the Hungarian method's row and column reductions with a brute-force check
over `itertools.permutations`, Floyd-Warshall by broadcasting `np.minimum`, and the critical path of a project by
`np.max(where=, initial=)` (tests/porting)."""

import itertools

import numpy as np
from harness import check


def _pivot(np, T, r, c):
    T[r] = T[r] / T[r, c]
    others = np.arange(T.shape[0]) != r
    T[others] -= np.outer(T[others, c], T[r])


def simplex_max(np, c, A, b):
    c, A, b = (np.asarray(v, dtype=np.float64) for v in (c, A, b))
    m, n = A.shape
    T = np.zeros((m + 1, n + m + 1))
    T[:m, :n] = A
    T[:m, n:n + m] = np.eye(m)
    T[:m, -1] = b
    T[-1, :n] = -c
    basis = np.arange(n, n + m)
    steps = 0
    while np.any(T[-1, :-1] < -1e-12):
        col = int(np.flatnonzero(T[-1, :-1] < -1e-12)[0])  # Bland: the first improving column
        ratios = np.divide(T[:m, -1], T[:m, col], out=np.full(m, np.inf), where=T[:m, col] > 1e-12)
        if np.all(np.isinf(ratios)):
            return {"status": "unbounded"}
        row = int(np.argmin(ratios))
        _pivot(np, T, row, col)
        basis[row] = col
        steps += 1
    x = np.zeros(n + m)
    x[basis] = T[:m, -1]
    return {"status": "optimal", "x": x[:n], "slack": x[n:], "z": T[-1, -1], "duals": T[-1, n:n + m],
            "steps": steps, "basis": np.sort(basis)}


def two_phase(np, c, A, b):
    # minimise c x subject to A x = b, x >= 0 (b >= 0): phase 1 drives the artificials out
    c, A, b = (np.asarray(v, dtype=np.float64) for v in (c, A, b))
    m, n = A.shape
    T = np.hstack([A, np.eye(m), b[:, None]])
    T = np.vstack([T, np.zeros(n + m + 1)])
    T[-1, n:n + m] = 1.0
    T[-1] -= T[:m].sum(axis=0)
    basis = list(range(n, n + m))
    for phase in (1, 2):
        while True:
            reduced = T[-1, :-1].copy()
            if phase == 2:
                reduced[n:n + m] = np.inf  # artificials may not re-enter
            col = int(np.argmin(reduced))
            if reduced[col] >= -1e-10:
                break
            with np.errstate(divide="ignore", invalid="ignore"):
                ratios = np.where(T[:m, col] > 1e-12, T[:m, -1] / T[:m, col], np.inf)
            row = int(np.argmin(ratios))
            _pivot(np, T, row, col)
            basis[row] = col
        if phase == 1:
            infeasible = T[-1, -1] < -1e-9
            T[-1] = 0.0
            T[-1, :n] = c
            for i, j in enumerate(basis):
                T[-1] -= T[-1, j] * T[i]
    x = np.zeros(n + m)
    x[np.array(basis)] = T[:m, -1]
    return {"x": x[:n], "obj": c @ x[:n], "infeasible": bool(infeasible), "resid": A @ x[:n] - b}


def matrix_game(np, payoff):
    P = np.asarray(payoff, dtype=np.float64)
    shift = 1 - P.min()
    Q = P + shift  # all positive: value > 0
    m, n = Q.shape
    # column player: max sum y s.t. Q y <= 1
    res = simplex_max(np, np.ones(n), Q, np.ones(m))
    y = res["x"]
    v = 1 / y.sum()
    col_strategy = y * v
    row_strategy = res["duals"] * v
    pure_maximin = P.min(axis=1).max()
    pure_minimax = P.max(axis=0).min()
    return {"value": v - shift, "row": row_strategy, "col": col_strategy, "saddle": bool(pure_maximin ==
            pure_minimax), "check": row_strategy @ P @ col_strategy}


def vogel(np, supply, demand, cost):
    supply = np.array(supply, dtype=np.int64)
    demand = np.array(demand, dtype=np.int64)
    C = np.asarray(cost, dtype=np.float64)
    alloc = np.zeros(C.shape, dtype=np.int64)
    rows = np.ones(len(supply), dtype=bool)
    cols = np.ones(len(demand), dtype=bool)
    while rows.any() and cols.any():
        M = np.where(rows[:, None] & cols[None, :], C, np.inf)
        two_r = np.sort(M, axis=1)[:, :2]
        two_c = np.sort(M, axis=0)[:2, :]
        with np.errstate(invalid="ignore"):
            pen_r = np.where(rows, np.nan_to_num(two_r[:, 1] - two_r[:, 0], posinf=0.0), -1)
            pen_c = np.where(cols, np.nan_to_num(two_c[1] - two_c[0], posinf=0.0), -1)
        if pen_r.max() >= pen_c.max():
            i = int(np.argmax(pen_r))
            j = int(np.argmin(M[i]))
        else:
            j = int(np.argmax(pen_c))
            i = int(np.argmin(M[:, j]))
        q = min(supply[i], demand[j])
        alloc[i, j] = q
        supply[i] -= q
        demand[j] -= q
        if supply[i] == 0:
            rows[i] = False
        else:
            cols[j] = False
    return {"alloc": alloc, "cost": float(np.sum(alloc * C)), "used": np.count_nonzero(alloc),
            "row_sums": alloc.sum(axis=1), "col_sums": alloc.sum(axis=0)}


def assignment(np, cost):
    C = np.asarray(cost, dtype=np.float64)
    reduced = C - C.min(axis=1, keepdims=True)
    reduced -= reduced.min(axis=0, keepdims=True)
    zeros = reduced == 0
    n = len(C)
    best, best_perm = np.inf, None
    rows = np.arange(n)
    for perm in itertools.permutations(range(n)):
        total = C[rows, list(perm)].sum()
        if total < best:
            best, best_perm = total, perm
    perm = np.array(best_perm)
    all_costs = np.array([C[rows, list(p)].sum() for p in itertools.permutations(range(n))])
    return {"best": best, "perm": perm, "zeros_per_row": zeros.sum(axis=1), "on_zeros": zeros[rows, perm].all(),
            "lower_bound": C.min(axis=1).sum(), "rank": int(np.sum(all_costs < best)), "n_opt":
            int(np.isclose(all_costs, best).sum())}


def floyd_warshall(np, n, edges, weights):
    D = np.full((n, n), np.inf)
    np.fill_diagonal(D, 0)
    e = np.asarray(edges)
    D[e[:, 0], e[:, 1]] = weights
    nxt = np.where(np.isfinite(D), np.arange(n)[None, :], -1)
    for k in range(n):
        via = D[:, k:k + 1] + D[k:k + 1, :]
        better = via < D
        D = np.minimum(D, via)
        nxt = np.where(better, nxt[:, k:k + 1], nxt)
    reachable = np.isfinite(D)
    ecc = np.max(D, axis=1, where=reachable, initial=0)
    return {"D": np.where(reachable, D, -1), "next": nxt, "reach": reachable.sum(axis=1), "ecc": ecc,
            "center": int(np.argmin(ecc)), "neg_cycle": bool((np.diag(D) < 0).any())}


def critical_path(np, durations, preds):
    d = np.asarray(durations, dtype=np.float64)
    P = np.asarray(preds, dtype=bool)  # P[i, j]: j must finish before i starts
    n = len(d)
    es = np.zeros(n)
    for i in range(n):
        es[i] = np.max(es + d, where=P[i], initial=0.0)
    ef = es + d
    T = ef.max()
    lf = np.full(n, T)
    for j in range(n - 1, -1, -1):
        lf[j] = np.min(lf - d, where=P[:, j], initial=T)
    ls = lf - d
    slack = ls - es
    critical = np.isclose(slack, 0)
    return {"es": es, "lf": lf, "T": T, "slack": slack, "critical": np.flatnonzero(critical),
            "path_len": d[critical].sum()}


def test_simplex_max():
    check(simplex_max, [3, 5, 4], [[2, 3, 0], [0, 2, 5], [3, 2, 4]], [8, 10, 15])


def test_simplex_degenerate():
    check(simplex_max, [10, -57, -9, -24], [[0.5, -5.5, -2.5, 9], [0.5, -1.5, -0.5, 1], [1, 0, 0, 0]], [0, 0, 1])


def test_simplex_unbounded():
    check(simplex_max, [1, 1], [[1, -1], [-1, 1]], [1, 1])


def test_two_phase():
    check(two_phase, [2, 3, 1, 0, 0], [[1, 1, 1, 1, 0], [2, 1, 3, 0, -1]], [4, 5])


def test_matrix_game():
    check(matrix_game, [[3, -1, 2], [-2, 4, -1], [1, 0, 3]], rtol=1e-4, atol=1e-7)


def test_matrix_game_saddle():
    check(matrix_game, [[4, 2, 5], [3, 1, 6], [6, 3, 7]], rtol=1e-4, atol=1e-7)


def test_vogel():
    check(vogel, [20, 30, 25], [10, 25, 15, 25], [[8, 6, 10, 9], [9, 12, 13, 7], [14, 9, 16, 5]])


def test_assignment():
    rng = np.random.default_rng(3161)
    check(assignment, rng.integers(1, 30, (6, 6)))


def test_floyd_warshall():
    edges = np.array([[0, 1], [1, 2], [2, 0], [1, 3], [3, 4], [4, 1], [2, 5]])
    check(floyd_warshall, 7, edges, np.array([4.0, 1.5, 2.0, 7.0, 1.0, 0.5, 3.0]))


def test_critical_path():
    preds = np.zeros((7, 7), dtype=bool)
    for i, j in [(1, 0), (2, 0), (3, 1), (4, 1), (4, 2), (5, 3), (6, 4), (6, 5)]:
        preds[i, j] = True
    check(critical_path, [3, 2, 4, 5, 1, 2, 3], preds)
