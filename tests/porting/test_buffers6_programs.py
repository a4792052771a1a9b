"""Copy/view semantics and in-place updates as NumPy programs lean on them: sorting a column view in place,
row swaps by fancy indexing, a ring buffer by modular indices, normalising rows with /= and keepdims,
preallocated outputs filled through out= and where=, double buffering by swapping names, overlapping
shifted assignments (NumPy buffers them), views through reshape/transpose written back, and copies that must
not write back (tests/porting)."""

import numpy as np
from harness import check


def sort_views_in_place(np, table_host):
    t = np.asarray(table_host).copy()
    t[:, 0].sort()
    t[1, ::-1].sort()
    by_col2 = t[t[:, 2].argsort()]
    t.T[3].sort()
    block = t[2:4, 1:4]
    block.sort(axis=0)
    rev = t[::-1]
    rev[0] = -1
    return {"t": t, "by_col2": by_col2, "block": block}


def row_and_column_swaps(np, M_host):
    M = np.asarray(M_host).copy()
    M[[0, 2]] = M[[2, 0]]
    M[:, [1, 3]] = M[:, [3, 1]]
    A = np.asarray(M_host).astype(float)
    n = len(A)
    perm = np.arange(n)
    for k in range(n - 1):
        p = k + int(np.argmax(np.abs(A[k:, k])))
        if p != k:
            A[[k, p]] = A[[p, k]]
            perm[[k, p]] = perm[[p, k]]
        A[k + 1 :, k] /= A[k, k]
        A[k + 1 :, k + 1 :] -= np.outer(A[k + 1 :, k], A[k, k + 1 :])
    L = np.tril(A, -1) + np.eye(n)
    U = np.triu(A)
    return {"M": M, "perm": perm, "L": L, "U": U, "PA": np.asarray(M_host)[perm].astype(float), "LU": L @ U}


def ring_buffer(np, samples_host, size=8):
    buf = np.zeros(size)
    means, head = [], 0
    for i, s in enumerate(np.asarray(samples_host)):
        buf[head] = s
        head = (head + 1) % size
        n = min(i + 1, size)
        means.append(float(buf[:n].mean()) if i < size else float(buf.mean()))
    ordered = np.roll(buf, -head)
    window = np.zeros(size)
    for s in np.asarray(samples_host)[-size:]:
        window[:-1] = window[1:]
        window[-1] = s
    return {"buf": buf, "ordered": ordered, "window": window, "means": means[::3],
            "same": bool(np.array_equal(ordered, window))}


def normalise_in_place(np, X_host):
    X = np.asarray(X_host).copy()
    P = X.copy()
    P -= P.min(axis=1, keepdims=True)
    P /= P.sum(axis=1, keepdims=True)
    Z = X.copy()
    Z -= Z.mean(axis=0)
    Z /= Z.std(axis=0)
    col = X[:, 2]
    col *= 10
    U = X[1:3]
    U += 100
    norms = np.linalg.norm(X, axis=1)
    X /= norms[:, None]
    return {"P": P, "rowsums": P.sum(axis=1), "Z": Z, "X": X, "U": U, "col": col}


def out_and_where(np, a_host, b_host):
    a, b = np.asarray(a_host), np.asarray(b_host)
    ratio = np.zeros_like(a)
    np.divide(a, b, out=ratio, where=b != 0)
    logs = np.full_like(a, -np.inf)
    np.log(a, out=logs, where=a > 0)
    acc = np.zeros(a.shape[1])
    for row in a:
        np.add(acc, row, out=acc)
    res = np.empty((2,) + a.shape)
    np.multiply(a, 2, out=res[0])
    np.subtract(a, b, out=res[1])
    np.sqrt(np.abs(res), out=res)
    m = np.empty(a.shape[0])
    np.max(a, axis=1, out=m)
    return {"ratio": ratio, "logs": logs, "acc": acc, "res": res, "m": m}


def double_buffer(np, grid_host, steps=10):
    cur = np.asarray(grid_host).astype(float)
    nxt = np.empty_like(cur)
    for _ in range(steps):
        nxt[1:-1, 1:-1] = 0.25 * (cur[:-2, 1:-1] + cur[2:, 1:-1] + cur[1:-1, :-2] + cur[1:-1, 2:])
        nxt[0], nxt[-1], nxt[:, 0], nxt[:, -1] = cur[0], cur[-1], cur[:, 0], cur[:, -1]
        cur, nxt = nxt, cur
    return {"cur": cur, "interior_mean": float(cur[1:-1, 1:-1].mean())}


def overlapping_shifts(np, v_host):
    v = np.asarray(v_host).copy()
    a = v.copy()
    a[1:] = a[:-1]
    b = v.copy()
    b[:-1] = b[1:]
    c = v.copy()
    c[2:] += c[:-2]
    d = v.copy()
    d[::-1] = d
    e = v.reshape(2, -1).copy()
    e[:] = e[::-1]
    f = v.copy()
    f[1:] = f[:-1] + f[1:]
    return {"a": a, "b": b, "c": c, "d": d, "e": e, "f": f}


def view_writes(np, base_host):
    base = np.asarray(base_host).copy()
    grid = base.reshape(3, 4)
    grid[:, 0] = 0
    T = grid.T
    T[-1] = -1
    sub = base[2:10:2]
    sub += 100
    copy_ = base[[1, 3, 5]]
    copy_[:] = 999
    masked = base[base > 100]
    masked[:] = 0
    flat = grid.ravel()
    flat[5] = 55
    shared = np.shares_memory(base, grid), np.shares_memory(base, copy_)
    return {"base": base, "grid": grid, "copy_": copy_, "masked": masked, "shared": list(shared)}


def test_sort_column_and_row_views_in_place():
    check(sort_views_in_place, np.random.default_rng(701).integers(0, 50, (6, 5)))


def test_row_swaps_and_lu_with_partial_pivoting():
    check(row_and_column_swaps, np.random.default_rng(702).integers(-9, 10, (5, 5)), rtol=1e-3, atol=1e-4)


def test_ring_buffer_modular_index():
    check(ring_buffer, np.random.default_rng(703).normal(size=20).round(2))


def test_normalise_in_place_keepdims():
    check(normalise_in_place, np.random.default_rng(704).random((5, 4)) + 0.1)


def test_out_and_where_preallocated():
    rng = np.random.default_rng(705)
    a = rng.normal(size=(4, 6))
    b = np.where(rng.random((4, 6)) < 0.3, 0.0, rng.normal(size=(4, 6)))
    check(out_and_where, a, b)


def test_double_buffer_jacobi_swap():
    g = np.zeros((10, 10))
    g[0] = 1.0
    g[:, -1] = 0.5
    check(double_buffer, g)


def test_overlapping_shifted_assignment():
    check(overlapping_shifts, np.arange(10, dtype=np.int64) ** 2)


def test_views_written_back_copies_not():
    check(view_writes, np.arange(12, dtype=np.int64))
