"""Tide-gauge analysis as oceanographers script it in NumPy: harmonic analysis of hourly sea levels by least squares
on cos/sin columns of the constituents (`np.linalg.lstsq`, amplitudes by `np.hypot`, phases by `np.arctan2` and
`np.degrees` wrapped with `%`), high and low waters from sign changes of the first difference with parabolic
refinement, tidal datums (MHW/MLW/MLLW) by grouping extremes into tidal days with `np.add.reduceat` and
`np.minimum.reduceat`, gaps in a gauge record as a masked array (`np.ma.masked_invalid`) and filled by `np.interp`,
surge residuals with a Doodson-like filter by `np.convolve`, flood/ebb durations from run lengths, and a
prediction loop over constituents with float64 hours times float32 levels (tests/porting)."""

import numpy as np
from harness import check

# angular speeds in degrees per hour: M2, S2, N2, K1, O1
SPEEDS = np.array([28.9841042, 30.0, 28.4397295, 15.0410686, 13.9430356])


def _design(np, t, speeds):
    w = np.radians(np.asarray(speeds))
    arg = np.outer(t, w)
    return np.column_stack([np.ones(len(t)), np.cos(arg), np.sin(arg)])


def harmonic_analysis(np, t, h):
    t, h = np.asarray(t), np.asarray(h)
    X = _design(np, t, SPEEDS)
    coef, res, rank, sv = np.linalg.lstsq(X, h, rcond=None)
    k = len(SPEEDS)
    a, b = coef[1:k + 1], coef[k + 1:]
    amp = np.hypot(a, b)
    phase = np.degrees(np.arctan2(b, a)) % 360
    fit = X @ coef
    form = (amp[3] + amp[4]) / (amp[0] + amp[1])
    kinds = ["semidiurnal", "mixed semidiurnal", "mixed diurnal", "diurnal"]
    kind = kinds[int(np.searchsorted([0.25, 1.5, 3.0], form))]
    return {"z0": coef[0], "amp": amp, "phase": phase, "rms": np.sqrt(np.mean((h - fit) ** 2)), "rank": rank,
            "form": form, "kind": kind, "cond": sv[0] / sv[-1], "res": res}


def high_low_waters(np, t, h):
    t, h = np.asarray(t), np.asarray(h)
    d = np.diff(h)
    s = np.sign(d)
    turn = np.flatnonzero(s[:-1] != s[1:]) + 1
    is_high = d[turn - 1] > 0
    y0, y1, y2 = h[turn - 1], h[turn], h[turn + 1]
    denom = y0 - 2 * y1 + y2
    off = np.where(denom != 0, 0.5 * (y0 - y2) / np.where(denom != 0, denom, 1), 0.0)
    t_ext = t[turn] + off * (t[1] - t[0])
    h_ext = y1 - 0.25 * (y0 - y2) * off
    highs, lows = h_ext[is_high], h_ext[~is_high]
    n = min(len(highs), len(lows))
    rng_ = np.abs(highs[:n] - lows[:n])
    return {"t_high": t_ext[is_high], "t_low": t_ext[~is_high], "highs": highs, "lows": lows,
            "period": np.diff(t_ext[is_high]).mean(), "range": rng_, "spring": int(np.argmax(rng_)),
            "neap": int(np.argmin(rng_))}


def tidal_datums(np, t, h):
    t, h = np.asarray(t), np.asarray(h)
    d = np.sign(np.diff(h))
    turn = np.flatnonzero(d[:-1] != d[1:]) + 1
    high = turn[d[turn - 1] > 0]
    low = turn[d[turn - 1] < 0]
    day_len = 24.8412
    hday = (t[high] // day_len).astype(np.int64)
    lday = (t[low] // day_len).astype(np.int64)
    hstarts = np.flatnonzero(np.diff(hday, prepend=-1))
    lstarts = np.flatnonzero(np.diff(lday, prepend=-1))
    mhhw = np.maximum.reduceat(h[high], hstarts).mean()
    mllw = np.minimum.reduceat(h[low], lstarts).mean()
    per_day = np.add.reduceat(np.ones(len(high), dtype=np.int64), hstarts)
    mhw, mlw = h[high].mean(), h[low].mean()
    return {"mhhw": mhhw, "mhw": mhw, "msl": h.mean(), "mlw": mlw, "mllw": mllw, "mn": mhw - mlw,
            "gt": mhhw - mllw, "per_day": per_day, "days": len(hstarts)}


def gauge_gaps(np, t, h):
    t, h = np.asarray(t), np.asarray(h)
    m = np.ma.masked_invalid(h)
    gaps = np.ma.getmaskarray(m)
    edges = np.diff(np.concatenate(([0], gaps.astype(np.int8), [0])))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    filled = h.copy()
    filled[gaps] = np.interp(t[gaps], t[~gaps], h[~gaps])
    daily = m[: len(m) // 24 * 24].reshape(-1, 24)
    return {"mean": m.mean(), "std": m.std(), "count": m.count(), "starts": starts, "lengths": ends - starts,
            "filled": filled, "daily_mean": daily.mean(axis=1).filled(np.nan), "daily_n": daily.count(axis=1),
            "longest": int((ends - starts).max())}


def surge_residual(np, t, h, tide):
    h, tide = np.asarray(h), np.asarray(tide)
    resid = h - tide
    k = np.array([1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 2, 0, 1, 1, 0, 2, 1, 1, 2, 0, 2, 1, 1, 2, 0, 1], dtype=float)
    kernel = np.concatenate([k[::-1], [0.0], k])
    kernel /= kernel.sum()
    smooth = np.convolve(resid, kernel, mode="valid")
    pad = (len(kernel) - 1) // 2
    peak = int(np.argmax(smooth)) + pad
    over = smooth > 0.15
    runs = np.diff(np.concatenate(([0], over.astype(int), [0])))
    durations = np.flatnonzero(runs == -1) - np.flatnonzero(runs == 1)
    return {"smooth": smooth, "peak_t": np.asarray(t)[peak], "peak": smooth.max(), "events": len(durations),
            "durations": durations, "skew": ((resid - resid.mean()) ** 3).mean() / resid.std() ** 3}


def flood_ebb(np, h, dt):
    h = np.asarray(h)
    rising = np.diff(h) > 0
    change = np.flatnonzero(rising[1:] != rising[:-1]) + 1
    bounds = np.concatenate(([0], change, [len(rising)]))
    lengths = np.diff(bounds) * dt
    kinds = rising[bounds[:-1]]
    flood, ebb = lengths[kinds][1:-1], lengths[~kinds][1:-1]
    rate = np.abs(np.diff(h)) / dt
    return {"flood_mean": flood.mean(), "ebb_mean": ebb.mean(), "asym": flood.mean() / ebb.mean(),
            "max_rate": rate.max(), "rate_p90": np.percentile(rate, 90), "n_phases": len(lengths),
            "first_rising": bool(kinds[0])}


def predict(np, t_hours, amp, phase, z0):
    t = np.asarray(t_hours)
    amp = np.asarray(amp, dtype=np.float32)
    phase = np.asarray(phase, dtype=np.float32)
    h = np.full(len(t), np.float32(z0))
    parts = []
    for s, a, g in zip(SPEEDS, amp, phase, strict=True):
        part = a * np.cos(np.radians(s * t - g))
        parts.append(part)
        h = h + part
    P = np.stack(parts)
    dominant = np.argmax(np.abs(P), axis=0)
    return {"h": h, "dtype": h.dtype.name, "dominant": np.bincount(dominant, minlength=len(SPEEDS)),
            "hat": h.max(), "lat": h.min(), "share": (P**2).mean(axis=1) / (P**2).mean(axis=1).sum()}


def _record(seed, hours, noise=0.03):
    rng = np.random.default_rng(seed)
    t = np.arange(hours, dtype=float)
    amp = np.array([1.2, 0.4, 0.25, 0.3, 0.2])
    ph = np.array([40.0, 75.0, 20.0, 200.0, 180.0])
    tide = 2.0 + (amp[:, None] * np.cos(np.radians(SPEEDS[:, None] * t[None] - ph[:, None]))).sum(axis=0)
    surge = 0.4 * np.exp(-(((t - hours * 0.6) / 20.0) ** 2))
    return t, tide + surge + rng.normal(0, noise, hours), tide, rng


def test_harmonic_analysis():
    t, h, _, _ = _record(3231, 24 * 40)
    check(harmonic_analysis, t, h, rtol=1e-4, atol=1e-6)


def test_high_low_waters():
    t, h, _, _ = _record(3232, 24 * 15, noise=0.0)
    check(high_low_waters, t, h, rtol=1e-4, atol=1e-6)


def test_tidal_datums():
    t, h, _, _ = _record(3233, 24 * 30, noise=0.0)
    check(tidal_datums, t, h, rtol=1e-4)


def test_gauge_gaps():
    t, h, _, rng = _record(3234, 24 * 10)
    h[rng.integers(0, len(h), 12)] = np.nan
    h[100:109] = np.nan
    check(gauge_gaps, t, h, rtol=1e-4, atol=1e-6)


def test_surge_residual():
    t, h, tide, _ = _record(3235, 24 * 12)
    check(surge_residual, t, h, tide, rtol=1e-4, atol=1e-5)


def test_flood_ebb():
    _, h, _, _ = _record(3236, 24 * 8, noise=0.0)
    check(flood_ebb, h, 1.0, rtol=1e-4)


def test_predict():
    check(predict, np.arange(0, 24 * 20, 0.5), [1.2, 0.4, 0.25, 0.3, 0.2], [40.0, 75.0, 20.0, 200.0, 180.0], 2.0,
          rtol=1e-3, atol=1e-4)
