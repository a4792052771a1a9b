"""Data-structure tricks in arrays as competitive-programming and graph notebooks write them with NumPy:
union-find with path compression in a parent array (and component labels by `unique(return_inverse=True)`),
segment sums by `cumsum` differences and `np.add.reduceat`, a linked list in a `next` index array walked and
reversed, CSR adjacency built by `argsort`/`bincount`/`cumsum` with BFS over frontier masks, a binary heap in an
array with sift-down loops, and a Fenwick tree with `i & -i` bit tricks (tests/porting)."""

import numpy as np
from harness import check


def union_find(np, n, edges):
    edges = np.asarray(edges)
    parent = np.arange(n)

    def find(i):
        root = i
        while parent[root] != root:
            root = int(parent[root])
        while parent[i] != root:
            nxt = int(parent[i])
            parent[i] = root
            i = nxt
        return root

    merged = 0
    for a, b in edges:
        ra, rb = find(int(a)), find(int(b))
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
            merged += 1
    roots = np.array([find(i) for i in range(n)])
    _, labels, sizes = np.unique(roots, return_inverse=True, return_counts=True)
    return {"labels": labels, "sizes": np.sort(sizes)[::-1], "merged": merged, "n_comp": len(sizes)}


def segment_sums(np, values, lengths):
    values, lengths = np.asarray(values), np.asarray(lengths)
    ends = np.cumsum(lengths)
    starts = ends - lengths
    c = np.concatenate([[0], np.cumsum(values)])
    by_cumsum = c[ends] - c[starts]
    nz = starts[lengths > 0]
    by_reduceat = np.add.reduceat(values, nz)
    seg_id = np.repeat(np.arange(len(lengths)), lengths)
    by_bincount = np.bincount(seg_id, weights=values, minlength=len(lengths))
    seg_max = np.maximum.reduceat(values, nz)
    return {"cumsum": by_cumsum, "reduceat": by_reduceat, "bincount": by_bincount, "max": seg_max,
            "seg_id": seg_id}


def linked_list(np, order):
    order = np.asarray(order)
    n = len(order)
    nxt = np.full(n, -1)
    nxt[order[:-1]] = order[1:]
    head = int(order[0])
    walk = []
    i = head
    while i != -1:
        walk.append(i)
        i = int(nxt[i])
    prev = np.full(n, -1)
    has = nxt >= 0
    prev[nxt[has]] = np.flatnonzero(has)
    tail = int(np.flatnonzero(nxt == -1)[0])
    position = np.empty(n, dtype=np.int64)
    position[np.array(walk)] = np.arange(n)
    return {"walk": np.array(walk), "prev": prev, "tail": tail, "position": position}


def csr_bfs(np, n, edges, source):
    edges = np.asarray(edges)
    src = np.concatenate([edges[:, 0], edges[:, 1]])
    dst = np.concatenate([edges[:, 1], edges[:, 0]])
    order = np.argsort(src, kind="stable")
    indices = dst[order]
    indptr = np.concatenate([[0], np.cumsum(np.bincount(src, minlength=n))])
    dist = np.full(n, -1)
    dist[source] = 0
    frontier = np.zeros(n, dtype=bool)
    frontier[source] = True
    level = 0
    while frontier.any():
        level += 1
        nodes = np.flatnonzero(frontier)
        nbrs = np.concatenate([indices[indptr[v]:indptr[v + 1]] for v in nodes])
        frontier = np.zeros(n, dtype=bool)
        frontier[nbrs] = True
        frontier &= dist < 0
        dist[frontier] = level
    return {"indptr": indptr, "indices": indices, "dist": dist, "degree": np.diff(indptr)}


def array_heap(np, values):
    heap = np.array(values)
    n = len(heap)

    def sift_down(i, size):
        while True:
            l, r, m = 2 * i + 1, 2 * i + 2, i
            if l < size and heap[l] < heap[m]:
                m = l
            if r < size and heap[r] < heap[m]:
                m = r
            if m == i:
                return
            heap[[i, m]] = heap[[m, i]]
            i = m

    for i in range(n // 2 - 1, -1, -1):
        sift_down(i, n)
    is_heap = bool(np.all(heap[1:] >= heap[(np.arange(1, n) - 1) // 2]))
    out = []
    for size in range(n, 0, -1):
        out.append(heap[0].item())
        heap[0] = heap[size - 1]
        sift_down(0, size - 1)
    return {"is_heap": is_heap, "sorted": np.array(out)}


def fenwick(np, values, queries):
    values = np.asarray(values)
    n = len(values)
    tree = np.zeros(n + 1, dtype=values.dtype)
    for i in range(1, n + 1):
        j = i
        while j <= n:
            tree[j] += values[i - 1]
            j += j & -j
    low = np.arange(1, n + 1) & -np.arange(1, n + 1)

    def prefix(i):
        s = 0
        while i > 0:
            s += int(tree[i])
            i -= i & -i
        return s

    got = np.array([prefix(int(r)) - prefix(int(lo)) for lo, r in queries])
    c = np.concatenate([[0], np.cumsum(values)])
    q = np.asarray(queries)
    return {"tree": tree, "low": low, "got": got, "want": c[q[:, 1]] - c[q[:, 0]]}


def test_union_find_path_compression():
    rng = np.random.default_rng(1541)
    check(union_find, 30, rng.integers(0, 30, (22, 2)))


def test_segment_sums_three_ways():
    rng = np.random.default_rng(1542)
    check(segment_sums, rng.integers(-20, 50, 40), np.array([3, 5, 0, 7, 1, 10, 0, 14]))


def test_linked_list_in_index_arrays():
    check(linked_list, np.random.default_rng(1543).permutation(15))


def test_csr_graph_bfs():
    rng = np.random.default_rng(1544)
    check(csr_bfs, 25, rng.integers(0, 25, (35, 2)), 0)


def test_heap_in_array():
    check(array_heap, np.random.default_rng(1545).integers(0, 100, 17))


def test_fenwick_tree_bit_tricks():
    rng = np.random.default_rng(1546)
    check(fenwick, rng.integers(0, 20, 24), np.array([[0, 5], [3, 24], [10, 11], [0, 24], [7, 7]]))
