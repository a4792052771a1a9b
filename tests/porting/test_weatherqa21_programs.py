"""Weather-station quality assurance as a meteorologist's script writes it: sentinel and range checks into NaNs
and `np.ma` masks, per-station `nanmean`/`nanpercentile`/`nanargmax` over axes, step and persistence tests by
`np.diff(prepend=)`, spatial buddy checks against the neighbours' `nanmedian`, wind directions averaged by unit
vectors and gaps filled by `np.interp(period=360)`, a lagged cross-correlation between stations by `np.correlate`
(a short series against a longer one, `mode="same"`), a low-pass of the diurnal cycle by `rfft`/`irfft(n=)` with
`rfftfreq`, daily extremes by `reshape` with `keepdims`, completeness flags by `count_nonzero`, and a QA summary
table printed with `np.array2string` (tests/porting)."""

import warnings

import numpy as np
from harness import check


def range_checks(np, temp, lo, hi):
    t = np.asarray(temp, dtype=float)
    t[t == -9999] = np.nan  # the logger's sentinel
    bad = (t < lo) | (t > hi)
    flagged = np.where(bad, np.nan, t)
    m = np.ma.masked_invalid(flagged)
    return {"n_sentinel": int(np.isnan(t).sum()), "n_range": int(bad.sum()), "clean": flagged,
            "mean": m.mean(axis=1).filled(np.nan), "count": m.count(axis=1),
            "first_bad": np.where(bad.any(axis=1), bad.argmax(axis=1), -1)}


def station_stats(np, obs):
    x = np.asarray(obs)  # (station, hour), NaN where missing
    with warnings.catch_warnings():  # a station with no data at all gives NaN, as intended
        warnings.simplefilter("ignore", RuntimeWarning)
        mean = np.nanmean(x, axis=1)
        p = np.nanpercentile(x, [5, 50, 95], axis=1)
    ok = ~np.all(np.isnan(x), axis=1)
    peak = np.full(x.shape[0], -1)
    peak[ok] = np.nanargmax(x[ok], axis=1)
    return {"mean": mean, "p": p, "peak_hour": peak, "coldest": np.nanargmin(x[ok], axis=1),
            "spread": np.nanmax(x[ok], axis=1) - np.nanmin(x[ok], axis=1), "std": np.nanstd(x[ok], axis=1, ddof=1)}


def step_persistence(np, series, max_step, run):
    x = np.asarray(series)
    step = np.abs(np.diff(x, prepend=x[0]))
    spikes = np.flatnonzero(step > max_step)
    same = np.diff(x, prepend=np.nan) == 0
    # a value repeated `run` times in a row marks a stuck sensor
    runs = np.convolve(same.astype(int), np.ones(run - 1, dtype=int), mode="full")[: len(x)] == run - 1
    return {"step": step, "spikes": spikes, "stuck": np.flatnonzero(runs), "max_step": step.max(),
            "where_max": int(step.argmax())}


def buddy_check(np, values, coords, radius, k):
    v, xy = np.asarray(values), np.asarray(coords)
    d = np.sqrt(((xy[:, None, :] - xy[None, :, :]) ** 2).sum(axis=-1))
    np.fill_diagonal(d, np.inf)
    near = d < radius
    neighbours = np.where(near, v[None, :], np.nan)
    with np.errstate(invalid="ignore"):
        med = np.nanmedian(neighbours, axis=1)
        mad = np.nanmedian(np.abs(neighbours - med[:, None]), axis=1)
    z = np.abs(v - med) / np.maximum(mad, 0.5)
    return {"n_near": near.sum(axis=1), "median": med, "z": z, "suspect": np.flatnonzero(z > k),
            "isolated": np.flatnonzero(~near.any(axis=1))}


def wind_average(np, direction, speed, hours, t_fill):
    th = np.deg2rad(np.asarray(direction))
    s = np.asarray(speed)
    u, v = -s * np.sin(th), -s * np.cos(th)
    mean_dir = np.rad2deg(np.arctan2(-u.mean(), -v.mean())) % 360
    filled = np.interp(np.asarray(t_fill), np.asarray(hours), np.asarray(direction), period=360)
    # the same gaps filled the naive way, which goes the long way round past north
    naive = np.interp(np.asarray(t_fill), np.asarray(hours), np.asarray(direction))
    sector = np.floor_divide(np.asarray(direction) + 22.5, 45).astype(int) % 8
    return {"mean_dir": mean_dir, "scalar_speed": s.mean(), "vector_speed": np.hypot(u.mean(), v.mean()),
            "filled": filled, "naive": naive, "rose": np.bincount(sector, weights=s, minlength=8)}


def lagged_correlation(np, short, long_):
    a = np.asarray(short) - np.mean(short)
    b = np.asarray(long_) - np.mean(long_)
    same = np.correlate(a, b, mode="same")  # `a` is the shorter series
    full = np.correlate(a, b, mode="full")
    lags = np.arange(-len(b) + 1, len(a))
    return {"same": same, "full": full, "best_lag": int(lags[np.argmax(full)]),
            "valid": np.correlate(b, a, mode="valid"), "norm": full.max() / (np.linalg.norm(a) * np.linalg.norm(b))}


def diurnal_lowpass(np, temp, per_day, keep):
    x = np.asarray(temp)
    spec = np.fft.rfft(x - x.mean())
    freq = np.fft.rfftfreq(len(x), d=1 / per_day)  # cycles per day
    spec[freq > keep] = 0
    smooth = np.fft.irfft(spec, n=len(x)) + x.mean()
    amp = 2 * np.abs(spec) / len(x)
    diurnal = int(np.argmin(np.abs(freq - 1.0)))
    padded = np.fft.irfft(np.fft.rfft(x), n=2 * len(x))  # band-limited upsampling by zero padding
    return {"smooth": smooth, "resid_sd": np.std(x - smooth), "amp_diurnal": amp[diurnal], "freq": freq[:6],
            "up": padded[::2] * 2, "shift": np.fft.fftshift(np.fft.fftfreq(8, d=0.5))}


def daily_extremes(np, hourly):
    x = np.asarray(hourly).reshape(-1, 24)
    tmax = np.nanmax(x, axis=1, keepdims=True)
    tmin = np.nanmin(x, axis=1, keepdims=True)
    norm = (x - tmin) / (tmax - tmin)
    complete = np.count_nonzero(~np.isnan(x), axis=1) >= 20
    return {"tmax": tmax.ravel(), "tmin": tmin.ravel(), "norm_mean": np.nanmean(norm, axis=0),
            "complete": complete, "dtr": np.ptp(np.nan_to_num(x, nan=np.nanmean(x)), axis=1),
            "hot_days": np.flatnonzero(tmax[:, 0] > 25)}


def qa_table(np, ids, n_obs, n_flag):
    ids, n_obs, n_flag = np.asarray(ids), np.asarray(n_obs), np.asarray(n_flag)
    pct = np.round(100 * n_flag / n_obs, 1)
    table = np.column_stack([ids, n_obs, n_flag, pct])
    order = np.lexsort((ids, -pct))  # worst first, ties by id
    text = np.array2string(table[order], precision=1, suppress_small=True, separator=", ")
    return {"table": table[order], "text": text, "worst": int(ids[order[0]]), "ok": ids[pct < 5]}


def test_range_checks():
    rng = np.random.default_rng(2111)
    t = np.round(rng.normal(12, 8, (5, 24)), 1)
    t[0, 3] = t[2, 7] = -9999
    t[1, 10], t[4, 0] = 61.0, -55.0
    check(range_checks, t, -50.0, 55.0)


def test_station_stats():
    rng = np.random.default_rng(2112)
    x = rng.normal(15, 5, (4, 24))
    x[rng.random((4, 24)) < 0.2] = np.nan
    x[2] = np.nan
    check(station_stats, x)


def test_step_persistence():
    rng = np.random.default_rng(2113)
    x = np.round(np.cumsum(rng.normal(0, 0.5, 40)), 1)
    x[12:17] = x[12]
    x[30] += 6
    check(step_persistence, x, 3.0, 4)


def test_buddy_check():
    rng = np.random.default_rng(2114)
    xy = rng.uniform(0, 100, (15, 2))
    v = 20 - 0.05 * xy[:, 1] + rng.normal(0, 0.4, 15)
    v[4] += 8
    check(buddy_check, v, xy, 40.0, 4.0)


def test_wind_average():
    hours = np.array([0, 3, 6, 9, 12, 15, 18, 21])
    direction = np.array([350, 10, 20, 340, 300, 5, 355, 15])
    check(wind_average, direction, np.array([3.0, 4, 2, 6, 1, 3, 5, 2]), hours, np.array([1.5, 10.5, 16.0, 22.0]))


def test_lagged_correlation():
    rng = np.random.default_rng(2116)
    b = rng.normal(0, 1, 16)
    check(lagged_correlation, b[3:13] + rng.normal(0, 0.1, 10), b, rtol=1e-3, atol=1e-4)


def test_diurnal_lowpass():
    rng = np.random.default_rng(2117)
    t = np.arange(72) / 24
    check(diurnal_lowpass, 10 + 6 * np.sin(2 * np.pi * (t - 0.3)) + rng.normal(0, 1, 72), 24, 1.5,
          rtol=1e-3, atol=1e-4)


def test_daily_extremes():
    rng = np.random.default_rng(2118)
    h = 18 + 7 * np.sin(2 * np.pi * (np.arange(96) / 24 - 0.35)) + rng.normal(0, 1, 96)
    h[rng.random(96) < 0.1] = np.nan
    check(daily_extremes, h)


def test_qa_table():
    check(qa_table, np.array([101, 102, 103, 104, 105]), np.array([720, 700, 744, 600, 720]),
          np.array([12, 70, 3, 60, 36]))
