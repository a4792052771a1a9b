"""Sparse matrices and graphs by hand, as NumPy code without SciPy writes them: COO to CSR with argsort, bincount
and cumsum, CSR mat-vec by np.add.reduceat and by repeat, a CSR transpose, duplicates summed by np.unique on
linear keys, BFS shortest paths on a CSR graph, Dijkstra on a dense weight matrix, Kahn's topological sort, a
bipartite two-colouring, Prim's minimum spanning tree and a Laplacian's Fiedler vector (tests/porting)."""

import numpy as np
from harness import check


def coo_to_csr(np, rows_host, cols_host, vals_host, n=8):
    rows, cols, vals = np.asarray(rows_host), np.asarray(cols_host), np.asarray(vals_host)
    key = rows * n + cols
    uniq, inv = np.unique(key, return_inverse=True)
    summed = np.zeros(len(uniq))
    np.add.at(summed, inv, vals)
    r, c = np.divmod(uniq, n)
    counts = np.bincount(r, minlength=n)
    indptr = np.concatenate([[0], np.cumsum(counts)])
    dense = np.zeros((n, n))
    dense[r, c] = summed
    x = np.arange(1.0, n + 1)
    y = np.zeros(n)
    for i in range(n):
        lo, hi = indptr[i], indptr[i + 1]
        y[i] = summed[lo:hi] @ x[c[lo:hi]]
    return {"indptr": indptr, "indices": c, "data": summed, "dense": dense, "y": y, "y_dense": dense @ x,
            "nnz": len(summed), "density": len(summed) / n**2}


def csr_matvec_reduceat(np, dense_host):
    A = np.asarray(dense_host)
    rows, cols = np.nonzero(A)
    data = A[rows, cols]
    indptr = np.searchsorted(rows, np.arange(A.shape[0] + 1))
    x = np.linspace(-1, 1, A.shape[1])
    prod = data * x[cols]
    nonempty = indptr[:-1] < indptr[1:]
    y = np.zeros(A.shape[0])
    y[nonempty] = np.add.reduceat(prod, indptr[:-1][nonempty])
    row_of = np.repeat(np.arange(A.shape[0]), np.diff(indptr))
    y2 = np.bincount(row_of, weights=prod, minlength=A.shape[0])
    order = np.argsort(cols, kind="stable")
    t_indptr = np.concatenate([[0], np.cumsum(np.bincount(cols, minlength=A.shape[1]))])
    t_indices = rows[order]
    t_data = data[order]
    AT = np.zeros_like(A.T)
    AT[np.repeat(np.arange(A.shape[1]), np.diff(t_indptr)), t_indices] = t_data
    return {"indptr": indptr, "y": y, "y2": y2, "exact": A @ x, "t_indptr": t_indptr, "AT": AT,
            "same": bool(np.array_equal(AT, A.T)), "row_nnz": np.diff(indptr)}


def bfs_csr(np, edges_host, n, source=0):
    edges = np.asarray(edges_host)
    both = np.concatenate([edges, edges[:, ::-1]])
    order = np.lexsort((both[:, 1], both[:, 0]))
    both = both[order]
    indptr = np.concatenate([[0], np.cumsum(np.bincount(both[:, 0], minlength=n))])
    nbrs = both[:, 1]
    dist = np.full(n, -1)
    dist[source] = 0
    frontier = np.array([source])
    level = 0
    while frontier.size:
        level += 1
        starts, stops = indptr[frontier], indptr[frontier + 1]
        cand = np.concatenate([nbrs[a:b] for a, b in zip(starts, stops, strict=True)])
        cand = np.unique(cand)
        cand = cand[dist[cand] < 0]
        dist[cand] = level
        frontier = cand
    return {"dist": dist, "levels": int(dist.max()), "unreached": int((dist < 0).sum()),
            "per_level": np.bincount(dist[dist >= 0]), "degree": np.diff(indptr)}


def dijkstra_dense(np, W_host, source=0):
    W = np.asarray(W_host)
    n = len(W)
    dist = np.full(n, np.inf)
    dist[source] = 0.0
    prev = np.full(n, -1)
    done = np.zeros(n, dtype=bool)
    for _ in range(n):
        u = int(np.argmin(np.where(done, np.inf, dist)))
        if not np.isfinite(dist[u]):
            break
        done[u] = True
        alt = dist[u] + W[u]
        better = (alt < dist) & ~done
        dist = np.where(better, alt, dist)
        prev[better] = u
    path = [n - 1]
    while prev[path[-1]] >= 0:
        path.append(int(prev[path[-1]]))
    return {"dist": dist, "prev": prev, "path": path[::-1]}


def topological_sort(np, adj_host):
    A = np.asarray(adj_host)
    indeg = A.sum(axis=0)
    order = []
    ready = list(np.flatnonzero(indeg == 0))
    removed = np.zeros(len(A), dtype=bool)
    while ready:
        u = int(min(ready))
        ready.remove(u)
        order.append(u)
        removed[u] = True
        indeg = indeg - A[u]
        new = np.flatnonzero((indeg == 0) & ~removed)
        ready = sorted(set(ready) | {int(v) for v in new})
    pos = np.empty(len(A), dtype=int)
    pos[np.array(order)] = np.arange(len(order))
    src, dst = np.nonzero(A)
    return {"order": order, "valid": bool(np.all(pos[src] < pos[dst])), "sources": np.flatnonzero(A.sum(0) == 0),
            "sinks": np.flatnonzero(A.sum(1) == 0)}


def bipartite_colouring(np, adj_host):
    A = np.asarray(adj_host).astype(bool)
    A = A | A.T
    colour = np.full(len(A), -1)
    for start in range(len(A)):
        if colour[start] >= 0:
            continue
        colour[start] = 0
        frontier = np.zeros(len(A), dtype=bool)
        frontier[start] = True
        while frontier.any():
            reach = A[frontier].any(axis=0)
            new = reach & (colour < 0)
            parent_colour = colour[frontier][0]
            colour[new] = 1 - parent_colour
            frontier = new
    conflict = A & (colour[:, None] == colour[None, :])
    return {"colour": colour, "bipartite": not bool(conflict.any()), "conflicts": int(np.triu(conflict).sum()),
            "sizes": np.bincount(colour, minlength=2)}


def prim_mst(np, pts_host):
    pts = np.asarray(pts_host)
    D = np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(axis=-1))
    n = len(pts)
    in_tree = np.zeros(n, dtype=bool)
    in_tree[0] = True
    best = D[0].copy()
    parent = np.zeros(n, dtype=int)
    edges = []
    for _ in range(n - 1):
        cand = np.where(in_tree, np.inf, best)
        v = int(np.argmin(cand))
        edges.append((int(parent[v]), v))
        in_tree[v] = True
        closer = D[v] < best
        parent[closer] = v
        best = np.minimum(best, D[v])
    e = np.array(edges)
    weight = D[e[:, 0], e[:, 1]].sum()
    degree = np.bincount(e.ravel(), minlength=n)
    return {"edges": edges, "weight": float(weight), "degree": degree, "leaves": int((degree == 1).sum())}


def fiedler_partition(np, adj_host):
    A = np.asarray(adj_host).astype(float)
    A = np.maximum(A, A.T)
    np.fill_diagonal(A, 0)
    deg = A.sum(axis=1)
    L = np.diag(deg) - A
    w, V = np.linalg.eigh(L)
    fiedler = V[:, 1] * np.sign(V[0, 1])
    part = fiedler > 0
    cut = A[part][:, ~part].sum()
    n_components = int(np.sum(w < 1e-4))
    return {"w": w, "part": part, "cut": float(cut), "components": n_components,
            "algebraic_connectivity": float(w[1])}


def _edges(seed, n, m):
    rng = np.random.default_rng(seed)
    e = rng.integers(0, n, (m, 2))
    return e[e[:, 0] != e[:, 1]]


def test_coo_to_csr_duplicates_summed():
    rng = np.random.default_rng(621)
    check(coo_to_csr, rng.integers(0, 8, 30), rng.integers(0, 8, 30), rng.normal(size=30).round(3))


def test_csr_matvec_reduceat_bincount_transpose():
    rng = np.random.default_rng(622)
    A = np.where(rng.random((7, 9)) < 0.3, rng.normal(size=(7, 9)), 0.0)
    A[3] = 0.0
    check(csr_matvec_reduceat, A)


def test_bfs_on_csr_adjacency():
    check(bfs_csr, _edges(623, 20, 24), 20)


def test_dijkstra_dense_weights():
    rng = np.random.default_rng(624)
    W = np.where(rng.random((12, 12)) < 0.35, rng.integers(1, 10, (12, 12)).astype(float), np.inf)
    np.fill_diagonal(W, 0)
    check(dijkstra_dense, W)


def test_kahn_topological_sort():
    rng = np.random.default_rng(625)
    p = rng.permutation(10)
    check(topological_sort, np.triu((rng.random((10, 10)) < 0.3).astype(int), 1)[p][:, p])


def test_bipartite_two_colouring():
    rng = np.random.default_rng(626)
    grid = np.zeros((12, 12), dtype=int)
    for i in range(12):
        for j in range(12):
            if (i + j) % 2 and rng.random() < 0.3:
                grid[i, j] = 1
    check(bipartite_colouring, grid)
    odd = grid.copy()
    odd[0, 2] = odd[2, 4] = odd[4, 0] = 1
    check(bipartite_colouring, odd)


def test_prim_minimum_spanning_tree():
    check(prim_mst, np.random.default_rng(627).random((15, 2)))


def test_laplacian_fiedler_partition():
    rng = np.random.default_rng(628)
    A = np.zeros((10, 10), dtype=int)
    A[:5, :5] = rng.random((5, 5)) < 0.7
    A[5:, 5:] = rng.random((5, 5)) < 0.7
    A[2, 7] = 1
    check(fiedler_partition, A, rtol=1e-3, atol=1e-4)
