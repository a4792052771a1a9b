"""Sorting and searching exercises as algorithms-course notebooks write them with NumPy: merging sorted arrays by
`searchsorted` positions (and a k-way merge by a stable `argsort` of the concatenation with `lexsort` ties),
inversion counts by a merge sort on index arrays and by `searchsorted` against a prefix, rank transforms with ties
(min/max/dense/average through `unique(return_inverse=True, return_counts=True)`), binary search for first and last
occurrences with `side=`, a top-k by `argpartition`, and a two-sum / closest pair by sorted sweeps
(tests/porting)."""

import numpy as np
from harness import check


def merge_by_searchsorted(np, a, b):
    a, b = np.asarray(a), np.asarray(b)
    pos_b = np.searchsorted(a, b, side="right") + np.arange(len(b))
    out = np.empty(len(a) + len(b), dtype=a.dtype)
    mask = np.ones(len(out), dtype=bool)
    mask[pos_b] = False
    out[pos_b] = b
    out[mask] = a
    return {"merged": out, "ok": bool(np.all(np.diff(out) >= 0)), "pos_b": pos_b}


def k_way_merge(np, lists):
    arrs = [np.asarray(x) for x in lists]
    vals = np.concatenate(arrs)
    src = np.repeat(np.arange(len(arrs)), [len(x) for x in arrs])
    order = np.lexsort((src, vals))
    by_argsort = np.argsort(vals, kind="stable")
    return {"vals": vals[order], "src": src[order], "same": bool(np.array_equal(vals[order], vals[by_argsort])),
            "firsts": np.searchsorted(vals[order], [x[0] for x in lists])}


def inversions(np, a):
    a = np.asarray(a)
    n = len(a)
    brute = int(np.triu(a[:, None] > a[None, :], k=1).sum())
    count = 0
    idx = np.arange(n)
    width = 1
    while width < n:
        for lo in range(0, n, 2 * width):
            mid, hi = min(lo + width, n), min(lo + 2 * width, n)
            left, right = idx[lo:mid], idx[mid:hi]
            if len(right) == 0:
                continue
            lv = a[left]
            count += int((len(lv) - np.searchsorted(lv, a[right], side="right")).sum())
            merged = np.concatenate([left, right])
            idx[lo:hi] = merged[np.argsort(a[merged], kind="stable")]
        width *= 2
    return {"brute": brute, "merge": count, "sorted": a[idx]}


def rank_with_ties(np, x):
    x = np.asarray(x)
    u, inv, cnt = np.unique(x, return_inverse=True, return_counts=True)
    starts = np.concatenate([[0], np.cumsum(cnt)[:-1]])
    rmin = starts[inv] + 1
    rmax = (starts + cnt)[inv]
    dense = inv + 1
    avg = (rmin + rmax) / 2
    ordinal = np.empty(len(x), dtype=np.int64)
    ordinal[np.argsort(x, kind="stable")] = np.arange(1, len(x) + 1)
    pct = (avg - 0.5) / len(x)
    return {"min": rmin, "max": rmax, "dense": dense, "avg": avg, "ordinal": ordinal, "pct": pct,
            "ties": int((cnt > 1).sum())}


def occurrences(np, data, queries):
    s = np.sort(np.asarray(data))
    q = np.asarray(queries)
    first = np.searchsorted(s, q, side="left")
    last = np.searchsorted(s, q, side="right") - 1
    found = (first < len(s)) & (s[np.minimum(first, len(s) - 1)] == q)
    counts = np.where(found, last - first + 1, 0)
    nearest = np.clip(first, 1, len(s) - 1)
    nearest = np.where(np.abs(s[nearest - 1] - q) <= np.abs(s[nearest] - q), nearest - 1, nearest)
    return {"first": np.where(found, first, -1), "counts": counts, "nearest": s[nearest]}


def topk_and_pairs(np, x, k, target):
    x = np.asarray(x)
    part = np.argpartition(-x, k)[:k]
    top = part[np.argsort(-x[part], kind="stable")]
    s_idx = np.argsort(x, kind="stable")
    s = x[s_idx]
    j = np.searchsorted(s, target - s)
    j = np.minimum(j, len(s) - 1)
    hit = (s[j] + s == target) & (j != np.arange(len(s)))
    gaps = np.diff(s)
    g = int(np.argmin(gaps))
    return {"top": x[top], "pairs": int(hit.sum()), "closest": np.sort(s_idx[[g, g + 1]]), "gap": gaps[g]}


def test_merge_by_searchsorted():
    rng = np.random.default_rng(1531)
    check(merge_by_searchsorted, np.sort(rng.integers(0, 100, 40)), np.sort(rng.integers(0, 100, 25)))


def test_k_way_merge_lexsort():
    rng = np.random.default_rng(1532)
    check(k_way_merge, [np.sort(rng.integers(0, 50, n)) for n in (7, 12, 5, 9)])


def test_inversion_count_merge_sort():
    rng = np.random.default_rng(1533)
    check(inversions, rng.integers(0, 30, 45))


def test_rank_transform_with_ties():
    rng = np.random.default_rng(1534)
    check(rank_with_ties, rng.integers(0, 12, 30).astype(float))


def test_first_last_occurrence():
    rng = np.random.default_rng(1535)
    check(occurrences, rng.integers(0, 40, 60), np.array([-3, 0, 5, 17, 39, 40, 55, 12]))


def test_topk_and_two_sum():
    rng = np.random.default_rng(1536)
    check(topk_and_pairs, rng.permutation(200)[:50], 5, 150)
