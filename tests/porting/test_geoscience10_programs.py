"""Weather, climate and seismology: monthly anomalies against a climatology by reshape to (years, 12) with np.nanmean
and a missing-value sentinel, degree days and heat-wave runs, a linear warming trend per decade with np.polyfit,
float16 sensor readings with their rounding, an STA/LTA trigger on a seismogram by cumsum windows, Richter/moment
magnitudes and the Gutenberg-Richter b-value by np.log10 of cumulative counts, epicentre distances by the haversine
formula, and wind rose binning of directions with np.digitize and np.bincount (tests/porting)."""

import numpy as np
from harness import check


def monthly_anomalies(np, temps):
    t = np.asarray(temps, dtype=float).copy()
    t[t == -999.0] = np.nan
    try:
        t[:-1].reshape(-1, 12)
        partial = "reshaped"
    except ValueError:
        partial = "incomplete year"
    grid = t.reshape(-1, 12)
    clim = np.nanmean(grid, axis=0)
    anom = grid - clim
    yearly = np.nanmean(anom, axis=1)
    missing = np.isnan(grid).sum(axis=0)
    warmest = np.unravel_index(np.nanargmax(anom), anom.shape)
    filled = np.where(np.isnan(grid), clim, grid)
    lines = [f"{1990 + y}: {a:+.2f}" for y, a in enumerate(yearly.tolist())]
    return {"clim": clim, "anom": anom, "yearly": yearly, "missing": missing, "warmest": tuple(int(i) for i in warmest),
            "filled": filled, "lines": lines, "partial": partial, "std": np.nanstd(anom, axis=0, ddof=1)}


def degree_days_heatwaves(np, tmax, tmin, base, hot):
    tmean = (tmax + tmin) / 2
    baseline = np.full(len(tmean), base)  # base: a 0-d NumPy array, as np.load("station.npz")["base"] gives
    hdd = np.maximum(baseline - tmean, 0).sum()
    cdd = np.clip(tmean - base, 0, None).sum()
    is_hot = np.concatenate([[False], tmax > hot, [False]])
    edges = np.diff(is_hot.astype(np.int8))
    starts = np.flatnonzero(edges == 1)
    ends = np.flatnonzero(edges == -1)
    lengths = ends - starts
    waves = [(int(s), int(n)) for s, n in zip(starts, lengths, strict=False) if n >= 3]
    return {"hdd": hdd, "cdd": cdd, "runs": lengths, "waves": waves, "longest": int(lengths.max(initial=0)),
            "diurnal": np.round(np.mean(tmax - tmin), 3)}


def warming_trend(np, years, temps):
    slope, intercept = np.polyfit(years, temps, 1)
    fit = np.polyval([slope, intercept], years)
    resid = temps - fit
    r2 = 1 - resid.var() / temps.var()
    roll = np.convolve(temps, np.ones(5) / 5, mode="valid")
    decades = (years // 10) * 10
    dec, idx = np.unique(decades, return_inverse=True)
    dec_mean = np.bincount(idx, weights=temps) / np.bincount(idx)
    return {"per_decade": round(float(slope * 10), 3), "r2": r2, "roll": roll, "dec": dec, "dec_mean": dec_mean,
            "text": f"{slope * 10:.2f} C/decade"}


def float16_sensors(np, raw):
    r16 = np.asarray(raw, dtype=np.float16)
    err = r16.astype(np.float32) - np.asarray(raw, dtype=np.float32)
    big = np.float16(2048) + np.float16(1)
    step = np.spacing(np.float16(1000))
    big_arr = np.array([2048, 4096, 65504], dtype=np.float16)
    with np.errstate(over="ignore"):
        over = big_arr * np.float16(2)
    mean16 = r16.mean()
    sum32 = r16.sum(dtype=np.float32)
    tolist = r16[:4].tolist()
    return {"r16": r16, "err": np.abs(err).max(), "big": float(big), "step": float(step),
            "over": over, "mean": float(mean16), "sum32": sum32, "list": tolist,
            "dtype": str(r16.dtype), "nbytes": r16.nbytes, "eps": float(np.finfo(np.float16).eps)}


def sta_lta(np, trace, nsta, nlta, on, off):
    e = trace.astype(np.float64) ** 2
    c = np.cumsum(np.concatenate([[0.0], e]))
    sta = (c[nsta:] - c[:-nsta]) / nsta
    lta = (c[nlta:] - c[:-nlta]) / nlta
    n = len(lta)
    ratio = sta[nlta - nsta:][:n] / np.maximum(lta, 1e-12)
    triggers = []
    active = False
    for i, r in enumerate(ratio):
        if not active and r > on:
            active = True
            start = i
        elif active and r < off:
            triggers.append((start + nlta - 1, i + nlta - 1))
            active = False
    return {"ratio": ratio[::10], "max": float(ratio.max()), "at": int(np.argmax(ratio)) + nlta - 1,
            "triggers": triggers}


def magnitudes(np, amplitudes_mm, distances_km, mags):
    ml = np.log10(amplitudes_mm) + 3 * np.log10(8 * distances_km) - 2.92
    m0 = 10 ** (1.5 * ml + 9.1)
    mw = (2 / 3) * (np.log10(m0) - 9.1)
    bins = np.arange(2.0, 6.01, 0.5)
    counts = np.array([(mags >= b).sum() for b in bins])
    ok = counts > 0
    b, a = np.polyfit(bins[ok], np.log10(counts[ok]), 1)
    b_mle = np.log10(np.e) / (mags.mean() - (mags.min() - 0.05))
    energy_ratio = 10 ** (1.5 * (mags.max() - mags.min()))
    return {"ml": ml, "mw": mw, "counts": counts, "b": -b, "a": a, "b_mle": b_mle, "ratio": energy_ratio,
            "label": [("minor" if m < 4 else "light" if m < 5 else "moderate") for m in ml.tolist()]}


def haversine(np, lat, lon, lat0, lon0):
    R = 6371.0
    phi1, phi2 = np.radians(lat0), np.radians(lat)
    dphi = phi2 - phi1
    dlmb = np.radians(lon - lon0)
    a = np.sin(dphi / 2) ** 2 + np.cos(phi1) * np.cos(phi2) * np.sin(dlmb / 2) ** 2
    d = 2 * R * np.arcsin(np.sqrt(a))
    bearing = (np.degrees(np.arctan2(np.sin(dlmb) * np.cos(phi2),
                                     np.cos(phi1) * np.sin(phi2) - np.sin(phi1) * np.cos(phi2) * np.cos(dlmb)))
               + 360) % 360
    near = np.argsort(d)[:3]
    return {"d": d, "bearing": bearing, "near": near, "within": int((d < 500).sum())}


def wind_rose(np, direction, speed):
    d = np.asarray(direction) % 360
    sector = np.digitize((d + 22.5) % 360, np.arange(45, 360, 45))
    counts = np.bincount(sector, minlength=8)
    mean_speed = np.bincount(sector, weights=speed, minlength=8) / np.maximum(counts, 1)
    u = -speed * np.sin(np.radians(d))
    v = -speed * np.cos(np.radians(d))
    vec_dir = (np.degrees(np.arctan2(-u.mean(), -v.mean())) + 360) % 360
    names = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    return {"counts": counts, "mean": mean_speed, "dir": vec_dir, "prevailing": names[int(np.argmax(counts))],
            "calm": int((speed < 0.5).sum())}


def test_monthly_anomalies_with_missing():
    rng = np.random.default_rng(1601)
    t = 10 + 8 * np.sin(np.arange(72) * 2 * np.pi / 12) + rng.normal(0, 1, 72)
    t[[5, 17, 40]] = -999.0
    check(monthly_anomalies, np.round(t, 1), rtol=1e-4, atol=1e-4)


def test_degree_days_and_heat_waves():
    rng = np.random.default_rng(1602)
    tmax = 25 + 6 * rng.standard_normal(60)
    check(degree_days_heatwaves, tmax, tmax - rng.uniform(5, 12, 60), np.array(18.0), 29.0, rtol=1e-4, atol=1e-3)


def test_warming_trend_per_decade():
    rng = np.random.default_rng(1603)
    years = np.arange(1961, 2021)
    check(warming_trend, years, 14 + 0.018 * (years - 1961) + rng.normal(0, 0.1, 60), rtol=1e-3, atol=1e-3)


def test_float16_sensor_readings():
    rng = np.random.default_rng(1604)
    check(float16_sensors, rng.uniform(-40, 1200, 16), rtol=1e-3, atol=1e-3)


def test_sta_lta_trigger():
    rng = np.random.default_rng(1605)
    x = rng.normal(0, 1, 600)
    x[300:360] += 8 * np.sin(np.arange(60) * 0.7) * np.exp(-np.arange(60) / 30)
    check(sta_lta, x, 10, 100, 3.0, 1.5, rtol=1e-3, atol=1e-3)


def test_magnitudes_gutenberg_richter():
    rng = np.random.default_rng(1606)
    check(magnitudes, rng.uniform(0.1, 50, 6), rng.uniform(20, 300, 6), 2.0 + rng.exponential(0.45, 300),
          rtol=1e-3, atol=1e-3)


def test_haversine_epicentre_distances():
    rng = np.random.default_rng(1607)
    check(haversine, rng.uniform(30, 45, 10), rng.uniform(130, 145, 10), 35.7, 139.7, rtol=1e-4, atol=1e-2)


def test_wind_rose_sectors():
    rng = np.random.default_rng(1608)
    check(wind_rose, rng.uniform(0, 720, 80), rng.gamma(2, 2, 80), rtol=1e-4, atol=1e-4)
