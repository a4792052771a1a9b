"""Game theory in plain NumPy: pure Nash equilibria of bimatrix games by best-response masks (`max(axis=,
keepdims=)`, `argwhere`), mixed equilibria of 2x2 games by `solve`, support enumeration with `itertools`
subsets and `lstsq`, replicator dynamics with `einsum`, fictitious play with `bincount` beliefs, iterated
elimination of strictly dominated strategies with `delete`, a zero-sum game by the minimax of `min(axis=)`/
`max(axis=)`, and Shapley values of a small cooperative game over `unpackbits`-coded coalitions (tests/porting)."""

import itertools
import math

import numpy as np
from harness import check


def pure_nash(np, A, B):
    A, B = np.asarray(A), np.asarray(B)
    br_row = A == A.max(axis=0, keepdims=True)
    br_col = B == B.max(axis=1, keepdims=True)
    eq = br_row & br_col
    cells = np.argwhere(eq)
    welfare = (A + B)[eq]
    return {"eq": eq, "cells": cells, "welfare": welfare,
            "best": cells[np.argmax(welfare)] if len(cells) else np.array([-1, -1])}


def mixed_2x2(np, A, B):
    A, B = np.asarray(A, dtype=float), np.asarray(B, dtype=float)
    # column player mixes q so the row player is indifferent; row player mixes p likewise
    M = np.array([[A[0, 0] - A[1, 0], A[0, 1] - A[1, 1]], [1.0, 1.0]])
    q = np.linalg.solve(M, np.array([0.0, 1.0]))
    N = np.array([[B[0, 0] - B[0, 1], B[1, 0] - B[1, 1]], [1.0, 1.0]])
    p = np.linalg.solve(N, np.array([0.0, 1.0]))
    return {"p": p, "q": q, "vA": p @ A @ q, "vB": p @ B @ q, "valid": bool(np.all((p >= 0) & (q >= 0)))}


def support_enumeration(np, A, B):
    A, B = np.asarray(A, dtype=float), np.asarray(B, dtype=float)
    m, n = A.shape
    found = []
    for k in range(1, min(m, n) + 1):
        for I in itertools.combinations(range(m), k):
            for J in itertools.combinations(range(n), k):
                I_, J_ = np.array(I), np.array(J)
                Mq = np.vstack([A[np.ix_(I_, J_)] - A[I_[0], J_][None, :], np.ones((1, k))])
                q = np.linalg.lstsq(Mq, np.r_[np.zeros(k), 1.0], rcond=None)[0]
                Mp = np.vstack([(B[np.ix_(I_, J_)] - B[I_, J_[0]][:, None]).T, np.ones((1, k))])
                p = np.linalg.lstsq(Mp, np.r_[np.zeros(k), 1.0], rcond=None)[0]
                if np.any(p < -1e-9) or np.any(q < -1e-9):
                    continue
                x, y = np.zeros(m), np.zeros(n)
                x[I_], y[J_] = p, q
                ua, ub = A @ y, x @ B
                if np.all(ua <= ua[I_].max() + 1e-7) and np.all(ub <= ub[J_].max() + 1e-7):
                    found.append(np.concatenate([x, y]))
    eqs = np.round(np.array(found), 6)
    return {"eqs": np.unique(eqs, axis=0), "n": len(found)}


def replicator(np, A, x0, dt, steps):
    A = np.asarray(A)
    x = np.asarray(x0, dtype=float)
    traj = np.empty((steps + 1, x.size))
    traj[0] = x
    for t in range(steps):
        f = A @ x
        phi = np.einsum("i,i->", x, f)
        x = x + dt * x * (f - phi)
        x = np.clip(x, 0, None)
        x /= x.sum()
        traj[t + 1] = x
    return {"x": x, "traj": traj[::25], "dominant": int(np.argmax(x)), "entropy": -np.sum(x * np.log(x + 1e-300))}


def fictitious_play(np, A, rounds):
    A = np.asarray(A)
    m, n = A.shape
    row_hist, col_hist = [0], [0]
    for _ in range(rounds):
        # beliefs as counts: integer payoffs stay exact, so ties break the same way (as frequencies, a tie
        # decided by the last bit of a float sum would be a knife edge: BLAS may fuse multiply-adds)
        col_belief = np.bincount(np.array(col_hist), minlength=n)
        row_belief = np.bincount(np.array(row_hist), minlength=m)
        row_hist.append(int(np.argmax(A @ col_belief)))
        col_hist.append(int(np.argmin(row_belief @ A)))
    p = np.bincount(row_hist, minlength=m) / len(row_hist)
    q = np.bincount(col_hist, minlength=n) / len(col_hist)
    return {"p": p, "q": q, "value": p @ A @ q, "lower": np.max(np.min(A, axis=1)), "upper": np.min(np.max(A, axis=0))}


def eliminate_dominated(np, A, B):
    A, B = np.asarray(A), np.asarray(B)
    rows, cols = np.arange(A.shape[0]), np.arange(A.shape[1])
    changed = True
    while changed:
        changed = False
        for i in range(A.shape[0]):
            others = np.delete(A, i, axis=0)
            if np.any(np.all(others > A[i], axis=1)):
                A, B, rows = np.delete(A, i, axis=0), np.delete(B, i, axis=0), np.delete(rows, i)
                changed = True
                break
        for j in range(B.shape[1]):
            others = np.delete(B, j, axis=1)
            if np.any(np.all(others > B[:, [j]], axis=0)):
                A, B, cols = np.delete(A, j, axis=1), np.delete(B, j, axis=1), np.delete(cols, j)
                changed = True
                break
    return {"rows": rows, "cols": cols, "A": A, "B": B}


def shapley(np, worth):
    v = np.asarray(worth, dtype=float)  # v[mask] for coalition bit masks of n players
    n = int(np.log2(v.size))
    masks = np.arange(v.size, dtype=np.uint8)
    members = np.unpackbits(masks[:, None], axis=1, bitorder="little")[:, :n].astype(bool)
    size = members.sum(axis=1)
    phi = np.zeros(n)
    for i in range(n):
        without = ~members[:, i]
        S = masks[without]
        s = size[without]
        w = np.array([math.factorial(int(k)) * math.factorial(n - int(k) - 1) for k in s]) / math.factorial(n)
        phi[i] = np.sum(w * (v[S | (1 << i)] - v[S]))
    core = np.all([phi[members[c]].sum() >= v[c] - 1e-9 for c in range(v.size)])
    return {"phi": phi, "efficient": bool(np.isclose(phi.sum(), v[-1])), "core": bool(core), "size": size}


def test_pure_nash():
    A = np.array([[3, 0, 5], [5, 1, 4], [2, 2, 2]])
    B = np.array([[3, 5, 1], [0, 1, 2], [4, 2, 4]])
    check(pure_nash, A, B)


def test_mixed_2x2():
    check(mixed_2x2, np.array([[2, -1], [-1, 1]]), np.array([[1, -1], [-1, 2]]), rtol=1e-5, atol=1e-6)


def test_support_enumeration():
    A = np.array([[3, 3], [2, 5], [0, 6]])
    B = np.array([[3, 2], [2, 6], [3, 1]])
    check(support_enumeration, A, B, rtol=1e-4, atol=1e-5)


def test_replicator():
    A = np.array([[0.0, -1, 1], [1, 0, -1], [-1, 1, 0]]) + np.array([[0.1, 0, 0], [0, 0, 0], [0, 0, 0]])
    check(replicator, A, np.array([0.5, 0.3, 0.2]), 0.05, 200, rtol=1e-3, atol=1e-5)


def test_fictitious_play():
    check(fictitious_play, np.array([[0, 2, -1], [-1, 0, 3], [2, -2, 0]]), 200)


def test_eliminate_dominated():
    A = np.array([[4, 5, 6], [2, 8, 3], [3, 9, 2]])
    B = np.array([[3, 1, 2], [1, 4, 6], [0, 6, 8]])
    check(eliminate_dominated, A, B)


def test_shapley():
    v = np.array([0, 10, 20, 40, 30, 50, 60, 90])
    check(shapley, v, rtol=1e-6, atol=1e-6)
