"""Meteorology and climate records as course notebooks and station-data scripts write them: monthly anomalies by
`reshape(-1, 12)` against a climatology and by `np.unique(return_inverse=True)` group means, heating/cooling/growing
degree days with `np.add.reduceat` month sums and the first threshold day by `argmax` of a mask, running means
by `np.convolve`, `cumsum` differences and `sliding_window_view` with `nanmean` over gaps, annual extremes by
`argmax` per year with return periods from sorted ranks, record counts by `np.maximum.accumulate` and heat waves
from `np.diff` of a padded mask, precipitation spells and percentiles, a wind rose by `np.histogram2d` of
direction sectors against speed with a vector-mean direction by `arctan2`, and station trends by `np.polyfit`
of a 2-d `Y` with a lapse rate by `lstsq`, and a station CSV with a -999 sentinel through `np.loadtxt`,
`np.ma.masked_equal`, `np.savetxt` and `np.printoptions` (tests/porting)."""

import io

import numpy as np
from harness import check


def monthly_anomalies(np, monthly, first_year):
    monthly = np.asarray(monthly)
    table = monthly.reshape(-1, 12)
    base = table[:30]
    clim = base.mean(axis=0)
    anom = table - clim
    years = first_year + np.arange(table.shape[0])
    annual = anom.mean(axis=1)
    warmest = np.argmax(table, axis=1)
    # the same means by group keys, as a script without reshape does it
    year_of = np.repeat(years, 12)
    month_of = np.tile(np.arange(1, 13), table.shape[0])
    keys = year_of * 100 + month_of
    uniq, inv = np.unique(keys % 100, return_inverse=True)
    by_month = np.bincount(inv, weights=monthly) / np.bincount(inv)
    decade = (years // 10) * 10
    dec, dinv, dcount = np.unique(decade, return_inverse=True, return_counts=True)
    dec_mean = np.bincount(dinv, weights=annual) / dcount
    djf = np.concatenate([[np.nan], table[:-1, 11]])[:, None]
    winter = np.nanmean(np.hstack([djf, table[:, :2]]), axis=1)
    return {"clim": clim, "anom_last": anom[-1], "annual": annual, "warmest": warmest, "months": uniq,
            "by_month": by_month, "decades": dec, "dec_mean": dec_mean, "winter": winter,
            "hottest_year": int(years[np.argmax(annual)]), "above": int((annual > 0).sum())}


def degree_days(np, tmax, tmin, year_lengths):
    tmean = (tmax + tmin) / 2
    hdd = np.maximum(18.0 - tmean, 0)
    cdd = np.maximum(tmean - 18.0, 0)
    gdd = np.clip(np.minimum(tmax, 30.0) / 2 + np.maximum(tmin, 10.0) / 2 - 10.0, 0, None)
    month_len = np.array([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
    starts = np.concatenate([[0], np.cumsum(month_len)[:-1]])
    year = tmean[: 365]
    monthly_hdd = np.add.reduceat(hdd[:365], starts)
    monthly_cdd = np.add.reduceat(cdd[:365], starts)
    edges = np.concatenate([[0], np.cumsum(year_lengths)])
    gdd_years = [gdd[a:b] for a, b in zip(edges[:-1], edges[1:], strict=True)]
    first_500 = np.array([int(np.argmax(np.cumsum(g) >= 500)) if np.cumsum(g)[-1] >= 500 else -1
                          for g in gdd_years])
    frost = tmin < 0
    last_spring = np.array([np.flatnonzero(f[:182]).max(initial=-1) for f in
                            [frost[a:b] for a, b in zip(edges[:-1], edges[1:], strict=True)]])
    return {"monthly_hdd": monthly_hdd, "monthly_cdd": monthly_cdd, "hdd_total": hdd.sum(),
            "first_500": first_500, "last_frost": last_spring, "year_mean": year.mean(),
            "frost_days": np.add.reduceat(frost.astype(int), edges[:-1])}


def running_means(np, series, gaps):
    x = np.asarray(series, dtype=float)
    k = 11
    conv = np.convolve(x, np.ones(k) / k, mode="valid")
    c = np.cumsum(np.insert(x, 0, 0.0))
    csum = (c[k:] - c[:-k]) / k
    win = np.lib.stride_tricks.sliding_window_view(x, k)
    centred = np.full_like(x, np.nan)
    centred[k // 2: -(k // 2)] = win.mean(axis=1)
    padded = np.pad(x, k // 2, mode="edge")
    edge_mean = np.lib.stride_tricks.sliding_window_view(padded, k).mean(axis=-1)
    y = x.copy()
    y[gaps] = np.nan
    wy = np.lib.stride_tricks.sliding_window_view(y, k)
    valid = np.count_nonzero(~np.isnan(wy), axis=1)
    with np.errstate(invalid="ignore"):
        gap_mean = np.where(valid >= 8, np.nansum(wy, axis=1) / np.maximum(valid, 1), np.nan)
    return {"conv": conv, "same": np.allclose(conv, csum, atol=1e-4), "centred": centred, "edge": edge_mean,
            "gap_mean": gap_mean, "win_max": win.max(axis=1)[::5], "smooth_trend": conv[-1] - conv[0]}


def annual_extremes(np, daily, first_year):
    years = daily.reshape(-1, 365)
    ann_max = years.max(axis=1)
    day_of_max = np.argmax(years, axis=1)
    ann_min_day = years.argmin(axis=1)
    order = np.argsort(ann_max)[::-1]
    ranks = np.arange(1, len(ann_max) + 1)
    return_period = (len(ann_max) + 1) / ranks
    record = np.maximum.accumulate(ann_max)
    new_record = np.r_[True, ann_max[1:] > record[:-1]]
    p90 = np.percentile(daily, 90)
    hot = np.concatenate([[0], (daily > p90).astype(np.int8), [0]])
    change = np.diff(hot)
    starts = np.flatnonzero(change == 1)
    ends = np.flatnonzero(change == -1)
    lengths = ends - starts
    waves = starts[lengths >= 3]
    return {"ann_max": ann_max, "day_of_max": day_of_max, "min_day": ann_min_day,
            "sorted_years": first_year + order, "T10": np.interp(10.0, return_period[::-1], ann_max[order][::-1]),
            "records": np.flatnonzero(new_record) + first_year, "n_waves": len(waves),
            "wave_years": np.unique(waves // 365 + first_year), "longest": int(lengths.max()), "p90": p90}


def precipitation_spells(np, rain):
    wet = rain >= 1.0
    per_year = rain.reshape(-1, 365)
    wet_days = (per_year >= 1.0).sum(axis=1)
    totals = per_year.sum(axis=1)
    sdii = totals / wet_days
    edges = np.flatnonzero(np.diff(np.r_[1, wet.astype(int), 1]))
    runs = np.diff(edges)[::2]
    longest_dry = runs.max()
    r95 = np.percentile(rain[wet], 95)
    r95_total = np.where(per_year > r95, per_year, 0).sum(axis=1)
    rx5 = np.lib.stride_tricks.sliding_window_view(per_year, 5, axis=1).sum(axis=-1).max(axis=1)
    masked = np.where(wet, rain, np.nan)
    q = np.nanpercentile(masked.reshape(-1, 365), [50, 90, 99], axis=1)
    hist, bins = np.histogram(rain[wet], bins=[1, 5, 10, 20, 50, 1000])
    return {"wet_days": wet_days, "sdii": sdii, "longest_dry": int(longest_dry), "n_dry_spells": len(runs),
            "r95": r95, "r95_total": r95_total, "rx5": rx5, "q": q, "hist": hist, "bins": bins}


def wind_rose(np, speed, direction_deg):
    rad = np.deg2rad(direction_deg)
    u = -speed * np.sin(rad)
    v = -speed * np.cos(rad)
    mean_dir = (np.degrees(np.arctan2(-u.mean(), -v.mean())) + 360) % 360
    sectors = ((direction_deg + 22.5) // 45).astype(int) % 8
    speed_bins = [0, 2, 4, 6, 8, 15]
    H, xe, ye = np.histogram2d(sectors, speed, bins=[np.arange(9) - 0.5, speed_bins])
    freq = H / H.sum() * 100
    calm = (speed < 0.5).mean()
    prevailing = int(np.argmax(H.sum(axis=1)))
    gust_sector = np.zeros(8)
    np.maximum.at(gust_sector, sectors, speed)
    steadiness = np.hypot(u.mean(), v.mean()) / speed.mean()
    return {"mean_dir": mean_dir, "freq": freq, "calm": calm, "prevailing": prevailing, "gust": gust_sector,
            "steady": steadiness, "edges": ye, "u_mean": u.mean()}


def station_trends(np, temps, elevations, first_year):
    years = first_year + np.arange(temps.shape[1])
    coef = np.polyfit(years - years[0], temps.T, 1)
    per_decade = coef[0] * 10
    fitted = np.polyval(coef, (years - years[0])[:, None])
    resid = temps.T - fitted
    climat = temps.mean(axis=1)
    A = np.column_stack([elevations / 1000.0, np.ones_like(elevations)])
    (lapse, sea_level), res, rank, sv = np.linalg.lstsq(A, climat, rcond=None)
    reduced = climat - lapse * elevations / 1000.0
    corr = np.corrcoef(temps)
    warming = per_decade > 0.1
    return {"per_decade": per_decade, "resid_std": resid.std(axis=0, ddof=2), "lapse": lapse,
            "sea_level": sea_level, "rank": int(rank), "reduced": reduced, "corr_min": corr.min(),
            "warming": np.flatnonzero(warming), "close": np.isclose(reduced, reduced.mean(), atol=0.5)}


def station_csv(np, text):
    raw = np.loadtxt(io.StringIO(text), delimiter=",", skiprows=1)
    years = raw[:, 0].astype(int)
    temps = np.ma.masked_equal(raw[:, 1:], -999.0)
    missing = temps.mask.sum(axis=1)
    clim = temps.mean(axis=0)
    anom = (temps - clim).filled(np.nan)
    annual = temps.mean(axis=1)
    complete = years[missing == 0]
    out = io.StringIO()
    np.savetxt(out, np.column_stack([years, np.round(annual.filled(-999.0), 2)]), fmt=["%d", "%.2f"],
               delimiter=",", header="year,annual", comments="")
    with np.printoptions(precision=1, suppress=True):
        shown = str(np.round(clim.filled(0.0), 1))
    return {"clim": clim.filled(np.nan), "missing": missing, "anom": anom, "complete": complete,
            "csv": out.getvalue(), "shown": shown, "count": temps.count(axis=0), "max_month": int(clim.argmax())}


def _seasonal(rng, years, days_per_year=365, amp=10.0, trend=0.02, noise=2.0):
    t = np.arange(years * days_per_year)
    return 10 + amp * np.sin(2 * np.pi * (t - 105) / days_per_year) + trend * t / days_per_year \
        + noise * rng.normal(size=t.size)


def test_monthly_anomalies_by_reshape_and_groups():
    rng = np.random.default_rng(1601)
    months = np.arange(40 * 12)
    monthly = 12 + 9 * np.sin(2 * np.pi * (months % 12 - 3) / 12) + 0.002 * months + rng.normal(0, 0.8, months.size)
    check(monthly_anomalies, monthly, 1981, rtol=1e-3, atol=1e-3)


def test_degree_days_by_month_and_year():
    rng = np.random.default_rng(1602)
    t = _seasonal(rng, 3)
    check(degree_days, t + 4 + rng.random(t.size), t - 4 - rng.random(t.size), np.array([365, 365, 365]),
          rtol=1e-3, atol=1e-2)


def test_running_means_with_gaps():
    rng = np.random.default_rng(1603)
    x = np.cumsum(rng.normal(0, 0.3, 120)) + 14
    check(running_means, x, rng.choice(120, 20, replace=False), rtol=1e-4, atol=1e-4)


def test_annual_extremes_records_heat_waves():
    rng = np.random.default_rng(1604)
    check(annual_extremes, _seasonal(rng, 12, trend=0.1), 2010, rtol=1e-4, atol=1e-4)


def test_precipitation_spells_and_percentiles():
    rng = np.random.default_rng(1605)
    rain = np.where(rng.random(5 * 365) < 0.3, rng.gamma(0.8, 8.0, 5 * 365), 0.0)
    check(precipitation_spells, rain, rtol=1e-4, atol=1e-4)


def test_wind_rose_histogram2d():
    rng = np.random.default_rng(1606)
    n = 600
    direction = (rng.vonmises(np.deg2rad(240), 1.5, n) * 180 / np.pi) % 360
    check(wind_rose, rng.weibull(2.0, n) * 5, np.round(direction, 1), rtol=1e-4, atol=1e-4)


def test_station_trends_and_lapse_rate():
    rng = np.random.default_rng(1607)
    elev = np.array([10.0, 250.0, 600.0, 1200.0, 1800.0, 2500.0])
    years = np.arange(50)
    temps = 15 - 6.5 * elev[:, None] / 1000 + 0.02 * years * np.array([1, 1.5, 2, 0.5, 1, 3])[:, None] \
        + rng.normal(0, 0.4, (6, 50))
    check(station_trends, temps, elev, 1970, rtol=1e-3, atol=1e-3)


def test_station_csv_with_missing_values():
    rng = np.random.default_rng(1608)
    t = np.round(8 + 10 * np.sin(2 * np.pi * (np.arange(12) - 3.5) / 12) + rng.normal(0, 1, (15, 12)), 1)
    t[rng.random(t.shape) < 0.08] = -999.0
    lines = ["year," + ",".join(f"m{m}" for m in range(1, 13))]
    lines += [f"{1990 + i}," + ",".join(f"{v:.1f}" for v in row) for i, row in enumerate(t)]
    check(station_csv, "\n".join(lines) + "\n", rtol=1e-4, atol=1e-4)
