"""Calendar arithmetic on integer arrays, as NumPy code does it where datetime64 is not wanted: days from civil
dates and back (Hinnant's era algorithm), weekdays and leap years, day-of-year from cumulative month lengths,
business days between dates, Easter dates by the anonymous Gregorian algorithm, ISO week numbers, monthly
totals grouped by yyyymm keys, and hours/minutes from epoch seconds (tests/porting)."""

import numpy as np
from harness import check


def days_from_civil(np, y, m, d):
    y = np.asarray(y) - (np.asarray(m) <= 2)
    era = np.where(y >= 0, y, y - 399) // 400
    yoe = y - era * 400
    mp = (np.asarray(m) + 9) % 12
    doy = (153 * mp + 2) // 5 + np.asarray(d) - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def civil_roundtrip(np, ymd_host):
    y, m, d = (np.asarray(c) for c in ymd_host.T)
    days = days_from_civil(np, y, m, d)
    z = days + 719468
    era = np.where(z >= 0, z, z - 146096) // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d2 = doy - (153 * mp + 2) // 5 + 1
    m2 = np.where(mp < 10, mp + 3, mp - 9)
    y2 = yoe + era * 400 + (m2 <= 2)
    weekday = (days + 3) % 7  # Monday == 0, as date.weekday()
    return {"days": days, "y": y2, "m": m2, "d": d2, "weekday": weekday,
            "same": bool(np.all((y2 == y) & (m2 == m) & (d2 == d))), "span": int(days.max() - days.min())}


def leap_years_and_day_of_year(np, ymd_host):
    years = np.arange(1890, 2110)
    leap = (years % 4 == 0) & ((years % 100 != 0) | (years % 400 == 0))
    month_len = np.array([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
    y, m, d = (np.asarray(c) for c in ymd_host.T)
    is_leap = (y % 4 == 0) & ((y % 100 != 0) | (y % 400 == 0))
    before = np.concatenate([[0], np.cumsum(month_len)[:-1]])
    doy = before[m - 1] + d + ((m > 2) & is_leap)
    year_len = 365 + leap.astype(int)
    return {"n_leap": int(leap.sum()), "first_leaps": years[leap][:6], "doy": doy,
            "year_len_total": int(year_len.sum()), "centuries": years[(years % 100 == 0)],
            "leap_centuries": years[leap & (years % 100 == 0)]}


def business_days(np, starts_host, lengths_host, holidays_host):
    start = np.asarray(starts_host)
    end = start + np.asarray(lengths_host)
    holidays = np.asarray(holidays_host)
    full_weeks, rest = np.divmod(end - start, 7)
    wd0 = (start + 3) % 7
    extra = np.zeros_like(rest)
    for k in range(6):
        extra += (k < rest) & ((wd0 + k) % 7 < 5)
    counts = full_weeks * 5 + extra
    all_days = np.arange(start.min(), end.max())
    is_work = (all_days + 3) % 7 < 5
    is_work &= ~np.isin(all_days, holidays)
    cum = np.concatenate([[0], np.cumsum(is_work)])
    with_holidays = cum[end - all_days[0]] - cum[start - all_days[0]]
    return {"counts": counts, "with_holidays": with_holidays, "workdays": int(is_work.sum())}


def easter_dates(np, first=1990, last=2040):
    year = np.arange(first, last + 1)
    a = year % 19
    b, c = np.divmod(year, 100)
    d, e = np.divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = np.divmod(c, 4)
    l = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l) // 451
    month = (h + l - 7 * m + 114) // 31
    day = (h + l - 7 * m + 114) % 31 + 1
    april = month == 4
    earliest = np.lexsort((day, month))[0]
    counts = np.bincount(np.where(april, day + 31, day), minlength=57)
    return {"month": month, "day": day, "n_april": int(april.sum()), "earliest": int(year[earliest]),
            "most_common": int(np.argmax(counts)), "ordinal": days_from_civil(np, year, month, day) % 7}


def iso_weeks(np, ymd_host):
    y, m, d = (np.asarray(c) for c in ymd_host.T)
    days = days_from_civil(np, y, m, d)
    weekday = (days + 3) % 7
    thursday = days - weekday + 3
    jan1 = days_from_civil(np, y, 1, 1)
    next_jan1 = days_from_civil(np, y + 1, 1, 1)
    iso_year = np.where(thursday < jan1, y - 1, np.where(thursday >= next_jan1, y + 1, y))
    start = days_from_civil(np, iso_year, 1, 4)
    start = start - (start + 3) % 7
    week = (thursday - start) // 7 + 1
    return {"iso_year": iso_year, "week": week, "weekday": weekday + 1}


def monthly_totals(np, days_host, amounts_host):
    days = np.asarray(days_host)
    amounts = np.asarray(amounts_host)
    order = np.argsort(days, kind="stable")
    days, amounts = days[order], amounts[order]
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    month = np.where(mp < 10, mp + 3, mp - 9)
    year = yoe + era * 400 + (month <= 2)
    key = year * 100 + month
    months, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
    totals = np.bincount(inverse, weights=amounts)
    running = np.cumsum(totals)
    best = months[np.argmax(totals)]
    return {"months": months, "counts": counts, "totals": totals, "running": running, "best": int(best),
            "mean_per_txn": totals / counts}


def epoch_seconds(np, seconds_host):
    t = np.asarray(seconds_host)
    days, secs = np.divmod(t, 86400)
    hours, rem = np.divmod(secs, 3600)
    minutes, seconds = np.divmod(rem, 60)
    weekday = (days + 3) % 7
    hist = np.bincount(hours, minlength=24)
    weekend = weekday >= 5
    night = (hours < 6) | (hours >= 22)
    stamps = [f"{h:02d}:{mi:02d}:{s:02d}" for h, mi, s in zip(hours[:5], minutes[:5], seconds[:5], strict=True)]
    return {"hours": hours, "minutes": minutes, "seconds": seconds, "hist": hist,
            "weekend_share": float(weekend.mean()), "night": int(night.sum()), "stamps": stamps,
            "busiest": int(hist.argmax())}


def _dates(seed, n):
    rng = np.random.default_rng(seed)
    y = rng.integers(1600, 2400, n)
    m = rng.integers(1, 13, n)
    d = rng.integers(1, 29, n)
    return np.stack([y, m, d], axis=1)


def test_civil_days_roundtrip_weekday():
    ymd = np.concatenate([_dates(601, 40), [[2000, 2, 29], [1970, 1, 1], [1969, 12, 31], [2100, 3, 1]]])
    check(civil_roundtrip, ymd)


def test_leap_years_day_of_year_cumsum():
    check(leap_years_and_day_of_year, np.concatenate([_dates(602, 30), [[2000, 12, 31], [1900, 3, 1]]]))


def test_business_days_divmod_isin_holidays():
    rng = np.random.default_rng(603)
    starts = rng.integers(19000, 19400, 12)
    check(business_days, starts, rng.integers(0, 40, 12), np.array([19010, 19100, 19101, 19200, 19350]))


def test_easter_dates_anonymous_gregorian():
    check(easter_dates)


def test_iso_week_numbers():
    ymd = np.array([[2020, 12, 31], [2021, 1, 3], [2021, 1, 4], [2024, 12, 30], [2026, 6, 15], [2015, 12, 31],
                    [2016, 1, 1], [2010, 1, 3], [2009, 12, 31], [2027, 1, 1]])
    check(iso_weeks, ymd)


def test_monthly_totals_unique_inverse_bincount():
    rng = np.random.default_rng(605)
    check(monthly_totals, rng.integers(19700, 20200, 80), rng.gamma(2.0, 30.0, 80).round(2))


def test_epoch_seconds_divmod_fstrings():
    rng = np.random.default_rng(606)
    check(epoch_seconds, rng.integers(1_600_000_000, 1_700_000_000, 60))
