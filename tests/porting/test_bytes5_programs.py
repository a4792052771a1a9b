"""Programs on bytes and bits (text as uint8 codes, no string arrays): Caesar and Vigenère ciphers with uint8
arithmetic from np.frombuffer, letter frequencies with np.bincount and chi-squared decryption, run-length encoding
with np.diff/np.flatnonzero and its inverse with np.repeat, Adler-32 and Fletcher checksums from cumulative sums,
DNA k-mer counts by base-4 codes over sliding windows, Hamming distances and popcounts with np.unpackbits, and a
parity/bit-packing round trip with np.packbits (tests/porting)."""

import numpy as np
from harness import check

TEXT = b"the quick brown fox jumps over the lazy dog and keeps running far away from the hunters"


def ciphers(np, text):
    codes = np.frombuffer(text, dtype=np.uint8)
    letters = (codes >= ord("a")) & (codes <= ord("z"))
    shifted = codes.copy()
    shifted[letters] = (codes[letters] - ord("a") + 3) % 26 + ord("a")
    encoded = shifted.tobytes().decode()
    key = np.frombuffer(b"lemon", dtype=np.uint8) - ord("a")
    k = np.resize(key, letters.sum())
    vig = codes.copy()
    vig[letters] = (codes[letters] - ord("a") + k) % 26 + ord("a")
    back = vig.copy()
    back[letters] = (vig[letters] - ord("a") - k) % 26 + ord("a")
    return {"encoded": encoded, "vig": vig, "roundtrip": back.tobytes() == text, "n_letters": int(letters.sum())}


def frequency_attack(np, text):
    codes = np.frombuffer(text, dtype=np.uint8)
    letters = codes[(codes >= 97) & (codes <= 122)] - 97
    secret = (letters + 11) % 26
    english = np.array([8.2, 1.5, 2.8, 4.3, 12.7, 2.2, 2.0, 6.1, 7.0, 0.15, 0.77, 4.0, 2.4, 6.7, 7.5, 1.9, 0.095,
                        6.0, 6.3, 9.1, 2.8, 0.98, 2.4, 0.15, 2.0, 0.074]) / 100
    counts = np.bincount(secret, minlength=26)
    chi = np.array([(((np.roll(counts, -s) - len(secret) * english) ** 2) / (len(secret) * english)).sum()
                    for s in range(26)])
    best = int(np.argmin(chi))
    top3 = np.argsort(counts, kind="stable")[::-1][:3]
    return {"counts": counts, "best": best, "top3": top3, "chi_min": float(chi.min())}


def run_length(np, bits_host):
    x = np.asarray(bits_host)
    starts = np.flatnonzero(np.diff(np.concatenate([[-1], x])) != 0)
    lengths = np.diff(np.concatenate([starts, [len(x)]]))
    values = x[starts]
    decoded = np.repeat(values, lengths)
    longest = int(lengths[values == 1].max()) if (values == 1).any() else 0
    return {"starts": starts, "lengths": lengths, "values": values, "same": bool(np.array_equal(decoded, x)),
            "longest_ones": longest}


def checksums(np, text):
    data = np.frombuffer(text, dtype=np.uint8).astype(np.int64)
    a = (1 + np.cumsum(data)) % 65521
    b = np.cumsum(a) % 65521
    adler = int(b[-1]) * 65536 + int(a[-1])
    s1 = np.cumsum(data) % 255
    s2 = np.cumsum(s1) % 255
    fletcher = int(s2[-1]) * 256 + int(s1[-1])
    parity = np.bitwise_xor.reduce(data)
    return {"adler": adler, "fletcher": fletcher, "parity": int(parity), "sum8": int(data.sum() % 256)}


def kmer_counts(np, seq, k=3):
    codes = np.frombuffer(seq, dtype=np.uint8)
    lut = np.zeros(256, dtype=np.int64)
    lut[[ord("A"), ord("C"), ord("G"), ord("T")]] = [0, 1, 2, 3]
    base = lut[codes]
    windows = np.lib.stride_tricks.sliding_window_view(base, k)
    idx = windows @ (4 ** np.arange(k - 1, -1, -1))
    counts = np.bincount(idx, minlength=4**k)
    gc = np.isin(codes, np.frombuffer(b"GC", dtype=np.uint8)).mean()
    comp = np.array([3, 2, 1, 0])[base[::-1]]
    return {"counts": counts, "top": np.argsort(counts, kind="stable")[-3:], "gc": float(gc), "revcomp": comp}


def bits_and_hamming(np, a_host, b_host):
    a = np.asarray(a_host).astype(np.uint8)
    b = np.asarray(b_host).astype(np.uint8)
    popcount = np.unpackbits(a[:, None], axis=1).sum(axis=1)
    hamming = np.unpackbits(a ^ b).sum()
    bits = np.unpackbits(a)
    packed = np.packbits(bits)
    parity_bits = np.unpackbits(a[:, None], axis=1).sum(axis=1) % 2
    with_parity = np.packbits(np.concatenate([bits[:7], parity_bits[:1]]))
    table = np.array([bin(i).count("1") for i in range(256)])
    return {"popcount": popcount, "hamming": int(hamming), "same": bool(np.array_equal(packed, a)),
            "parity": parity_bits, "with_parity": with_parity, "lookup": table[a],
            "little": np.unpackbits(a[:2], bitorder="little")}


def test_caesar_vigenere_uint8():
    check(ciphers, TEXT)


def test_letter_frequencies_chi_squared_shift():
    check(frequency_attack, TEXT, rtol=1e-4, atol=1e-5)


def test_run_length_encoding_and_decoding():
    check(run_length, (np.random.default_rng(621).random(60) < 0.6).astype(int))


def test_adler_fletcher_checksums():
    check(checksums, TEXT)


def test_dna_kmer_counts_sliding_windows():
    seq = bytes(np.random.default_rng(622).choice(np.frombuffer(b"ACGT", dtype=np.uint8), 80))
    check(kmer_counts, seq)


def test_popcount_hamming_packbits():
    rng = np.random.default_rng(623)
    check(bits_and_hamming, rng.integers(0, 256, 12), rng.integers(0, 256, 12))
