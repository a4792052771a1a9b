"""Energy load data as utility analysts' notebooks write it: a year of hourly load reshaped into days x hours for
seasonal and weekday profiles (`reshape`, `np.mean(axis=)`, month masks by `np.repeat`), rolling 24-hour means and
maxima (`sliding_window_view`, `np.convolve`), peak detection by neighbour comparisons and prominence, a
load-duration curve with capacity factors (`np.sort()[::-1]`, `np.interp`, `np.percentile`), demand charges on
15-minute intervals (`reshape(-1, 4).mean`, `np.maximum.reduceat` by billing month), battery peak shaving with a
state-of-charge loop (`np.clip`, in-place writes into views) and a solar/load net curve with ramp rates
(`np.diff`, `np.argpartition`) (tests/porting)."""

import numpy as np
from harness import check


def seasonal_profiles(np, load, first_weekday):
    days = load.reshape(-1, 24)
    month_len = np.array([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
    month = np.repeat(np.arange(12), month_len)[: days.shape[0]]
    weekday = (np.arange(days.shape[0]) + first_weekday) % 7
    season = np.array([0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0])[month]
    profiles = np.stack([days[season == s].mean(axis=0) for s in range(4)])
    weekend = days[weekday >= 5].mean(axis=0)
    weekdays = days[weekday < 5].mean(axis=0)
    monthly_energy = np.bincount(month, weights=days.sum(axis=1), minlength=12)
    peak_hour = profiles.argmax(axis=1)
    norm = profiles / profiles.max(axis=1, keepdims=True)
    return {"profiles": profiles, "weekend_ratio": weekend / weekdays, "monthly": monthly_energy,
            "peak_hour": peak_hour, "norm": norm, "daily_max_month": np.array(
                [days[month == m].max() for m in range(12)])}


def rolling_windows(np, load):
    win = np.lib.stride_tricks.sliding_window_view(load, 24)
    roll_mean = win.mean(axis=1)
    roll_max = win.max(axis=1)
    conv = np.convolve(load, np.ones(24) / 24, mode="valid")
    csum = np.cumsum(np.insert(load, 0, 0.0))
    by_cumsum = (csum[24:] - csum[:-24]) / 24
    ewm = np.empty_like(load)
    ewm[0] = load[0]
    alpha = 2 / (12 + 1)
    for t in range(1, len(load)):
        ewm[t] = alpha * load[t] + (1 - alpha) * ewm[t - 1]
    return {"mean": roll_mean, "max": roll_max, "conv_ok": bool(np.allclose(conv, roll_mean, atol=1e-3)),
            "cumsum_ok": bool(np.allclose(by_cumsum, roll_mean, atol=1e-2)), "ewm": ewm[::24],
            "worst_day": int(np.argmax(roll_mean))}


def peak_detection(np, load, min_prominence):
    interior = (load[1:-1] > load[:-2]) & (load[1:-1] >= load[2:])
    peaks = np.flatnonzero(interior) + 1
    prominence = np.empty(len(peaks))
    for i, p in enumerate(peaks):
        left = load[max(0, p - 12):p].min()
        right = load[p + 1:p + 13].min() if p + 1 < len(load) else load[p]
        prominence[i] = load[p] - max(left, right)
    keep = peaks[prominence >= min_prominence]
    gaps = np.diff(keep)
    daily_peak = load.reshape(-1, 24).argmax(axis=1)
    hist = np.bincount(daily_peak, minlength=24)
    return {"peaks": keep, "prominence": prominence[prominence >= min_prominence], "gaps": gaps,
            "hour_hist": hist, "n_candidates": len(peaks)}


def load_duration(np, load, capacity):
    ldc = np.sort(load)[::-1]
    hours = np.arange(1, len(ldc) + 1)
    pct_time = hours / len(ldc) * 100
    at = np.interp([1, 5, 10, 50, 90], pct_time, ldc)
    cf = load.mean() / capacity
    exceed = np.searchsorted(-ldc, -0.9 * ldc[0])
    p = np.percentile(load, [5, 25, 50, 75, 95, 99])
    base = ldc[-1]
    energy_above = np.sum(np.clip(load - np.percentile(load, 90), 0, None))
    return {"ldc": ldc[::100], "at": at, "cf": cf, "hours_above_90pct": int(exceed), "pct": p,
            "base": base, "peak_energy": energy_above, "peak_to_avg": ldc[0] / load.mean()}


def demand_charges(np, kw15, month_starts, rate):
    hourly = kw15.reshape(-1, 4).mean(axis=1)
    month_peak = np.maximum.reduceat(kw15, month_starts)
    energy = np.add.reduceat(kw15, month_starts) * 0.25
    charge = month_peak * rate
    idx = np.searchsorted(month_starts, np.arange(len(kw15)), side="right") - 1
    ends = np.append(month_starts[1:], len(kw15))
    when = np.array([s + np.argmax(kw15[s:e]) for s, e in zip(month_starts, ends, strict=True)])
    load_factor = energy / (month_peak * np.diff(np.append(month_starts, len(kw15))) * 0.25)
    return {"hourly": hourly[:48], "peak": month_peak, "energy": energy, "charge": np.round(charge, 2),
            "idx_counts": np.bincount(idx), "when": when, "load_factor": load_factor}


def battery_shaving(np, load, cap_kwh, p_max, target):
    soc = np.zeros(len(load) + 1)
    soc[0] = cap_kwh
    grid = load.copy()
    for t in range(len(load)):
        want = load[t] - target
        if want > 0:
            d = min(want, p_max, soc[t])
            grid[t] -= d
            soc[t + 1] = soc[t] - d
        else:
            c = min(-want, p_max, cap_kwh - soc[t])
            grid[t] += c
            soc[t + 1] = soc[t] + c
    clipped = np.clip(load, None, target)
    unserved = load - clipped
    view = grid[::24]
    view *= 1.0  # in place on a view: no change
    return {"grid": grid, "soc": soc[::6], "peak_before": load.max(), "peak_after": grid.max(),
            "unserved": unserved.sum(), "cycles": np.abs(np.diff(soc)).sum() / (2 * cap_kwh)}


def net_load_ramps(np, load, solar_cf, solar_mw):
    net = load - solar_cf * solar_mw
    ramp = np.diff(net)
    k = 5
    top_up = np.argpartition(ramp, -k)[-k:]
    top_up = top_up[np.argsort(ramp[top_up])[::-1]]
    three_hour = net[3:] - net[:-3]
    days = net.reshape(-1, 24)
    duck_depth = days.max(axis=1) - days[:, 10:16].min(axis=1)
    curtail = np.where(net < 0, -net, 0.0)
    return {"net": net, "top_ramps": top_up, "ramp_vals": ramp[top_up], "max3h": three_hour.max(),
            "duck": duck_depth, "curtailed": curtail.sum(), "neg_hours": int((net < 0).sum())}


def _year_load(rng, days=365):
    h = np.arange(days * 24)
    hour, day = h % 24, h // 24
    seasonal = 1 + 0.3 * np.cos(2 * np.pi * (day - 200) / 365)
    daily = 0.8 + 0.4 * np.exp(-((hour - 18) ** 2) / 8) + 0.2 * np.exp(-((hour - 8) ** 2) / 4)
    return 500 * seasonal * daily + rng.normal(0, 15, h.size)


def test_seasonal_profiles():
    check(seasonal_profiles, _year_load(np.random.default_rng(1421)), 3, rtol=1e-3)


def test_rolling_24h_windows():
    check(rolling_windows, _year_load(np.random.default_rng(1422), 30), rtol=1e-3, atol=1e-2)


def test_peak_detection():
    check(peak_detection, _year_load(np.random.default_rng(1423), 20), 60.0, rtol=1e-3)


def test_load_duration_curve():
    check(load_duration, _year_load(np.random.default_rng(1424)), 900.0, rtol=1e-3, atol=1e-2)


def test_demand_charges_15min():
    rng = np.random.default_rng(1425)
    kw15 = np.abs(np.repeat(_year_load(rng, 90), 4) / 10 + rng.normal(0, 2, 90 * 96))
    check(demand_charges, kw15, np.array([0, 31 * 96, 59 * 96]), 14.5, rtol=1e-3)


def test_battery_peak_shaving():
    check(battery_shaving, _year_load(np.random.default_rng(1426), 7), 400.0, 120.0, 650.0, rtol=1e-3, atol=1e-2)


def test_net_load_ramps():
    rng = np.random.default_rng(1427)
    h = np.arange(14 * 24) % 24
    solar = np.clip(np.sin((h - 6) / 12 * np.pi), 0, None) * rng.uniform(0.6, 1.0, h.size)
    check(net_load_ramps, _year_load(rng, 14), solar, 700.0, rtol=1e-3, atol=1e-2)
