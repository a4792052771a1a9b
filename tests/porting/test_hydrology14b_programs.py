"""Hydrology and climate records as hydrologists' course notebooks write them: rainfall return periods by
Weibull plotting positions (`argsort` ranks, `np.interp` on log periods), heating and cooling degree-days
(`np.maximum`, `reshape` by month, `np.add.reduceat`), a drought index from rolling sums
(`sliding_window_view`, standardised by calendar month), an anomaly table by `reshape(years, 12)` with `nanmean`
over gaps, annual maxima series with Gumbel fits by moments, a flow-duration curve with base-flow separation by
a recursive filter loop, and a water-balance bucket model with in-place writes into views (tests/porting)."""

import numpy as np
from harness import check


def return_periods(np, annual_max):
    n = len(annual_max)
    order = np.argsort(annual_max)[::-1]
    ranks = np.empty(n, dtype=int)
    ranks[order] = np.arange(1, n + 1)
    T = (n + 1) / ranks
    p_exceed = 1 / T
    sorted_T = np.sort(T)
    sorted_q = np.sort(annual_max)
    design = np.interp(np.log([2, 5, 10, 25]), np.log(sorted_T), sorted_q)
    big = annual_max[T >= 10]
    return {"ranks": ranks, "T": T, "p": p_exceed, "design": design, "n_big": len(big),
            "largest_T": T.max(), "median_q": np.median(annual_max)}


def degree_days(np, tmean, base_heat, base_cool, month_starts):
    hdd = np.maximum(base_heat - tmean, 0)
    cdd = np.maximum(tmean - base_cool, 0)
    monthly_hdd = np.add.reduceat(hdd, month_starts)
    monthly_cdd = np.add.reduceat(cdd, month_starts)
    gdd = np.clip(tmean, 10, 30) - 10
    season = np.cumsum(gdd)
    maturity_day = int(np.searchsorted(season, 1200.0))
    frost = tmean < 0
    runs = np.diff(np.concatenate(([0], frost.astype(np.int8), [0])))
    starts, ends = np.flatnonzero(runs == 1), np.flatnonzero(runs == -1)
    longest = int((ends - starts).max()) if len(starts) else 0
    return {"hdd": monthly_hdd, "cdd": monthly_cdd, "gdd_total": season[-1], "maturity": maturity_day,
            "frost_days": int(frost.sum()), "longest_frost": longest}


def drought_index(np, monthly_rain, window):
    years = len(monthly_rain) // 12
    rolled = np.lib.stride_tricks.sliding_window_view(monthly_rain, window).sum(axis=1)
    padded = np.concatenate((np.full(window - 1, np.nan), rolled))
    table = padded.reshape(years, 12)
    mu = np.nanmean(table, axis=0)
    sd = np.nanstd(table, axis=0, ddof=1)
    z = (table - mu) / sd
    cls = np.digitize(z, [-2.0, -1.5, -1.0, 1.0, 1.5, 2.0])
    flat = z.ravel()
    valid = ~np.isnan(flat)
    counts = np.bincount(cls.ravel()[valid], minlength=7)
    worst = np.nanargmin(flat)
    return {"z": np.round(z, 3), "counts": counts, "worst": (int(worst // 12), int(worst % 12)),
            "dry_months": int(np.sum(flat[valid] < -1)), "mu": mu}


def anomaly_table(np, monthly_temp):
    t = monthly_temp.copy()
    table = t.reshape(-1, 12)
    clim = np.nanmean(table[:30], axis=0)
    anom = table - clim
    annual = np.nanmean(anom, axis=1)
    warmest = np.argsort(annual)[::-1][:5]
    years = np.arange(1950, 1950 + table.shape[0])
    slope, intercept = np.polyfit(years, annual, 1)
    decades = annual[: (len(annual) // 10) * 10].reshape(-1, 10).mean(axis=1)
    missing = np.isnan(table).sum(axis=0)
    return {"anom": anom, "annual": annual, "warmest": years[warmest], "trend_per_century": slope * 100,
            "decades": decades, "missing": missing, "clim": clim}


def gumbel_fit(np, daily, years):
    am = daily.reshape(years, 365).max(axis=1)
    mean, sd = am.mean(), am.std(ddof=1)
    beta = sd * np.sqrt(6) / np.pi
    mu = mean - 0.5772 * beta
    T = np.array([2, 10, 50, 100])
    xT = mu - beta * np.log(-np.log(1 - 1 / T))
    srt = np.sort(am)
    F = (np.arange(1, years + 1) - 0.44) / (years + 0.12)
    model = mu - beta * np.log(-np.log(F))
    rmse = np.sqrt(np.mean((srt - model) ** 2))
    day_of_max = daily.reshape(years, 365).argmax(axis=1)
    return {"am": am, "beta": beta, "mu": mu, "xT": xT, "rmse": rmse,
            "season_hist": np.bincount(day_of_max // 91, minlength=5)}


def flow_duration(np, q, alpha):
    fdc = np.sort(q)[::-1]
    exceed = np.arange(1, len(q) + 1) / (len(q) + 1) * 100
    q95, q50, q5 = np.interp([95, 50, 5], exceed, fdc)
    quick = np.zeros_like(q)
    for t in range(1, len(q)):
        quick[t] = alpha * quick[t - 1] + (1 + alpha) / 2 * (q[t] - q[t - 1])
    quick = np.clip(quick, 0, None)
    base = q - quick
    bfi = base.sum() / q.sum()
    high = q > 3 * np.median(q)
    events = np.count_nonzero(np.diff(high.astype(int)) == 1)
    return {"fdc": fdc[::20], "q": np.array([q95, q50, q5]), "bfi": bfi, "base": base[::10],
            "events": events, "slope": (np.log(q5) - np.log(q95)) / 90}


def bucket_model(np, rain, pet, capacity):
    n = len(rain)
    state = np.zeros((n + 1, 3))
    state[0] = [capacity / 2, 0, 0]
    storage, runoff, aet = state[1:, 0], state[1:, 1], state[1:, 2]
    for t in range(n):
        s = state[t, 0] + rain[t]
        aet[t] = min(pet[t] * s / capacity, s)
        s -= aet[t]
        runoff[t] = max(s - capacity, 0.0)
        storage[t] = s - runoff[t]
    balance = rain.sum() - aet.sum() - runoff.sum() - (storage[-1] - state[0, 0])
    monthly = state[1:, :].reshape(-1, 30, 3).sum(axis=1)
    return {"storage": storage, "runoff_total": runoff.sum(), "aet_total": aet.sum(),
            "balance_ok": bool(np.isclose(balance, 0, atol=1e-2)), "monthly": monthly}


def test_rainfall_return_periods():
    rng = np.random.default_rng(14301)
    check(return_periods, rng.gumbel(60, 20, 40), rtol=1e-3)


def test_degree_days():
    rng = np.random.default_rng(14302)
    d = np.arange(365)
    tmean = 12 - 14 * np.cos(2 * np.pi * (d - 15) / 365) + rng.normal(0, 3, 365)
    starts = np.cumsum([0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30])
    check(degree_days, tmean, 18.0, 22.0, starts, rtol=1e-3, atol=1e-3)


def test_drought_index_rolling_sums():
    rng = np.random.default_rng(14303)
    rain = rng.gamma(2.0, 40.0, 12 * 30) * (1 + 0.5 * np.sin(np.arange(360) * 2 * np.pi / 12))
    check(drought_index, rain, 3, rtol=1e-3, atol=2e-3)


def test_anomaly_table_by_year():
    rng = np.random.default_rng(14304)
    m = np.arange(12 * 60)
    temp = 10 + 8 * np.sin(2 * np.pi * (m % 12) / 12) + 0.02 * m / 12 + rng.normal(0, 0.6, m.size)
    temp[rng.choice(m.size, 25, replace=False)] = np.nan
    check(anomaly_table, temp, rtol=1e-3, atol=1e-3)


def test_gumbel_annual_maxima():
    rng = np.random.default_rng(14305)
    check(gumbel_fit, rng.exponential(8, 365 * 25), 25, rtol=1e-3, atol=1e-3)


def test_flow_duration_and_baseflow():
    rng = np.random.default_rng(14306)
    q = np.exp(rng.normal(2, 0.7, 400)).cumsum() % 50 + 1 + rng.exponential(2, 400)
    check(flow_duration, q, 0.925, rtol=1e-3, atol=1e-2)


def test_bucket_water_balance():
    rng = np.random.default_rng(14307)
    rain = rng.exponential(3, 180) * (rng.random(180) < 0.4)
    check(bucket_model, rain, rng.uniform(1, 5, 180), 100.0, rtol=1e-3, atol=1e-2)
