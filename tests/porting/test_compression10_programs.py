"""Compression and toy crypto on integer arrays: run-length encoding by np.diff/np.flatnonzero and decoding by
np.repeat, delta and zigzag coding of int16 samples with uint8 wraparound, Huffman code lengths from symbol counts
(np.unique with counts, heap merges in Python), bit packing with np.packbits/unpackbits, move-to-front and
Burrows-Wheeler on a uint8 buffer, a Caesar/Vigenere cipher on byte arrays, a djb2/FNV-1a hash with uint32 overflow
and an LZ77-style longest-match search (tests/porting)."""

import heapq

import numpy as np
from harness import check


def run_length(np, data):
    a = np.asarray(data)
    starts = np.flatnonzero(np.concatenate(([True], a[1:] != a[:-1])))
    lengths = np.diff(np.append(starts, len(a)))
    values = a[starts]
    decoded = np.repeat(values, lengths)
    pairs = list(zip(values.tolist(), lengths.tolist(), strict=False))
    longest = int(lengths.max())
    ratio = 2 * len(values) / len(a)
    text = " ".join(f"{v}x{n}" for v, n in pairs[:6])
    return {"values": values, "lengths": lengths, "ok": bool(np.array_equal(decoded, a)), "pairs": pairs[:10],
            "longest": longest, "ratio": ratio, "text": text, "dtype": str(values.dtype)}


def delta_zigzag(np, samples):
    x = np.asarray(samples, dtype=np.int16)
    d = np.diff(x, prepend=np.int16(0))
    zz = ((d.astype(np.int32) << 1) ^ (d.astype(np.int32) >> 15)).astype(np.uint16)
    unzz = ((zz >> 1).astype(np.int32) ^ -(zz & 1).astype(np.int32)).astype(np.int16)
    back = np.cumsum(unzz, dtype=np.int16)
    small = (zz < 128).mean()
    low = (d & 0xFF).astype(np.uint8)
    wrapped = np.cumsum(low, dtype=np.uint8)
    return {"d": d, "zz": zz, "back": back, "ok": bool((back == x).all()), "small": float(small),
            "wrapped": wrapped, "d_dtype": str(d.dtype), "zz_max": int(zz.max())}


def huffman_lengths(np, symbols):
    vals, counts = np.unique(symbols, return_counts=True)
    heap = [(int(c), i, [int(v)]) for i, (v, c) in enumerate(zip(vals, counts, strict=False))]
    heapq.heapify(heap)
    depth = {int(v): 0 for v in vals}
    tie = len(heap)
    while len(heap) > 1:
        c1, _, s1 = heapq.heappop(heap)
        c2, _, s2 = heapq.heappop(heap)
        for s in s1 + s2:
            depth[s] += 1
        heapq.heappush(heap, (c1 + c2, tie, s1 + s2))
        tie += 1
    lengths = np.array([depth[int(v)] for v in vals])
    bits = int(np.dot(lengths, counts))
    p = counts / counts.sum()
    entropy = -np.sum(p * np.log2(p))
    kraft = np.sum(2.0 ** -lengths)
    order = np.argsort(-counts, kind="stable")
    return {"vals": vals, "counts": counts, "lengths": lengths, "bits": bits, "entropy": entropy,
            "kraft": kraft, "top3": vals[order[:3]].tolist(), "avg": bits / len(symbols)}


def bit_packing(np, flags, nibbles):
    f = np.asarray(flags, dtype=bool)
    packed = np.packbits(f)
    unpacked = np.unpackbits(packed)[: len(f)].astype(bool)
    little = np.packbits(f, bitorder="little")
    n = np.asarray(nibbles, dtype=np.uint8) & 0x0F
    pairs = (n[0::2] << 4) | n[1::2]
    hi, lo = pairs >> 4, pairs & 0xF
    popcount = np.unpackbits(pairs).reshape(-1, 8).sum(axis=1)
    hexes = [f"{b:02x}" for b in pairs.tolist()]
    return {"packed": packed, "ok": bool(np.array_equal(unpacked, f)), "little": little, "pairs": pairs,
            "hi": hi, "lo": lo, "pop": popcount, "hex": "".join(hexes), "nbytes": int(packed.nbytes)}


def mtf_bwt(np, text):
    s = np.frombuffer(text.encode(), dtype=np.uint8)
    n = len(s)
    idx = (np.arange(n)[:, None] + np.arange(n)[None, :]) % n
    rotations = s[idx]
    order = np.lexsort(rotations.T[::-1])
    last = rotations[order, -1]
    primary = int(np.flatnonzero(order == 0)[0])
    alphabet = list(range(256))
    mtf = []
    for b in last.tolist():
        i = alphabet.index(b)
        mtf.append(i)
        alphabet.insert(0, alphabet.pop(i))
    mtf = np.array(mtf, dtype=np.uint8)
    return {"last": last, "primary": primary, "bwt": last.tobytes().decode(), "mtf": mtf,
            "zeros": int(np.count_nonzero(mtf == 0))}


def ciphers(np, message, key):
    m = np.frombuffer(message.encode("ascii"), dtype=np.uint8)
    upper = (m >= ord("A")) & (m <= ord("Z"))
    caesar = m.copy()
    caesar[upper] = (m[upper] - ord("A") + 3) % 26 + ord("A")
    k = np.frombuffer(key.encode("ascii"), dtype=np.uint8) - ord("A")
    ks = np.resize(k, upper.sum())
    vig = m.copy()
    vig[upper] = (m[upper] - 65 + ks) % 26 + 65
    xored = m ^ np.uint8(0x5A)
    wrap = m + np.uint8(200)
    freq = np.bincount(m[upper] - 65, minlength=26)
    # a substitution table of byte values: later values wrap, a start outside uint8 is an error
    sbox = np.arange(200, 456, dtype=np.uint8)
    try:
        np.arange(-13, 243, dtype=np.uint8)
        err = "none"
    except OverflowError as e:
        err = str(e)
    return {"caesar": caesar.tobytes().decode(), "vig": vig.tobytes().decode(), "xor": xored,
            "back": (xored ^ 0x5A).tobytes().decode(), "wrap": wrap, "freq": freq,
            "common": chr(int(np.argmax(freq)) + 65), "sub": sbox[m], "err": err}


def hashes(np, words):
    lengths = np.array([len(w) for w in words])
    width = lengths.max()
    buf = np.zeros((len(words), width), dtype=np.uint8)
    for i, w in enumerate(words):
        buf[i, : len(w)] = np.frombuffer(w.encode(), dtype=np.uint8)
    fnv = np.full(len(words), 2166136261, dtype=np.uint32)
    djb = np.full(len(words), 5381, dtype=np.uint32)
    for j in range(width):
        live = j < lengths
        c = buf[:, j].astype(np.uint32)
        fnv = np.where(live, (fnv ^ c) * np.uint32(16777619), fnv)
        djb = np.where(live, djb * np.uint32(33) + c, djb)
    buckets = fnv % 8
    collisions = len(words) - len(np.unique(buckets))
    # Intel HEX record checksums: the byte sum wraps in uint8, then its two's complement
    chk = buf.sum(axis=1, dtype=np.uint8)
    record = np.concatenate([buf, ((0x100 - chk.astype(np.int32)) % 256).astype(np.uint8)[:, None]], axis=1)
    record[2, 0] ^= 1  # a flipped bit: that record's byte sum is no longer 0 (mod 256)
    valid = record.sum(axis=1, dtype=np.uint8) == 0
    return {"fnv": fnv, "djb": djb, "buckets": buckets, "collisions": collisions, "valid": valid,
            "hex": [f"{h:08x}" for h in fnv.tolist()], "dtype": str(fnv.dtype)}


def lz77_match(np, data, window):
    a = np.asarray(data, dtype=np.uint8)
    out = []
    i = 0
    while i < len(a):
        best_len, best_off = 0, 0
        lo = max(0, i - window)
        for j in range(lo, i):
            n = 0
            while i + n < len(a) and a[j + n] == a[i + n] and n < 15:
                n += 1
            if n > best_len:
                best_len, best_off = n, i - j
        if best_len >= 3:
            out.append((best_off, best_len))
            i += best_len
        else:
            out.append((0, int(a[i])))
            i += 1
    tokens = np.array(out)
    return {"tokens": tokens, "n": len(out), "matched": int(tokens[tokens[:, 0] > 0, 1].sum())}


def test_run_length_encoding():
    rng = np.random.default_rng(1101)
    check(run_length, np.repeat(rng.integers(0, 4, 15), rng.integers(1, 6, 15)))


def test_delta_zigzag_int16():
    rng = np.random.default_rng(1102)
    check(delta_zigzag, np.cumsum(rng.integers(-300, 300, 40)).astype(np.int16))


def test_huffman_code_lengths():
    rng = np.random.default_rng(1103)
    check(huffman_lengths, rng.choice(8, 200, p=[0.3, 0.2, 0.15, 0.1, 0.1, 0.07, 0.05, 0.03]))


def test_bit_packing():
    rng = np.random.default_rng(1104)
    check(bit_packing, rng.random(21) < 0.4, rng.integers(0, 256, 12))


def test_burrows_wheeler_move_to_front():
    check(mtf_bwt, "banana_bandana")


def test_caesar_vigenere_xor():
    check(ciphers, "ATTACK AT DAWN, HOLD THE LINE!", "LEMON")


def test_fnv_djb2_hashes_uint32():
    check(hashes, ["apple", "banana", "kiwi", "fig", "cherry", "date", "elderberry"])


def test_lz77_longest_match():
    check(lz77_match, np.frombuffer(b"abcabcabcabxabcdabcabc", dtype=np.uint8), 8)
