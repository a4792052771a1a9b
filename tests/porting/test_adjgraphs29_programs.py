"""Graph algorithms on dense adjacency matrices in plain NumPy: PageRank by power iteration with dangling nodes
(column sums, `np.divide(..., where=)`), personalised PageRank by `np.linalg.solve`, BFS layers by boolean matrix
products, Floyd-Warshall with `np.minimum.outer`-free broadcasting and with `np.minimum(D, D[:, k, None] + D[k])`,
path reconstruction from a predecessor matrix, connected components by label propagation with `np.minimum.reduce`,
triangle counts by `einsum`/`trace` of `matrix_power`, the graph Laplacian's Fiedler vector by `eigh`, and
degree statistics by `np.unique(return_counts=True)` and `np.bincount` (tests/porting)."""

import numpy as np
from harness import check


def pagerank(np, A, d, tol):
    A = np.asarray(A, dtype=float)
    n = len(A)
    out_deg = A.sum(axis=1)
    P = np.divide(A, out_deg[:, None], out=np.zeros_like(A), where=out_deg[:, None] > 0)
    dangling = out_deg == 0
    r = np.full(n, 1.0 / n)
    for it in range(200):  # noqa: B007 (the count is read after the loop)
        r_new = d * (r @ P + r[dangling].sum() / n) + (1 - d) / n
        delta = np.abs(r_new - r).sum()
        r = r_new
        if delta < tol:
            break
    ranking = np.argsort(-r, kind="stable")
    return {"r": r, "iters": it, "sum": r.sum(), "top": ranking[:3], "n_dangling": int(dangling.sum())}


def personalised_pagerank(np, A, d, seeds):
    A = np.asarray(A, dtype=float)
    n = len(A)
    deg = A.sum(axis=0, keepdims=True)
    M = A / np.where(deg == 0, 1, deg)
    v = np.zeros(n)
    v[seeds] = 1.0 / len(seeds)
    r = np.linalg.solve(np.eye(n) - d * M, (1 - d) * v)
    r_iter = v.copy()
    for _ in range(100):
        r_iter = d * M @ r_iter + (1 - d) * v
    return {"r": r, "r_iter": r_iter, "close": np.allclose(r, r_iter, atol=1e-5),
            "near": np.argsort(r)[::-1][:4]}


def bfs_layers(np, A, source):
    A = np.asarray(A).astype(bool)
    n = len(A)
    dist = np.full(n, -1)
    frontier = np.zeros(n, dtype=bool)
    frontier[source] = True
    visited = frontier.copy()
    dist[source] = 0
    level = 0
    sizes = [1]
    while frontier.any():
        level += 1
        nxt = (frontier.astype(np.int32) @ A.astype(np.int32)) > 0
        nxt &= ~visited
        dist[nxt] = level
        visited |= nxt
        frontier = nxt
        if nxt.any():
            sizes.append(int(nxt.sum()))
    reach = np.linalg.matrix_power(A.astype(np.int64) + np.eye(n, dtype=np.int64), n - 1) > 0
    return {"dist": dist, "sizes": sizes, "ecc": dist.max(), "reach_row": reach[source],
            "unreached": np.flatnonzero(dist < 0)}


def floyd_warshall(np, W):
    D = np.array(W, dtype=float)
    n = len(D)
    nxt = np.where(np.isfinite(D), np.arange(n)[None, :], -1)
    np.fill_diagonal(D, 0)
    for k in range(n):
        via = D[:, k, None] + D[None, k, :]
        better = via < D
        D = np.where(better, via, D)
        nxt = np.where(better, nxt[:, k, None], nxt)
    D2 = np.array(W, dtype=float)
    np.fill_diagonal(D2, 0)
    for k in range(n):
        D2 = np.minimum(D2, np.add.outer(D2[:, k], D2[k, :]))

    def path(i, j):
        if nxt[i, j] < 0:
            return []
        p = [i]
        while i != j:
            i = int(nxt[i, j])
            p.append(i)
        return p

    finite = np.isfinite(D)
    return {"D": np.where(finite, D, -1), "same": np.array_equal(D, D2), "path": path(0, n - 1),
            "diameter": D[finite].max(), "reachable": finite.sum(axis=1)}


def minplus_squaring(np, W):
    D = np.array(W, dtype=float)
    np.fill_diagonal(D, 0)
    n = len(D)
    steps = 0
    while True:
        D_new = np.min(D[:, :, None] + D[None, :, :], axis=1)
        steps += 1
        if np.array_equal(D_new, D) or steps > n:
            break
        D = D_new
    outer = np.minimum.outer(D[0], D[:, 0])
    return {"D": np.nan_to_num(D, posinf=-1), "steps": steps, "outer": np.nan_to_num(outer, posinf=-1)}


def components(np, A):
    A = np.asarray(A).astype(bool)
    n = len(A)
    labels = np.arange(n)
    while True:
        neigh = np.where(A, labels[None, :], n)
        new = np.minimum(labels, neigh.min(axis=1))
        if np.array_equal(new, labels):
            break
        labels = new
    uniq, comp, sizes = np.unique(labels, return_inverse=True, return_counts=True)
    return {"labels": labels, "comp": comp, "sizes": sizes, "largest": int(np.argmax(sizes)),
            "n": len(uniq)}


def spectral_stats(np, A):
    A = np.asarray(A, dtype=float)
    deg = A.sum(axis=1)
    triangles = np.trace(np.linalg.matrix_power(A, 3)) / 6
    per_node = np.einsum("ij,jk,ki->i", A, A, A) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        clustering = np.where(deg > 1, 2 * per_node / (deg * (deg - 1)), 0.0)
    L = np.diag(deg) - A
    w, V = np.linalg.eigh(L)
    fiedler = V[:, 1] * np.sign(V[np.argmax(np.abs(V[:, 1])), 1])
    degs, counts = np.unique(deg.astype(int), return_counts=True)
    return {"triangles": triangles, "per_node": per_node, "clustering": clustering, "w": w,
            "fiedler": fiedler, "cut": np.flatnonzero(fiedler < 0), "deg_hist": np.bincount(deg.astype(int)),
            "degs": degs, "counts": counts}


def _graph(seed, n, p, weighted=False, directed=False):
    rng = np.random.default_rng(seed)
    A = (rng.uniform(size=(n, n)) < p).astype(float)
    np.fill_diagonal(A, 0)
    if not directed:
        A = np.triu(A, 1)
        A = A + A.T
    if weighted:
        W = np.where(A > 0, rng.integers(1, 10, (n, n)).astype(float), np.inf)
        return np.minimum(W, W.T) if not directed else W
    return A


def test_pagerank():
    A = _graph(2960, 15, 0.2, directed=True)
    A[3] = 0  # a dangling node
    check(pagerank, A, 0.85, 1e-5, rtol=1e-3, atol=1e-6)  # float32 (kdsl's dtype=float): a float32 tolerance


def test_personalised_pagerank():
    check(personalised_pagerank, _graph(2961, 12, 0.3), 0.8, [0, 5], rtol=1e-3, atol=1e-6)


def test_bfs_layers():
    A = _graph(2962, 16, 0.15)
    A[15, :] = A[:, 15] = 0  # an isolated node
    check(bfs_layers, A, 0)


def test_floyd_warshall():
    check(floyd_warshall, _graph(2963, 10, 0.3, weighted=True, directed=True))


def test_minplus_squaring():
    check(minplus_squaring, _graph(2964, 9, 0.35, weighted=True))


def test_components():
    A = np.zeros((12, 12))
    for block in ([0, 1, 2, 3], [4, 5], [6, 7, 8, 9, 10]):
        for i in block[:-1]:
            A[i, i + 1] = A[i + 1, i] = 1
    check(components, A)


def test_spectral_stats():
    check(spectral_stats, _graph(2965, 12, 0.4), rtol=1e-3, atol=1e-4)
