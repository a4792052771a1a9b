"""Calendars and bit-level encodings in plain integer NumPy: civil dates from day numbers by `floor_divide`/`mod`
of negatives (days before the epoch), ISO weekdays and week numbers, month lengths with leap years by `np.select`,
business-day offsets by `cumsum`/`searchsorted`, a run-length encoder by `np.diff(prepend=, append=)`, bitmap
attendance by `packbits`/`unpackbits(bitorder="little", count=)`, a Hamming(7,4) code by matrix products mod 2,
Gray codes and parity by shifts and `bitwise_count`, a uint16 checksum that wraps, zig-zag varint sizes of int64
values, and int8/uint8/float16 sensor mixes under NEP 50 promotion (tests/porting)."""

import numpy as np
from harness import check


def civil_from_days(np, days):
    z = np.asarray(days, dtype=np.int64) + 719468  # days since 1970-01-01 to days since 0000-03-01
    era = np.floor_divide(z, 146097)
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = np.where(mp < 10, mp + 3, mp - 9)
    y = yoe + era * 400 + (m <= 2)
    weekday = np.mod(np.asarray(days) + 3, 7)  # 1970-01-01 was a Thursday; Monday is 0
    return {"y": y, "m": m, "d": d, "weekday": weekday, "era": era}


def month_lengths(np, years):
    y = np.asarray(years)[:, None]
    m = np.arange(1, 13)[None, :]
    leap = ((y % 4 == 0) & (y % 100 != 0)) | (y % 400 == 0)
    days = np.select([m == 2, np.isin(m, [4, 6, 9, 11])], [28 + leap, 30], default=31)
    starts = np.cumsum(days, axis=1) - days  # day of year each month starts on, from 0
    q, r = np.divmod(starts + 3, 7)
    return {"days": days, "leap": leap.ravel(), "total": days.sum(axis=1), "starts": starts, "q": q, "r": r}


def business_days(np, holidays, start, offsets, n_days):
    day = np.arange(n_days)
    open_ = (np.mod(day + start, 7) < 5) & ~np.isin(day, np.asarray(holidays))
    count = np.cumsum(open_)
    target = np.searchsorted(count, count[0] + np.asarray(offsets), side="left")
    between = count[np.minimum(target, n_days - 1)] - count[0]
    return {"open": np.flatnonzero(~open_), "target": target, "between": between,
            "per_week": np.add.reduceat(open_.astype(int), np.arange(0, n_days, 7))}


def run_length(np, x):
    x = np.asarray(x)
    change = np.flatnonzero(np.diff(x, prepend=x[0] - 1, append=x[-1] - 1) != 0)
    starts, lengths = change[:-1], np.diff(change)
    values = x[starts]
    decoded = np.repeat(values, lengths)
    return {"starts": starts, "lengths": lengths, "values": values, "ok": bool(np.array_equal(decoded, x)),
            "longest": values[np.argmax(lengths)]}


def attendance_bitmap(np, present):
    p = np.asarray(present).astype(bool)  # (student, day)
    packed = np.packbits(p, axis=1, bitorder="little")
    back = np.unpackbits(packed, axis=1, count=p.shape[1], bitorder="little").astype(bool)
    per_byte = np.bitwise_count(packed)
    big = np.packbits(p, axis=1)  # the default big-endian bit order packs the other way round
    return {"packed": packed, "back_ok": bool(np.array_equal(back, p)), "days": per_byte.sum(axis=1),
            "big": big, "absent_first": np.argmin(p, axis=1), "bytes": packed.nbytes}


def hamming74(np, data_bits, flip):
    G = np.array([[1, 1, 0, 1], [1, 0, 1, 1], [1, 0, 0, 0], [0, 1, 1, 1], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
    H = np.array([[1, 0, 1, 0, 1, 0, 1], [0, 1, 1, 0, 0, 1, 1], [0, 0, 0, 1, 1, 1, 1]])
    d = np.asarray(data_bits).reshape(-1, 4)
    code = (d @ G.T) % 2
    received = code.copy()
    rows = np.arange(len(flip))
    received[rows, np.asarray(flip)] ^= 1
    syndrome = (received @ H.T) % 2
    pos = syndrome @ np.array([1, 2, 4]) - 1  # the flipped bit's position, -1 if none
    fixed = received.copy()
    bad = pos >= 0
    fixed[bad, pos[bad]] ^= 1
    return {"code": code, "syndrome": syndrome, "pos": pos, "decoded": fixed[:, [2, 4, 5, 6]],
            "ok": bool(np.array_equal(fixed[:, [2, 4, 5, 6]], d))}


def gray_parity(np, n_bits):
    n = np.arange(2**n_bits, dtype=np.uint16)
    gray = n ^ (n >> 1)
    back = gray.copy()
    shift = gray >> 1
    while shift.any():  # decode by folding the shifted code in
        back ^= shift
        shift >>= 1
    parity = np.bitwise_count(n) & 1
    adjacent = np.bitwise_count(gray[1:] ^ gray[:-1])
    return {"gray": gray, "back_ok": bool(np.array_equal(back, n)), "parity": parity,
            "one_bit": bool(np.all(adjacent == 1)), "bits": np.unpackbits(gray.astype(np.uint8)[:4, None], axis=1)}


def checksum16(np, payload):
    words = np.asarray(payload, dtype=np.uint8).reshape(-1, 2)
    w = (words[:, 0].astype(np.uint16) << 8) | words[:, 1]
    total = np.sum(w, dtype=np.uint32)
    folded = (total & 0xFFFF) + (total >> 16)
    fletcher_a = np.cumsum(w, dtype=np.uint16)  # wraps modulo 2**16 on purpose
    return {"words": w, "total": total, "checksum": ~np.uint16(folded), "fletcher": fletcher_a[-1],
            "wrapped": w + np.uint16(40000), "sum_u8": words.sum(axis=0, dtype=np.uint8)}


def varint_sizes(np, values):
    v = np.asarray(values, dtype=np.int64)
    zz = ((v << 1) ^ (v >> 63)).view(np.uint64)  # zig-zag: small magnitudes of either sign stay small
    nbits = np.zeros(v.shape, dtype=np.int64)
    x = zz.copy()
    while np.any(x):
        nbits += x > 0
        x >>= np.uint64(1)
    size = np.maximum(1, (nbits + 6) // 7)
    return {"zz": zz, "bits": nbits, "size": size, "total": size.sum(), "big": zz > np.uint64(2**63)}


def sensor_mix(np, raw_i8, gain_u8, scale_f16):
    raw = np.asarray(raw_i8, dtype=np.int8)
    gain = np.asarray(gain_u8, dtype=np.uint8)
    scale = np.asarray(scale_f16, dtype=np.float16)
    prod = raw * gain  # int8 * uint8 -> int16: no wrap
    scaled = raw * scale  # int8 * float16 -> float16
    offset = gain + 10  # the Python int stays weak: uint8, wraps past 255
    boosted = raw.astype(np.int16) * 300
    return {"prod": prod, "prod_dt": str(prod.dtype), "scaled": scaled, "scaled_dt": str(scaled.dtype),
            "offset": offset, "offset_dt": str(offset.dtype), "boosted": boosted,
            "mean": np.mean(raw), "neg": -raw, "abs": np.abs(raw), "avg_u8": (gain >> 1) + (gain[::-1] >> 1)}


def test_civil_from_days():
    check(civil_from_days, np.array([-719468, -146097, -36525, -1, 0, 59, 60, 365, 11016, 19723, 2932896]))


def test_month_lengths():
    check(month_lengths, np.array([1900, 1999, 2000, 2024, 2100]))


def test_business_days():
    check(business_days, np.array([0, 24, 31, 45]), 3, np.array([0, 1, 5, 10, 20]), 60)


def test_run_length():
    check(run_length, np.array([3, 3, 3, 0, 0, 7, 3, 3, -1, -1, -1, -1, 0]))


def test_attendance_bitmap():
    rng = np.random.default_rng(2144)
    check(attendance_bitmap, rng.random((5, 19)) < 0.8)


def test_hamming74():
    rng = np.random.default_rng(2145)
    check(hamming74, rng.integers(0, 2, 24), np.array([0, 3, 6, 2, 5, 1]))


def test_gray_parity():
    check(gray_parity, 5)


def test_checksum16():
    check(checksum16, np.frombuffer(b"kdsl porting programs!", dtype=np.uint8))


def test_varint_sizes():
    check(varint_sizes, np.array([0, -1, 1, 63, -64, 64, 300, -300, 2**31, -(2**62), 2**63 - 1, -(2**63)]))


def test_sensor_mix():
    check(sensor_mix, np.array([-128, -5, 0, 7, 127]), np.array([0, 3, 100, 250, 255]),
          np.array([0.5, 1.5, -2.0, 1e-3, 3.0]), rtol=2e-3)
