"""Ledgers, joins, chains and grids ported from NumPy scripts: spreadsheet columns with NaN (`nanargmax`,
`nancumsum`, `around`, `isin` of lists), int32 ledgers that wrap, uint8 counters through `diff`, reorder
points by `clip(a_max=)`/`minimum.accumulate`, table joins by `searchsorted`/`unique(return_index=,
return_inverse=)`/`lexsort`, Markov chains by `matrix_power` and `eig`, calendars by `arange` steps and
`divmod`, boolean morphology over shifted views, integration by `trapezoid`/`polyfit`/`gradient`, and report
printing of 0-d results (tests/porting)."""

import numpy as np
import pytest
from harness import check

import kdsl as kd


def spreadsheet_columns(np, sales, region):
    sales, region = np.asarray(sales), np.asarray(region)
    filled = np.where(np.isnan(sales), 0.0, sales)
    best = np.nanargmax(sales, axis=0)
    running = np.nancumsum(sales, axis=0)
    share = np.around(filled / filled.sum(axis=0), 2)
    north = np.isin(region, [0, 2])
    return {"best": best, "running": running, "share": share, "north": filled[north].sum(axis=0),
            "missing": np.isnan(sales).sum(axis=0), "cell": f"{np.nanmax(sales):.2f}"}


def int32_ledger(np, moves):
    moves = np.asarray(moves, dtype=np.int32)
    balance = np.cumsum(moves, dtype=np.int32)
    wide = np.cumsum(moves, dtype=np.int64)
    counter = np.asarray(np.cumsum(moves % 256), dtype=np.uint8)
    ticks = np.diff(counter)
    stock = np.clip(wide, a_min=None, a_max=2**31 + 5)
    low = np.minimum.accumulate(wide)
    return {"balance": balance, "wrapped": bool(np.any(balance != wide)), "ticks": ticks, "stock": stock,
            "low": low, "reorder": np.flatnonzero(np.diff(low) < 0)}


def reorder_points(np, demand, lead):
    demand = np.asarray(demand)
    stock = 50 - np.cumsum(demand)
    restock = np.zeros_like(stock)
    for t in range(len(stock)):
        if stock[t] + restock[:t + 1].sum() < 10:
            restock[t] = 40
    level = stock + np.cumsum(restock)
    safe = np.clip(level, None, 45)
    return {"level": level, "safe": safe, "restocks": np.flatnonzero(restock), "min": np.minimum.accumulate(level),
            "lead_sum": np.convolve(demand, np.ones(lead, dtype=int), mode="valid")}


def table_join(np, left_keys, left_vals, right_keys, right_vals):
    lk, lv, rk, rv = (np.asarray(v) for v in (left_keys, left_vals, right_keys, right_vals))
    order = np.argsort(rk)
    pos = np.searchsorted(rk, lk, sorter=order)
    pos = np.clip(pos, 0, len(rk) - 1)
    hit = rk[order[pos]] == lk
    joined = np.where(hit, rv[order[pos]], -1)
    keys, first, inv = np.unique(lk, return_index=True, return_inverse=True)
    totals = np.bincount(inv, weights=lv)
    srt = np.lexsort((lv, lk))
    return {"joined": joined, "hit": hit, "keys": keys, "first": first, "totals": totals, "srt": srt,
            "byval": np.lexsort((-lv, joined))}


def group_stats(np, keys, vals):
    keys, vals = np.asarray(keys), np.asarray(vals)
    uk, inv, counts = np.unique(keys, return_inverse=True, return_counts=True)
    sums = np.bincount(inv, weights=vals)
    means = sums / counts
    sq = np.bincount(inv, weights=(vals - means[inv]) ** 2)
    order = np.lexsort((vals, inv))
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    mins = vals[order][starts]
    return {"uk": uk, "means": means, "std": np.sqrt(sq / counts), "mins": mins,
            "rank": np.argsort(np.argsort(-means, kind="stable"), kind="stable")}


def markov_chain(np, P):
    P = np.asarray(P)
    P10 = np.linalg.matrix_power(P, 10)
    w, v = np.linalg.eig(P.T)
    k = np.argmin(np.abs(w - 1))
    pi = np.real(v[:, k])
    pi = pi / pi.sum()
    steps = np.linalg.matrix_power(P, 50)
    Q = P[:2, :2]
    N = np.linalg.inv(np.eye(2) - Q)
    return {"P10": P10, "pi": pi, "conv": bool(np.allclose(steps[0], pi, atol=1e-6)),
            "row_ok": bool(np.allclose(P10.sum(axis=1), 1)), "fund": N, "absorb": N.sum(axis=1)}


def calendar_grid(np, first_weekday, days):
    day = np.arange(1, days + 1)
    week, dow = np.divmod(day - 1 + first_weekday, 7)
    grid = np.zeros((week.max() + 1, 7), dtype=int)
    grid[week, dow] = day
    paydays = np.arange(first_weekday % 7 + 5, days + 1, 14)
    cycle = np.resize(np.array([1, 1, 0]), days)
    shifts = np.tile(np.array([0, 1]), (2, 4))
    return {"grid": grid, "weekends": day[dow >= 5], "pay": paydays, "cycle_on": int(cycle.sum()),
            "shifts": shifts, "q": np.divmod(np.array([-3, 10, 45]), 7)}


def morphology(np, img):
    img = np.asarray(img, dtype=bool)
    p = np.pad(img, 1, mode="constant", constant_values=False)
    shifts = [p[1 + dy:p.shape[0] - 1 + dy, 1 + dx:p.shape[1] - 1 + dx]
              for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
    eroded = np.logical_and.reduce(shifts)
    dilated = np.logical_or.reduce(shifts)
    edge = img & ~eroded
    return {"eroded": eroded, "dilated": dilated, "edge": edge, "rows": np.count_nonzero(dilated, axis=1),
            "cols": np.count_nonzero(edge, axis=0), "open": np.count_nonzero(eroded)}


def integration(np, x, y):
    x, y = np.asarray(x), np.asarray(y)
    area = np.trapezoid(y, x=x)
    cum = np.concatenate(([0.0], np.cumsum(np.diff(x) * (y[1:] + y[:-1]) / 2)))
    c = np.polyfit(x, y, 3)
    fit = np.polyval(c, x)
    Z = np.outer(y, np.linspace(0, 1, 4))
    gy = np.gradient(Z, axis=0)
    gx = np.gradient(Z, 0.5, axis=1)
    return {"area": area, "cum": cum, "c": c, "resid": np.abs(fit - y).max(), "gy": gy, "gx": gx,
            "exact": np.polyval(np.polyint(c), x[-1]) - np.polyval(np.polyint(c), x[0])}


def grid_functions(np, xs, ys):
    X, Y = np.meshgrid(np.asarray(xs), np.asarray(ys))
    step = np.vectorize(lambda a, b: a * b if a > b else b - a)
    ramp = np.frompyfunc(lambda v: min(max(v, 0.0), 1.0), 1, 1)
    pw = np.piecewise(X, [X < 0, X > 1], [lambda v: -v, lambda v: v ** 2, lambda v: v])
    rows = np.apply_along_axis(lambda r: r.max() - r.min(), 1, Y * X)
    norm = np.apply_along_axis(lambda r: r / np.abs(r).sum(), 1, X + 3)
    return {"step": step(X, Y), "ramp": ramp(X - 0.5).astype(float), "pw": pw, "rows": rows, "norm": norm}


def segment_scaling(np, x):
    x = np.asarray(x)
    scaled = np.piecewise(x, [x < 0, x >= 0], [lambda v: v / -v.min(), lambda v: v / v.max()])
    centred = np.piecewise(x, [x > 2], [lambda v: v - v.mean(), lambda v: v - np.median(v)])
    ranks = np.piecewise(x, [x >= 0], [lambda v: np.argsort(np.argsort(v)).astype(float), -1.0])
    return {"scaled": scaled, "centred": centred, "ranks": ranks}


def report_lines(np, values):
    v = np.asarray(values)
    mean, spread = v.mean(), v.max() - v.min()
    lines = [f"mean={mean:.3f}", f"spread={format(spread, '.2e')}", f"n={v.size:d}", str(np.round(v[:3], 2)),
             f"max@{int(np.argmax(v))}", f"{float(v.std()):.4f}"]
    return {"lines": lines, "item": v.sum().item(), "tbl": np.array2string(np.round(v, 1), max_line_width=30)}


def test_spreadsheet_columns():
    rng = np.random.default_rng(2321)
    s = np.round(rng.uniform(10, 90, (8, 3)), 1)
    s[[1, 4, 6], [0, 2, 1]] = np.nan
    check(spreadsheet_columns, s, rng.integers(0, 4, 8))


def test_int32_ledger():
    check(int32_ledger, np.array([2**31 - 10, 7, 5, -3, 2**30, -2**31, 200, 9]))


def test_reorder_points():
    rng = np.random.default_rng(2322)
    check(reorder_points, rng.integers(2, 9, 12), 3)


def test_table_join():
    check(table_join, np.array([5, 3, 9, 3, 7, 5]), np.array([1.0, 2, 3, 4, 5, 6]), np.array([9, 5, 1, 3]),
          np.array([90, 50, 10, 30]))


def test_group_stats():
    rng = np.random.default_rng(2323)
    check(group_stats, rng.integers(0, 4, 15), np.round(rng.normal(5, 2, 15), 2), rtol=1e-4, atol=1e-4)


def test_markov_chain():
    P = np.array([[0.5, 0.3, 0.2], [0.2, 0.6, 0.2], [0.1, 0.2, 0.7]])
    check(markov_chain, P, rtol=1e-3, atol=1e-4)


def test_calendar_grid():
    check(calendar_grid, 3, 31)


def test_morphology():
    img = np.zeros((7, 8), dtype=bool)
    img[1:6, 2:7] = True
    img[3, 0] = True
    check(morphology, img)


def test_integration():
    x = np.linspace(0, 2, 9)
    check(integration, x, x ** 3 - x + 1, rtol=1e-3, atol=1e-3)


def test_grid_functions():
    # Python control flow per element runs through NumPy's loop on the host, with kdsl's PerformanceWarning
    with pytest.warns(kd.PerformanceWarning):
        check(grid_functions, np.array([-1.0, 0.5, 2.0]), np.array([0.0, 1.5]))


def test_segment_scaling():
    check(segment_scaling, np.array([-4.0, 3.5, -1.0, 0.5, 6.0, 2.0, -2.5]))


def test_report_lines():
    check(report_lines, np.array([1.234, 5.678, 2.5, 9.875, 3.25]))
