"""Warehouses, graphs, token counts and index numbers ported from NumPy scripts: bin packing by `np.cumsum` and
`np.searchsorted`, pick lists by `np.argpartition`/`np.partition` with kth lists, slot maps by `np.put`/`np.take`
with `mode='wrap'`/`'clip'`, id sets by `np.union1d`/`np.setdiff1d(assume_unique=)`/`np.isin(invert=, kind=)`,
word counts by `np.unique` of int codes and `np.bincount(minlength=)`, reachability by `matrix_power` and boolean
matmul, `np.nonzero`/`np.argwhere`/`np.flatnonzero`/`np.count_nonzero(axis=)`, and price indices by
`np.prod(dtype=)`, `np.cumprod`, `np.nanprod`, `np.nancumsum`, `np.ediff1d(to_begin=, to_end=)` and
`np.diff(n=2, prepend=, append=)` (tests/porting)."""

import numpy as np
from harness import check


def first_fit_shelves(np, widths, shelf):
    widths = np.asarray(widths)
    ends = np.cumsum(widths)
    shelf_of = np.searchsorted(np.arange(shelf, ends[-1] + shelf, shelf), ends, side="left")
    spill = ends - shelf_of * shelf > 0  # a box crossing a shelf boundary starts the next shelf
    used = np.bincount(shelf_of, weights=widths, minlength=shelf_of.max() + 2)
    return {"ends": ends, "shelf_of": shelf_of, "spill": spill, "used": used,
            "fill": used / shelf, "boundary": np.searchsorted(ends, np.arange(1, 4) * shelf, side="right")}


def pick_lists(np, demand, k):
    demand = np.asarray(demand)
    top = np.argpartition(demand, -k)[-k:]
    top = top[np.argsort(-demand[top], kind="stable")]
    quart = np.partition(demand, [demand.size // 4, demand.size // 2, 3 * demand.size // 4])
    per_zone = np.partition(demand.reshape(4, -1), 1, axis=1)[:, :2]
    low = np.argpartition(demand.reshape(4, -1), [0, 1], axis=1)[:, :2]
    return {"top": top, "q": quart[[demand.size // 4, demand.size // 2, 3 * demand.size // 4]],
            "per_zone": np.sort(per_zone, axis=1), "low_vals": np.sort(np.take_along_axis(demand.reshape(4, -1),
                                                                                          low, axis=1), axis=1)}


def slot_maps(np, n_slots, items):
    items = np.asarray(items)
    slots = np.full(n_slots, -1)
    np.put(slots, items * 7, items, mode="wrap")
    clipped = np.zeros(n_slots, dtype=int)
    np.put(clipped, items - 3, 1, mode="clip")
    ring = np.take(np.arange(n_slots) * 10, np.arange(-3, n_slots + 3), mode="wrap")
    edge = np.take(np.arange(n_slots) * 10, np.arange(-3, n_slots + 3), mode="clip")
    grid = np.arange(12).reshape(3, 4)
    cols = np.take(grid, [0, 5, -6], axis=1, mode="wrap")
    return {"slots": slots, "clipped": clipped, "ring": ring, "edge": edge, "cols": cols,
            "flat": grid.take([1, 30], mode="clip")}


def stock_id_sets(np, a, b, banned):
    a, b, banned = np.asarray(a), np.asarray(b), np.asarray(banned)
    both = np.union1d(a, b)
    ua = np.unique(a)
    new_only = np.setdiff1d(np.unique(b), ua, assume_unique=True)
    ok = both[np.isin(both, banned, invert=True)]
    ok_t = both[np.isin(both, banned, invert=True, kind="table")]
    mask2d = np.isin(a.reshape(2, -1), banned, kind="sort")
    inter, ia, ib = np.intersect1d(a, b, return_indices=True)
    return {"both": both, "new_only": new_only, "ok": ok, "same": np.array_equal(ok, ok_t), "mask2d": mask2d,
            "inter": inter, "ia": ia, "ib": ib, "xor": np.setxor1d(a, b)}


def token_counts(np, codes, vocab):
    codes = np.asarray(codes)
    uniq, inv, cnt = np.unique(codes, return_inverse=True, return_counts=True)
    tf = np.bincount(codes, minlength=vocab)
    order = np.argsort(tf, kind="stable")[::-1]
    by_doc = np.zeros((3, vocab), dtype=int)
    np.add.at(by_doc, (np.repeat(np.arange(3), codes.size // 3), codes), 1)
    df = np.count_nonzero(by_doc, axis=0)
    idf = np.log((1 + 3) / (1 + df)) + 1
    return {"uniq": uniq, "inv": inv, "cnt": cnt, "tf": tf, "order": order[:5], "df": df,
            "tfidf": by_doc * idf, "hapax": uniq[cnt == 1], "bigrams": np.unique(codes[:-1] * vocab + codes[1:]).size}


def reachability(np, adj):
    A = np.asarray(adj).astype(bool)
    R = np.eye(len(A), dtype=bool)
    step = R.copy()
    for _ in range(len(A)):
        step = (step.astype(int) @ A.astype(int)) > 0
        R |= step
    walks3 = np.linalg.matrix_power(A.astype(int), 3)
    bool_mm = A @ A
    src, dst = np.nonzero(A)
    return {"R": R, "walks3": walks3, "bool_mm": bool_mm, "edges": np.argwhere(A), "src": src, "dst": dst,
            "loops": np.flatnonzero(np.diag(walks3)), "out_deg": np.count_nonzero(A, axis=1),
            "in_deg": np.count_nonzero(A, axis=0, keepdims=True), "sinks": np.flatnonzero(~A.any(axis=1))}


def shortest_paths(np, w):
    D = np.asarray(w, dtype=float)
    D = np.where(D > 0, D, np.inf)
    np.fill_diagonal(D, 0)
    for k in range(len(D)):
        D = np.minimum(D, D[:, [k]] + D[[k], :])  # Floyd-Warshall, one pivot per step
    reach = np.isfinite(D)
    ecc = np.where(reach.all(axis=1), D.max(axis=1), np.inf)
    return {"D": D, "ecc": ecc, "center": np.argmin(ecc), "pairs": np.count_nonzero(reach) - len(D),
            "far": np.argwhere(D == D[reach].max())}


def price_indices(np, p, q):
    p, q = np.asarray(p), np.asarray(q)
    rel = p[1:] / p[:-1]
    chain = np.cumprod(np.r_[1.0, np.prod(rel, axis=1) ** (1 / p.shape[1])])
    laspeyres = (p * q[0]).sum(axis=1) / (p[0] * q[0]).sum()
    paasche = (p * q).sum(axis=1) / (p[0] * q).sum(axis=1)
    fisher = np.sqrt(laspeyres * paasche)
    return {"chain": chain, "lasp": laspeyres, "paas": paasche, "fisher": fisher,
            "units": np.prod(q[:2], axis=0, dtype=np.int64), "cum": np.cumprod(q[:, 0], dtype=float)}


def gappy_returns(np, prices):
    prices = np.asarray(prices)
    r = prices[1:] / prices[:-1]
    growth = np.nanprod(r, axis=0)
    cum = np.nancumsum(np.log(r), axis=0)
    d1 = np.ediff1d(prices[:, 0], to_begin=0.0, to_end=[np.nan, -1.0])
    d2 = np.diff(prices[:, 1], n=2, prepend=prices[0, 1], append=[prices[-1, 1], prices[-1, 1]])
    acc = np.diff(prices, n=2, axis=0)
    return {"growth": growth, "cum": cum, "d1": d1, "d2": d2, "acc": acc, "all_nan": np.nanprod(r[:, 2]),
            "nprod_int": np.nanprod(np.array([2, 3, 4])), "ncs_int": np.nancumsum(np.array([[1, 2], [3, 4]]))}


def dock_rules(np, loads, open_flags):
    loads, open_flags = np.asarray(loads), np.asarray(open_flags, dtype=bool)
    peak = np.maximum.reduce(loads, axis=1, dtype=np.int64)  # widen the uint8 counters first
    low = np.minimum.reduce(loads, axis=0, dtype=np.int16)
    any_open = np.logical_or.reduce(open_flags, axis=1, initial=False)
    all_open = np.logical_and.reduce(open_flags, axis=0, initial=True)
    every_day = np.bitwise_and.reduce(open_flags, axis=1, keepdims=True, initial=1)  # stays bool
    unload = np.zeros(loads.shape[1], dtype=np.int64)
    np.subtract.at(unload, np.array([0, 2, 2, 3]), 5)
    return {"peak": peak, "low": low, "any_open": any_open, "all_open": all_open, "every_day": every_day,
            "unload": unload, "running_max": np.maximum.accumulate(loads, axis=1)}


def test_first_fit_shelves():
    rng = np.random.default_rng(2321)
    check(first_fit_shelves, rng.integers(5, 40, 25), 100)


def test_pick_lists():
    rng = np.random.default_rng(2322)
    check(pick_lists, rng.permutation(200)[:24] * 3 + 1, 5)


def test_slot_maps():
    check(slot_maps, 10, np.array([1, 2, 5, 9, 12]))


def test_stock_id_sets():
    rng = np.random.default_rng(2323)
    check(stock_id_sets, rng.integers(0, 30, 12), rng.integers(10, 40, 15), np.array([3, 11, 17, 25, 99]))


def test_token_counts():
    rng = np.random.default_rng(2324)
    check(token_counts, rng.zipf(1.6, 30) % 12, 14, rtol=1e-3, atol=1e-4)


def test_reachability():
    rng = np.random.default_rng(2325)
    check(reachability, (rng.uniform(size=(7, 7)) < 0.2).astype(int))


def test_shortest_paths():
    rng = np.random.default_rng(2326)
    w = np.where(rng.uniform(size=(6, 6)) < 0.4, rng.integers(1, 9, (6, 6)), 0)
    w[5] = 0  # a sink: rows of inf
    check(shortest_paths, w)


def test_price_indices():
    rng = np.random.default_rng(2327)
    check(price_indices, rng.uniform(1, 3, (6, 4)).cumsum(axis=0), rng.integers(1, 20, (6, 4)), rtol=1e-3)


def test_gappy_returns():
    rng = np.random.default_rng(2328)
    p = rng.uniform(50, 60, (8, 3))
    p[[2, 5], 0] = np.nan
    p[1:, 2] = np.nan
    check(gappy_returns, p, rtol=1e-3, atol=1e-4)


def test_dock_rules():
    rng = np.random.default_rng(2329)
    check(dock_rules, rng.integers(0, 256, (3, 5)).astype(np.uint8), rng.uniform(size=(3, 5)) < 0.7)
