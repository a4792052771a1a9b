"""Sparse matrices by hand in plain NumPy (CSR as `indptr`/`indices`/`data`): row normalisation by
`np.repeat(np.diff(indptr))`, PageRank by power iteration on a CSR mat-vec with `np.add.reduceat` and dangling
nodes, Jacobi iterations with the diagonal found by `np.flatnonzero(indices == row)`, CSR times CSR (row by row
with `np.unique(return_inverse=True)` and `np.bincount` sums), column statistics through a CSC copy made by a
stable `argsort`, and a graph Laplacian's degree and connected components by label propagation with
`np.minimum.at` (tests/porting)."""

import numpy as np
from harness import check


def _row_ids(np, indptr):
    return np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))


def row_normalise(np, indptr, indices, data):
    indptr, indices, data = np.asarray(indptr), np.asarray(indices), np.asarray(data, dtype=np.float64)
    rows = _row_ids(np, indptr)
    sums = np.bincount(rows, weights=np.abs(data), minlength=len(indptr) - 1)
    scale = np.divide(1.0, sums, out=np.zeros_like(sums), where=sums > 0)
    normed = data * scale[rows]
    l2 = np.sqrt(np.bincount(rows, weights=data**2, minlength=len(indptr) - 1))
    return {"normed": normed, "sums": sums, "l2": l2, "empty": np.flatnonzero(np.diff(indptr) == 0),
            "check": np.bincount(rows, weights=np.abs(normed), minlength=len(indptr) - 1)}


def pagerank(np, indptr, indices, damping, iters):
    indptr, indices = np.asarray(indptr), np.asarray(indices)
    n = len(indptr) - 1
    out_deg = np.diff(indptr)
    src = _row_ids(np, indptr)
    r = np.full(n, 1.0 / n)
    deltas = []
    for _ in range(iters):
        contrib = np.where(out_deg > 0, r / np.maximum(out_deg, 1), 0.0)
        new = np.zeros(n)
        np.add.at(new, indices, contrib[src])
        dangling = r[out_deg == 0].sum()
        new = (1 - damping) / n + damping * (new + dangling / n)
        deltas.append(np.abs(new - r).sum())
        r = new
    order = np.argsort(-r, kind="stable")
    return {"rank": r, "order": order, "deltas": np.array(deltas), "total": r.sum(),
            "top3": order[:3], "in_deg": np.bincount(indices, minlength=n)}


def jacobi_csr(np, indptr, indices, data, b, iters):
    indptr, indices, data, b = (np.asarray(a) for a in (indptr, indices, data, b))
    n = len(b)
    rows = _row_ids(np, indptr)
    on_diag = indices == rows
    diag = np.zeros(n)
    diag[rows[on_diag]] = data[on_diag]
    off = np.where(on_diag, 0.0, data)
    x = np.zeros(n)
    res = []
    for _ in range(iters):
        prod = off * x[indices]
        Rx = np.add.reduceat(prod, indptr[:-1])
        x = (b - Rx) / diag
        Ax = np.add.reduceat(data * x[indices], indptr[:-1])
        res.append(np.linalg.norm(Ax - b))
    dominant = np.abs(diag) > np.bincount(rows, weights=np.abs(off), minlength=n)
    return {"x": x, "res": np.array(res), "diag": diag, "dominant": dominant}


def spgemm(np, A, B, n_cols):
    (ap, ai, ad), (bp, bi, bd) = ((np.asarray(a) for a in m) for m in (A, B))
    out_ptr = [0]
    out_idx, out_val = [], []
    for r in range(len(ap) - 1):
        ks = ai[ap[r]:ap[r + 1]]
        vs = ad[ap[r]:ap[r + 1]]
        starts, stops = bp[ks], bp[ks + 1]
        lens = stops - starts
        if lens.sum() == 0:
            out_ptr.append(out_ptr[-1])
            continue
        pos = np.concatenate([np.arange(s, e) for s, e in zip(starts, stops, strict=True)])
        cols = bi[pos]
        vals = bd[pos] * np.repeat(vs, lens)
        uc, inv = np.unique(cols, return_inverse=True)
        sums = np.bincount(inv, weights=vals)
        keep = sums != 0
        out_idx.append(uc[keep])
        out_val.append(sums[keep])
        out_ptr.append(out_ptr[-1] + int(keep.sum()))
    indices = np.concatenate(out_idx) if out_idx else np.zeros(0, dtype=int)
    data = np.concatenate(out_val) if out_val else np.zeros(0)
    dense = np.zeros((len(ap) - 1, n_cols))
    dense[_row_ids(np, np.asarray(out_ptr)), indices] = data
    return {"indptr": np.array(out_ptr), "indices": indices, "data": data, "dense": dense}


def column_stats(np, indptr, indices, data, n_cols):
    indptr, indices, data = np.asarray(indptr), np.asarray(indices), np.asarray(data)
    order = np.argsort(indices, kind="stable")
    col_ptr = np.concatenate([[0], np.cumsum(np.bincount(indices, minlength=n_cols))])
    csc_rows = _row_ids(np, indptr)[order]
    csc_data = data[order]
    nnz = np.diff(col_ptr)
    sums = np.zeros(n_cols)
    nonempty = nnz > 0
    sums[nonempty] = np.add.reduceat(csc_data, col_ptr[:-1][nonempty])
    means = sums / (len(indptr) - 1)  # zeros count
    sq = np.bincount(indices, weights=data**2, minlength=n_cols)
    var = sq / (len(indptr) - 1) - means**2
    maxes = np.full(n_cols, -np.inf)
    np.maximum.at(maxes, indices, data)
    maxes = np.where(nnz < len(indptr) - 1, np.maximum(maxes, 0), maxes)
    return {"col_ptr": col_ptr, "csc_rows": csc_rows, "csc_data": csc_data, "means": means, "var": var,
            "max": maxes, "density": nnz / (len(indptr) - 1)}


def laplacian_components(np, edges, n):
    edges = np.asarray(edges)
    u = np.concatenate([edges[:, 0], edges[:, 1]])
    v = np.concatenate([edges[:, 1], edges[:, 0]])
    order = np.lexsort((v, u))
    u, v = u[order], v[order]
    indptr = np.searchsorted(u, np.arange(n + 1))
    deg = np.diff(indptr)
    labels = np.arange(n)
    rounds = 0
    while True:
        new = labels.copy()
        np.minimum.at(new, u, labels[v])
        rounds += 1
        if np.array_equal(new, labels):
            break
        labels = new
    comps, sizes = np.unique(labels, return_counts=True)
    L_data = -np.ones(len(u))
    x = np.linspace(-1, 1, n)
    Lx = deg * x + np.bincount(u, weights=L_data * x[v], minlength=n)
    return {"indptr": indptr, "deg": deg, "labels": labels, "n_comp": len(comps), "sizes": sizes,
            "rounds": rounds, "Lx": Lx, "isolated": np.flatnonzero(deg == 0)}


def _random_csr(seed, n_rows, n_cols, density, empty_rows=()):
    rng = np.random.default_rng(seed)
    dense = np.where(rng.uniform(size=(n_rows, n_cols)) < density, rng.normal(size=(n_rows, n_cols)), 0.0)
    dense[list(empty_rows)] = 0
    rows, cols = np.nonzero(dense)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=n_rows))])
    return indptr, cols, dense[rows, cols], dense


def test_row_normalise():
    indptr, indices, data, _ = _random_csr(2890, 9, 7, 0.35, empty_rows=(2, 8))
    check(row_normalise, indptr, indices, data)


def test_pagerank():
    rng = np.random.default_rng(2891)
    adj = rng.uniform(size=(12, 12)) < 0.2
    np.fill_diagonal(adj, False)
    adj[5] = False  # a dangling node
    rows, cols = np.nonzero(adj)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=12))])
    check(pagerank, indptr, cols, 0.85, 30, rtol=1e-4, atol=1e-7)


def test_jacobi_csr():
    indptr, indices, data, dense = _random_csr(2892, 10, 10, 0.3)
    dense += np.diag(np.abs(dense).sum(axis=1) + 1)  # diagonally dominant, every row with its diagonal
    rows, cols = np.nonzero(dense)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=10))])
    check(jacobi_csr, indptr, cols, dense[rows, cols], np.arange(10.0), 25, rtol=1e-4, atol=1e-6)


def test_spgemm():
    A = _random_csr(2893, 6, 5, 0.4, empty_rows=(3,))[:3]
    B = _random_csr(2894, 5, 7, 0.4, empty_rows=(1,))[:3]
    check(spgemm, A, B, 7)


def test_column_stats():
    indptr, indices, data, _ = _random_csr(2895, 12, 8, 0.3)
    check(column_stats, indptr, indices, data, 8)


def test_laplacian_components():
    edges = np.array([[0, 1], [1, 2], [3, 4], [5, 6], [6, 7], [7, 5], [2, 0], [9, 8]])
    check(laplacian_components, edges, 11)
