"""Sorting and searching idioms: counting sort by bincount and repeat, LSD radix sort by stable argsort on
digits, merging sorted arrays with searchsorted, inversion counts, average ranks with ties from unique's
inverse, the k smallest per group via lexsort, binary search per row of a sorted matrix, keep-last
de-duplication by reversed unique, order statistics by partition, and sorted-array set algebra (tests/porting)."""

import numpy as np
from harness import check


def counting_and_radix(np, keys_host):
    keys = np.asarray(keys_host)
    counts = np.bincount(keys)
    by_count = np.repeat(np.arange(len(counts)), counts)
    order = np.arange(len(keys))
    for shift in range(0, 12, 4):
        digit = (keys[order] >> shift) & 0xF
        order = order[np.argsort(digit, kind="stable")]
    radix = keys[order]
    starts = np.cumsum(counts) - counts
    stable_pos = np.empty(len(keys), dtype=np.int64)
    stable_pos[np.argsort(keys, kind="stable")] = np.arange(len(keys))
    return {"by_count": by_count, "radix": radix, "same": bool(np.array_equal(by_count, radix)),
            "order": order, "starts": starts[:10], "stable_pos": stable_pos}


def merge_sorted(np, a_host, b_host):
    a, b = np.sort(np.asarray(a_host)), np.sort(np.asarray(b_host))
    pos = np.searchsorted(a, b, side="right") + np.arange(len(b))
    merged = np.empty(len(a) + len(b), dtype=a.dtype)
    is_b = np.zeros(len(merged), dtype=bool)
    is_b[pos] = True
    merged[is_b] = b
    merged[~is_b] = a
    left = np.searchsorted(a, b, side="left")
    right = np.searchsorted(a, b, side="right")
    return {"merged": merged, "ok": bool(np.all(np.diff(merged) >= 0)), "matches": right - left,
            "common": b[right > left], "below": left}


def inversions(np, perm_host):
    p = np.asarray(perm_host)
    pairs = np.triu(p[:, None] > p[None, :], 1)
    count = int(pairs.sum())
    per_item = pairs.sum(axis=1)
    inv = np.argsort(p)
    cycles, seen = [], np.zeros(len(p), dtype=bool)
    for i in range(len(p)):
        if not seen[i]:
            j, length = i, 0
            while not seen[j]:
                seen[j] = True
                j = int(p[j])
                length += 1
            cycles.append(length)
    parity = (len(p) - len(cycles)) % 2
    return {"count": count, "per_item": per_item, "inverse": inv, "cycles": sorted(cycles),
            "parity_matches": parity == count % 2, "identity": bool(np.all(p[inv] == np.arange(len(p))))}


def average_ranks(np, x_host):
    x = np.asarray(x_host)
    uniq, inv, counts = np.unique(x, return_inverse=True, return_counts=True)
    first = np.cumsum(counts) - counts
    avg = first + (counts + 1) / 2
    ranks = avg[inv]
    dense = inv + 1
    order = np.argsort(x, kind="stable")
    ordinal = np.empty(len(x), dtype=np.int64)
    ordinal[order] = np.arange(1, len(x) + 1)
    minimum = (first + 1)[inv]
    pct = (ranks - 0.5) / len(x)
    return {"avg": ranks, "dense": dense, "ordinal": ordinal, "min": minimum, "pct": pct,
            "ties": int((counts > 1).sum())}


def k_smallest_per_group(np, groups_host, values_host, k=2):
    g, v = np.asarray(groups_host), np.asarray(values_host)
    order = np.lexsort((v, g))
    gs, vs = g[order], v[order]
    start = np.r_[0, np.flatnonzero(np.diff(gs)) + 1]
    pos_in_group = np.arange(len(gs)) - np.repeat(start, np.diff(np.r_[start, len(gs)]))
    keep = pos_in_group < k
    groups = gs[start]
    minima = vs[start]
    maxima = vs[np.r_[start[1:] - 1, len(vs) - 1]]
    return {"k_groups": gs[keep], "k_values": vs[keep], "orig_index": order[keep], "groups": groups,
            "min": minima, "max": maxima, "sizes": np.diff(np.r_[start, len(gs)])}


def row_search(np, M_host, q_host):
    M = np.sort(np.asarray(M_host), axis=1)
    q = np.asarray(q_host)
    n = M.shape[1]
    idx = np.array([np.searchsorted(row, t) for row, t in zip(M, q, strict=True)])
    counts_below = (M < q[:, None]).sum(axis=1)
    clipped = np.clip(idx, 1, n - 1)
    left, right = M[np.arange(len(q)), clipped - 1], M[np.arange(len(q)), clipped]
    nearest = np.where(np.abs(q - left) <= np.abs(right - q), left, right)
    flat = (M + np.arange(len(M))[:, None] * 100).ravel()
    offset = np.searchsorted(flat, q + np.arange(len(q)) * 100) - np.arange(len(q)) * n
    return {"idx": idx, "same": bool(np.array_equal(idx, counts_below)), "nearest": nearest, "offset": offset}


def dedupe_keep_last(np, ids_host, ts_host):
    ids, ts = np.asarray(ids_host), np.asarray(ts_host)
    order = np.argsort(ts, kind="stable")
    ids_t, ts_t = ids[order], ts[order]
    rev_u, rev_idx = np.unique(ids_t[::-1], return_index=True)
    last = len(ids_t) - 1 - rev_idx
    first_u, first_idx = np.unique(ids_t, return_index=True)
    dup_mask = np.ones(len(ids), dtype=bool)
    dup_mask[order[last]] = False
    return {"ids": rev_u, "last_ts": ts_t[last], "first_ts": ts_t[first_idx], "dropped": int(dup_mask.sum()),
            "kept_rows": np.sort(order[last])}


def order_statistics(np, x_host):
    x = np.asarray(x_host)
    n = len(x)
    k = [0, n // 4, n // 2, 3 * n // 4, n - 1]
    part = np.partition(x, k)
    idx = np.argpartition(x, k)
    med_of_groups = np.median(x[: n // 5 * 5].reshape(-1, 5), axis=1)
    pivot = np.median(med_of_groups)
    rank_of_pivot = int((x < pivot).sum())
    top3 = x[np.argpartition(-x, 3)[:3]]
    trimmed = np.sort(x)[n // 10 : n - n // 10].mean()
    return {"kth": part[k], "via_idx": x[idx[k]], "pivot": float(pivot), "rank_of_pivot": rank_of_pivot,
            "top3": np.sort(top3)[::-1], "trimmed": float(trimmed)}


def test_counting_sort_and_lsd_radix():
    check(counting_and_radix, np.random.default_rng(691).integers(0, 3000, 80))


def test_merge_sorted_searchsorted():
    rng = np.random.default_rng(692)
    check(merge_sorted, rng.integers(0, 50, 25), rng.integers(0, 50, 15))


def test_inversion_count_cycles_parity():
    check(inversions, np.random.default_rng(693).permutation(14))


def test_average_dense_ordinal_ranks():
    check(average_ranks, np.random.default_rng(694).integers(0, 12, 30))


def test_k_smallest_per_group_lexsort():
    rng = np.random.default_rng(695)
    check(k_smallest_per_group, rng.integers(0, 6, 40), rng.integers(0, 100, 40))


def test_binary_search_per_row():
    rng = np.random.default_rng(696)
    check(row_search, rng.integers(0, 90, (6, 10)), rng.integers(0, 90, 6))


def test_dedupe_keep_last_reversed_unique():
    rng = np.random.default_rng(697)
    check(dedupe_keep_last, rng.integers(0, 8, 30), rng.permutation(30))


def test_order_statistics_partition():
    check(order_statistics, np.random.default_rng(698).normal(size=41))
