"""Missing-value programs without np.ma: the nan-aware reductions (nanmean/nanstd/nanvar/nanmedian/
nanpercentile/nanargmax/nancumsum...), imputation by column means and by forward fill, masked assignment,
NaN-safe normalisation and correlation, all-NaN and empty selections (tests/porting)."""

import warnings

import numpy as np
from harness import check


def sensor_summary(np, X_host):
    X = np.asarray(X_host)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        out = {
            "mean": np.nanmean(X, axis=0), "std": np.nanstd(X, axis=0, ddof=1), "var": np.nanvar(X, axis=1),
            "median": np.nanmedian(X, axis=0), "p90": np.nanpercentile(X, 90, axis=0),
            "q": np.nanquantile(X, [0.25, 0.75], axis=1), "min": np.nanmin(X, axis=1), "max": np.nanmax(X),
            "sum": np.nansum(X, axis=0), "prod": np.nanprod(X[:3], axis=1), "argmax": np.nanargmax(X[:, :-1], axis=0),
            "argmin": np.nanargmin(X[:, :2], axis=1), "csum": np.nancumsum(X[:, 0]),
            "cprod": np.nancumprod(X[:4, 1]), "n_valid": np.count_nonzero(~np.isnan(X), axis=0),
            "all_nan_col": np.nanmean(X[:, -1]), "frac_missing": np.isnan(X).mean(),
        }
    return out


def impute_columns(np, X_host):
    X = np.array(X_host, copy=True)
    col_mean = np.nanmean(X, axis=0)
    rows, cols = np.where(np.isnan(X))
    filled = X.copy()
    filled[rows, cols] = np.take(col_mean, cols)
    filled2 = np.where(np.isnan(X), col_mean[None, :], X)
    med = np.nanmedian(X, axis=0)
    filled3 = X.copy()
    mask = np.isnan(filled3)
    filled3[mask] = np.broadcast_to(med, X.shape)[mask]
    complete = X[~np.isnan(X).any(axis=1)]
    keep_cols = X[:, np.isnan(X).sum(axis=0) <= 1]
    z = (filled - filled.mean(axis=0)) / filled.std(axis=0)
    return {"filled": filled, "same": bool(np.array_equal(filled, filled2)), "filled3": filled3,
            "complete": complete, "keep_cols": keep_cols, "z": z, "rows": rows, "cols": cols}


def forward_fill(np, x_host):
    x = np.asarray(x_host)
    mask = np.isnan(x)
    idx = np.where(~mask, np.arange(len(x)), 0)
    np.maximum.accumulate(idx, out=idx)
    ffill = x[idx]
    rev = x[::-1]
    ridx = np.where(~np.isnan(rev), np.arange(len(x)), 0)
    ridx = np.maximum.accumulate(ridx)
    bfill = rev[ridx][::-1]
    valid = np.flatnonzero(~mask)
    linear = x.copy()
    linear[mask] = np.interp(np.flatnonzero(mask), valid, x[valid])
    gaps = np.diff(np.r_[0, mask.astype(int), 0])
    starts, ends = np.flatnonzero(gaps == 1), np.flatnonzero(gaps == -1)
    longest = int((ends - starts).max()) if len(starts) else 0
    return {"ffill": ffill, "bfill": bfill, "linear": linear, "starts": starts, "longest": longest,
            "clean": np.nan_to_num(x, nan=-1.0)}


def masked_cleaning(np, v_host):
    v = np.asarray(v_host, dtype=float)
    v[v < -900] = np.nan
    v[np.isinf(v)] = np.nan
    mu, sd = np.nanmean(v), np.nanstd(v)
    outlier = np.abs(v - mu) > 2 * sd
    clipped = np.clip(v, np.nanpercentile(v, 5), np.nanpercentile(v, 95))
    w = np.where(np.isnan(v) | outlier, 0.0, 1.0)
    wavg = np.average(np.nan_to_num(v), weights=w)
    ranked = np.argsort(v)
    n_nan = np.isnan(v).sum()
    nan_last = bool(np.all(np.isnan(v[ranked[len(v) - n_nan:]])))
    with np.errstate(invalid="ignore"):
        pos = v > 0
    return {"v": v, "outlier": outlier, "clipped": clipped, "wavg": float(wavg), "n_nan": int(n_nan),
            "nan_last": nan_last, "pos": pos, "sorted": np.sort(v), "max": np.max(v), "fmax": np.fmax(v, 0.0),
            "nanmax_pairs": np.fmax.reduce(np.stack([v, v[::-1]]), axis=0)}


def nan_correlation(np, A_host):
    A = np.asarray(A_host)
    ok = ~np.isnan(A).any(axis=1)
    C = np.corrcoef(A[ok], rowvar=False)
    n = A.shape[1]
    pair = np.full((n, n), np.nan)
    for i in range(n):
        for j in range(n):
            m = ~np.isnan(A[:, i]) & ~np.isnan(A[:, j])
            if m.sum() > 2:
                pair[i, j] = np.corrcoef(A[m, i], A[m, j])[0, 1]
    norm = (A - np.nanmin(A, axis=0)) / (np.nanmax(A, axis=0) - np.nanmin(A, axis=0))
    return {"C": C, "pair": pair, "norm": norm, "n_ok": int(ok.sum()), "diag": np.diag(pair)}


def _with_gaps(seed, shape, frac):
    rng = np.random.default_rng(seed)
    X = rng.normal(10, 2, size=shape)
    X[rng.random(shape) < frac] = np.nan
    return X


def test_nan_reductions_axis_ddof_all_nan_column():
    X = _with_gaps(341, (12, 5), 0.2)
    X[:, -1] = np.nan
    X[0, 0] = np.nan
    check(sensor_summary, X, rtol=1e-4, atol=1e-4)


def test_impute_by_column_mean_median():
    check(impute_columns, _with_gaps(342, (10, 4), 0.15), rtol=1e-4, atol=1e-4)


def test_forward_backward_fill_interp_gaps():
    x = np.array([np.nan, 1.0, 2.0, np.nan, np.nan, 5.0, np.nan, 7.0, 8.0, np.nan, np.nan, np.nan, 12.0])
    check(forward_fill, x)


def test_sentinel_inf_to_nan_clip_weights():
    v = np.array([1.0, -999.0, 3.5, np.inf, 2.0, 40.0, -1.0, 2.5, -999.0, 3.0, 2.2, -np.inf, 1.8])
    check(masked_cleaning, v, rtol=1e-4, atol=1e-5)


def test_pairwise_complete_correlation():
    rng = np.random.default_rng(343)
    base = rng.normal(size=(30, 1))
    A = base + rng.normal(scale=[0.2, 0.5, 1.0, 2.0], size=(30, 4))
    A[rng.random((30, 4)) < 0.1] = np.nan
    check(nan_correlation, A, rtol=1e-3, atol=1e-4)
