"""Group-by and ranking programs without pandas: np.unique with return_inverse/counts/index (also on rows),
lexsort multi-key sorting, argpartition top-k, split by group boundaries, pivot tables with np.add.at,
within-group ranks and cumulative counts, set operations on ids (tests/porting)."""

import numpy as np
from harness import check


def sales_groupby(np, store_host, amount_host):
    store, amount = np.asarray(store_host), np.asarray(amount_host)
    keys, inv, counts = np.unique(store, return_inverse=True, return_counts=True)
    totals = np.bincount(inv, weights=amount)
    means = totals / counts
    sq = np.bincount(inv, weights=amount**2)
    stds = np.sqrt(sq / counts - means**2)
    maxes = np.full(len(keys), -np.inf)
    np.maximum.at(maxes, inv, amount)
    mins = np.full(len(keys), np.inf)
    np.minimum.at(mins, inv, amount)
    order = np.argsort(inv, kind="stable")
    bounds = np.cumsum(counts)[:-1]
    groups = np.split(amount[order], bounds)
    medians = np.array([np.median(g) for g in groups])
    first_idx = np.unique(store, return_index=True)[1]
    best = keys[np.argmax(totals)]
    return {"keys": keys, "counts": counts, "totals": totals, "means": means, "stds": stds, "maxes": maxes,
            "mins": mins, "medians": medians, "first": first_idx, "best": best, "n_groups": len(groups)}


def leaderboard_lexsort(np, team_host, score_host, time_host):
    team, score, time = np.asarray(team_host), np.asarray(score_host), np.asarray(time_host)
    order = np.lexsort((time, -score, team))
    ranked = np.column_stack([team[order], score[order], time[order]])
    overall = np.lexsort((time, -score))
    pos = np.empty(len(score), dtype=int)
    pos[overall] = np.arange(1, len(score) + 1)
    is_first = np.r_[True, team[order][1:] != team[order][:-1]]
    winners = order[is_first]
    start = np.flatnonzero(is_first)
    run_id = np.cumsum(is_first) - 1
    within = np.arange(len(order)) - start[run_id]
    dense = np.unique(-score, return_inverse=True)[1] + 1
    return {"ranked": ranked, "pos": pos, "winners": winners, "within": within, "dense": dense.ravel(),
            "argsort_desc": np.argsort(-score, kind="stable")}


def topk_per_row(np, S_host, k=3):
    S = np.asarray(S_host)
    part = np.argpartition(-S, k - 1, axis=1)[:, :k]
    vals = np.take_along_axis(S, part, axis=1)
    order = np.argsort(-vals, axis=1, kind="stable")
    topk = np.take_along_axis(part, order, axis=1)
    topv = np.take_along_axis(vals, order, axis=1)
    kth = np.partition(S, -k, axis=1)[:, -k]
    mask = S >= kth[:, None]
    flat_top = np.argpartition(S.ravel(), -5)[-5:]
    rows, cols = np.unravel_index(flat_top[np.argsort(-S.ravel()[flat_top])], S.shape)
    smallest = np.sort(np.partition(S[0], 2)[:3])
    return {"topk": topk, "topv": topv, "kth": kth, "n_mask": mask.sum(axis=1), "rows": rows, "cols": cols,
            "smallest": smallest}


def pivot_table(np, region_host, month_host, units_host):
    region, month, units = np.asarray(region_host), np.asarray(month_host), np.asarray(units_host)
    regions, r_idx = np.unique(region, return_inverse=True)
    months, m_idx = np.unique(month, return_inverse=True)
    table = np.zeros((len(regions), len(months)))
    np.add.at(table, (r_idx, m_idx), units)
    counts = np.zeros((len(regions), len(months)), dtype=int)
    np.add.at(counts, (r_idx, m_idx), 1)
    avg = np.divide(table, counts, out=np.full(table.shape, np.nan), where=counts > 0)
    flat = np.bincount(r_idx * len(months) + m_idx, weights=units, minlength=table.size).reshape(table.shape)
    share = table / table.sum(axis=1, keepdims=True)
    growth = np.diff(table, axis=1) / np.where(table[:, :-1] == 0, 1, table[:, :-1])
    return {"table": table, "counts": counts, "avg": avg, "same": bool(np.allclose(flat, table)), "share": share,
            "growth": growth, "best_month": months[table.sum(axis=0).argmax()], "months": months}


def dedupe_rows(np, rows_host):
    rows = np.asarray(rows_host)
    uniq, idx, inv, cnt = np.unique(rows, axis=0, return_index=True, return_inverse=True, return_counts=True)
    dup_rows = uniq[cnt > 1]
    keep_first = rows[np.sort(idx)]
    is_dup = np.ones(len(rows), dtype=bool)
    is_dup[idx] = False
    res = np.unique_counts(rows[:, 0])
    allres = np.unique_all(rows[:, 1])
    return {"uniq": uniq, "idx": idx, "inv": inv.ravel(), "cnt": cnt, "dup_rows": dup_rows, "keep": keep_first,
            "is_dup": is_dup, "uc_values": res.values, "uc_counts": res.counts, "ua_idx": allres.indices,
            "ua_inv": allres.inverse_indices, "vals": np.sort(np.unique_values(rows[:, 1]))}


def customer_sets(np, a_host, b_host):
    a, b = np.asarray(a_host), np.asarray(b_host)
    both, ia, ib = np.intersect1d(a, b, return_indices=True)
    only_a = np.setdiff1d(a, b)
    either = np.union1d(a, b)
    sym = np.setxor1d(a, b)
    in_b = np.isin(a, b)
    not_b = np.isin(a, b, invert=True)
    churn = not_b.mean()
    new = b[~np.isin(b, a)]
    empty = np.intersect1d(a[a > 1000], b)
    flags = [int(c) in b for c in a]
    vip = 13 in a and 99 not in b
    return {"both": both, "ia": ia, "ib": ib, "only_a": only_a, "either": either, "sym": sym, "in_b": in_b,
            "churn": float(churn), "new": new, "empty": empty, "jaccard": len(both) / len(either),
            "flags": flags, "vip": vip}


def test_unique_inverse_counts_bincount_split():
    rng = np.random.default_rng(331)
    check(sales_groupby, rng.choice([101, 205, 307, 412], size=60), rng.gamma(2, 30, size=60).round(2))


def test_lexsort_leaderboard_within_group_rank():
    rng = np.random.default_rng(332)
    check(leaderboard_lexsort, rng.integers(0, 4, 20), rng.integers(50, 60, 20), rng.integers(100, 200, 20))


def test_argpartition_partition_topk():
    check(topk_per_row, np.random.default_rng(333).permutation(48).reshape(6, 8) * 1.5)


def test_pivot_add_at_two_indices():
    rng = np.random.default_rng(334)
    check(pivot_table, rng.integers(0, 3, 40) * 10, rng.integers(1, 6, 40), rng.integers(1, 20, 40).astype(float))


def test_unique_rows_unique_all_counts():
    rng = np.random.default_rng(335)
    check(dedupe_rows, rng.integers(0, 3, size=(15, 3)))


def test_set_operations_isin_invert():
    check(customer_sets, np.array([5, 1, 9, 3, 7, 11, 13]), np.array([3, 4, 5, 6, 13, 2]))
