"""Seismology as observatory course notebooks write it: STA/LTA triggers on a synthetic trace (`np.cumsum`
windows, on/off hysteresis by a loop, `np.flatnonzero(np.diff(...))` onsets), cross-correlation lags between
stations (`np.correlate(mode="full")`, `argmax`, parabolic sub-sample peak, FFT correlation with `np.fft.rfft`),
Gutenberg-Richter b-values from a catalogue (`np.histogram`, cumulative counts reversed, `np.polyfit` on
`log10`, the Aki maximum-likelihood estimate, `np.nan*` over missing magnitudes), hypocentre location by a
grid search (`np.meshgrid`, travel times by `np.hypot`, misfit `argmin` with `np.unravel_index`), local
magnitudes with distance corrections and a station median, aftershock decay (Omori's law by `np.polyfit` on
log-binned rates, `np.logspace`, `np.digitize`), and a printed event table (`np.array2string`,
`np.set_printoptions`) (tests/porting)."""

import numpy as np
from harness import check


def sta_lta(np, trace, fs, sta_s, lta_s, on, off):
    ns, nl = int(sta_s * fs), int(lta_s * fs)
    e = trace.astype(float) ** 2
    c = np.cumsum(np.concatenate([[0.0], e]))
    sta = (c[ns:] - c[:-ns]) / ns
    lta = (c[nl:] - c[:-nl]) / nl
    sta = sta[nl - ns:]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(lta > 0, sta / lta, 0.0)
    active = np.zeros(len(ratio), dtype=bool)
    state = False
    for i, r in enumerate(ratio):
        if not state and r > on:
            state = True
        elif state and r < off:
            state = False
        active[i] = state
    edges = np.flatnonzero(np.diff(active.astype(np.int8)))
    onsets = edges[::2] + 1 + nl - 1
    return {"ratio": ratio[::25], "onsets": onsets, "n_triggers": len(onsets), "max_ratio": ratio.max(),
            "first_s": onsets[0] / fs if len(onsets) else -1.0}


def cross_correlation_lag(np, a, b, fs):
    a = (a - a.mean()) / a.std()
    b = (b - b.mean()) / b.std()
    cc = np.correlate(b, a, mode="full") / len(a)
    k = int(np.argmax(cc))
    lag = k - (len(a) - 1)
    y0, y1, y2 = cc[k - 1], cc[k], cc[k + 1]
    frac = 0.5 * (y0 - y2) / (y0 - 2 * y1 + y2)
    n = 2 * len(a)
    spec = np.fft.rfft(b, n) * np.conj(np.fft.rfft(a, n))
    cc_fft = np.fft.irfft(spec, n)
    lag_fft = int(np.argmax(cc_fft))
    lag_fft = lag_fft - n if lag_fft > n // 2 else lag_fft
    return {"lag": lag, "lag_s": (lag + frac) / fs, "peak": cc.max(), "lag_fft": lag_fft,
            "cc": cc[k - 5:k + 6]}


def gutenberg_richter(np, mags, mc):
    m = mags[~np.isnan(mags)]
    bins = np.arange(mc, np.nanmax(mags) + 0.1, 0.1)
    counts, edges = np.histogram(m[m >= mc], bins=np.round(bins - 0.05, 2))
    cum = np.cumsum(counts[::-1])[::-1]
    ok = cum > 0
    slope, a = np.polyfit(edges[:-1][ok] + 0.05, np.log10(cum[ok]), 1)
    above = m[m >= mc]
    b_mle = np.log10(np.e) / (np.nanmean(np.where(mags >= mc, mags, np.nan)) - (mc - 0.05))
    return {"counts": counts, "cum": cum, "b_lsq": -slope, "a": a, "b_mle": b_mle, "n": len(above),
            "missing": int(np.isnan(mags).sum()), "max": np.nanmax(mags), "median": np.nanmedian(mags)}


def grid_search_location(np, stations, arrivals, v):
    xs = np.linspace(0, 50, 51)
    ys = np.linspace(0, 40, 41)
    X, Y = np.meshgrid(xs, ys)
    d = np.hypot(X[..., None] - stations[:, 0], Y[..., None] - stations[:, 1])
    tt = d / v
    origin = (arrivals - tt).mean(axis=-1)
    resid = arrivals - tt - origin[..., None]
    misfit = np.sqrt((resid ** 2).mean(axis=-1))
    iy, ix = np.unravel_index(np.argmin(misfit), misfit.shape)
    good = misfit < misfit.min() * 2
    return {"x": xs[ix], "y": ys[iy], "t0": origin[iy, ix], "rms": misfit.min(), "area": int(good.sum()),
            "resid": resid[iy, ix]}


def local_magnitude(np, amp_mm, dist_km, station_corr):
    logA0 = 1.11 * np.log10(dist_km) + 0.00189 * dist_km - 2.09
    with np.errstate(divide="ignore"):  # clipped or dead channels read 0
        ml = np.log10(amp_mm) + logA0[None, :] + station_corr[None, :]
    ml = np.where(amp_mm > 0, ml, np.nan)
    event_ml = np.nanmedian(ml, axis=1)
    spread = np.nanstd(ml, axis=1)
    station_bias = np.nanmean(ml - event_ml[:, None], axis=0)
    used = np.sum(~np.isnan(ml), axis=1)
    return {"ml": ml, "event": event_ml, "spread": spread, "bias": station_bias, "used": used,
            "rounded": np.round(event_ml, 1)}


def omori_decay(np, times_days):
    edges = np.logspace(-2, 2, 17)
    idx = np.digitize(times_days, edges)
    counts = np.bincount(idx, minlength=len(edges) + 1)[1:-1]
    widths = np.diff(edges)
    rate = counts / widths
    mid = np.sqrt(edges[:-1] * edges[1:])
    ok = counts > 0
    p_neg, logk = np.polyfit(np.log10(mid[ok]), np.log10(rate[ok]), 1)
    first_day = np.searchsorted(np.sort(times_days), 1.0)
    return {"counts": counts, "rate": rate, "p": -p_neg, "K": 10 ** logk, "first_day": int(first_day)}


def event_table(np, mags, depths):
    np.set_printoptions(precision=2, suppress=True)
    try:
        table = np.column_stack([mags, depths])
        text = np.array2string(table[:4], separator=", ")
        big = np.array2string(mags[mags > 3], precision=1, floatmode="fixed")
        summary = np.array2string(np.array([mags.mean(), depths.max()]), formatter={"float_kind": "{:.3f}".format})
    finally:
        np.set_printoptions(precision=8, suppress=False)
    return {"text": text, "big": big, "summary": summary}


def _trace(rng, n, events):
    x = rng.normal(0, 1, n)
    for t0, amp in events:
        k = np.arange(n - t0)
        x[t0:] += amp * np.exp(-k / 80) * np.sin(2 * np.pi * k / 12)
    return x


def test_sta_lta_trigger():
    check(sta_lta, _trace(np.random.default_rng(1441), 3000, [(900, 12.0), (2100, 8.0)]), 50.0, 0.5, 10.0, 3.5,
          1.5, rtol=1e-3)


def test_cross_correlation_lag():
    rng = np.random.default_rng(1442)
    src = _trace(rng, 700, [(100, 10.0)])
    a = src[:600] + rng.normal(0, 0.3, 600)
    b = np.roll(src, 37)[:600] + rng.normal(0, 0.3, 600)
    check(cross_correlation_lag, a, b, 100.0, rtol=1e-3, atol=1e-4)


def test_gutenberg_richter_b_value():
    rng = np.random.default_rng(1443)
    mags = np.round(1.5 + rng.exponential(1 / (1.0 * np.log(10)), 800), 1)
    mags[rng.random(800) < 0.05] = np.nan
    check(gutenberg_richter, mags, 2.0, rtol=1e-3)


def test_grid_search_hypocentre():
    stations = np.array([[5.0, 5.0], [45.0, 8.0], [25.0, 35.0], [10.0, 30.0], [40.0, 30.0]])
    src = np.array([31.0, 17.0])
    arrivals = 2.0 + np.hypot(*(stations - src).T) / 6.0 + np.array([0.02, -0.01, 0.03, 0.0, -0.02])
    check(grid_search_location, stations, arrivals, 6.0, rtol=1e-3, atol=1e-4)


def test_local_magnitude_network():
    rng = np.random.default_rng(1445)
    amp = rng.lognormal(0, 1, (10, 6))
    amp[rng.random((10, 6)) < 0.15] = 0.0
    check(local_magnitude, amp, rng.uniform(10, 300, 6), rng.normal(0, 0.1, 6), rtol=1e-3, atol=1e-4)


def test_omori_aftershock_decay():
    rng = np.random.default_rng(1446)
    t = 0.05 * ((1 - rng.random(3000)) ** (-1 / 0.1) - 1)
    check(omori_decay, t[t < 100], rtol=1e-3)


def test_event_table_printing():
    rng = np.random.default_rng(1447)
    check(event_table, np.round(rng.uniform(1, 5, 8), 3), rng.uniform(0, 30, 8))
