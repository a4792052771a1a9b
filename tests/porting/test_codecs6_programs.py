"""Encoders and decoders written with NumPy integer arrays: a JPEG-like 8x8 block DCT with quantisation and
zigzag order, 16-bit PCM audio conversion with dithering-free clipping and mu-law companding, delta plus
zigzag plus varint integer coding, base64 by bit regrouping, a Bloom filter on a packed bit array, 4-bit
nibble packing, and CRC-32 by its byte table (tests/porting)."""

import numpy as np
from harness import check


def dct_blocks(np, img_host):
    img = np.asarray(img_host).astype(np.float64) - 128
    n = 8
    k = np.arange(n)
    C = np.sqrt(2 / n) * np.cos(np.pi * (2 * k[None, :] + 1) * k[:, None] / (2 * n))
    C[0] /= np.sqrt(2)
    h, w = img.shape
    blocks = img.reshape(h // n, n, w // n, n).swapaxes(1, 2)
    coef = np.einsum("ij,abjk,lk->abil", C, blocks, C)
    Q = 1 + (k[:, None] + k[None, :]) * 4
    q = np.round(coef / Q).astype(np.int32)
    idx = np.argsort((k[:, None] + k[None, :]).ravel() * n + np.where((k[:, None] + k[None, :]) % 2 == 0,
                                                                      -k[:, None], k[:, None]).ravel(),
                     kind="stable")
    zigzag = q.reshape(h // n, w // n, n * n)[..., idx]
    recon = np.einsum("ji,abjk,kl->abil", C, q * Q, C)
    out = np.clip(np.round(recon.swapaxes(1, 2).reshape(h, w) + 128), 0, 255).astype(np.uint8)
    nonzero = np.count_nonzero(q, axis=(2, 3))
    return {"q": q, "zigzag_first": zigzag[0, 0, :10], "out": out, "nonzero": nonzero,
            "psnr": float(10 * np.log10(255**2 / np.mean((out.astype(float) - (img + 128)) ** 2)))}


def pcm_audio(np, seconds=0.01, rate=8000):
    t = np.arange(int(seconds * rate)) / rate
    signal = 1.2 * np.sin(2 * np.pi * 440 * t) + 0.3 * np.sin(2 * np.pi * 1000 * t)
    pcm = np.clip(np.round(signal * 32767), -32768, 32767).astype(np.int16)
    clipped = int((np.abs(signal) > 1).sum())
    back = pcm.astype(np.float32) / 32768
    raw = pcm.tobytes()
    again = np.frombuffer(raw, dtype=np.int16)
    mu = 255
    x = np.clip(signal, -1, 1)
    enc = np.sign(x) * np.log1p(mu * np.abs(x)) / np.log1p(mu)
    code = ((enc + 1) / 2 * mu + 0.5).astype(np.uint8)
    dec = (code.astype(np.float64) / mu) * 2 - 1
    x_hat = np.sign(dec) * ((1 + mu) ** np.abs(dec) - 1) / mu
    stereo = np.column_stack([pcm, (pcm // 2).astype(np.int16)]).ravel()
    return {"pcm": pcm[:40], "clipped": clipped, "back": back[:20], "again": bool(np.array_equal(again, pcm)),
            "code": code[:30], "err": float(np.abs(x_hat - x).max()), "stereo": stereo[:12], "nbytes": len(raw)}


def varint_coding(np, values_host):
    v = np.asarray(values_host).astype(np.int64)
    delta = np.diff(v, prepend=0)
    zz = ((delta << 1) ^ (delta >> 63)).astype(np.uint64)
    out = []
    for x in zz:
        x = int(x)
        while True:
            byte = x & 0x7F
            x >>= 7
            out.append(byte | (0x80 if x else 0))
            if not x:
                break
    encoded = np.array(out, dtype=np.uint8)
    ends = np.flatnonzero(encoded < 0x80)
    starts = np.r_[0, ends[:-1] + 1]
    payload = (encoded & 0x7F).astype(np.uint64)
    shifts = (np.arange(len(encoded)) - np.repeat(starts, ends - starts + 1)) * 7
    decoded_zz = np.add.reduceat(payload << shifts.astype(np.uint64), starts)
    unzz = (decoded_zz >> np.uint64(1)).astype(np.int64) ^ -(decoded_zz & np.uint64(1)).astype(np.int64)
    return {"delta": delta, "zz": zz, "encoded": encoded, "lengths": ends - starts + 1,
            "decoded": np.cumsum(unzz), "ok": bool(np.array_equal(np.cumsum(unzz), v))}


def base64_by_hand(np, data: bytes):
    alphabet = np.frombuffer(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", dtype=np.uint8)
    raw = np.frombuffer(data, dtype=np.uint8)
    pad = (-len(raw)) % 3
    padded = np.concatenate([raw, np.zeros(pad, dtype=np.uint8)]).reshape(-1, 3).astype(np.uint32)
    triple = (padded[:, 0] << 16) | (padded[:, 1] << 8) | padded[:, 2]
    sextets = np.stack([(triple >> s) & 0x3F for s in (18, 12, 6, 0)], axis=1).ravel()
    chars = alphabet[sextets]
    if pad:
        chars[-pad:] = ord("=")
    text = chars.tobytes().decode()
    bits = np.unpackbits(raw)
    bits = np.concatenate([bits, np.zeros((-len(bits)) % 6, dtype=np.uint8)])
    via_bits = (bits.reshape(-1, 6) * (1 << np.arange(5, -1, -1))).sum(axis=1)
    return {"text": text, "sextets": sextets, "via_bits": via_bits}


def bloom_filter(np, words, queries, m=256, k=3):
    def hashes(w):
        h1 = np.uint32(2166136261)
        h2 = np.uint32(5381)
        with np.errstate(over="ignore"):  # NumPy's uint32 scalars warn when they wrap
            for b in w.encode():
                h1 = (h1 ^ np.uint32(b)) * np.uint32(16777619)
                h2 = h2 * np.uint32(33) + np.uint32(b)
        return (h1 + np.arange(k, dtype=np.uint32) * h2) % np.uint32(m)

    bits = np.zeros(m // 8, dtype=np.uint8)
    for w in words:
        idx = hashes(w)
        np.bitwise_or.at(bits, idx // 8, (1 << (idx % 8)).astype(np.uint8))
    found = []
    for q in queries:
        idx = hashes(q)
        found.append(bool(np.all(bits[idx // 8] & (1 << (idx % 8)).astype(np.uint8))))
    fill = np.unpackbits(bits).mean()
    return {"bits": bits, "found": found, "fill": float(fill),
            "fp_rate": float((1 - np.exp(-k * len(words) / m)) ** k)}


def nibbles(np, values_host):
    v = np.asarray(values_host).astype(np.uint8) & 0x0F
    if len(v) % 2:
        v = np.append(v, np.uint8(0))
    packed = (v[0::2] << 4) | v[1::2]
    hi, lo = packed >> 4, packed & 0x0F
    unpacked = np.empty(2 * len(packed), dtype=np.uint8)
    unpacked[0::2], unpacked[1::2] = hi, lo
    hexs = "".join(f"{b:02x}" for b in packed)
    swapped = ((packed & 0x0F) << 4) | (packed >> 4)
    return {"packed": packed, "unpacked": unpacked, "hex": hexs, "swapped": swapped,
            "popcount": np.unpackbits(packed).reshape(-1, 8).sum(axis=1)}


def crc32_table(np, data: bytes):
    poly = np.uint32(0xEDB88320)
    table = np.arange(256, dtype=np.uint32)
    for _ in range(8):
        table = np.where(table & 1, (table >> 1) ^ poly, table >> 1)
    crc = np.uint32(0xFFFFFFFF)
    for b in np.frombuffer(data, dtype=np.uint8):
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    crc = crc ^ np.uint32(0xFFFFFFFF)
    return {"table": table[:16], "crc": int(crc), "hex": f"{int(crc):08x}"}


def test_dct_blocks_quantise_zigzag():
    rng = np.random.default_rng(7113)  # no DC coefficient (block sum / 8) at a .5 rounding tie
    y, x = np.mgrid[0:16, 0:24]
    img = (128 + 60 * np.sin(x / 4) * np.cos(y / 5) + rng.normal(scale=5, size=(16, 24))).clip(0, 255)
    check(dct_blocks, img.astype(np.uint8), rtol=1e-3, atol=1e-3)


def test_pcm_int16_and_mu_law():
    check(pcm_audio, rtol=1e-3, atol=1e-4)


def test_delta_zigzag_varint_coding():
    rng = np.random.default_rng(713)
    check(varint_coding, np.cumsum(rng.integers(-300, 400, 25)) * 37)


def test_base64_bit_regrouping():
    check(base64_by_hand, b"kdsl runs NumPy programs on Vulkan!")


def test_bloom_filter_uint32_hashes():
    check(bloom_filter, ["apple", "banana", "cherry", "date", "elder", "fig", "grape"],
          ["apple", "kiwi", "fig", "lemon", "mango", "grape"])


def test_nibble_packing_uint8_shifts():
    check(nibbles, np.random.default_rng(716).integers(0, 16, 13))


def test_crc32_byte_table():
    check(crc32_table, b"The quick brown fox jumps over the lazy dog")
