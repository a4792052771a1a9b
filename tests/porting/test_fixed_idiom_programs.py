"""Programs that failed under kdsl before this branch's fixes (each names the idiom that broke): column
selection ``X[:, idx]``, ufunc ``out=``/``where=``/``.outer``/``.accumulate``, reductions with ``where=``,
``sliding_window_view``, ``a.fill``, ``a.flat``, ``order='F'``, ``str(a.dtype)``, ``np.dtype(...)``,
``linspace(retstep=True)``, ``a.item(i)``, ``a.shape = ...``, ``select`` with scalar choices."""

import numpy as np
from harness import check


def feature_selection(np, X_host, y_host):
    X, y = np.asarray(X_host), np.asarray(y_host)
    corr = np.array([abs(np.corrcoef(X[:, j], y)[0, 1]) for j in range(X.shape[1])])
    best = np.argsort(corr)[::-1][:3]
    X_sel = X[:, best]  # integer array after a slice
    X_sel[:, [0]] -= X_sel[:, [0]].mean()  # assignment through it
    X2 = X.copy()
    X2[:, best] = 0
    swapped = X[:, ::-1][:, [1, 0]]
    coef = np.linalg.lstsq(np.c_[X_sel, np.ones(len(X))], y, rcond=None)[0]
    return {"best": best, "X_sel": X_sel, "X2": X2, "swapped": swapped, "coef": coef}


def pairwise_and_running(np, pts_host, prices_host):
    pts, prices = np.asarray(pts_host), np.asarray(prices_host)
    dx = np.subtract.outer(pts[:, 0], pts[:, 0])
    dy = np.subtract.outer(pts[:, 1], pts[:, 1])
    d = np.hypot(dx, dy)
    table = np.multiply.outer(np.arange(1, 4), np.arange(1, 5))
    peak = np.maximum.accumulate(prices)
    drawdown = (prices - peak) / peak
    cummin = np.minimum.accumulate(prices)
    total = np.add.reduce(prices)
    growth = np.multiply.accumulate(prices[1:] / prices[:-1])
    return {"d": d, "table": table, "peak": peak, "dd": drawdown, "maxdd": float(drawdown.min()), "cummin": cummin,
            "total": float(total), "growth": growth, "nearest": np.argsort(d, axis=1)[:, 1]}


def buffers_in_place(np, x_host):
    x = np.array(x_host)
    buf = np.empty_like(x)
    np.multiply(x, 2.0, out=buf)
    np.add(buf, 1.0, out=buf)
    np.exp(-np.abs(buf), out=buf)
    np.clip(buf, 0.05, 0.5, out=buf)
    ratio = np.zeros_like(x)
    np.divide(x, x - 1.0, out=ratio, where=np.abs(x - 1.0) > 0.1)
    x.fill(0.5)
    acc = np.zeros(3)
    for k in range(3):
        np.add(acc, k, out=acc)
    return {"buf": buf, "ratio": ratio, "x": x, "acc": acc}


def masked_statistics(np, data_host):
    data = np.asarray(data_host)
    valid = data > -1.0
    mean_valid = np.mean(data, axis=0, where=valid)
    sum_valid = data.sum(axis=1, where=valid)
    max_valid = data.max(axis=0, where=valid, initial=-np.inf)
    std_valid = data.std(axis=0, where=valid)
    any_big = np.any(data > 2, axis=1, where=valid)
    tier = np.select([data < 0, data < 1], [0, 1], default=2)
    return {"mean": mean_valid, "sum": sum_valid, "max": max_valid, "std": std_valid, "any": any_big, "tier": tier,
            "count": np.sum(valid, axis=0)}


def windows_and_layout(np, series_host):
    s = np.asarray(series_host)
    win = np.lib.stride_tricks.sliding_window_view(s, 4)
    rolling_mean = win.mean(axis=1)
    rolling_max = win.max(axis=-1)
    img = np.arange(36.0).reshape(6, 6)
    patches = np.lib.stride_tricks.sliding_window_view(img, (3, 3))[::3, ::3]
    pooled = patches.max(axis=(2, 3))
    col_major = s[:12].reshape((3, 4), order="F")
    back = col_major.ravel(order="F")
    grid = np.zeros((2, 3))
    grid.flat[[1, 4]] = 9
    flat_list = [float(v) for v in grid.flat]
    m = np.arange(6)
    m.shape = (2, 3)
    return {"rm": rolling_mean, "rmax": rolling_max, "pooled": pooled, "cm": col_major, "back": back,
            "grid": grid, "flat": flat_list, "m": m, "third": m.item(4), "corner": m.item(1, 2)}


def dtype_reporting(np, a_host):
    a = np.asarray(a_host, dtype=np.float32)
    lines = [f"array of {a.dtype} with shape {a.shape}", f"itemsize {a.itemsize}"]
    as_int = a.astype(np.dtype("int32"))
    lines.append(f"converted to {as_int.dtype}: {as_int.tolist()}")
    samples, step = np.linspace(0, 1, 5, retstep=True)
    same = a.astype(np.float32, copy=False) is a
    big = np.tensordot(a.reshape(2, 3), np.ones((3, 2), dtype=np.float32), 1)
    return {"lines": lines, "step": float(step), "samples": samples, "same": same, "big": big,
            "is_float": bool(np.issubdtype(a.dtype, np.floating)), "name": str(a.dtype)}


def test_feature_selection_column_indexing():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 6)).astype(np.float32)
    y = (X[:, 2] * 2 - X[:, 4] + 0.1 * rng.normal(size=30)).astype(np.float32)
    check(feature_selection, X, y, rtol=1e-3, atol=1e-4)


def test_pairwise_outer_and_running_accumulate():
    rng = np.random.default_rng(1)
    prices = 100 * np.exp(np.cumsum(0.02 * rng.normal(size=40)))
    check(pairwise_and_running, rng.uniform(0, 10, (8, 2)), prices, rtol=1e-4, atol=1e-4)


def test_buffers_written_in_place_with_out():
    check(buffers_in_place, np.linspace(-2, 3, 11), rtol=1e-5, atol=1e-6)


def test_masked_statistics_with_where():
    check(masked_statistics, np.random.default_rng(2).normal(0.5, 1.5, (10, 4)), rtol=1e-4, atol=1e-5)


def test_sliding_windows_order_flat_shape():
    check(windows_and_layout, np.random.default_rng(3).normal(size=20), rtol=1e-5, atol=1e-6)


def test_dtype_reporting():
    check(dtype_reporting, [1.5, -2.25, 3.0, 4.75, 0.5, -1.0])
