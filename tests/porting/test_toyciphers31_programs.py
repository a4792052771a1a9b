"""Toy ciphers and checksums as crypto courses write them in NumPy: an LCG keystream with uint32 wrap-around, XTEA
rounds vectorised over blocks (uint32 shifts, xor, `np.uint32` scalar constants), RC4's key schedule with swaps by
fancy indexing, Vigenere on `frombuffer` byte codes, a CRC-32 table built with `np.where` on uint32, Hamming(7,4)
codes through `packbits`/`unpackbits` (`bitorder=`, `count=`, `axis=`), a Fibonacci LFSR with
`bitwise_xor.reduce`, a Feistel network with rotations by `left_shift`/`right_shift` and bytes through
`view`/`tobytes`/`byteswap` (tests/porting)."""

import numpy as np
from harness import check


def lcg_stream(np, plaintext, seed, n_rounds):
    data = np.frombuffer(plaintext, dtype=np.uint8)
    state = np.uint32(seed)
    a, c = np.uint32(1664525), np.uint32(1013904223)
    states = np.empty(len(data), dtype=np.uint32)
    with np.errstate(over="ignore"):
        for i in range(len(data)):
            state = a * state + c
            states[i] = state
    key = (states >> 24).astype(np.uint8)
    cipher = data ^ key
    # vectorised variant: the whole stream at once by powers of the multiplier
    s = np.full(n_rounds, seed, dtype=np.uint32)
    s = s * np.uint32(1664525) + np.uint32(1013904223)
    back = (cipher ^ key).tobytes()
    return {"cipher": cipher, "key": key, "roundtrip": back == plaintext, "first": s[:3],
            "hist": np.bincount(cipher, minlength=256).max(), "dtype": str(cipher.dtype)}


def xtea(np, blocks, key, rounds):
    with np.errstate(over="ignore"):  # the uint32 sums of NumPy scalars wrap by design
        return _xtea(np, blocks, key, rounds)


def _xtea(np, blocks, key, rounds):
    v = np.asarray(blocks, dtype=np.uint32)
    k = np.asarray(key, dtype=np.uint32)
    v0, v1 = v[:, 0].copy(), v[:, 1].copy()
    delta = np.uint32(0x9E3779B9)
    total = np.uint32(0)
    for _ in range(rounds):
        v0 += (((v1 << 4) ^ (v1 >> 5)) + v1) ^ (total + k[total & 3])
        total = total + delta
        v1 += (((v0 << 4) ^ (v0 >> 5)) + v0) ^ (total + k[(total >> 11) & 3])
    enc = np.stack([v0, v1], axis=1)
    # decrypt
    d0, d1 = v0.copy(), v1.copy()
    total = np.uint32((int(delta) * rounds) & 0xFFFFFFFF)
    for _ in range(rounds):
        d1 -= (((d0 << 4) ^ (d0 >> 5)) + d0) ^ (total + k[(total >> 11) & 3])
        total = total - delta
        d0 -= (((d1 << 4) ^ (d1 >> 5)) + d1) ^ (total + k[total & 3])
    return {"enc": enc, "dec": np.stack([d0, d1], axis=1), "ok": bool(np.array_equal(np.stack([d0, d1], 1), v)),
            "bits": np.unpackbits(enc.view(np.uint8)).sum()}


def rc4(np, key, n):
    key = np.frombuffer(key, dtype=np.uint8)
    S = np.arange(256, dtype=np.uint8)
    j = 0
    for i in range(256):
        j = (j + int(S[i]) + int(key[i % len(key)])) % 256
        S[[i, j]] = S[[j, i]]
    i = j = 0
    out = np.zeros(n, dtype=np.uint8)
    for t in range(n):
        i = (i + 1) % 256
        j = (j + int(S[i])) % 256
        S[i], S[j] = S[j], S[i]
        out[t] = S[(int(S[i]) + int(S[j])) % 256]
    return {"S_sum": int(S.sum(dtype=np.int64)), "perm": bool(np.array_equal(np.sort(S), np.arange(256))),
            "stream": out, "hex": out[:8].tobytes().hex()}


def vigenere(np, text, key):
    t = np.frombuffer(text.encode(), dtype=np.uint8)
    letters = (t >= ord("A")) & (t <= ord("Z"))
    k = np.frombuffer(key.encode(), dtype=np.uint8) - ord("A")
    shifts = np.resize(k, int(letters.sum()))
    out = t.copy()
    out[letters] = (t[letters] - ord("A") + shifts) % 26 + ord("A")
    dec = out.copy()
    dec[letters] = (out[letters] - ord("A") - shifts.astype(np.int16)) % 26 + ord("A")
    freq = np.bincount(out[letters] - ord("A"), minlength=26)
    ic = np.sum(freq * (freq - 1)) / (letters.sum() * (letters.sum() - 1))
    return {"cipher": out.tobytes().decode(), "plain": dec.tobytes().decode(), "ic": ic, "freq": freq,
            "dtype": (t[letters] - ord("A") + shifts).dtype.name}


def crc32(np, messages):
    poly = np.uint32(0xEDB88320)
    table = np.arange(256, dtype=np.uint32)
    for _ in range(8):
        table = np.where(table & 1, (table >> 1) ^ poly, table >> 1)
    crcs = []
    for msg in messages:
        crc = np.uint32(0xFFFFFFFF)
        for byte in np.frombuffer(msg, dtype=np.uint8):
            crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
        crcs.append(int(crc ^ np.uint32(0xFFFFFFFF)))
    return {"table": table[:16], "crc": crcs, "ones": np.bitwise_count(table).sum()}


def hamming74(np, data, flips):
    G = np.array([[1, 1, 0, 1], [1, 0, 1, 1], [1, 0, 0, 0], [0, 1, 1, 1], [0, 1, 0, 0], [0, 0, 1, 0],
                  [0, 0, 0, 1]], dtype=np.uint8)
    H = np.array([[1, 0, 1, 0, 1, 0, 1], [0, 1, 1, 0, 0, 1, 1], [0, 0, 0, 1, 1, 1, 1]], dtype=np.uint8)
    bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="little").reshape(-1, 4)
    code = (bits @ G.T) % 2
    rx = code.copy()
    rows = np.arange(len(rx))
    rx[rows, flips] ^= 1
    syndrome = (rx @ H.T) % 2
    pos = syndrome @ (1 << np.arange(3)) - 1
    fixed = rx.copy()
    bad = pos >= 0
    fixed[bad, pos[bad]] ^= 1
    decoded = fixed[:, [2, 4, 5, 6]]
    packed = np.packbits(decoded.ravel(), bitorder="little")
    return {"code": code, "syndrome": syndrome, "pos": pos, "ok": packed.tobytes() == data,
            "packed_rows": np.packbits(code, axis=1), "count": np.unpackbits(packed, count=12)}


def lfsr(np, seed_bits, taps, n):
    state = np.array(seed_bits, dtype=np.uint8)
    taps = np.asarray(taps)
    out = np.empty(n, dtype=np.uint8)
    for i in range(n):
        out[i] = state[-1]
        fb = np.bitwise_xor.reduce(state[taps])
        state = np.roll(state, 1)
        state[0] = fb
    runs = np.diff(np.flatnonzero(np.diff(out, prepend=2, append=2) != 0))
    words = np.packbits(out[: n // 8 * 8]).view(np.uint8)
    return {"out": out, "balance": out.mean(), "runs": np.bincount(runs), "words": words,
            "autocorr": np.array([np.mean(out == np.roll(out, k)) for k in range(1, 6)])}


def feistel(np, blocks, keys):
    def rotl(x, r):
        return (x << np.uint32(r)) | (x >> np.uint32(32 - r))

    def f(x, k):
        return rotl(x ^ k, 7) + (x * np.uint32(0x45D9F3B))

    v = np.asarray(blocks, dtype=np.uint64)
    L = (v >> np.uint64(32)).astype(np.uint32)
    R = (v & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    keys = np.asarray(keys, dtype=np.uint32)
    for k in keys:
        L, R = R, L ^ f(R, k)
    enc = (L.astype(np.uint64) << np.uint64(32)) | R
    for k in keys[::-1]:
        R, L = L, R ^ f(L, k)
    dec = (L.astype(np.uint64) << np.uint64(32)) | R
    raw = enc.byteswap().tobytes()
    return {"enc": enc, "ok": bool((dec == v).all()), "raw_len": len(raw), "first_byte": raw[0],
            "popcount": np.bitwise_count(enc), "bit_balance": np.unpackbits(enc.view(np.uint8)).mean()}


def test_lcg_stream():
    check(lcg_stream, b"ATTACK AT DAWN, RETREAT AT DUSK", 20261206, 5)


def test_xtea():
    rng = np.random.default_rng(3121)
    check(xtea, rng.integers(0, 2**32, (6, 2), dtype=np.uint64), [0xDEADBEEF, 0x01234567, 0x89ABCDEF, 0xFEEDFACE],
          16)


def test_rc4():
    check(rc4, b"Secret", 24)


def test_vigenere():
    check(vigenere, "THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG, TWICE OVER.", "LEMON")


def test_crc32():
    check(crc32, [b"", b"a", b"123456789", b"The quick brown fox"])


def test_hamming74():
    rng = np.random.default_rng(3122)
    check(hamming74, b"\x5a\xc3\x0f", rng.integers(0, 7, 6))


def test_lfsr():
    check(lfsr, [1, 0, 0, 1, 0, 1, 1, 0], [0, 2, 3, 4], 64)


def test_feistel():
    rng = np.random.default_rng(3123)
    check(feistel, rng.integers(0, 2**63, 5, dtype=np.uint64), [0x1234, 0xABCD1234, 0x0F0F0F0F, 77])
