"""Integer and bit programs: masks with np.bitwise_and/or/xor and shifts, popcount by the SWAR bit trick on
uint32, np.unpackbits/np.packbits round trips with bitorder, a Fletcher-16 and an XOR checksum, FNV-1a and
xorshift hashes wrapping in uint32/uint64, base conversion with np.divmod, int8/int16/uint16 wrap-around with
np.iinfo, Gray codes and bit reversal (tests/porting)."""

import numpy as np
from harness import check


def masks_and_shifts(np, values):
    a = np.asarray(values, dtype=np.uint32)
    low = np.bitwise_and(a, 0xFF)
    high = np.right_shift(a, 24)
    mid = (a >> 8) & 0xFFFF
    merged = np.bitwise_or(np.left_shift(low, 24), high)
    flipped = np.bitwise_xor(a, np.uint32(0xFFFFFFFF))
    is_pow2 = (a != 0) & ((a & (a - np.uint32(1))) == 0)
    lowest = a & (~a + np.uint32(1))
    return {"low": low, "high": high, "mid": mid, "merged": merged, "flipped": flipped,
            "inv_eq": bool(np.array_equal(flipped, ~a)), "pow2": is_pow2, "lowest": lowest,
            "dtype": str(merged.dtype)}


def swar_popcount(np, values):
    x = np.asarray(values, dtype=np.uint32)
    x = x - ((x >> 1) & np.uint32(0x55555555))
    x = (x & np.uint32(0x33333333)) + ((x >> 2) & np.uint32(0x33333333))
    x = (x + (x >> 4)) & np.uint32(0x0F0F0F0F)
    counts = (x * np.uint32(0x01010101)) >> 24
    ref = np.unpackbits(np.asarray(values, dtype=np.uint32).view(np.uint8)).reshape(-1, 32).sum(axis=1)
    return {"counts": counts, "ref": ref, "same": bool((counts == ref).all()), "total": int(counts.sum()),
            "dtype": str(counts.dtype)}


def pack_unpack(np, raw):
    a = np.asarray(raw, dtype=np.uint8)
    bits = np.unpackbits(a)
    little = np.unpackbits(a, bitorder="little")
    grid = bits.reshape(-1, 8)
    col_parity = np.bitwise_xor.reduce(grid, axis=0)
    repacked = np.packbits(grid, axis=1).ravel()
    short = np.packbits(np.array([1, 0, 1, 1, 1], dtype=np.uint8))
    counts = np.unpackbits(a[:, None], axis=1).sum(axis=1)
    return {"bits": bits[:24], "little": little[:24], "parity": col_parity, "same": bool(np.array_equal(repacked, a)),
            "short": short, "counts": counts, "rev": np.packbits(little)}


def checksums(np, text):
    data = np.frombuffer(text, dtype=np.uint8)
    xor = int(np.bitwise_xor.reduce(data))
    s1 = np.cumsum(data.astype(np.uint16)) % 255
    s2 = int(np.sum(s1.astype(np.uint32)) % 255)
    fletcher = (s2 << 8) | int(s1[-1])
    words = np.frombuffer(text[: len(text) // 2 * 2], dtype=np.uint16)
    total = int(words.astype(np.uint64).sum())
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    inet = ~np.uint16(total)
    return {"xor": xor, "fletcher": fletcher, "inet": int(inet), "sum8": int(data.sum(dtype=np.uint8))}


def fnv_and_xorshift(np, text):
    data = np.frombuffer(text, dtype=np.uint8).astype(np.uint32)
    h = np.uint32(2166136261)
    with np.errstate(over="ignore"):
        for byte in data[:20]:
            h = (h ^ byte) * np.uint32(16777619)
    state = np.arange(1, 9, dtype=np.uint32) * np.uint32(2654435761)
    outs = []
    for _ in range(5):
        state ^= state << np.uint32(13)
        state ^= state >> np.uint32(17)
        state ^= state << np.uint32(5)
        outs.append(state.copy())
    seq = np.stack(outs)
    lcg = np.zeros(6, dtype=np.uint64)
    x = np.uint64(42)
    with np.errstate(over="ignore"):
        for i in range(6):
            x = x * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
            lcg[i] = x >> np.uint64(33)
    return {"fnv": int(h), "xorshift": seq, "lcg": lcg, "buckets": np.bincount(seq.ravel() % 7, minlength=7)}


def base_conversion(np, numbers):
    n = np.asarray(numbers, dtype=np.int64)
    digits = []
    rest = n.copy()
    for _ in range(8):
        rest, d = np.divmod(rest, 7)
        digits.append(d)
    base7 = np.stack(digits[::-1], axis=1)
    back = (base7 * 7 ** np.arange(7, -1, -1)).sum(axis=1)
    hexd = np.zeros((len(n), 4), dtype=np.int64)
    q = n.copy()
    for k in range(3, -1, -1):
        q, hexd[:, k] = np.divmod(q, 16)
    widths = np.floor(np.log2(np.maximum(n, 1))).astype(int) + 1
    return {"base7": base7, "back": back, "same": bool((back == n).all()), "hex": hexd, "bits": widths}


def wraparound(np, values):
    a = np.asarray(values, dtype=np.int16)
    info8, info16 = np.iinfo(np.int8), np.iinfo(np.uint16)
    as8 = a.astype(np.int8)
    asu16 = a.astype(np.uint16)
    doubled = a * np.int16(2)
    sat = np.clip(a.astype(np.int32) * 300, np.iinfo(np.int16).min, np.iinfo(np.int16).max).astype(np.int16)
    u8 = np.array([250, 5, 128], dtype=np.uint8)
    return {"as8": as8, "asu16": asu16, "doubled": doubled, "sat": sat, "min8": int(info8.min),
            "max16": int(info16.max), "bits": info16.bits, "u8sum": u8 + np.uint8(10), "u8neg": -u8,
            "diff": u8 - np.uint8(200), "mean": float(as8.mean()), "wide": as8.astype(np.int64).sum()}


def gray_and_reverse(np, n):
    i = np.arange(n, dtype=np.uint16)
    gray = i ^ (i >> 1)
    back = gray.copy()
    shift = gray >> 1
    while shift.any():
        back ^= shift
        shift >>= 1
    r = i.astype(np.uint8)
    r = ((r & 0xF0) >> 4) | ((r & 0x0F) << 4)
    r = ((r & 0xCC) >> 2) | ((r & 0x33) << 2)
    r = ((r & 0xAA) >> 1) | ((r & 0x55) << 1)
    adjacent = np.unpackbits((gray[1:] ^ gray[:-1]).astype(np.uint8)).reshape(-1, 8).sum(axis=1)
    return {"gray": gray, "back_ok": bool(np.array_equal(back, i)), "reversed": r, "adjacent": adjacent,
            "dtypes": [str(gray.dtype), str(r.dtype)]}


TEXT = b"Numbers are packed into bits and bytes; checksums catch a flipped bit in transit!"


def test_masks_and_shifts_uint32():
    rng = np.random.default_rng(801)
    check(masks_and_shifts, np.concatenate([rng.integers(0, 2**32, 10), [0, 1, 64, 2**31]]))


def test_swar_popcount_uint32():
    check(swar_popcount, np.random.default_rng(802).integers(0, 2**32, 16).astype(np.uint32))


def test_packbits_unpackbits_bitorder():
    check(pack_unpack, np.random.default_rng(803).integers(0, 256, 10))


def test_xor_fletcher_internet_checksums():
    check(checksums, TEXT)


def test_fnv_xorshift_lcg_wrap():
    check(fnv_and_xorshift, TEXT)


def test_base_conversion_divmod():
    check(base_conversion, np.random.default_rng(804).integers(1, 5_000_000, 9))


def test_int8_int16_uint8_wraparound():
    check(wraparound, np.array([-300, -129, -1, 0, 127, 128, 255, 1000, 32767]))


def test_gray_code_and_bit_reversal():
    check(gray_and_reverse, 64)
