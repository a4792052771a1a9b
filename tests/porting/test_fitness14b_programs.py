"""Sports and fitness trackers as hobbyists' GPX notebooks write them: track distances by the haversine formula
on consecutive fixes (`np.radians`, `np.diff`, `np.cumsum`), pace smoothing by a centred moving average and an
outlier mask, heart-rate zones with `np.digitize` and time in zone by `np.bincount(weights=)`, lap splits with
`np.searchsorted` on cumulative distance, elevation gain with hysteresis, a training-load table (TRIMP, ATL/CTL
by exponential loops) and best efforts over fixed durations by `sliding_window_view` (tests/porting)."""

import numpy as np
from harness import check

R_EARTH = 6371008.8


def haversine_track(np, lat, lon):
    phi, lam = np.radians(lat), np.radians(lon)
    dphi, dlam = np.diff(phi), np.diff(lam)
    a = np.sin(dphi / 2) ** 2 + np.cos(phi[:-1]) * np.cos(phi[1:]) * np.sin(dlam / 2) ** 2
    seg = 2 * R_EARTH * np.arcsin(np.sqrt(a))
    dist = np.concatenate(([0.0], np.cumsum(seg)))
    bearing = np.degrees(np.arctan2(np.sin(dlam) * np.cos(phi[1:]),
                                    np.cos(phi[:-1]) * np.sin(phi[1:])
                                    - np.sin(phi[:-1]) * np.cos(phi[1:]) * np.cos(dlam))) % 360
    start_to_end = 2 * R_EARTH * np.arcsin(np.sqrt(np.sin((phi[-1] - phi[0]) / 2) ** 2 + np.cos(phi[0])
                                                    * np.cos(phi[-1]) * np.sin((lam[-1] - lam[0]) / 2) ** 2))
    return {"seg": seg, "total_km": dist[-1] / 1000, "bearing": bearing, "straightness": start_to_end / dist[-1],
            "longest_seg": int(np.argmax(seg))}


def pace_smoothing(np, t, dist, window):
    dt, dd = np.diff(t), np.diff(dist)
    with np.errstate(divide="ignore", invalid="ignore"):
        pace = np.where(dd > 0, dt / dd * 1000 / 60, np.nan)  # min/km
    bad = np.isnan(pace) | (pace > 20) | (pace < 2)
    clean = pace.copy()
    clean[bad] = np.interp(np.flatnonzero(bad), np.flatnonzero(~bad), pace[~bad])
    kernel = np.ones(window) / window
    padded = np.pad(clean, window // 2, mode="edge")
    smooth = np.convolve(padded, kernel, mode="valid")
    return {"n_bad": int(bad.sum()), "smooth": smooth, "median": np.nanmedian(pace),
            "fastest": np.nanmin(pace), "p90": np.nanpercentile(pace, 90)}


def heart_rate_zones(np, hr, dt, hr_max):
    edges = hr_max * np.array([0.5, 0.6, 0.7, 0.8, 0.9])
    zone = np.digitize(hr, edges)
    seconds = np.bincount(zone, weights=dt, minlength=6)
    share = seconds / seconds.sum()
    changes = np.flatnonzero(np.diff(zone)) + 1
    longest_z4 = 0
    for seg in np.split(zone, changes):
        if seg[0] >= 4:
            longest_z4 = max(longest_z4, len(seg))
    drift = hr[len(hr) // 2:].mean() / hr[: len(hr) // 2].mean()
    return {"zone": zone, "seconds": seconds, "share": np.round(share, 4), "longest_z4": longest_z4,
            "drift": drift, "time_above": float(dt[hr > edges[3]].sum())}


def lap_splits(np, t, dist, lap_m):
    marks = np.arange(lap_m, dist[-1], lap_m)
    idx = np.searchsorted(dist, marks)
    frac = (marks - dist[idx - 1]) / (dist[idx] - dist[idx - 1])
    t_marks = t[idx - 1] + frac * (t[idx] - t[idx - 1])
    t_all = np.concatenate(([t[0]], t_marks))
    lap_times = np.diff(t_all)
    negative = lap_times[len(lap_times) // 2:].sum() < lap_times[: len(lap_times) // 2].sum()
    fastest = np.argsort(lap_times, kind="stable")[:3]
    return {"marks_idx": idx, "laps": lap_times, "negative_split": bool(negative), "fastest": fastest,
            "cv": lap_times.std() / lap_times.mean()}


def elevation_gain(np, ele, threshold):
    smooth = np.convolve(ele, np.ones(5) / 5, mode="same")
    ref = smooth[0]
    gain = loss = 0.0
    for e in smooth[1:]:
        d = e - ref
        if d >= threshold:
            gain += d
            ref = e
        elif d <= -threshold:
            loss -= d
            ref = e
    naive = np.diff(ele)
    grade = np.gradient(smooth) * 10
    return {"gain": gain, "loss": loss, "naive_gain": naive[naive > 0].sum(),
            "max_grade": grade.max(), "steep": int(np.count_nonzero(np.abs(grade) > 8))}


def training_load(np, daily_minutes, daily_hr, hr_rest, hr_max):
    hrr = (daily_hr - hr_rest) / (hr_max - hr_rest)
    trimp = daily_minutes * hrr * 0.64 * np.exp(1.92 * hrr)
    atl = np.zeros_like(trimp)
    ctl = np.zeros_like(trimp)
    for d in range(1, len(trimp)):
        atl[d] = atl[d - 1] + (trimp[d] - atl[d - 1]) / 7
        ctl[d] = ctl[d - 1] + (trimp[d] - ctl[d - 1]) / 42
    tsb = ctl - atl
    weeks = trimp[: len(trimp) // 7 * 7].reshape(-1, 7)
    monotony = weeks.mean(axis=1) / weeks.std(axis=1)
    strain = weeks.sum(axis=1) * monotony
    return {"trimp": trimp, "tsb": tsb, "monotony": monotony, "strain": strain,
            "peak_fatigue_day": int(atl.argmax()), "rest_days": int((daily_minutes == 0).sum())}


def best_efforts(np, power, durations):
    out = {}
    for d in durations:
        win = np.lib.stride_tricks.sliding_window_view(power, d)
        means = win.mean(axis=-1)
        out[f"best_{d}"] = means.max()
        out[f"at_{d}"] = int(means.argmax())
    rolling30 = np.lib.stride_tricks.sliding_window_view(power, 30).mean(axis=1)
    np_power = np.mean(rolling30 ** 4) ** 0.25
    ftp = 0.95 * out[f"best_{durations[-1]}"]
    out["NP"] = np_power
    out["IF"] = np_power / ftp
    out["zones"] = np.histogram(power, bins=[0, 0.55 * ftp, 0.75 * ftp, 0.9 * ftp, 1.05 * ftp, 1.2 * ftp,
                                             np.inf])[0]
    return out


def _track(rng, n=300):
    heading = np.cumsum(rng.normal(0, 0.15, n))
    step = rng.uniform(2.5, 4.0, n) / 111_000
    lat = 47.37 + np.cumsum(step * np.cos(heading))
    lon = 8.54 + np.cumsum(step * np.sin(heading) / np.cos(np.radians(47.37)))
    return lat, lon


def test_haversine_track():
    check(haversine_track, *_track(np.random.default_rng(14311)), rtol=1e-3, atol=1e-2)


def test_pace_smoothing():
    rng = np.random.default_rng(14312)
    dd = rng.uniform(2.5, 3.5, 400)
    dd[rng.choice(400, 12, replace=False)] = 0.0
    dd[rng.choice(400, 5, replace=False)] = 40.0
    check(pace_smoothing, np.arange(401.0), np.concatenate(([0.0], np.cumsum(dd))), 9, rtol=1e-3, atol=1e-3)


def test_heart_rate_zones():
    rng = np.random.default_rng(14313)
    hr = np.clip(110 + 60 * np.sin(np.linspace(0, 3, 1800)) + rng.normal(0, 5, 1800), 60, 195)
    check(heart_rate_zones, hr, rng.choice([1.0, 2.0], 1800), 190.0, rtol=1e-3, atol=1e-2)


def test_lap_splits():
    rng = np.random.default_rng(14314)
    t = np.cumsum(rng.uniform(0.9, 1.1, 3000))
    check(lap_splits, t, np.cumsum(rng.uniform(2.6, 3.4, 3000)), 1000.0, rtol=1e-3, atol=1e-2)


def test_elevation_gain():
    rng = np.random.default_rng(14315)
    x = np.linspace(0, 12, 600)
    check(elevation_gain, 400 + 60 * np.sin(x) + 15 * np.sin(3.1 * x) + rng.normal(0, 1.5, 600), 3.0,
          rtol=1e-3, atol=1e-2)


def test_training_load():
    rng = np.random.default_rng(14316)
    minutes = rng.choice([0, 30, 45, 60, 90], 84, p=[0.25, 0.2, 0.25, 0.2, 0.1]).astype(float)
    check(training_load, minutes, rng.uniform(120, 165, 84), 50.0, 190.0, rtol=1e-3, atol=1e-2)


def test_best_efforts_power():
    rng = np.random.default_rng(14317)
    power = np.clip(200 + 80 * np.sin(np.arange(3600) / 300) + rng.normal(0, 40, 3600), 0, None)
    check(best_efforts, power, [5, 60, 300, 1200], rtol=1e-3, atol=1e-2)
