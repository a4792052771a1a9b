"""Dynamic programming with NumPy rows and tables: longest increasing subsequence by patience sorting with
searchsorted, subset sums by shifted bool rows, integer partitions and rod cutting, dynamic time warping,
Needleman-Wunsch and Smith-Waterman alignment with a substitution matrix indexed by codes, matrix-chain order,
maximum subarrays by cumsum and minimum.accumulate, and the longest common substring by diagonal runs
(tests/porting)."""

import numpy as np
from harness import check


def longest_increasing(np, seq_host):
    seq = np.asarray(seq_host)
    tails = np.empty(0, dtype=seq.dtype)
    tail_idx, prev = [], np.full(len(seq), -1)
    for i, x in enumerate(seq):
        k = int(np.searchsorted(tails, x, side="left"))
        if k == len(tails):
            tails = np.append(tails, x)
            tail_idx.append(i)
        else:
            tails[k] = x
            tail_idx[k] = i
        prev[i] = tail_idx[k - 1] if k > 0 else -1
    out = [tail_idx[-1]]
    while prev[out[-1]] >= 0:
        out.append(int(prev[out[-1]]))
    lis = seq[np.array(out[::-1])]
    return {"length": len(tails), "lis": lis, "tails": tails, "increasing": bool(np.all(np.diff(lis) > 0))}


def subset_sums(np, weights_host, target):
    w = np.asarray(weights_host)
    reach = np.zeros(target + 1, dtype=bool)
    reach[0] = True
    ways = np.zeros(target + 1, dtype=np.int64)
    ways[0] = 1
    for x in w:
        x = int(x)
        reach[x:] |= reach[:-x].copy()
        ways[x:] += ways[:-x].copy()
    best = np.flatnonzero(reach)[-1]
    half = w.sum() // 2
    part = np.flatnonzero(reach[: half + 1])[-1]
    return {"reach": reach, "ways": ways, "best": int(best), "min_difference": int(w.sum() - 2 * part)}


def partitions_and_rods(np, prices_host, n=16):
    distinct = np.zeros(n + 1, dtype=np.int64)
    distinct[0] = 1
    for k in range(1, n + 1):
        distinct[k:] += distinct[:-k]  # the right side is read before the write: each part used once
    p = np.zeros(n + 1, dtype=np.int64)
    p[0] = 1
    for k in range(1, n + 1):
        for r in range(k):
            p[r::k] = np.cumsum(p[r::k])  # p[j] += p[j - k] in order, one residue class at a time
    prices = np.asarray(prices_host)
    m = len(prices)
    best = np.zeros(m + 1)
    cut = np.zeros(m + 1, dtype=int)
    for length in range(1, m + 1):
        options = prices[:length] + best[length - 1 :: -1][:length]
        cut[length] = np.argmax(options) + 1
        best[length] = options.max()
    pieces, rest = [], m
    while rest > 0:
        pieces.append(int(cut[rest]))
        rest -= cut[rest]
    return {"p": p, "distinct": distinct, "best": best, "pieces": sorted(pieces)}


def dtw(np, a_host, b_host, window=6):
    a, b = np.asarray(a_host), np.asarray(b_host)
    cost = np.abs(a[:, None] - b[None, :])
    n, m = cost.shape
    D = np.full((n + 1, m + 1), np.inf)
    D[0, 0] = 0.0
    for i in range(1, n + 1):
        lo, hi = max(1, i - window), min(m, i + window)
        for j in range(lo, hi + 1):
            D[i, j] = cost[i - 1, j - 1] + min(D[i - 1, j], D[i, j - 1], D[i - 1, j - 1])
    i, j, path = n, m, [(n - 1, m - 1)]
    while (i, j) != (1, 1):
        step = np.argmin([D[i - 1, j - 1], D[i - 1, j], D[i, j - 1]])
        i, j = (i - 1, j - 1) if step == 0 else (i - 1, j) if step == 1 else (i, j - 1)
        path.append((i - 1, j - 1))
    return {"distance": float(D[n, m]), "path_len": len(path), "path": path[::-1], "D": D[1:, 1:]}


def alignments(np, s, t):
    alphabet = "ACGT"
    S = np.full((4, 4), -1) + 3 * np.eye(4, dtype=int)
    S[0, 2] = S[2, 0] = S[1, 3] = S[3, 1] = 0  # transitions cost less
    gap = -2
    a = np.array([alphabet.index(c) for c in s])
    b = np.array([alphabet.index(c) for c in t])
    sub = S[a[:, None], b[None, :]]
    n, m = sub.shape
    F = np.zeros((n + 1, m + 1), dtype=int)
    F[:, 0] = gap * np.arange(n + 1)
    F[0, :] = gap * np.arange(m + 1)
    H = np.zeros((n + 1, m + 1), dtype=int)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            F[i, j] = max(F[i - 1, j - 1] + sub[i - 1, j - 1], F[i - 1, j] + gap, F[i, j - 1] + gap)
            H[i, j] = max(0, H[i - 1, j - 1] + sub[i - 1, j - 1], H[i - 1, j] + gap, H[i, j - 1] + gap)
    end = np.unravel_index(np.argmax(H), H.shape)
    return {"global": int(F[n, m]), "local": int(H.max()), "local_end": [int(e) for e in end], "sub": sub,
            "matches": int((a[:, None] == b[None, :]).sum())}


def matrix_chain(np, dims_host):
    d = np.asarray(dims_host)
    n = len(d) - 1
    cost = np.zeros((n, n), dtype=np.int64)
    split = np.zeros((n, n), dtype=int)
    for length in range(2, n + 1):
        for i in range(n - length + 1):
            j = i + length - 1
            k = np.arange(i, j)
            options = cost[i, k] + cost[k + 1, j] + d[i] * d[k + 1] * d[j + 1]
            split[i, j] = k[np.argmin(options)]
            cost[i, j] = options.min()

    def paren(i, j):
        if i == j:
            return f"A{i}"
        k = split[i, j]
        return f"({paren(i, k)}{paren(k + 1, j)})"

    return {"cost": int(cost[0, n - 1]), "order": paren(0, n - 1), "table": cost}


def max_subarrays(np, x_host):
    x = np.asarray(x_host)
    c = np.concatenate([[0], np.cumsum(x, axis=-1)])
    low = np.minimum.accumulate(c)
    gains = c[1:] - low[:-1]
    end = int(np.argmax(gains))
    start = int(np.argmin(c[: end + 1]))
    best, cur = x[0], x[0]
    for v in x[1:]:
        cur = max(v, cur + v)
        best = max(best, cur)
    rows = np.asarray(x_host).reshape(4, -1)
    rc = np.cumsum(rows, axis=1)
    rc = np.concatenate([np.zeros((4, 1)), rc], axis=1)
    row_best = (rc - np.minimum.accumulate(rc, axis=1)).max(axis=1)
    return {"best": float(gains.max()), "start": start, "end": end, "kadane": float(best), "row_best": row_best}


def longest_common_substring(np, s, t):
    a = np.frombuffer(s.encode(), dtype=np.uint8)
    b = np.frombuffer(t.encode(), dtype=np.uint8)
    eq = a[:, None] == b[None, :]
    L = np.zeros((len(a) + 1, len(b) + 1), dtype=np.int32)
    for i in range(1, len(a) + 1):
        L[i, 1:] = np.where(eq[i - 1], L[i - 1, :-1] + 1, 0)
    i, j = np.unravel_index(np.argmax(L), L.shape)
    k = int(L[i, j])
    return {"length": k, "substring": s[i - k : i], "at": [int(i - k), int(j - k)], "diag_hits": int(eq.sum())}


def test_longest_increasing_subsequence_searchsorted():
    check(longest_increasing, np.random.default_rng(641).integers(0, 100, 60))


def test_subset_sum_shifted_bool_rows():
    check(subset_sums, np.array([3, 34, 4, 12, 5, 2, 27, 9, 15]), 60)


def test_partitions_and_rod_cutting():
    check(partitions_and_rods, np.array([1, 5, 8, 9, 10, 17, 17, 20, 24, 30]))


def test_dynamic_time_warping_band():
    t = np.linspace(0, 2 * np.pi, 30)
    check(dtw, np.sin(t), np.sin(t[:24] * 1.2 + 0.3))


def test_needleman_wunsch_smith_waterman():
    check(alignments, "GATTACAGCT", "GCATGCTTAC")


def test_matrix_chain_order():
    check(matrix_chain, np.array([30, 35, 15, 5, 10, 20, 25, 8]))


def test_max_subarray_cumsum_minimum_accumulate():
    check(max_subarrays, np.random.default_rng(647).normal(size=40).round(2))


def test_longest_common_substring_diagonals():
    check(longest_common_substring, "the quick brown fox jumps", "a quick brown dog jumps over")
