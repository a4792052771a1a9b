"""Short recipes from the most-asked NumPy questions, written as their answers do: mapping values through a
dict with sorted keys and searchsorted, splitting runs of consecutive values, cartesian products from meshgrid,
interleaving arrays by strided assignment, the nearest value and the indices of the N largest, the most
frequent value, group splits at unique's first indices, checks for sorted/monotone arrays, and cleaning
image channels with nan_to_num(copy=False), X[..., keep] and bins="stone" (tests/porting)."""

import numpy as np
from harness import check


def map_with_dict(np, codes_host):
    mapping = {3: 0.5, 7: 1.25, 11: -2.0, 19: 4.0}
    a = np.asarray(codes_host)
    keys = np.array(list(mapping.keys()))
    values = np.array(list(mapping.values()))
    sidx = keys.argsort()
    pos = np.searchsorted(keys, a, sorter=sidx)
    pos = np.clip(pos, 0, len(keys) - 1)
    found = keys[sidx[pos]] == a
    mapped = np.where(found, values[sidx[pos]], np.nan)
    lut = np.full(keys.max() + 1, -1.0)
    lut[keys] = values
    via_lut = lut[a]
    as_list = np.array([mapping.get(int(x), np.nan) for x in a])
    return {"mapped": mapped, "found": found, "via_lut": via_lut, "as_list": as_list}


def consecutive_runs(np, values_host):
    a = np.sort(np.unique(np.asarray(values_host)))
    runs = np.split(a, np.where(np.diff(a) != 1)[0] + 1)
    longest = max(runs, key=len)
    starts = np.array([r[0] for r in runs])
    lengths = np.array([len(r) for r in runs])
    labels = ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else f"{r[0]}" for r in runs)
    return {"starts": starts, "lengths": lengths, "longest": longest, "labels": labels}


def cartesian_products(np):
    a, b, c = np.array([1, 2, 3]), np.array([10, 20]), np.array([0.5, 1.5])
    ab = np.array(np.meshgrid(a, b)).T.reshape(-1, 2)
    abc = np.stack(np.meshgrid(a, b, c, indexing="ij"), axis=-1).reshape(-1, 3)
    idx = np.indices((len(a), len(b))).reshape(2, -1).T
    tiled = np.column_stack([np.repeat(a, len(b)), np.tile(b, len(a))])
    pairs = np.column_stack([a[idx[:, 0]], b[idx[:, 1]]])
    return {"ab": ab, "abc": abc, "idx": idx, "tiled": tiled, "same": bool(np.array_equal(ab, tiled)),
            "pairs": pairs}


def interleave(np, a_host, b_host):
    a, b = np.asarray(a_host), np.asarray(b_host)
    c = np.empty(a.size + b.size, dtype=a.dtype)
    c[0::2] = a
    c[1::2] = b
    d = np.vstack([a, b]).ravel("F")
    e = np.dstack([a, b]).ravel()
    blocks = np.empty((2 * len(a), 2))
    blocks[::2] = np.column_stack([a, a])
    blocks[1::2] = np.column_stack([b, -b])
    return {"c": c, "d": d, "e": e, "blocks": blocks}


def nearest_and_top_n(np, x_host, targets_host, n=4):
    x, t = np.asarray(x_host), np.asarray(targets_host)
    nearest_idx = np.abs(x[:, None] - t[None, :]).argmin(axis=0)
    nearest = x[nearest_idx]
    top = np.argsort(x)[-n:][::-1]
    top_part = np.argpartition(x, -n)[-n:]
    top_part = top_part[np.argsort(x[top_part])][::-1]
    bottom_vals = np.sort(x)[:n]
    return {"nearest_idx": nearest_idx, "nearest": nearest, "top": top, "same": bool(np.array_equal(top, top_part)),
            "bottom": bottom_vals, "rank_of_first": int((x > x[0]).sum())}


def most_frequent(np, labels_host, M_host):
    labels = np.asarray(labels_host)
    counts = np.bincount(labels)
    mode = np.argmax(counts)
    vals, cnts = np.unique(labels, return_counts=True)
    mode2 = vals[cnts.argmax()]
    M = np.asarray(M_host)
    row_modes = np.array([np.bincount(row).argmax() for row in M])
    col_modes = np.apply_along_axis(lambda c: np.bincount(c, minlength=6).argmax(), 0, M)
    ties = np.flatnonzero(counts == counts.max())
    return {"mode": int(mode), "mode2": int(mode2), "row_modes": row_modes, "col_modes": col_modes, "ties": ties,
            "share": float(counts.max() / counts.sum())}


def group_splits(np, keys_host, values_host):
    keys, values = np.asarray(keys_host), np.asarray(values_host)
    order = np.argsort(keys, kind="stable")
    k_sorted, v_sorted = keys[order], values[order]
    uniq, first = np.unique(k_sorted, return_index=True)
    groups = np.split(v_sorted, first[1:])
    sums = np.array([g.sum() for g in groups])
    means = np.array([g.mean() for g in groups])
    maxes = np.maximum.reduceat(v_sorted, first)
    spans = [float(np.ptp(g)) for g in groups]
    return {"uniq": uniq, "sums": sums, "means": means, "maxes": maxes, "spans": spans, "sizes": np.diff(
        np.r_[first, len(keys)])}


def sorted_checks(np, a_host):
    a = np.asarray(a_host)
    is_sorted = bool(np.all(a[:-1] <= a[1:]))
    strictly = bool(np.all(np.diff(a) > 0))
    s = np.sort(a)
    rows = np.sort(np.asarray(a_host).reshape(4, -1), axis=1)
    rows_sorted = np.all(np.diff(rows, axis=1) >= 0, axis=1)
    descending = bool(np.all(np.diff(s[::-1]) <= 0))
    first_drop = int(np.argmax(np.diff(a) < 0)) if not is_sorted else -1
    return {"is_sorted": is_sorted, "strictly": strictly, "s_sorted": bool(np.all(s[:-1] <= s[1:])),
            "rows_sorted": rows_sorted, "descending": descending, "first_drop": first_drop,
            "dupes": int(len(a) - len(np.unique(a)))}


def channel_cleanup(np, img_host):
    img = np.asarray(img_host).copy()
    np.nan_to_num(img, copy=False, nan=0.0)
    spread = img.reshape(-1, img.shape[-1]).std(axis=0)
    keep = spread > 0.3
    kept = img[..., keep]
    img[..., ~keep] = 0
    counts, edges = np.histogram(kept.ravel(), bins="stone")
    scale = img.dtype.type(255)
    kind = "double" if isinstance(scale, np.float64) else "other"
    per_pixel = np.apply_along_axis(np.count_nonzero, -1, img[..., keep] > 0.5)
    return {"img": img, "kept_shape": kept.shape, "counts": counts, "edges": edges, "kind": kind,
            "per_pixel": per_pixel, "n_bins": len(counts)}


def test_map_values_through_dict_searchsorted():
    check(map_with_dict, np.array([3, 7, 7, 19, 11, 3, 5, 19, 0]))


def test_split_consecutive_runs():
    check(consecutive_runs, np.array([1, 2, 3, 7, 8, 12, 15, 16, 17, 18, 30, 2, 8]))


def test_cartesian_products_meshgrid_indices():
    check(cartesian_products)


def test_interleave_by_strided_assignment():
    rng = np.random.default_rng(724)
    check(interleave, rng.normal(size=6), rng.normal(size=6))


def test_nearest_value_and_top_n():
    rng = np.random.default_rng(725)
    check(nearest_and_top_n, rng.permutation(40) * 0.5, np.array([3.3, -1.0, 10.1, 100.0]))


def test_most_frequent_bincount_apply_along_axis():
    rng = np.random.default_rng(726)
    check(most_frequent, rng.integers(0, 7, 50), rng.integers(0, 6, (5, 9)))


def test_group_splits_at_unique_first_index():
    rng = np.random.default_rng(727)
    check(group_splits, rng.integers(0, 5, 30), rng.normal(size=30).round(3))


def test_sorted_and_monotone_checks():
    rng = np.random.default_rng(728)
    check(sorted_checks, rng.integers(0, 30, 20))
    check(sorted_checks, np.arange(20) * 2)


def test_channel_cleanup_ellipsis_mask_nan_to_num_stone():
    rng = np.random.default_rng(729)
    img = rng.random((6, 7, 5))
    img[..., 1] = 0.5
    img[..., 3] *= 0.1
    img[rng.random((6, 7, 5)) < 0.05] = np.nan
    check(channel_cleanup, img)
