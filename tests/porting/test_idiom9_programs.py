"""Programs built from popular Stack Overflow NumPy answers, ported by ``np`` -> ``kd``: unique rows with counts,
multi-key ``lexsort``, ``digitize(right=True)``, searching sorted 2-d rows through offsets, group-by by argsort
and ``split``, ``ix_`` reads and writes, sparse ``meshgrid``, ``einsum`` traces and diagonals, ``put``/``place``/
``putmask``/``copyto(where=)``, ``choose``, ``apply_along_axis``/``apply_over_axes``, ``piecewise``,
``fromfunction``, set routines, NaN-aware reductions over all-NaN rows, masked reductions, several-axis ``roll``,
``rot90``/``flip``, triangle and diagonal indices, ``ravel_multi_index`` modes, run-length encoding, rolling means
by ``cumsum``, first occurrences by ``argmax``, ``count_nonzero(axis=)``, ``array_equal(equal_nan=True)`` and
memory-sharing queries, masked sorting (tests/porting)."""

import warnings

import numpy as np
from harness import check


def unique_rows(np, X_host):
    X = np.asarray(X_host)
    rows, first, inverse, counts = np.unique(X, axis=0, return_index=True, return_inverse=True,
                                             return_counts=True)
    commonest = rows[np.argmax(counts)]
    cols, col_counts = np.unique(X, axis=1, return_counts=True)
    rebuilt = rows[inverse.ravel()]
    dupes = rows[counts > 1]
    return {"rows": rows, "first": first, "inverse": inverse.ravel(), "counts": counts, "commonest": commonest,
            "cols": cols, "col_counts": col_counts, "rebuilt": rebuilt, "dupes": dupes,
            "n_unique": len(rows)}


def multi_key_sort(np, last_host, first_host, age_host, M_host):
    last, first, age = np.asarray(last_host), np.asarray(first_host), np.asarray(age_host)
    by_name = np.lexsort((first, last))  # last name, then first name
    by_name_age_desc = np.lexsort((-age, first, last))
    keys = np.stack([age, first, last])  # a 2-d key array: rows are keys, the last row sorts first
    from_2d = np.lexsort(keys)
    M = np.asarray(M_host)
    rows_sorted = M[np.lexsort(M.T[::-1])]  # sort the rows by column 0, then 1, then 2
    rank = np.empty_like(by_name)
    rank[by_name] = np.arange(len(by_name))
    return {"by_name": by_name, "by_name_age_desc": by_name_age_desc, "from_2d": from_2d,
            "rows_sorted": rows_sorted, "rank": rank}


def binning_right_edges(np, x_host):
    x = np.asarray(x_host)
    edges = np.array([0.0, 1.0, 2.5, 4.0])
    left = np.digitize(x, edges)
    right = np.digitize(x, edges, right=True)
    falling = np.digitize(x, edges[::-1], right=True)  # decreasing bins
    ints = np.digitize(np.arange(6), [1, 3, 3, 5], right=True)
    counts = np.bincount(right, minlength=len(edges) + 1)
    ss_left = np.searchsorted(edges, x, side="left")
    agree = bool(np.array_equal(right, ss_left))
    return {"left": left, "right": right, "falling": falling, "ints": ints, "counts": counts, "agree": agree}


def searchsorted_rows(np, A_host, V_host):
    A, V = np.asarray(A_host), np.asarray(V_host)  # each row of A sorted; find V's row i in A's row i
    n, m = A.shape
    span = max(A.max(), V.max()) - min(A.min(), V.min()) + 1
    offset = span * np.arange(n)[:, None]
    flat = np.searchsorted((A + offset).ravel(), (V + offset).ravel()).reshape(V.shape)
    pos = flat - m * np.arange(n)[:, None]
    right = np.searchsorted((A + offset).ravel(), (V + offset).ravel(), side="right").reshape(V.shape)
    loop = np.array([np.searchsorted(A[i], V[i]) for i in range(n)])
    return {"pos": pos, "right": right - m * np.arange(n)[:, None], "loop": loop}


def group_by_split(np, keys_host, vals_host):
    keys, vals = np.asarray(keys_host), np.asarray(vals_host)
    order = np.argsort(keys, kind="stable")
    sk, sv = keys[order], vals[order]
    cuts = np.flatnonzero(np.diff(sk)) + 1
    groups = np.split(sv, cuts)
    labels = sk[np.r_[0, cuts]]
    sums = np.add.reduceat(sv, np.r_[0, cuts])
    maxes = np.maximum.reduceat(sv, np.r_[0, cuts])
    sizes = np.diff(np.r_[0, cuts, len(sk)])
    return {"labels": labels, "sums": sums, "maxes": maxes, "sizes": sizes,
            "means": [float(g.mean()) for g in groups], "firsts": [float(g[0]) for g in groups]}


def ix_select_assign(np, A_host):
    A = np.asarray(A_host)
    rows, cols = [0, 2, 3], [1, 4]
    block = A[np.ix_(rows, cols)]
    mask = A[:, 0] > 0
    masked_block = A[np.ix_(mask, [0, 2])]
    B = A.copy()
    B[np.ix_(rows, cols)] = 0.0
    C = A.copy()
    C[np.ix_([1, 1, 2], [0, 3])] += 1.0  # duplicates: buffered, applied once
    D = A.copy()
    D[np.ix_(rows, cols)] = np.arange(6).reshape(3, 2)
    T = np.arange(24).reshape(2, 3, 4)
    cube = T[np.ix_([1, 0], [2, 0], [3, 1, 0])]
    a, b = np.ix_(np.arange(3), np.arange(4))
    table = a * 10 + b
    return {"block": block, "masked_block": masked_block, "B": B, "C": C, "D": D, "cube": cube, "table": table,
            "shapes": [a.shape, b.shape]}


def sparse_grids(np, n_host):
    n = int(n_host)
    x, y = np.linspace(-1, 1, n), np.linspace(0, 2, n + 2)
    xi, yj = np.meshgrid(x, y, indexing="ij", sparse=True)
    f = np.exp(-(xi ** 2)) * np.cos(yj)
    xs, ys = np.meshgrid(x, y, sparse=True)
    g = xs + 10 * ys
    XI, YJ = np.meshgrid(x, y, indexing="ij")
    I, J, K = np.meshgrid(np.arange(2), np.arange(3), np.arange(4), indexing="ij", sparse=True)
    return {"shapes": [xi.shape, yj.shape, xs.shape, ys.shape, I.shape, J.shape, K.shape], "f": f, "g": g,
            "same": bool(np.allclose(f, np.exp(-(XI ** 2)) * np.cos(YJ))), "idx": I * 100 + J * 10 + K,
            "grid_sum": float(f.sum())}


def einsum_diagonals(np, A_host, S_host):
    A, S = np.asarray(A_host), np.asarray(S_host)  # A square, S a batch of square matrices
    diag = np.einsum("ii->i", A)
    trace = np.einsum("ii", A)
    batch_trace = np.einsum("...ii->...", S)
    batch_diag = np.einsum("...ii->...i", S)
    batch_mm = np.einsum("...ij,...jk->...ik", S, S)
    row_dots = np.einsum("ij,ij->i", A, A)
    total = np.einsum("ij->", A)
    frob = np.sqrt(np.einsum("...ij,...ij->...", S, S))
    quad = np.einsum("i,ij,j", A[0], A, A[1])
    return {"diag": diag, "trace": trace, "batch_trace": batch_trace, "batch_diag": batch_diag,
            "batch_mm": batch_mm, "row_dots": row_dots, "total": total, "frob": frob, "quad": quad,
            "check": bool(np.allclose(batch_trace, np.trace(S, axis1=-2, axis2=-1)))}


def put_place_putmask(np, a_host):
    a = np.asarray(a_host)
    p = a.copy()
    np.put(p, [0, -1], [-5.0, -6.0])
    w = a.copy()
    np.put(w, [11, -13], [1.0, 2.0], mode="wrap")
    c = a.copy()
    np.put(c, [100, -100], [7.0, 8.0], mode="clip")
    pl = a.copy()
    np.place(pl, pl > 0.5, [10.0, 20.0])  # the values cycle over the selected places
    pm = a.copy()
    np.putmask(pm, pm > 0.5, [100.0, 200.0, 300.0])  # the values cycle by position
    ct = np.zeros_like(a)
    np.copyto(ct, a, where=a < 0.3)
    ci = np.full(a.shape, -1, dtype=int)
    np.copyto(ci, np.arange(a.size).reshape(a.shape), where=a > 0.7)
    M = a.reshape(3, 4).copy()
    np.put(M, [1, 5], 0.0)  # flat indices into a 2-d array
    return {"p": p, "w": w, "c": c, "pl": pl, "pm": pm, "ct": ct, "ci": ci, "M": M}


def choose_modes(np, idx_host):
    idx = np.asarray(idx_host)
    choices = [np.arange(6) * 1, np.arange(6) * 10, np.arange(6) * 100]
    picked = np.choose(idx % 3, choices)
    clipped = np.choose(idx, choices, mode="clip")
    wrapped = np.choose(idx, choices, mode="wrap")
    grid = np.choose(np.array([[0, 1], [2, 0]]), [np.zeros((2, 2)), 5, np.array([7.0, 8.0])])  # broadcast
    out = np.empty(6, dtype=int)
    np.choose(idx % 3, choices, out=out)
    return {"picked": picked, "clipped": clipped, "wrapped": wrapped, "grid": grid, "out": out}


def along_and_over_axes(np, X_host):
    X = np.asarray(X_host)
    ranks = np.apply_along_axis(lambda r: np.argsort(np.argsort(r)), 1, X)
    spread = np.apply_along_axis(lambda c: c.max() - c.min(), 0, X)
    trimmed = np.apply_along_axis(lambda r: np.sort(r)[1:-1].mean(), 1, X)
    pairs = np.apply_along_axis(lambda r: np.array([r.min(), r.max()]), 1, X)
    T = X.reshape(2, 3, 4)
    over = np.apply_over_axes(np.sum, T, [0, 2])
    over_mean = np.apply_over_axes(np.mean, T, 1)
    return {"ranks": ranks, "spread": spread, "trimmed": trimmed, "pairs": pairs, "over": over,
            "over_mean": over_mean}


def piecewise_and_fromfunction(np, x_host):
    x = np.asarray(x_host)
    tri = np.piecewise(x, [x < -1, (x >= -1) & (x < 1), x >= 1], [0.0, lambda v: 1 - np.abs(v), 0.0])
    step = np.piecewise(x, [x < 0], [-1.0, 1.0])  # one condition more than... one function more: the default
    ramp = np.piecewise(x, [x < 0, x > 2], [lambda v: v ** 2, lambda v: 2 * v, lambda v: v + 0.5])
    eye = np.fromfunction(lambda i, j: i == j, (3, 4), dtype=int)
    hilbert = np.fromfunction(lambda i, j: 1.0 / (i + j + 1), (4, 4))
    mult = np.fromfunction(lambda i, j: (i + 1) * (j + 1), (3, 5), dtype=int)
    return {"tri": tri, "step": step, "ramp": ramp, "eye": eye, "hilbert": hilbert, "mult": mult}


def set_routines(np, a_host, b_host):
    a, b = np.asarray(a_host), np.asarray(b_host)
    common, ia, ib = np.intersect1d(a, b, return_indices=True)
    only_a = np.setdiff1d(a, b)
    either = np.union1d(a, b)
    one_side = np.setxor1d(a, b)
    in_b = np.isin(a, b)
    not_in_b = np.isin(a, b, invert=True)
    M = a[:12].reshape(3, 4)
    grid_in = np.isin(M, [1, 3, 5])
    kept = a[~np.isin(a, [0, 1])]
    return {"common": common, "ia": ia, "ib": ib, "recovered": [a[ia], b[ib]], "only_a": only_a,
            "either": either, "one_side": one_side, "in_b": in_b, "not_in_b": not_in_b, "grid_in": grid_in,
            "kept": kept}


def nan_rows(np, X_host):
    X = np.asarray(X_host)  # row 1 all NaN, others some NaN
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy warns of the all-NaN row (kdsl: no FP flags)
        means = np.nanmean(X, axis=1)
        maxes = np.nanmax(X, axis=1)
        mins = np.nanmin(X, axis=0)
        stds = np.nanstd(X, axis=1)
        medians = np.nanmedian(X, axis=1)
        q = np.nanpercentile(X, 50, axis=1)
    sums = np.nansum(X, axis=1)
    prods = np.nanprod(X, axis=1)
    counts = np.sum(~np.isnan(X), axis=1)
    ok = ~np.all(np.isnan(X), axis=1)
    best = np.full(X.shape[0], -1)
    best[ok] = np.nanargmax(X[ok], axis=1)
    try:
        np.nanargmax(X, axis=1)
        raised = "none"
    except ValueError:
        raised = "ValueError"
    filled = np.where(np.isnan(X), np.nanmean(X[ok], axis=0), X)
    cum = np.nancumsum(X, axis=1)
    return {"means": means, "maxes": maxes, "mins": mins, "stds": stds, "medians": medians, "q": q, "sums": sums,
            "prods": prods, "counts": counts, "best": best, "raised": raised, "filled": filled, "cum": cum}


def masked_reductions(np, X_host):
    X = np.asarray(X_host)
    m = np.ma.masked_where(X < 0, X)
    m[1] = np.ma.masked  # a whole row masked
    row_means = m.mean(axis=1)
    col_sums = m.sum(axis=0)
    counts = m.count(axis=1)
    return {"row_means": row_means.filled(-1.0), "row_mask": np.ma.getmaskarray(row_means),
            "col_sums": col_sums.filled(0.0), "counts": counts, "total": float(m.sum()),
            "max": float(m.max()), "argmin": int(m.argmin()), "filled": m.filled(0.0),
            "compressed": m.compressed(), "valid": _valid_logs(np, X)}


def _valid_logs(np, X):
    with np.errstate(invalid="ignore"):  # log of the negative entries: NaN, masked
        return np.ma.masked_invalid(np.log(X)).count()


def masked_ranking(np, scores_host):
    S = np.asarray(scores_host)  # scores with missing entries (negative)
    m = np.ma.masked_less(S, 0)
    order = np.ma.argsort(m, axis=1, kind="stable")  # missing ones last; stable, as kdsl's sorts (NumPy's default
    ranked = np.ma.sort(m, axis=1, kind="stable")  # quicksort orders the masked ties in no promised order)
    best_first = np.ma.sort(m, axis=1, endwith=False, kind="stable")[:, ::-1]
    dev = m.anom(axis=1)
    run = np.ma.cumsum(m, axis=1)
    board = np.ma.masked_all(S.shape)
    board[:, 0] = m.max(axis=1)
    with np.errstate(divide="ignore"):  # log(0) = -inf: fixed below
        fixed = np.ma.fix_invalid(np.log(np.where(S > 0, S, 0.0)), fill_value=-1.0)
    return {"order": order, "ranked": ranked.filled(-1.0), "best_first": best_first.filled(-1.0),
            "dev": dev.filled(0.0), "run": run.filled(0.0), "board": board.filled(-2.0), "n_board": board.count(),
            "fixed_data": fixed.data, "fixed_filled": fixed.filled(), "per_row": np.ma.count(m, axis=1),
            "upper_of_row": np.triu(S[0]), "lower_of_row": np.tril(S[1], -1)}


def rolls_rotations_flips(np, A_host):
    A = np.asarray(A_host)
    both = np.roll(A, (1, -2), axis=(0, 1))
    flat = np.roll(A, 5)
    big = np.roll(A, 13, axis=1)  # past the length
    twice = np.roll(A, (1, 1), axis=(1, 1))  # the same axis twice: shifts add
    T = A.reshape(2, 3, 4)
    return {"both": both, "flat": flat, "big": big, "twice": twice, "r1": np.rot90(A), "rm1": np.rot90(A, -1),
            "r2": np.rot90(A, 2), "r3d": np.rot90(T, 1, axes=(1, 2)), "flip": np.flip(A),
            "flip01": np.flip(T, axis=(0, 2)), "lr": np.fliplr(A), "ud": np.flipud(A),
            "r4": bool(np.array_equal(np.rot90(A, 4), A))}


def triangles_and_diagonals(np, A_host, v_host):
    A, v = np.asarray(A_host), np.asarray(v_host)
    iu = np.triu_indices_from(A, k=1)
    S = np.zeros_like(A)
    S[iu] = v[: len(iu[0])]
    S = S + S.T  # a symmetric matrix from its upper triangle
    il = np.tril_indices_from(A, k=-1)
    low, low_up1, up_m1 = np.tril(A, k=-1), np.tril(A, k=1), np.triu(A, k=-1)
    di = np.diag_indices(3, ndim=3)
    cube = np.zeros((3, 3, 3))
    cube[di] = 1.0
    D = A.copy()
    D[np.diag_indices_from(D)] = 0.0
    tall = np.zeros((7, 3))
    np.fill_diagonal(tall, 5.0, wrap=True)
    return {"iu": iu, "S": S, "il_vals": A[il], "low": low, "low_up1": low_up1, "up_m1": up_m1,
            "cube": cube, "D": D, "tall": tall, "upper_sum": float(A[iu].sum())}


def index_modes(np, r_host, c_host):
    r, c = np.asarray(r_host), np.asarray(c_host)  # some outside (4, 5)
    wrap = np.ravel_multi_index((r, c), (4, 5), mode="wrap")
    clip = np.ravel_multi_index((r, c), (4, 5), mode="clip")
    mixed = np.ravel_multi_index((r, c), (4, 5), mode=("clip", "wrap"))
    fortran = np.ravel_multi_index((r % 4, c % 5), (4, 5), order="F")
    back = np.unravel_index(wrap, (4, 5))
    backF = np.unravel_index(fortran, (4, 5), order="F")
    try:
        np.ravel_multi_index((r, c), (4, 5))
        raised = "none"
    except ValueError:
        raised = "ValueError"
    return {"wrap": wrap, "clip": clip, "mixed": mixed, "fortran": fortran, "back": back, "backF": backF,
            "raised": raised}


def argmax_and_firsts(np, X_host):
    X = np.asarray(X_host)
    where_max = np.unravel_index(np.argmax(X), X.shape)
    where_min = np.unravel_index(X.argmin(), X.shape)
    hot = X > 0.8
    first = hot.argmax(axis=1)
    first_or_none = np.where(hot.any(axis=1), first, -1)
    last = X.shape[1] - 1 - hot[:, ::-1].argmax(axis=1)
    first_col = np.argmax(hot, axis=0)
    kmax = np.argmax(X, axis=1, keepdims=True)
    picked = np.take_along_axis(X, kmax, axis=1)
    return {"where_max": where_max, "where_min": where_min, "value": float(X[where_max]),
            "first_or_none": first_or_none, "last": np.where(hot.any(axis=1), last, -1), "first_col": first_col,
            "kmax": kmax, "picked": picked}


def rle_and_rolling(np, x_host, y_host):
    x = np.asarray(x_host)
    starts = np.r_[0, np.flatnonzero(np.diff(x)) + 1]
    lengths = np.diff(np.r_[starts, len(x)])
    values = x[starts]
    decoded = np.repeat(values, lengths)
    longest = values[np.argmax(lengths)]
    y = np.asarray(y_host)
    w = 4
    c = np.cumsum(np.insert(y, 0, 0.0))
    rolling = (c[w:] - c[:-w]) / w
    ci = np.cumsum(x)
    int_windows = ci[w - 1:] - np.r_[0, ci[:-w]]
    Y = y[:24].reshape(4, 6)
    c2 = np.cumsum(Y, axis=1)
    c2[:, w:] = c2[:, w:] - c2[:, :-w]
    row_rolling = c2[:, w - 1:] / w
    return {"starts": starts, "lengths": lengths, "values": values, "same": bool(np.array_equal(decoded, x)),
            "longest": int(longest), "rolling": rolling, "int_windows": int_windows, "row_rolling": row_rolling}


def counts_equality_sharing(np, X_host):
    X = np.asarray(X_host)
    nz0 = np.count_nonzero(X, axis=0)
    nz1 = np.count_nonzero(X > 2, axis=1)
    nz_both = np.count_nonzero(X, axis=(0, 1))
    nz_keep = np.count_nonzero(X, axis=1, keepdims=True)
    F = X.astype(float)
    F[0, 0] = np.nan
    G = F.copy()
    eq_nan = np.array_equal(F, G, equal_nan=True)
    eq_plain = np.array_equal(F, G)
    ints = np.array_equal(X, X.copy(), equal_nan=True)
    a = np.arange(10)
    share = [np.shares_memory(a, a[::2]), np.shares_memory(a[::2], a[1::2]), np.shares_memory(a, a.copy()),
             np.may_share_memory(a[:5], a[5:]), np.may_share_memory(a, a[3:])]
    return {"nz0": nz0, "nz1": nz1, "nz_both": nz_both, "nz_keep": nz_keep, "eq_nan": bool(eq_nan),
            "eq_plain": bool(eq_plain), "ints": bool(ints), "share": [bool(s) for s in share]}


def test_unique_rows_with_counts_index_inverse():
    rng = np.random.default_rng(901)
    check(unique_rows, rng.integers(0, 3, (30, 3)))


def test_lexsort_several_keys_and_2d_keys():
    rng = np.random.default_rng(902)
    check(multi_key_sort, rng.integers(0, 4, 20), rng.integers(0, 3, 20), rng.integers(20, 60, 20),
          rng.integers(0, 3, (15, 3)))


def test_digitize_right_and_decreasing_bins():
    x = np.array([-1.0, 0.0, 0.5, 1.0, 2.5, 3.0, 4.0, 5.0, 1.0000001, 2.4999])
    check(binning_right_edges, x)


def test_searchsorted_on_sorted_rows_by_offsets():
    rng = np.random.default_rng(904)
    A = np.sort(rng.integers(-20, 20, (5, 8)), axis=1)
    check(searchsorted_rows, A, rng.integers(-25, 25, (5, 3)))


def test_group_by_argsort_split_reduceat():
    rng = np.random.default_rng(905)
    check(group_by_split, rng.integers(0, 6, 40), rng.normal(size=40).round(3), rtol=1e-4, atol=1e-5)


def test_ix_selection_and_assignment():
    check(ix_select_assign, np.random.default_rng(906).normal(size=(5, 5)))


def test_meshgrid_ij_sparse():
    check(sparse_grids, 5, rtol=1e-4, atol=1e-5)


def test_einsum_ellipsis_traces_diagonals():
    rng = np.random.default_rng(908)
    check(einsum_diagonals, rng.normal(size=(4, 4)), rng.normal(size=(2, 3, 3, 3)), rtol=1e-4, atol=1e-5)


def test_put_place_putmask_copyto_where():
    check(put_place_putmask, np.random.default_rng(909).random(12))


def test_choose_modes_and_broadcasting():
    check(choose_modes, np.array([0, 1, 2, 3, -1, 5]))


def test_apply_along_and_over_axes():
    check(along_and_over_axes, np.random.default_rng(911).normal(size=(6, 4)), rtol=1e-4, atol=1e-5)


def test_piecewise_and_fromfunction():
    check(piecewise_and_fromfunction, np.linspace(-3, 3, 13), rtol=1e-4, atol=1e-5)


def test_set_routines_with_indices():
    rng = np.random.default_rng(913)
    check(set_routines, rng.integers(0, 10, 15), rng.integers(3, 14, 9))


def test_nan_functions_over_all_nan_rows():
    rng = np.random.default_rng(914)
    X = rng.normal(size=(4, 5))
    X[1] = np.nan
    X[0, 2] = X[2, [0, 4]] = X[3, 1] = np.nan
    check(nan_rows, X, rtol=1e-4, atol=1e-5)


def test_masked_reductions_with_a_fully_masked_row():
    X = np.random.default_rng(915).normal(size=(4, 5))
    check(masked_reductions, X, rtol=1e-4, atol=1e-5)


def test_masked_sort_anom_fix_invalid_and_triangles_of_a_row():
    S = np.random.default_rng(922).integers(-3, 10, (4, 5)).astype(float)
    check(masked_ranking, S, rtol=1e-4, atol=1e-5)


def test_roll_several_axes_rot90_flip():
    check(rolls_rotations_flips, np.arange(24.0).reshape(4, 6))


def test_triangle_and_diagonal_indices():
    rng = np.random.default_rng(917)
    check(triangles_and_diagonals, rng.normal(size=(5, 5)), rng.normal(size=10))


def test_ravel_multi_index_wrap_clip_modes():
    check(index_modes, np.array([0, 3, 5, -1, 2, 9]), np.array([4, 7, -2, 0, 11, 1]))


def test_argmax_unravel_and_first_occurrence():
    check(argmax_and_firsts, np.random.default_rng(919).random((6, 7)))


def test_run_length_encoding_and_cumsum_rolling_mean():
    rng = np.random.default_rng(920)
    check(rle_and_rolling, np.repeat(rng.integers(0, 4, 10), rng.integers(1, 4, 10)), rng.normal(size=30),
          rtol=1e-4, atol=1e-5)


def test_count_nonzero_array_equal_nan_shares_memory():
    check(counts_equality_sharing, np.random.default_rng(921).integers(0, 5, (4, 6)))
