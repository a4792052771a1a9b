"""Graph programs on adjacency matrices and edge lists: degrees, BFS, shortest paths, PageRank, components."""

import numpy as np
from harness import check


def random_graph(n=12, p=0.25, seed=4, directed=False):
    rng = np.random.default_rng(seed)
    A = (rng.random((n, n)) < p).astype(np.int64)
    np.fill_diagonal(A, 0)
    if not directed:
        A = np.triu(A, 1)
        A = A + A.T
    return A


def degrees_and_triangles(np, A_host):
    A = np.array(A_host)
    deg = A.sum(axis=1)
    n_edges = int(A.sum()) // 2
    A3 = A @ A @ A
    triangles = int(np.trace(A3)) // 6
    per_node = np.diag(A3) // 2
    possible = deg * (deg - 1) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        clustering = np.where(possible > 0, per_node / possible, 0.0)
    isolated = np.flatnonzero(deg == 0)
    hubs = np.argsort(-deg, kind="stable")[:3]
    hist = np.bincount(deg, minlength=int(deg.max()) + 1)
    L = np.diag(deg) - A
    eig = np.linalg.eigvalsh(L.astype(float))
    density = 2 * n_edges / (len(A) * (len(A) - 1))
    return {"deg": deg, "edges": n_edges, "tri": triangles, "clust": clustering, "isolated": isolated,
            "hubs": hubs, "hist": hist, "lap_eig": eig, "zero_eigs": int(np.sum(np.abs(eig) < 1e-4)),
            "density": density, "symmetric": bool((A == A.T).all())}


def bfs_levels(np, A_host, source=0):
    A = np.asarray(A_host).astype(bool)
    n = A.shape[0]
    dist = np.full(n, -1)
    dist[source] = 0
    frontier = np.zeros(n, dtype=bool)
    frontier[source] = True
    visited = frontier.copy()
    level = 0
    while frontier.any():
        level += 1
        nxt = (A[frontier].any(axis=0)) & ~visited
        dist[nxt] = level
        visited |= nxt
        frontier = nxt
    reach = A.astype(int)
    walk = np.eye(n, dtype=int)
    paths3 = np.linalg.matrix_power(reach, 3)
    for _ in range(n):
        walk = np.minimum(walk + walk @ reach, 1)
    return {"dist": dist, "levels": level, "reachable": walk, "paths3": paths3,
            "unreached": int((dist < 0).sum())}


def floyd_warshall_min_plus(np, W_host):
    W = np.asarray(W_host, dtype=np.float64)
    n = len(W)
    D = np.where(W > 0, W, np.inf)
    np.fill_diagonal(D, 0)
    nxt = np.tile(np.arange(n), (n, 1))
    for k in range(n):
        via = D[:, k:k + 1] + D[k:k + 1, :]
        better = via < D
        D = np.where(better, via, D)
        nxt[better] = np.broadcast_to(nxt[:, k:k + 1], (n, n))[better]
    # repeated min-plus squaring gives the same distances
    M = np.where(W > 0, W, np.inf)
    np.fill_diagonal(M, 0)
    steps = 0
    while (1 << steps) < n:
        M = np.min(M[:, :, None] + M[None, :, :], axis=1)
        steps += 1
    finite = np.isfinite(D)
    ecc = np.where(finite, D, -np.inf).max(axis=1)
    return {"D": np.where(finite, D, -1.0), "same": bool(np.array_equal(D, M)), "next": nxt,
            "diameter": float(ecc.max()), "center": int(np.argmin(ecc)), "steps": steps}


def pagerank(np, A_host, d=0.85, tol=1e-10):
    A = np.asarray(A_host, dtype=np.float64)
    n = A.shape[0]
    out = A.sum(axis=1, keepdims=True)
    dangling = (out == 0).ravel()
    P = np.divide(A, out, out=np.zeros_like(A), where=out != 0)
    P[dangling] = 1.0 / n
    r = np.ones(n) / n
    history = []
    for it in range(100):
        r_new = (1 - d) / n + d * (r @ P)
        delta = np.abs(r_new - r).sum()
        r = r_new
        if it < 5:
            history.append(float(delta))
        if delta < tol:
            break
    G = d * P + (1 - d) / n
    w, V = np.linalg.eig(G.T)
    v = np.real(V[:, np.argmax(np.real(w))])
    v = v / v.sum()
    ranking = np.argsort(r)[::-1]
    return {"r": r, "sum": float(r.sum()), "eig": v, "top": ranking[:3], "history": history,
            "agree": bool(np.allclose(r, v, atol=1e-6))}


def connected_components(np, A_host):
    A = np.asarray(A_host)
    n = A.shape[0]
    labels = np.arange(n)
    for _ in range(n):
        neigh = np.where(A > 0, labels[None, :], n)
        new = np.minimum(labels, neigh.min(axis=1))
        if np.array_equal(new, labels):
            break
        labels = new
    roots, comp, sizes = np.unique(labels, return_inverse=True, return_counts=True)
    largest = int(np.argmax(sizes))
    members = np.flatnonzero(comp == largest)
    sub = A[np.ix_(members, members)]
    edges_per = np.zeros(len(roots), dtype=int)
    i, j = np.nonzero(np.triu(A))
    np.add.at(edges_per, comp[i], 1)
    return {"labels": comp, "count": len(roots), "sizes": sizes, "largest": members,
            "sub_edges": int(sub.sum()) // 2, "edges_per": edges_per, "trees": int(np.sum(edges_per == sizes - 1))}


def edge_list_ops(np, edges_host, n=10):
    E = np.asarray(edges_host)
    src, dst = E[:, 0], E[:, 1]
    A = np.zeros((n, n), dtype=np.int32)
    np.add.at(A, (src, dst), 1)
    multi = np.argwhere(A > 1)
    A[A > 1] = 1
    out_deg = np.bincount(src, minlength=n)
    in_deg = np.bincount(dst, minlength=n)
    key = src * n + dst
    uniq, first = np.unique(key, return_index=True)
    dedup = E[np.sort(first)]
    order = np.lexsort((dst, src))
    csr_ptr = np.concatenate([[0], np.cumsum(out_deg)])
    csr_idx = dst[order]
    sources = np.setdiff1d(np.arange(n), dst)
    sinks = np.setdiff1d(np.arange(n), src)
    recip = A & A.T
    return {"A": A, "multi": multi, "out": out_deg, "in": in_deg, "dedup": dedup, "ptr": csr_ptr,
            "idx": csr_idx, "sources": sources, "sinks": sinks, "recip": int(recip.sum()) // 2,
            "uniq": len(uniq)}


def test_degrees_triangles_laplacian():
    check(degrees_and_triangles, random_graph(), rtol=1e-3, atol=1e-4)


def test_bfs_frontier_and_reachability():
    check(bfs_levels, random_graph(n=14, p=0.15, seed=7))


def test_floyd_warshall_and_min_plus_squaring():
    rng = np.random.default_rng(5)
    A = random_graph(n=10, p=0.3, seed=5, directed=True)
    W = A * rng.integers(1, 9, size=A.shape)
    check(floyd_warshall_min_plus, W)


def test_pagerank_power_iteration_vs_eig():
    A = random_graph(n=9, p=0.3, seed=8, directed=True)
    A[3] = 0  # a dangling node
    check(pagerank, A, rtol=1e-3, atol=1e-5)


def test_connected_components_label_propagation():
    A = random_graph(n=16, p=0.12, seed=11)
    check(connected_components, A)


def test_edge_list_add_at_csr():
    rng = np.random.default_rng(12)
    E = rng.integers(0, 10, size=(30, 2))
    E = E[E[:, 0] != E[:, 1]]
    check(edge_list_ops, E)
