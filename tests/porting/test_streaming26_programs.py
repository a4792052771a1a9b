"""Streaming sensor processing in plain NumPy with `collections.deque` ring buffers: a moving average and moving
median over `deque(maxlen=)`, rolling z-scores with the buffer as an operand (`(x - buf) / np.std(buf)`), a
despiking filter by `np.clip(buf, lo, hi)` and `np.where` on the buffer, exponentially weighted means against
`np.roll`-based ring buffers, CUSUM change detection, and Welford's online variance in a loop over 0-d values
(tests/porting)."""

from collections import deque

import numpy as np
from harness import check


def moving_stats(np, stream, window):
    buf = deque(maxlen=window)
    means, medians, ranges = [], [], []
    for x in stream:
        buf.append(float(x))
        means.append(np.mean(buf))
        medians.append(np.median(buf))
        ranges.append(np.ptp(buf))
    w = np.ones(window) / window
    conv = np.convolve(np.asarray(stream), w, mode="valid")
    return {"mean": np.array(means), "median": np.array(medians), "range": np.array(ranges),
            "conv_tail": conv[-5:], "same": np.allclose(np.array(means)[window - 1:], conv)}


def rolling_z(np, stream, window, thresh):
    buf = deque(maxlen=window)
    flags, zs = [], []
    for i, x in enumerate(stream):
        if len(buf) == window:
            z = (x - np.mean(buf)) / np.std(buf, ddof=1)
            zs.append(z)
            if abs(z) > thresh:
                flags.append(i)
        buf.append(x)
    last = np.asarray(stream[-window:]) - buf
    return {"z": np.array(zs), "flags": flags, "dev": (np.asarray(buf) - np.mean(buf)) / np.std(buf),
            "zero": last, "eq": np.asarray(stream[-window:]) == buf}


def despike(np, stream, window, k):
    buf = deque(maxlen=window)
    out = []
    for x in stream:
        buf.append(x)
        med = np.median(buf)
        mad = np.median(np.abs(np.asarray(buf) - med)) + 1e-9
        lo, hi = med - k * mad, med + k * mad
        clipped = np.clip(buf, lo, hi)
        out.append(clipped[-1])
    arr = np.array(out)
    kept = np.where(np.abs(arr - np.asarray(stream)) < 1e-12, arr, np.nan)
    return {"out": arr, "changed": np.flatnonzero(np.isnan(kept)), "sqrt_last": np.sqrt(np.abs(buf)),
            "max_last": np.maximum(buf, 0.0)}


def ewma_ring(np, stream, alpha, size):
    ring = np.zeros(size, dtype=np.float64)  # kdsl's zeros are float32 (its default): typed to compare exactly
    buf = deque([0.0] * size, maxlen=size)
    s = stream[0]
    smoothed = []
    for x in stream:
        s = alpha * x + (1 - alpha) * s
        ring = np.roll(ring, -1)
        ring[-1] = s
        buf.append(s)
        smoothed.append(s)
    return {"ring": ring, "same": bool(np.all(ring == buf)), "diff": ring - buf, "smoothed": np.array(smoothed),
            "weights": alpha * (1 - alpha) ** np.arange(size)[::-1]}


def cusum(np, stream, target, k, h):
    x = np.asarray(stream)
    sp = sn = 0.0
    alarms = []
    trace = np.zeros((x.size, 2))
    for i, v in enumerate(x):
        sp = max(0.0, sp + v - target - k)
        sn = max(0.0, sn + target - v - k)
        trace[i] = sp, sn
        if sp > h or sn > h:
            alarms.append(i)
            sp = sn = 0.0
    vec = np.maximum.accumulate(np.cumsum(x - target - k))
    return {"trace": trace, "alarms": alarms, "first": alarms[0] if alarms else -1, "vec_tail": vec[-3:]}


def welford(np, stream):
    n, mean, m2 = 0, 0.0, 0.0
    hist = []
    for x in np.asarray(stream):
        n += 1
        delta = x - mean
        mean += delta / n
        m2 += delta * (x - mean)
        hist.append(m2 / (n - 1) if n > 1 else 0.0)
    arr = np.asarray(stream)
    return {"mean": mean, "var": m2 / (n - 1), "np_var": arr.var(ddof=1), "hist": np.array(hist),
            "running": np.array([arr[:i].var(ddof=1) for i in range(2, arr.size + 1)])}


def _stream(seed, n):
    rng = np.random.default_rng(seed)
    x = np.sin(np.arange(n) / 5.0) + rng.normal(0, 0.2, n)
    x[[17, n - 9]] += [4.0, -5.0]
    return x


def test_moving_stats():
    check(moving_stats, _stream(2671, 60), 7)


def test_rolling_z():
    check(rolling_z, list(_stream(2672, 60)), 10, 3.0)


def test_despike():
    check(despike, _stream(2673, 50), 9, 4.0)


def test_ewma_ring():
    check(ewma_ring, list(_stream(2674, 30)), 0.3, 6)


def test_cusum():
    x = np.concatenate([np.full(30, 10.0), np.full(30, 11.0)]) + _stream(2675, 60) * 0.1
    check(cusum, x, 10.0, 0.25, 4.0)


def test_welford():
    check(welford, _stream(2676, 40) + 100.0, rtol=1e-4)
