"""Time series as NumPy scripts write them: rolling mean/std/max through sliding_window_view with axis=,
an EWMA by a loop and by weights, autocorrelation by np.correlate and by the FFT, resampling hourly data to
daily by reshape with nan-aware reductions, seasonal decomposition by a reshaped period, Bollinger bands with
np.convolve, lagged feature matrices for AR(p) fitted by lstsq, drawdowns by np.maximum.accumulate, and
z-score anomaly flags printed with np.array2string (tests/porting)."""

import numpy as np
from harness import check


def rolling_stats(np, x_host, w=7):
    x = np.asarray(x_host)
    win = np.lib.stride_tricks.sliding_window_view(x, w)
    mean = win.mean(axis=-1)
    std = win.std(axis=-1, ddof=1)
    roll_max = win.max(axis=1)
    med = np.median(win, axis=1)
    padded = np.concatenate([np.full(w - 1, np.nan), mean])
    return {"mean": mean, "std": std, "max": roll_max, "median": med, "padded": padded[:12],
            "nan_count": int(np.isnan(padded).sum())}


def rolling_2d_axis(np, X_host, w=4):
    X = np.asarray(X_host)  # (time, series)
    win = np.lib.stride_tricks.sliding_window_view(X, w, axis=0)  # (time-w+1, series, w)
    z = (X[w - 1 :] - win.mean(axis=-1)) / win.std(axis=-1)
    corr = np.array([np.corrcoef(win[t])[0, 1] for t in range(0, win.shape[0], 5)])
    return {"shape": win.shape, "z": z, "corr": corr}


def ewma(np, x_host, alpha=0.3):
    x = np.asarray(x_host)
    s = np.empty_like(x)
    s[0] = x[0]
    for t in range(1, len(x)):
        s[t] = alpha * x[t] + (1 - alpha) * s[t - 1]
    # the same by explicit weights (pandas' adjust=True)
    n = len(x)
    w = (1 - alpha) ** np.arange(n)[::-1]
    adjusted = np.cumsum(w * x) / np.cumsum(w)
    adjusted2 = np.array([np.dot(x[: t + 1], w[n - t - 1 :]) / w[n - t - 1 :].sum() for t in range(n)])
    return {"s": s, "adjusted": adjusted / w[::-1] * w[::-1], "adjusted_direct": adjusted2}


def autocorrelation(np, x_host, max_lag=10):
    x = np.asarray(x_host)
    x = x - x.mean()
    n = len(x)
    full = np.correlate(x, x, mode="full")[n - 1 :]
    acf = full[: max_lag + 1] / full[0]
    f = np.fft.rfft(x, n=2 * n)
    acf_fft = np.fft.irfft(f * np.conj(f))[: max_lag + 1]
    acf_fft /= acf_fft[0]
    conf = 1.96 / np.sqrt(n)
    significant = np.nonzero(np.abs(acf[1:]) > conf)[0] + 1
    return {"acf": acf, "acf_fft": acf_fft, "significant": significant}


def resample_hourly_to_daily(np, hourly_host):
    h = np.asarray(hourly_host).copy()
    h[h < -2.5] = np.nan  # sensor dropouts
    days = h.reshape(-1, 24)
    daily_mean = np.nanmean(days, axis=1)
    daily_max = np.nanmax(days, axis=1)
    valid = np.count_nonzero(~np.isnan(days), axis=1)
    peak_hour = np.nanargmax(days, axis=1)
    weekly = daily_mean[: len(daily_mean) // 7 * 7].reshape(-1, 7).mean(axis=1, keepdims=True)
    return {"mean": daily_mean, "max": daily_max, "valid": valid, "peak_hour": peak_hour, "weekly": weekly}


def seasonal_decompose(np, y_host, period=12):
    y = np.asarray(y_host)
    k = np.ones(period + 1)
    k[0] = k[-1] = 0.5
    trend = np.convolve(y, k / period, mode="valid")
    half = period // 2
    detr = y[half : len(y) - half] - trend
    pad = np.concatenate([np.full(half, np.nan), detr, np.full(half, np.nan)])
    seasonal = np.nanmean(pad.reshape(-1, period), axis=0)
    seasonal -= seasonal.mean()
    resid = y - np.tile(seasonal, len(y) // period)
    return {"trend": trend[::6], "seasonal": seasonal, "resid_std": float(np.nanstd(resid))}


def bollinger_and_crossings(np, price_host, w=10):
    p = np.asarray(price_host)
    ma = np.convolve(p, np.ones(w) / w, mode="valid")
    sq = np.convolve(p**2, np.ones(w) / w, mode="valid")
    sd = np.sqrt(np.maximum(sq - ma**2, 0))
    upper, lower = ma + 2 * sd, ma - 2 * sd
    q = p[w - 1 :]
    above = q > upper
    below = q < lower
    signal = np.select([above, below], [-1, 1], default=0)
    fast = np.convolve(p, np.ones(3) / 3, mode="valid")[w - 3 :]
    cross = np.flatnonzero(np.diff(np.sign(fast - ma)) != 0)
    return {"ma": ma[::5], "width": (upper - lower)[::5], "signal": signal, "cross": cross}


def ar_fit_lagged(np, y_host, p=3):
    y = np.asarray(y_host)
    X = np.column_stack([y[p - k - 1 : len(y) - k - 1] for k in range(p)])
    X = np.hstack([np.ones((len(X), 1)), X])
    target = y[p:]
    coef, res, rank, sv = np.linalg.lstsq(X, target, rcond=None)
    pred = X @ coef
    r2 = 1 - ((target - pred) ** 2).sum() / ((target - target.mean()) ** 2).sum()
    fc = list(y[-p:])
    for _ in range(5):
        fc.append(coef[0] + coef[1:] @ np.array(fc[-1 : -p - 1 : -1]))
    return {"coef": coef, "rank": int(rank), "r2": float(r2), "forecast": np.array(fc[p:])}


def drawdowns(np, returns_host):
    r = np.asarray(returns_host)
    wealth = np.cumprod(1 + r)
    peak = np.maximum.accumulate(wealth)
    dd = wealth / peak - 1
    end = int(np.argmin(dd))
    start = int(np.argmax(wealth[: end + 1]))
    in_dd = dd < 0
    starts = np.flatnonzero(np.diff(in_dd.astype(int)) == 1) + 1
    sharpe = r.mean() / r.std(ddof=1) * np.sqrt(252)
    return {"max_dd": float(dd.min()), "start": start, "end": end, "n_episodes": len(starts),
            "sharpe": round(float(sharpe), 3), "wealth": wealth[::20]}


def anomaly_flags(np, x_host, thresh=2.0):
    x = np.asarray(x_host)
    z = (x - x.mean()) / x.std()
    flags = np.abs(z) > thresh
    idx = np.where(flags)[0]
    lines = [f"t={i:3d} value={x[i]:+.2f} z={z[i]:+.2f}" for i in idx]
    text = np.array2string(z[:6], precision=2, separator=", ")
    mad = np.median(np.abs(x - np.median(x)))
    robust = np.abs(x - np.median(x)) / (1.4826 * mad) > 3.5
    return {"idx": idx, "lines": lines, "text": text, "robust": np.flatnonzero(robust)}


def kalman_constant_velocity(np, z_host, dt=1.0, q=0.01, r=1.0):
    F = np.array([[1.0, dt], [0.0, 1.0]])
    Hm = np.array([[1.0, 0.0]])
    Q = q * np.array([[dt**3 / 3, dt**2 / 2], [dt**2 / 2, dt]])
    R = np.array([[r]])
    x = np.zeros((2, 1))
    P = np.eye(2) * 10
    est, gains = [], []
    for z in z_host:
        x = F @ x
        P = F @ P @ F.T + Q
        S = Hm @ P @ Hm.T + R
        K = P @ Hm.T @ np.linalg.inv(S)
        x = x + K @ (np.array([[z]]) - Hm @ x)
        P = (np.eye(2) - K @ Hm) @ P
        est.append(x.ravel())
        gains.append(K[0, 0])
    est = np.array(est)
    return {"pos": est[::5, 0], "vel": est[-5:, 1], "gain": np.array(gains)[[0, 1, 5, -1]], "P": P}


def long_signal_stats(np, fs=1000, seconds=120, f0=5.0):
    t = np.arange(0, seconds, 1 / fs)
    x = np.sin(2 * np.pi * f0 * t) + 0.5 + 0.001 * t
    mean, std = x.mean(), x.std()
    rms = np.sqrt(np.mean(x**2))
    per_second = x.reshape(seconds, fs).mean(axis=1)
    crossings = np.count_nonzero(np.diff(np.signbit(x - mean)))
    return {"n": len(t), "mean": float(mean), "std": float(std), "rms": float(rms), "per_second": per_second[::20],
            "crossings_per_s": round(crossings / seconds), "energy": float(np.sum(x**2) / fs)}


def _walk(seed, n):
    rng = np.random.default_rng(seed)
    return np.cumsum(rng.normal(0, 1, n)) + 10 * np.sin(np.arange(n) * 2 * np.pi / 12)


def test_rolling_stats_sliding_window_view():
    check(rolling_stats, _walk(0, 60), rtol=1e-3, atol=1e-3)


def test_rolling_window_axis0_zscore_corrcoef():
    check(rolling_2d_axis, np.random.default_rng(1).normal(size=(30, 3)), rtol=2e-3, atol=1e-3)


def test_ewma_loop_and_weights():
    check(ewma, _walk(2, 50), rtol=1e-3, atol=1e-3)


def test_autocorrelation_correlate_and_fft():
    check(autocorrelation, _walk(3, 96), rtol=1e-3, atol=1e-3)


def test_resample_hourly_to_daily_nan_reductions():
    check(resample_hourly_to_daily, np.random.default_rng(4).normal(size=24 * 15), rtol=1e-4, atol=1e-5)


def test_seasonal_decomposition_reshape_period():
    check(seasonal_decompose, _walk(5, 96), rtol=1e-3, atol=1e-3)


def test_bollinger_bands_and_crossings():
    rng = np.random.default_rng(6)
    check(bollinger_and_crossings, 100 * np.exp(np.cumsum(rng.normal(0, 0.02, 80))), rtol=1e-3, atol=1e-3)


def test_ar_model_lagged_lstsq_forecast():
    rng = np.random.default_rng(7)
    y = np.zeros(120)
    for t in range(2, 120):
        y[t] = 0.6 * y[t - 1] - 0.3 * y[t - 2] + rng.normal()
    check(ar_fit_lagged, y, rtol=1e-3, atol=1e-3)


def test_kalman_filter_constant_velocity():
    rng = np.random.default_rng(10)
    check(kalman_constant_velocity, 0.5 * np.arange(40) + rng.normal(0, 1, 40), rtol=1e-3, atol=1e-4)


def test_long_signal_statistics_float32_sums():
    check(long_signal_stats, rtol=2e-4, atol=1e-4)


def test_drawdowns_maximum_accumulate():
    check(drawdowns, np.random.default_rng(8).normal(0.0005, 0.01, 250), rtol=1e-3, atol=1e-4)


def test_anomaly_flags_printed():
    x = np.random.default_rng(9).normal(size=80)
    x[[7, 40, 66]] += [5.0, -6.0, 4.5]
    check(anomaly_flags, x, rtol=1e-3, atol=1e-3)
