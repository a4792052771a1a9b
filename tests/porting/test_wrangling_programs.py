"""Data-wrangling programs (no strings): group-bys with unique/bincount, joins with searchsorted, multi-key sorts,
masked fills, reshapes, padding, tiling (tests/porting)."""

import numpy as np
from harness import check


def table(n=40, seed=71):
    rng = np.random.default_rng(seed)
    store = rng.integers(0, 5, n)
    day = rng.integers(1, 8, n)
    qty = rng.integers(1, 20, n)
    price = rng.uniform(1, 50, n).round(2)
    return store, day, qty, price


def groupby_multi_key(np, store_host, day_host, qty_host, price_host):
    store, day, qty, price = (np.asarray(a) for a in (store_host, day_host, qty_host, price_host))
    revenue = qty * price
    keys = np.stack([store, day], axis=1)
    uk, inv, cnt = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
    inv = inv.ravel()
    rev_by = np.bincount(inv, weights=revenue)
    qty_by = np.bincount(inv, weights=qty).astype(int)
    pivot = np.zeros((5, 8))
    np.add.at(pivot, (store, day), revenue)
    best_day = pivot.argmax(axis=1)
    share = pivot / pivot.sum(axis=1, keepdims=True)
    first_idx = np.unique(store, return_index=True)[1]
    mx = np.full(5, -np.inf)
    np.maximum.at(mx, store, price)
    return {"uk": uk, "cnt": cnt, "rev_by": rev_by, "qty_by": qty_by, "pivot": pivot, "best_day": best_day,
            "share": np.nan_to_num(share), "first": first_idx, "max_price": mx}


def joins_and_lookups(np, store_host, qty_host):
    store, qty = np.asarray(store_host), np.asarray(qty_host)
    dim_ids = np.array([4, 0, 2, 3, 7])
    dim_region = np.array([1, 0, 1, 2, 2])
    order = np.argsort(dim_ids)
    pos = np.searchsorted(dim_ids, store, sorter=order)
    pos = np.clip(pos, 0, len(dim_ids) - 1)
    found = dim_ids[order[pos]] == store
    region = np.where(found, dim_region[order[pos]], -1)
    in_dim = np.isin(store, dim_ids)
    missing = np.unique(store[~in_dim])
    common, ia, ib = np.intersect1d(store, dim_ids, return_indices=True)
    lookup = np.full(10, -1)
    lookup[dim_ids] = dim_region
    region2 = lookup[store]
    totals = np.bincount(region[found], weights=qty[found], minlength=3)
    return {"region": region, "same": bool(np.array_equal(region, region2)), "in_dim": in_dim, "missing": missing,
            "common": common, "ia": ia, "ib": ib, "totals": totals, "union": np.union1d(store, dim_ids),
            "xor": np.setxor1d(store, dim_ids)}


def multi_key_sorts(np, store_host, day_host, price_host):
    store, day, price = np.asarray(store_host), np.asarray(day_host), np.asarray(price_host)
    order = np.lexsort((-price, day, store))
    rows = np.column_stack([store, day, price])[order]
    rec = np.stack([store, day], 1)
    by_two = np.argsort(store * 100 + day, kind="stable")
    top_per_store = []
    for s in np.unique(store):
        idx = np.flatnonzero(store == s)
        top_per_store.append(int(idx[np.argmax(price[idx])]))
    ranks_within = np.empty(len(store), dtype=int)
    for s in np.unique(store):
        idx = np.flatnonzero(store == s)
        ranks_within[idx] = np.argsort(np.argsort(-price[idx], kind="stable"), kind="stable")
    desc = np.sort(price)[::-1]
    part = np.partition(price, 5)[:5]
    return {"rows": rows, "by_two": rec[by_two], "top": top_per_store, "ranks": ranks_within, "desc": desc,
            "part_sorted": np.sort(part), "kth": float(np.partition(price, -3)[-3])}


def masked_fills(np, x_host):
    x = np.array(x_host, dtype=float)
    x[::7] = np.nan
    x[x > 1.8] = np.inf
    finite = np.isfinite(x)
    filled_mean = np.where(finite, x, np.nanmean(np.where(finite, x, np.nan)))
    idx = np.where(finite, np.arange(len(x)), 0)
    np.maximum.accumulate(idx, out=idx)
    ffill = x[idx]
    interp = x.copy()
    bad = ~finite
    interp[bad] = np.interp(np.flatnonzero(bad), np.flatnonzero(finite), x[finite])
    clipped = np.nan_to_num(x, nan=0.0, posinf=9.0, neginf=-9.0)
    x2 = x.copy()
    np.copyto(x2, 0.0, where=~finite)
    np.putmask(x2, x2 < -1, -1)
    runs = np.diff(np.concatenate([[0], bad.astype(int), [0]]))
    starts, ends = np.flatnonzero(runs == 1), np.flatnonzero(runs == -1)
    return {"mean": filled_mean, "ffill": ffill, "interp": interp, "clip": clipped, "x2": x2,
            "runs": np.stack([starts, ends - starts]), "n_bad": int(bad.sum())}


def reshapes_and_layout(np, a_host):
    a = np.asarray(a_host)
    m = a.reshape(4, 6)
    blocks = m.reshape(2, 2, 3, 2).transpose(0, 2, 1, 3).reshape(-1, 4)
    top, bottom = np.split(m, 2)
    left, mid, right = np.split(m, [2, 4], axis=1)
    parts = np.array_split(a, 5)
    stacked = np.stack([top, bottom], axis=-1)
    back = np.concatenate(np.split(stacked, 2, axis=-1), axis=0)[..., 0]
    padded = np.pad(m, ((1, 0), (2, 1)), mode="wrap")
    reflect = np.pad(a[:5], 3, mode="reflect")
    sym = np.pad(a[:5], (2, 1), mode="symmetric")
    tiled = np.tile(a[:3], (2, 2))
    rep = np.repeat(m[:2], [1, 3], axis=0)
    rep_el = np.repeat(a[:4], 2)
    blk = np.block([[m[:2, :2], np.zeros((2, 1), m.dtype)], [np.ones((1, 2), m.dtype), m[:1, :1]]])
    rolled = np.roll(m, 1, axis=None)
    sw = np.swapaxes(stacked, 0, 2)
    return {"blocks": blocks, "left": left, "mid": mid, "right": right, "parts": [p.tolist() for p in parts],
            "back": back, "pad": padded, "reflect": reflect, "sym": sym, "tiled": tiled, "rep": rep, "rep_el": rep_el,
            "blk": blk, "rolled": rolled, "sw": sw.shape, "ok": bool(np.array_equal(back, m))}


def dedup_and_windows(np, events_host):
    ev = np.asarray(events_host)
    t, user = ev[:, 0], ev[:, 1]
    order = np.lexsort((t, user))
    t, user = t[order], user[order]
    new_user = np.r_[True, user[1:] != user[:-1]]
    gap = np.r_[np.inf, np.diff(t)]
    new_session = new_user | (gap > 5)
    session_id = np.cumsum(new_session) - 1
    sess_len = np.bincount(session_id)
    sess_user = user[new_session]
    per_user = np.bincount(sess_user)
    dup = np.r_[False, (t[1:] == t[:-1]) & ~new_user[1:]]
    first_t = t[new_session]
    last_t = np.maximum.reduceat(t, np.flatnonzero(new_session))
    dur = last_t - first_t
    return {"session": session_id, "len": sess_len, "per_user": per_user, "dups": int(dup.sum()),
            "dur": dur, "longest": int(np.argmax(dur))}


def feature_cleaning(np, X_host, y_host):
    X = np.array(X_host, dtype=np.float32)
    y = np.asarray(y_host)
    X[y == 0, 0] = 0.0                      # a mask on rows, an int column
    X[y == 2, 1:] *= -1
    X[0, X[0] > 0] = 1.0                    # an int row, a mask on columns
    col_max = X.max(axis=0)
    X[:, col_max > 2] /= col_max[col_max > 2]
    flags = (X > 0).astype(np.int32) << np.arange(X.shape[1])
    code = np.bitwise_or.reduce(flags, axis=1)
    any_odd = np.bitwise_xor.reduce(flags, axis=1)
    F = X.copy(order="F")
    F[0, 0] = 99.0
    sizes = np.bincount(y) * 6
    step = int(np.gcd.reduce(sizes))
    common = int(np.lcm.reduce(np.array([2, 3, 4])))
    return {"X": X, "code": code, "odd": any_odd, "changed": bool(X[0, 0] != 99.0), "step": step,
            "common": common, "c_contig": bool(F.shape == X.shape)}


def test_groupby_unique_axis0_pivot_add_at():
    check(groupby_multi_key, *table(), rtol=1e-4, atol=1e-3)


def test_searchsorted_join_isin_set_ops():
    store, _, qty, _ = table()
    check(joins_and_lookups, store * 2 % 9, qty)


def test_lexsort_multi_key_and_group_ranks():
    store, day, _, price = table()
    check(multi_key_sorts, store, day, price, rtol=1e-5, atol=1e-4)


def test_masked_fills_forward_fill_interp():
    check(masked_fills, np.random.default_rng(72).normal(size=30))


def test_reshape_split_pad_tile_repeat_block():
    check(reshapes_and_layout, np.arange(24))


def test_sessionise_events_reduceat():
    rng = np.random.default_rng(73)
    ev = np.column_stack([rng.integers(0, 60, 50), rng.integers(0, 6, 50)])
    check(dedup_and_windows, ev)


def test_feature_cleaning_mask_with_ints_and_bit_reductions():
    rng = np.random.default_rng(74)
    check(feature_cleaning, rng.normal(0, 2, size=(12, 4)), rng.integers(0, 3, 12), rtol=1e-5, atol=1e-6)
