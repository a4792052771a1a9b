"""Tabular data wrangling as NumPy code writes it: group means, sizes and standard deviations by bincount over
unique(return_inverse), a pivot table by add.at with a margins row, a sort by three keys with lexsort and group
boundaries by flatnonzero of diff, de-duplicated rows by unique(axis=0), an inner and a left join by searchsorted,
per-group min/max by minimum.at/maximum.at, ranks within groups, a rolling per-group cumulative sum, calendar
arithmetic without datetime64 (days from civil, weekday, ISO week, month ends), and a printed report
(tests/porting)."""

import numpy as np
from harness import check


def group_stats(np, key_host, val_host):
    key, val = np.asarray(key_host), np.asarray(val_host)
    groups, inv, counts = np.unique(key, return_inverse=True, return_counts=True)
    sums = np.bincount(inv, weights=val)
    means = sums / counts
    sq = np.bincount(inv, weights=(val - means[inv]) ** 2)
    std = np.sqrt(sq / np.maximum(counts - 1, 1))
    gmin = np.full(groups.size, np.inf)
    gmax = np.full(groups.size, -np.inf)
    np.minimum.at(gmin, inv, val)
    np.maximum.at(gmax, inv, val)
    first = np.unique(inv, return_index=True)[1]
    demeaned = val - means[inv]
    return {"groups": groups, "counts": counts, "means": means, "std": std, "min": gmin, "max": gmax,
            "first": first, "demeaned": demeaned, "largest": groups[np.argmax(counts)]}


def pivot_table(np, store_host, month_host, sales_host):
    store, month, sales = map(np.asarray, (store_host, month_host, sales_host))
    stores, si = np.unique(store, return_inverse=True)
    months, mi = np.unique(month, return_inverse=True)
    P = np.zeros((stores.size, months.size))
    np.add.at(P, (si, mi), sales)
    N = np.zeros_like(P, dtype=np.int64)
    np.add.at(N, (si, mi), 1)
    avg = np.divide(P, N, out=np.full_like(P, np.nan), where=N > 0)
    with_margins = np.vstack([np.hstack([P, P.sum(1, keepdims=True)]), np.append(P.sum(0), P.sum())])
    share = P / P.sum(axis=1)[:, np.newaxis]
    best_month = months[P.argmax(axis=1)]
    return {"P": P, "N": N, "avg": avg, "margins": with_margins, "share": share, "best": best_month,
            "text": np.array2string(with_margins, precision=1, suppress_small=True, max_line_width=200)}


def lexsort_three_keys(np, a_host, b_host, c_host):
    a, b, c = map(np.asarray, (a_host, b_host, c_host))
    order = np.lexsort((c, -b, a))
    table = np.column_stack([a, b, c])[order]
    starts = np.flatnonzero(np.diff(table[:, 0], prepend=table[0, 0] - 1))
    sizes = np.diff(np.append(starts, len(table)))
    top_per_a = table[starts]
    rank_in_group = np.arange(len(table)) - np.repeat(starts, sizes)
    return {"order": order, "table": table, "starts": starts, "sizes": sizes, "top": top_per_a,
            "rank": rank_in_group}


def dedupe_rows(np, R_host):
    R = np.asarray(R_host)
    uniq, idx, inv, counts = np.unique(R, axis=0, return_index=True, return_inverse=True, return_counts=True)
    first_order = np.sort(idx)
    kept = R[first_order]
    dup_mask = np.ones(len(R), dtype=bool)
    dup_mask[idx] = False
    rebuilt = uniq[inv.reshape(-1)]
    return {"uniq": uniq, "idx": idx, "inv": inv, "counts": counts, "kept": kept, "dups": np.flatnonzero(dup_mask),
            "rebuilt": bool(np.array_equal(rebuilt, R)), "n": len(uniq)}


def joins_by_searchsorted(np, left_keys_host, right_keys_host, right_vals_host):
    lk = np.asarray(left_keys_host)
    rk, rv = np.asarray(right_keys_host), np.asarray(right_vals_host)
    order = np.argsort(rk)
    rk_s, rv_s = rk[order], rv[order]
    pos = np.searchsorted(rk_s, lk)
    pos_c = np.clip(pos, 0, len(rk_s) - 1)
    found = rk_s[pos_c] == lk
    left = np.where(found, rv_s[pos_c], np.nan)
    inner_l = np.flatnonzero(found)
    inner = np.column_stack([lk[inner_l], rv_s[pos_c[inner_l]]])
    asof = np.searchsorted(rk_s, lk, side="right") - 1
    asof_vals = np.where(asof >= 0, rv_s[np.maximum(asof, 0)], np.nan)
    pos2 = np.searchsorted(rk, lk, sorter=order)
    return {"left": left, "inner": inner, "asof": asof_vals, "found": found, "same_pos": bool((pos2 == pos).all()),
            "n_inner": int(found.sum())}


def group_ranks_and_cumsum(np, key_host, val_host):
    key, val = np.asarray(key_host), np.asarray(val_host)
    order = np.lexsort((val, key))
    k_s = key[order]
    start = np.r_[0, np.flatnonzero(k_s[1:] != k_s[:-1]) + 1]
    counts = np.diff(np.r_[start, k_s.size])
    rank_sorted = np.arange(k_s.size) - np.repeat(start, counts)
    rank = np.empty_like(rank_sorted)
    rank[order] = rank_sorted
    cs = np.cumsum(val[order])
    offset = np.repeat(cs[start] - val[order][start], counts)
    group_cum = np.empty_like(cs)
    group_cum[order] = cs - offset
    pct = (rank + 1) / np.repeat(counts, counts)[np.argsort(order)]
    return {"rank": rank, "group_cum": group_cum, "pct": pct, "totals": np.add.reduceat(val[order], start)}


def calendar_arithmetic(np, y_host, m_host, d_host):
    y, m, d = map(np.asarray, (y_host, m_host, d_host))
    yy = y - (m <= 2)
    era = np.floor_divide(yy, 400)
    yoe = yy - era * 400
    doy = (153 * (m + np.where(m > 2, -3, 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    days = era * 146097 + doe - 719468
    weekday = (days + 3) % 7
    leap = (y % 4 == 0) & ((y % 100 != 0) | (y % 400 == 0))
    month_len = np.array([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
    ml = month_len[m - 1] + (leap & (m == 2))
    cum = np.concatenate([[0], np.cumsum(month_len)[:-1]])
    day_of_year = cum[m - 1] + d + (leap & (m > 2))
    thursday = days - weekday + 3
    iso_week = (thursday - (days - day_of_year + 1)) // 7 + 1
    names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    return {"days": days, "weekday": weekday, "leap": leap, "month_len": ml, "doy": day_of_year,
            "week": iso_week, "gaps": np.diff(np.sort(days)),
            "labels": [f"{a:04d}-{b:02d}-{c:02d} {names[w]}"
                       for a, b, c, w in zip(y.tolist(), m.tolist(), d.tolist(), weekday.tolist(), strict=True)]}


def printed_report(np, key_host, val_host):
    key, val = np.asarray(key_host), np.asarray(val_host)
    k, inv = np.unique(key, return_inverse=True)
    n = np.bincount(inv)
    tot = np.bincount(inv, val)
    mean = tot / n
    lines = ["key     n     total      mean"]
    for g, cnt, t, mu in zip(k, n, tot, mean, strict=True):
        lines.append(f"{g:>3d} {cnt:5d} {t:9.2f} {mu:9.3f}")
    lines.append(f"all {n.sum():5d} {tot.sum():9.2f} {val.mean():9.3f}")
    np.set_printoptions(precision=2, floatmode="fixed")
    try:
        arr = str(mean)
        rep = np.array2string(np.column_stack([k, n]), separator=", ")
    finally:
        np.set_printoptions(precision=8, floatmode="maxprec")
    return {"lines": lines, "arr": arr, "rep": rep, "max_key": f"{k[mean.argmax()]}"}


def ledger_with_reversals(np, account_host, amount_host, reversed_host):
    account, amount = np.asarray(account_host), np.asarray(amount_host, dtype=np.float64)
    signed = amount.copy()
    np.negative.at(signed, np.asarray(reversed_host))
    balance = np.bincount(account, weights=signed, minlength=account.max() + 1)
    running = np.cumsum(signed)
    overdrawn_at = np.flatnonzero(running < 0)
    flags = np.zeros(len(amount), dtype=np.uint8)
    np.invert.at(flags, np.asarray(reversed_host))
    return {"signed": signed, "balance": balance, "running_min": running.min(),
            "first_overdraft": int(overdrawn_at[0]) if overdrawn_at.size else -1, "flags": flags,
            "summary": f"{(signed < 0).sum()} debits, net {signed.sum():+.2f}"}


def test_group_stats_bincount_inverse():
    rng = np.random.default_rng(771)
    check(group_stats, rng.choice([10, 20, 30, 40, 50], 60), rng.normal(50, 10, 60).round(1))


def test_pivot_table_add_at():
    rng = np.random.default_rng(772)
    check(pivot_table, rng.integers(1, 5, 80), rng.integers(1, 7, 80), rng.uniform(10, 100, 80).round(2))


def test_lexsort_three_keys_groups():
    rng = np.random.default_rng(773)
    check(lexsort_three_keys, rng.integers(0, 4, 30), rng.integers(0, 5, 30), rng.integers(0, 100, 30))


def test_dedupe_rows_unique_axis0():
    rng = np.random.default_rng(774)
    check(dedupe_rows, rng.integers(0, 3, (25, 3)))


def test_joins_by_searchsorted():
    rng = np.random.default_rng(775)
    check(joins_by_searchsorted, rng.integers(0, 40, 20), rng.permutation(40)[:15], rng.normal(size=15))


def test_group_ranks_and_cumsum():
    rng = np.random.default_rng(776)
    check(group_ranks_and_cumsum, rng.integers(0, 5, 40), rng.permutation(40) * 1.5)


def test_calendar_arithmetic_without_datetime():
    rng = np.random.default_rng(777)
    y = rng.integers(1899, 2101, 30)
    m = rng.integers(1, 13, 30)
    d = rng.integers(1, 29, 30)
    y[:3], m[:3], d[:3] = [2000, 1900, 2024], [2, 3, 12], [28, 1, 31]
    check(calendar_arithmetic, y, m, d)


def test_printed_group_report():
    rng = np.random.default_rng(778)
    check(printed_report, rng.integers(1, 6, 50), rng.uniform(0, 20, 50).round(2))


def test_ledger_with_reversals_negative_at():
    rng = np.random.default_rng(779)
    check(ledger_with_reversals, rng.integers(0, 5, 40), rng.uniform(5, 50, 40).round(2),
          np.array([3, 7, 7, 12, 20, 31, 31, 31]))
