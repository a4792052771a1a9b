"""Sparse-matrix algorithms on dense NumPy arrays: CSR built by hand with argsort, cumsum and searchsorted, a
mat-vec by add.reduceat and by maximum.reduceat (row maxima), CSR x CSR products through the dense form, a CSC
view by lexsort, diagonal extraction by searchsorted in each row, a Jacobi solve of a sparse diagonally dominant
system, PageRank by power iteration on a CSR graph, and row slicing / column selection with intersect1d and
isin (tests/porting)."""

import numpy as np
from harness import check


def _csr(np, A):
    rows, cols = np.nonzero(A)
    data = A[rows, cols]
    indptr = np.zeros(A.shape[0] + 1, dtype=np.int64)
    indptr[1:] = np.cumsum(np.bincount(rows, minlength=A.shape[0]))
    return data, cols, indptr


def csr_reduceat(np, A_host):
    A = np.asarray(A_host)
    data, indices, indptr = _csr(np, A)
    x = np.arange(A.shape[1], dtype=A.dtype) - 2
    starts = indptr[:-1]
    nonempty = np.diff(indptr) > 0
    y = np.add.reduceat(data * x[indices], starts[nonempty])
    full = np.zeros(A.shape[0])
    full[nonempty] = y
    rmax = np.full(A.shape[0], -np.inf)
    rmax[nonempty] = np.maximum.reduceat(data, starts[nonempty])
    row_ids = np.searchsorted(indptr, np.arange(data.size), side="right") - 1
    return {"indptr": indptr, "y": full, "dense": A @ x, "rmax": rmax, "row_ids": row_ids,
            "nnz_per_row": np.diff(indptr), "avg_nnz": data.size / A.shape[0]}


def csr_diagonal_and_get(np, A_host):
    A = np.asarray(A_host)
    data, indices, indptr = _csr(np, A)
    n = A.shape[0]
    diag = np.zeros(n)
    for i in range(n):
        lo, hi = indptr[i], indptr[i + 1]
        k = lo + np.searchsorted(indices[lo:hi], i)
        if k < hi and indices[k] == i:
            diag[i] = data[k]
    get = lambda i, j: data[indptr[i] + np.searchsorted(indices[indptr[i]:indptr[i + 1]], j)]  # noqa: E731
    return {"diag": diag, "same": bool(np.array_equal(diag, np.diag(A))), "a03": get(0, int(indices[0]))}


def csc_by_lexsort(np, A_host):
    A = np.asarray(A_host)
    rows, cols = np.nonzero(A)
    order = np.lexsort((rows, cols))
    c_rows, c_cols = rows[order], cols[order]
    c_data = A[c_rows, c_cols]
    colptr = np.searchsorted(c_cols, np.arange(A.shape[1] + 1))
    col_sums = np.add.reduceat(c_data, colptr[:-1]) if np.all(np.diff(colptr) > 0) else None
    xt = np.linspace(1, 2, A.shape[0])
    yt = np.zeros(A.shape[1])
    np.add.at(yt, c_cols, c_data * xt[c_rows])
    return {"colptr": colptr, "c_rows": c_rows, "c_data": c_data, "yt": yt, "exact": A.T @ xt,
            "col_sums": col_sums if col_sums is not None else "empty column"}


def jacobi_sparse(np, A_host, b_host, iters=60):
    A, b = np.asarray(A_host), np.asarray(b_host)
    data, indices, indptr = _csr(np, A)
    rows = np.repeat(np.arange(A.shape[0]), np.diff(indptr))
    off = rows != indices
    D = np.zeros(A.shape[0])
    np.add.at(D, rows[~off], data[~off])
    x = np.zeros_like(b)
    for _ in range(iters):
        Rx = np.bincount(rows[off], weights=data[off] * x[indices[off]], minlength=A.shape[0])
        x = (b - Rx) / D
    return {"x": x, "resid": np.linalg.norm(A @ x - b), "exact": np.linalg.solve(A, b)}


def pagerank_csr(np, src_host, dst_host, n, d=0.85, iters=50):
    src, dst = np.asarray(src_host), np.asarray(dst_host)
    edges = np.unique(np.stack([src, dst], axis=1), axis=0)
    edges = edges[edges[:, 0] != edges[:, 1]]
    out_deg = np.bincount(edges[:, 0], minlength=n)
    r = np.full(n, 1.0 / n)
    dangling = out_deg == 0
    for _ in range(iters):
        contrib = r[edges[:, 0]] / out_deg[edges[:, 0]]
        new = np.zeros(n)
        np.add.at(new, edges[:, 1], contrib)
        r = (1 - d) / n + d * (new + r[dangling].sum() / n)
    order = np.argsort(r)[::-1]
    return {"r": r, "sum": r.sum(), "top3": order[:3], "edges": edges.shape[0], "dangling": np.flatnonzero(dangling)}


def select_columns(np, A_host, keep_host):
    A = np.asarray(A_host)
    rows, cols = np.nonzero(A)
    keep = np.asarray(keep_host)
    mask = np.isin(cols, keep)
    sub_rows, sub_cols = rows[mask], cols[mask]
    newcol = np.searchsorted(np.sort(keep), sub_cols)
    B = np.zeros((A.shape[0], keep.size))
    B[sub_rows, newcol] = A[sub_rows, sub_cols]
    common, ia, ib = np.intersect1d(cols, keep, return_indices=True)
    missing = np.setdiff1d(keep, cols)
    return {"B": B, "same": bool(np.array_equal(B, A[:, np.sort(keep)])), "common": common, "ia": ia, "ib": ib,
            "missing": missing, "union": np.union1d(cols, keep)}


def sparse_matmul_coo(np, A_host, B_host):
    A, B = np.asarray(A_host), np.asarray(B_host)
    ar, ac = np.nonzero(A)
    br, bc = np.nonzero(B)
    order = np.argsort(br, kind="stable")
    br, bc = br[order], bc[order]
    lo = np.searchsorted(br, ac, side="left")
    hi = np.searchsorted(br, ac, side="right")
    cnt = hi - lo
    a_rep = np.repeat(np.arange(ar.size), cnt)
    b_idx = np.concatenate([np.arange(l, h) for l, h in zip(lo.tolist(), hi.tolist(), strict=True)]).astype(int)
    vals = A[ar[a_rep], ac[a_rep]] * B[br[b_idx], bc[b_idx]]
    keys = ar[a_rep] * B.shape[1] + bc[b_idx]
    ukeys, inv = np.unique(keys, return_inverse=True)
    summed = np.bincount(inv, weights=vals)
    C = np.zeros((A.shape[0], B.shape[1]))
    C.flat[ukeys] = summed
    return {"C": C, "dense": A @ B, "nnz": ukeys.size, "flops": int(cnt.sum())}


def _sparse(seed, shape, p=0.3, diag=0.0):
    rng = np.random.default_rng(seed)
    A = np.where(rng.random(shape) < p, rng.integers(1, 9, shape).astype(float), 0.0)
    if diag:
        A[np.arange(shape[0]), np.arange(shape[0])] = diag
    return A


def test_csr_matvec_add_and_maximum_reduceat():
    A = _sparse(761, (8, 6))
    A[2] = 0
    A[7] = 0
    check(csr_reduceat, A)


def test_csr_diagonal_by_searchsorted():
    check(csr_diagonal_and_get, _sparse(762, (7, 7), diag=5.0))


def test_csc_by_lexsort():
    check(csc_by_lexsort, _sparse(763, (9, 5), p=0.5))
    A = _sparse(764, (6, 5))
    A[:, 3] = 0
    check(csc_by_lexsort, A)


def test_jacobi_on_csr():
    A = _sparse(765, (10, 10), p=0.25)
    np.fill_diagonal(A, A.sum(axis=1) + 3)
    check(jacobi_sparse, A, np.arange(10.0), rtol=1e-3, atol=1e-4)


def test_pagerank_power_iteration():
    rng = np.random.default_rng(766)
    check(pagerank_csr, rng.integers(0, 12, 40), rng.integers(0, 12, 40), 12, rtol=1e-3, atol=1e-5)


def test_select_columns_isin_intersect():
    check(select_columns, _sparse(767, (6, 10)), np.array([7, 1, 4, 9]))


def test_sparse_matmul_via_coo():
    check(sparse_matmul_coo, _sparse(768, (6, 7)), _sparse(769, (7, 5)))
