"""IoT sensor logging as a firmware or data engineer writes it: raw int16 ADC counts scaled with wrap-around
and saturation, status bytes decoded by `unpackbits`/`bitwise_and`/`right_shift`, duplicate timestamps dropped by
`unique(return_index=True)`, resampling to minute bins by `bincount(weights=)`, gaps filled by `np.interp` over a
mask, dropouts through `np.ma.masked_invalid`, spikes found by a rolling median absolute deviation over
`sliding_window_view`, a two-point and a polynomial calibration, a 1-D Kalman filter loop, debouncing a noisy
switch by run lengths, CRC-8 and checksum loops in uint8, little-endian packets by `frombuffer`/`view`, and a
daily report printed by `array2string` (tests/porting)."""

import numpy as np
from harness import check


def adc_scaling(np, raw):
    raw = np.asarray(raw, dtype=np.int16)
    volts = raw.astype(np.float32) * (3.3 / 32768)
    # a gain of 2 in int16 wraps as the firmware's would; the saturating version clips first
    wrapped = raw * np.int16(2)
    saturated = np.clip(raw.astype(np.int32) * 2, -32768, 32767).astype(np.int16)
    offset = (raw - raw.min()).astype(np.uint16)
    return {"volts": volts, "wrapped": wrapped, "saturated": saturated, "offset": offset,
            "clipped_n": int((saturated != wrapped).sum()), "rms": np.sqrt(np.mean(volts.astype(np.float64) ** 2)),
            "dtype": str(wrapped.dtype)}


def status_bytes(np, status):
    status = np.asarray(status, dtype=np.uint8)
    bits = np.unpackbits(status[:, None], axis=1, bitorder="little")
    battery_low = (status & 0b0000_0001) > 0
    mode = (status >> 1) & 0b11
    errors = np.right_shift(status, 4)
    repacked = np.packbits(bits, axis=1, bitorder="little").ravel()
    return {"bits": bits, "battery_low": battery_low, "mode": mode, "errors": errors,
            "mode_counts": np.bincount(mode, minlength=4), "repacked_ok": bool(np.array_equal(repacked, status)),
            "n_set": np.bitwise_count(status), "any_error": np.flatnonzero(errors)}


def dedup_and_resample(np, t, value):
    t, value = np.asarray(t), np.asarray(value)
    order = np.argsort(t, kind="stable")
    t, value = t[order], value[order]
    ut, first = np.unique(t, return_index=True)
    kept = value[first]
    minute = (ut // 60).astype(int)
    sums = np.bincount(minute, weights=kept)
    counts = np.bincount(minute)
    means = np.divide(sums, counts, out=np.full(len(sums), np.nan), where=counts > 0)
    return {"ut": ut, "kept": kept, "dupes": len(t) - len(ut), "means": means, "counts": counts,
            "empty_minutes": np.flatnonzero(counts == 0)}


def fill_gaps(np, t, y):
    t, y = np.asarray(t), np.asarray(y)
    bad = np.isnan(y) | (y < -40) | (y > 85)  # outside the sensor's range counts as missing
    filled = y.copy()
    filled[bad] = np.interp(t[bad], t[~bad], y[~bad])
    runs = np.diff(np.concatenate([[0], bad.astype(int), [0]]))
    starts, ends = np.flatnonzero(runs == 1), np.flatnonzero(runs == -1)
    masked = np.ma.masked_invalid(np.where(bad, np.nan, y))
    return {"filled": filled, "starts": starts, "lengths": ends - starts, "longest": (ends - starts).max(),
            "masked_mean": masked.mean(), "valid": masked.count(),
            "hourly": masked.reshape(-1, 6).mean(axis=1).filled(-99)}


def spike_filter(np, y, k):
    y = np.asarray(y)
    pad = np.pad(y, k, mode="edge")
    win = np.lib.stride_tricks.sliding_window_view(pad, 2 * k + 1)
    med = np.median(win, axis=1)
    mad = np.median(np.abs(win - med[:, None]), axis=1)
    spikes = np.abs(y - med) > 3 * 1.4826 * np.maximum(mad, 1e-9)
    clean = np.where(spikes, med, y)
    return {"med": med, "mad": mad, "spikes": np.flatnonzero(spikes), "clean": clean,
            "ratio": spikes.mean()}


def calibration(np, reference, reading):
    reference, reading = np.asarray(reference), np.asarray(reading)
    lo, hi = np.argmin(reference), np.argmax(reference)
    gain = (reference[hi] - reference[lo]) / (reading[hi] - reading[lo])
    offset = reference[lo] - gain * reading[lo]
    two_point = gain * reading + offset
    coef = np.polyfit(reading, reference, 2)
    poly = np.polyval(coef, reading)
    return {"gain": gain, "offset": offset, "rmse_2pt": np.sqrt(np.mean((two_point - reference) ** 2)),
            "coef": coef, "rmse_poly": np.sqrt(np.mean((poly - reference) ** 2)),
            "worst": int(np.abs(poly - reference).argmax())}


def kalman_1d(np, z, q, r):
    z = np.asarray(z)
    x, p = z[0], 1.0
    xs, ps, gains = np.empty(len(z)), np.empty(len(z)), np.empty(len(z))
    for i, zi in enumerate(z):
        p = p + q
        k = p / (p + r)
        x = x + k * (zi - x)
        p = (1 - k) * p
        xs[i], ps[i], gains[i] = x, p, k
    return {"x": xs, "p": ps, "gain": gains, "steady_gain": gains[-1], "resid_std": np.std(z - xs)}


def debounce(np, raw, min_run):
    raw = np.asarray(raw).astype(bool)
    edges = np.flatnonzero(np.diff(raw.astype(np.int8)) != 0) + 1
    bounds = np.concatenate([[0], edges, [len(raw)]])
    lengths = np.diff(bounds)
    values = raw[bounds[:-1]]
    # runs shorter than min_run take the previous run's value
    keep = values.copy()
    for i in range(1, len(keep)):
        if lengths[i] < min_run:
            keep[i] = keep[i - 1]
    clean = np.repeat(keep, lengths)
    presses = np.flatnonzero(np.diff(clean.astype(int)) == 1) + 1
    return {"lengths": lengths, "values": values, "clean": clean, "presses": presses, "n_press": len(presses)}


def crc8_and_checksum(np, packets):
    packets = np.asarray(packets, dtype=np.uint8)
    crc = np.zeros(len(packets), dtype=np.uint8)
    for byte in packets.T:  # all packets at once, byte by byte
        crc ^= byte
        for _ in range(8):
            top = (crc & 0x80) != 0
            crc = np.where(top, (crc << 1) ^ np.uint8(0x07), crc << 1).astype(np.uint8)
    checksum = packets.sum(axis=1, dtype=np.uint8)
    xor = np.bitwise_xor.reduce(packets, axis=1)
    twos = (~checksum + np.uint8(1)).astype(np.uint8)
    return {"crc": crc, "checksum": checksum, "xor": xor, "twos": twos,
            "verify": (packets.sum(axis=1) + twos) % 256}


def packet_decode(np, payload):
    buf = np.asarray(payload, dtype=np.uint8)
    words = buf.view("<u2")
    signed = buf.view("<i2")
    temps = signed[0::2] / 100.0
    hum = words[1::2] / 10.0
    back = np.frombuffer(buf.tobytes(), dtype=np.int16)
    return {"words": words, "signed": signed, "temps": temps, "hum": hum, "same": bool(np.array_equal(back, signed)),
            "dewpoint": temps - (100 - hum) / 5, "swapped": words.byteswap()}


def daily_report(np, readings):
    readings = np.asarray(readings)
    per_hour = readings.reshape(24, -1)
    stats = np.column_stack([per_hour.min(axis=1), per_hour.mean(axis=1), per_hour.max(axis=1)])
    worst = np.unravel_index(np.argmax(readings.reshape(24, -1)), per_hour.shape)
    with np.printoptions(precision=1, suppress=True):
        table = str(stats[:4])
    report = np.array2string(stats[-3:], precision=2, separator=", ")
    return {"stats": stats, "table": table, "report": report, "worst": (int(worst[0]), int(worst[1])),
            "above": f"{(readings > 25).mean():.1%} above 25"}


def test_adc_scaling():
    rng = np.random.default_rng(2041)
    check(adc_scaling, np.concatenate([rng.integers(-32768, 32767, 14), [32767, -32768, 16384, -16385]]))


def test_status_bytes():
    rng = np.random.default_rng(2042)
    check(status_bytes, rng.integers(0, 256, 16))


def test_dedup_and_resample():
    rng = np.random.default_rng(2043)
    t = np.sort(rng.integers(0, 300, 40))
    check(dedup_and_resample, np.concatenate([t, t[:5]]), rng.normal(20, 2, 45))


def test_fill_gaps():
    rng = np.random.default_rng(2044)
    y = 20 + np.sin(np.arange(36) / 4.0) + rng.normal(0, 0.1, 36)
    y[[3, 4, 5, 17, 30]] = [np.nan, np.nan, 120.0, -60.0, np.nan]
    check(fill_gaps, np.arange(36) * 10.0, y)


def test_spike_filter():
    rng = np.random.default_rng(2045)
    y = np.cumsum(rng.normal(0, 0.2, 40))
    y[[7, 21, 33]] += [5.0, -6.0, 4.0]
    check(spike_filter, y, 3, rtol=1e-3, atol=1e-4)


def test_calibration():
    rng = np.random.default_rng(2046)
    ref = np.linspace(0.0, 100.0, 12)
    check(calibration, ref, 0.97 * ref + 1.5 + 0.001 * ref ** 2 + rng.normal(0, 0.2, 12), rtol=1e-3, atol=1e-4)


def test_kalman_1d():
    rng = np.random.default_rng(2047)
    check(kalman_1d, 10 + rng.normal(0, 1.0, 30), 0.01, 1.0, rtol=1e-4)


def test_debounce():
    raw = np.array([0, 0, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 1, 1, 1, 1, 1, 0, 0])
    check(debounce, raw, 3)


def test_crc8_and_checksum():
    rng = np.random.default_rng(2049)
    check(crc8_and_checksum, rng.integers(0, 256, (5, 6)))


def test_packet_decode():
    rng = np.random.default_rng(2050)
    temps = rng.integers(-1500, 3500, 4).astype(np.int16)
    hum = rng.integers(100, 1000, 4).astype(np.uint16)
    payload = np.empty(8, dtype=np.uint16)
    payload[0::2], payload[1::2] = temps.view(np.uint16), hum
    check(packet_decode, np.frombuffer(payload.astype("<u2").tobytes(), dtype=np.uint8))


def test_daily_report():
    rng = np.random.default_rng(2051)
    check(daily_report, 20 + 6 * np.sin(np.arange(96) * np.pi / 48) + rng.normal(0, 0.5, 96))
