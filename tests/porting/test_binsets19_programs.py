"""Counting, binning and set code as data-cleaning scripts write it: `np.unique` with every return flag (and
`axis=0`, and NaNs), the set routines (`intersect1d(return_indices=True)`, `setdiff1d`, `union1d`, `setxor1d`,
`isin(invert=True)`), `searchsorted` with both sides and a `sorter=`, `digitize(right=)`, `interp` with
`left=`/`right=`/`period=`, `histogram` with weights, density and edges, `histogram2d`, `histogramdd`,
`histogram_bin_edges`, `bincount(minlength=)` and a graph's degrees, and statistics of `default_rng` draws compared
with their distributions, not by value (tests/porting)."""

import numpy as np
from harness import check


def unique_all_flags(np, x, rows):
    x, rows = np.asarray(x), np.asarray(rows)
    u, idx, inv, cnt = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
    ur, ridx, rinv, rcnt = np.unique(rows, axis=0, return_index=True, return_inverse=True, return_counts=True)
    with_nan = np.unique(np.array([np.nan, 1.0, np.nan, 2.0]))
    nan_apart = np.unique(np.array([np.nan, 1.0, np.nan]), equal_nan=False)
    return {"u": u, "idx": idx, "inv": inv, "cnt": cnt, "rebuilt": bool(np.array_equal(u[inv], x)),
            "ur": ur, "ridx": ridx, "rinv": rinv.ravel(), "rcnt": rcnt, "with_nan": with_nan,
            "nan_apart": nan_apart, "mode": u[np.argmax(cnt)], "dupes": u[cnt > 1],
            "first_seen": x[np.sort(idx)]}


def set_routines(np, a, b):
    a, b = np.asarray(a), np.asarray(b)
    common, ia, ib = np.intersect1d(a, b, return_indices=True)
    return {"common": common, "ia": ia, "ib": ib, "same": bool(np.array_equal(a[ia], b[ib])),
            "only_a": np.setdiff1d(a, b), "union": np.union1d(a, b), "xor": np.setxor1d(a, b),
            "isin": np.isin(a, b), "not_in": np.isin(a, b, invert=True), "a_not_b": a[~np.isin(a, b)],
            "unique_only_a": np.setdiff1d(np.unique(a), np.unique(b), assume_unique=True),
            "jaccard": len(common) / len(np.union1d(a, b)), "isin_2d": np.isin(a.reshape(2, -1), b)}


def search_sides(np, sorted_keys, queries, unsorted):
    k, q, u = np.asarray(sorted_keys), np.asarray(queries), np.asarray(unsorted)
    left = np.searchsorted(k, q)
    right = np.searchsorted(k, q, side="right")
    order = np.argsort(u)
    pos = np.searchsorted(u, q, sorter=order)
    found = (left < len(k)) & (k[np.minimum(left, len(k) - 1)] == q)
    return {"left": left, "right": right, "count": right - left, "found": found, "pos": pos,
            "insert": np.insert(k, left, q), "nearest": np.clip(left, 1, len(k) - 1) - (
                np.abs(q - k[np.clip(left, 1, len(k) - 1) - 1]) <= np.abs(k[np.clip(left, 0, len(k) - 1)] - q)),
            "scalar": int(np.searchsorted(k, q[0], side="right"))}


def digitize_and_interp(np, x, xp, fp):
    x, xp, fp = np.asarray(x), np.asarray(xp), np.asarray(fp)
    edges = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    degrees = np.array([350.0, 10.0, 90.0, 180.0])
    return {"dig": np.digitize(x, edges), "dig_right": np.digitize(x, edges, right=True),
            "dig_desc": np.digitize(x, edges[::-1]), "interp": np.interp(x, xp, fp),
            "interp_lr": np.interp(x * 2 - 0.5, xp, fp, left=-1.0, right=99.0),
            "periodic": np.interp(np.array([355.0, 5.0, 100.0, 270.0]), degrees, np.array([1.0, 2.0, 3.0, 4.0]),
                                  period=360), "scalar": float(np.interp(0.3, xp, fp)),
            "counts": np.bincount(np.digitize(x, edges), minlength=6)}


def histograms(np, x, y, w):
    x, y, w = np.asarray(x), np.asarray(y), np.asarray(w)
    h, e = np.histogram(x, bins=6)
    hw, _ = np.histogram(x, bins=e, weights=w)
    hd, _ = np.histogram(x, bins=5, range=(-2, 2), density=True)
    edges_auto = np.histogram_bin_edges(x, bins="sturges")
    h2, xe, ye = np.histogram2d(x, y, bins=(3, 4), range=[[-3, 3], [-3, 3]])
    hdd, dd_edges = np.histogramdd(np.column_stack([x, y, w]), bins=(2, 2, 3))
    uneven, _ = np.histogram(x, bins=[-3.0, -1.0, 0.0, 0.5, 3.0])
    return {"h": h, "e": e, "hw": hw, "hd": hd, "area": float((hd * np.diff(np.linspace(-2, 2, 6))).sum()),
            "auto": edges_auto, "h2": h2, "xe": xe, "ye": ye, "hdd": hdd, "dd_edges": dd_edges, "uneven": uneven,
            "cdf": np.cumsum(h) / h.sum()}


def graph_degrees(np, edges, n):
    edges = np.asarray(edges)
    src, dst = edges[:, 0], edges[:, 1]
    out_deg = np.bincount(src, minlength=n)
    in_deg = np.bincount(dst, minlength=n)
    order = np.argsort(src, kind="stable")
    indptr = np.concatenate([[0], np.cumsum(out_deg)])
    nbrs = dst[order]
    # two-hop reach counts from the CSR arrays
    two_hop = np.zeros(n, dtype=int)
    for v in range(n):
        first = nbrs[indptr[v]:indptr[v + 1]]
        reach = np.concatenate([nbrs[indptr[u]:indptr[u + 1]] for u in first]) if len(first) else first
        two_hop[v] = len(np.setdiff1d(np.unique(reach), [v]))
    pagerank = np.full(n, 1.0 / n)
    safe = np.maximum(out_deg, 1)
    for _ in range(20):
        contrib = np.bincount(dst, weights=pagerank[src] / safe[src], minlength=n)
        dangling = pagerank[out_deg == 0].sum() / n
        pagerank = 0.15 / n + 0.85 * (contrib + dangling)
    return {"out": out_deg, "in": in_deg, "indptr": indptr, "nbrs": nbrs, "two_hop": two_hop,
            "pr": pagerank, "top": np.argsort(-pagerank, kind="stable")[:3], "sinks": np.flatnonzero(out_deg == 0)}


def generator_statistics(np, seed, n):
    rng = np.random.default_rng(seed)
    checks = {}
    z = rng.standard_normal(n)
    checks["normal"] = abs(z.mean()) < 4 / np.sqrt(n) and abs(z.std() - 1) < 0.05
    u = rng.uniform(2.0, 5.0, n)
    checks["uniform"] = bool(u.min() >= 2.0 and u.max() < 5.0 and abs(u.mean() - 3.5) < 0.05)
    k = rng.integers(0, 6, n)
    counts = np.bincount(k, minlength=6)
    chi2 = float(((counts - n / 6) ** 2 / (n / 6)).sum())
    checks["integers"] = bool(k.min() == 0 and k.max() == 5 and chi2 < 25)
    p = rng.poisson(3.0, n)
    checks["poisson"] = abs(p.mean() - 3.0) < 0.1 and abs(p.var() - 3.0) < 0.3
    e = rng.exponential(2.0, n)
    checks["exponential"] = abs(np.median(e) - 2.0 * np.log(2)) < 0.1
    b = rng.binomial(10, 0.3, n)
    checks["binomial"] = abs(b.mean() - 3.0) < 0.1 and b.max() <= 10
    c = rng.choice(4, size=n, p=[0.1, 0.2, 0.3, 0.4])
    checks["choice"] = bool(np.allclose(np.bincount(c, minlength=4) / n, [0.1, 0.2, 0.3, 0.4], atol=0.03))
    perm = rng.permutation(50)
    checks["permutation"] = bool(np.array_equal(np.sort(perm), np.arange(50)))
    g = rng.gamma(2.0, 1.5, n)
    checks["gamma"] = abs(g.mean() - 3.0) < 0.15
    m = rng.multivariate_normal([0.0, 1.0], [[1.0, 0.8], [0.8, 1.0]], size=n)
    checks["mvn"] = abs(np.corrcoef(m.T)[0, 1] - 0.8) < 0.05
    shuffled = np.arange(20)
    rng.shuffle(shuffled)
    checks["shuffle"] = bool(np.array_equal(np.sort(shuffled), np.arange(20)))
    return {k: bool(v) for k, v in checks.items()}


def test_unique_all_flags():
    rng = np.random.default_rng(1941)
    check(unique_all_flags, rng.integers(0, 8, 25), rng.integers(0, 3, (12, 2)))


def test_set_routines():
    rng = np.random.default_rng(1942)
    check(set_routines, rng.permutation(30)[:10], rng.permutation(30)[:12])


def test_search_sides():
    rng = np.random.default_rng(1943)
    check(search_sides, np.sort(rng.integers(0, 20, 15)), np.array([-1, 0, 3, 7, 7, 19, 25]),
          rng.permutation(40)[:15])


def test_digitize_and_interp():
    rng = np.random.default_rng(1944)
    x = np.concatenate([rng.random(10), [0.0, 0.25, 1.0, 1.2, -0.1]])
    check(digitize_and_interp, x, np.array([0.0, 0.2, 0.6, 1.0]), np.array([1.0, 3.0, 2.0, 5.0]))


def test_histograms():
    rng = np.random.default_rng(1945)
    check(histograms, rng.normal(size=60), rng.normal(size=60), rng.random(60))


def test_graph_degrees():
    rng = np.random.default_rng(1946)
    edges = np.unique(rng.integers(0, 10, (25, 2)), axis=0)
    edges = edges[edges[:, 0] != edges[:, 1]]
    check(graph_degrees, edges, 11, rtol=1e-3)


def test_generator_statistics():
    # each library draws its own stream: the checks of each against the distributions must agree (all True)
    got = check(generator_statistics, 1947, 8000)
    assert all(got.values()), got
