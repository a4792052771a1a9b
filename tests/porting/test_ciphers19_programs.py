"""Classical cryptography exercises as course notebooks write them with NumPy on byte arrays: Caesar and Vigenère
ciphers by modular arithmetic on `frombuffer` codes, frequency analysis with `bincount` and a chi-square score per
shift, the Vigenère key length by index of coincidence over `np.roll`ed copies, a Hill cipher with the inverse key
matrix mod 26 from the adjugate, XOR stream ciphers from an LFSR (`bitwise_xor.reduce` of tapped bits) and an RC4
key schedule with element swaps, FNV-1a hashes in `uint32` wrap-around, base64 through `unpackbits`/`packbits`, and
a transposition cipher by `argsort` of the key (tests/porting)."""

import numpy as np
from harness import check

TEXT = ("THEQUICKBROWNFOXJUMPSOVERTHELAZYDOGANDTHENRUNSAWAYINTOTHEFORESTWHEREITHIDESUNTILTHESUNSETS"
        "ANDTHESTARSCOMEOUTOVERTHEQUIETVALLEY")
ENGLISH = np.array([8.2, 1.5, 2.8, 4.3, 12.7, 2.2, 2.0, 6.1, 7.0, 0.15, 0.77, 4.0, 2.4, 6.7, 7.5, 1.9, 0.095, 6.0,
                    6.3, 9.1, 2.8, 0.98, 2.4, 0.15, 2.0, 0.074]) / 100


def caesar_crack(np, text, shift, english):
    codes = np.frombuffer(text.encode(), dtype=np.uint8).astype(np.int64) - ord("A")
    cipher = (codes + shift) % 26
    english = np.asarray(english)
    counts = np.bincount(cipher, minlength=26)
    shifts = np.arange(26)
    # chi-square of the text decrypted by every shift against English letter frequencies
    observed = np.stack([np.roll(counts, -s) for s in shifts])
    expected = english * len(cipher)
    chi2 = ((observed - expected) ** 2 / expected).sum(axis=1)
    best = int(np.argmin(chi2))
    plain = ((cipher - best) % 26 + ord("A")).astype(np.uint8).tobytes().decode()
    return {"cipher": cipher[:12], "counts": counts, "chi2": chi2, "best": best, "ok": plain == text}


def vigenere(np, text, key):
    codes = np.frombuffer(text.encode(), dtype=np.uint8).astype(np.int64) - 65
    k = np.frombuffer(key.encode(), dtype=np.uint8).astype(np.int64) - 65
    stream = np.resize(k, codes.shape)
    cipher = (codes + stream) % 26
    # index of coincidence of the text against itself shifted by each candidate key length
    coincid = np.array([np.mean(cipher == np.roll(cipher, s)) for s in range(1, 9)])
    length = int(np.argmax(coincid)) + 1
    columns = [cipher[i::length] for i in range(length)]
    guessed = np.array([(np.argmax(np.bincount(c, minlength=26)) - 4) % 26 for c in columns])
    plain = (cipher - np.resize(k, cipher.shape)) % 26
    return {"cipher": cipher, "coincid": coincid, "length": length, "guessed": guessed,
            "round_trip": bool(np.array_equal(plain, codes))}


def hill(np, text, K):
    K = np.asarray(K)
    codes = np.frombuffer(text.encode(), dtype=np.uint8).astype(np.int64) - 65
    blocks = codes[: len(codes) // 2 * 2].reshape(-1, 2).T
    cipher = (K @ blocks) % 26
    det = int(round(np.linalg.det(K))) % 26
    det_inv = pow(det, -1, 26)
    adj = np.array([[K[1, 1], -K[0, 1]], [-K[1, 0], K[0, 0]]])
    K_inv = (det_inv * adj) % 26
    plain = (K_inv @ cipher) % 26
    return {"cipher": cipher.T.ravel(), "det": det, "K_inv": K_inv, "identity": (K @ K_inv) % 26,
            "ok": bool(np.array_equal(plain, blocks))}


def lfsr_stream(np, seed_bits, taps, n, message):
    state = np.array(seed_bits, dtype=np.uint8)
    taps = np.asarray(taps)
    out = np.empty(n, dtype=np.uint8)
    for i in range(n):
        out[i] = state[-1]
        fb = np.bitwise_xor.reduce(state[taps])
        state = np.roll(state, 1)
        state[0] = fb
    key = np.packbits(out)
    msg = np.frombuffer(message.encode(), dtype=np.uint8)
    cipher = msg ^ key[: len(msg)]
    back = (cipher ^ key[: len(msg)]).tobytes().decode()
    ones = np.convolve(out, np.ones(8, dtype=np.uint8), mode="valid")
    return {"bits": out, "key": key, "cipher": cipher, "ok": back == message, "balance": float(out.mean()),
            "runs": int(np.count_nonzero(np.diff(out))), "window_max": int(ones.max())}


def rc4(np, key, n):
    key = np.frombuffer(key.encode(), dtype=np.uint8)
    S = np.arange(256, dtype=np.uint8)
    j = 0
    for i in range(256):
        j = (j + int(S[i]) + int(key[i % len(key)])) % 256
        S[i], S[j] = S[j], S[i]
    i = j = 0
    ks = np.empty(n, dtype=np.uint8)
    for t in range(n):
        i = (i + 1) % 256
        j = (j + int(S[i])) % 256
        S[[i, j]] = S[[j, i]]
        ks[t] = S[(int(S[i]) + int(S[j])) % 256]
    return {"S_head": S[:16], "keystream": ks, "perm": bool(np.array_equal(np.sort(S), np.arange(256)))}


def fnv_hashes(np, words):
    prime, basis = np.uint32(16777619), np.uint32(2166136261)
    hashes = []
    for w in words:
        h = basis
        with np.errstate(over="ignore"):  # NumPy's scalars warn on the wrap-around the hash wants
            for b in np.frombuffer(w.encode(), dtype=np.uint8):
                h = (h ^ np.uint32(b)) * prime
        hashes.append(h)
    h = np.array(hashes, dtype=np.uint32)
    # all words at once: pad to a common length and run the bytes column by column
    L = max(len(w) for w in words)
    M = np.zeros((len(words), L), dtype=np.uint32)
    lens = np.array([len(w) for w in words])
    for r, w in enumerate(words):
        M[r, : len(w)] = np.frombuffer(w.encode(), dtype=np.uint8)
    H = np.full(len(words), 2166136261, dtype=np.uint32)
    for c in range(L):
        live = c < lens
        H[live] = (H[live] ^ M[live, c]) * np.uint32(16777619)
    return {"loop": h, "columns": H, "same": bool(np.array_equal(h, H)), "buckets": np.bincount(H % 7, minlength=7),
            "hex": [f"{int(v):08x}" for v in H[:3]]}


def base64_encode(np, data):
    alphabet = np.frombuffer(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", dtype=np.uint8)
    raw = np.frombuffer(data.encode(), dtype=np.uint8)
    pad = (-len(raw)) % 3
    bits = np.unpackbits(np.concatenate([raw, np.zeros(pad, dtype=np.uint8)]))
    sextets = bits.reshape(-1, 6) @ (1 << np.arange(5, -1, -1))
    chars = alphabet[sextets]
    if pad:
        chars[-pad:] = ord("=")
    ranks = np.searchsorted(np.sort(alphabet), chars[: len(chars) - pad]).astype(np.uint8)
    decoded_bits = np.unpackbits(ranks[:, None], axis=1)[:, 2:]
    return {"sextets": sextets, "text": chars.tobytes().decode(), "bits": decoded_bits.sum()}


def transposition(np, text, key):
    msg = np.frombuffer(text.encode(), dtype=np.uint8)
    k = np.frombuffer(key.encode(), dtype=np.uint8)
    cols = len(k)
    rows = -(-len(msg) // cols)
    grid = np.full(rows * cols, ord("X"), dtype=np.uint8)
    grid[: len(msg)] = msg
    grid = grid.reshape(rows, cols)
    order = np.argsort(k, kind="stable")
    cipher = grid[:, order].T.ravel()
    inverse = np.empty_like(order)
    inverse[order] = np.arange(cols)
    back = cipher.reshape(cols, rows).T[:, inverse].ravel()[: len(msg)]
    return {"order": order, "inverse": inverse, "cipher": cipher.tobytes().decode(),
            "ok": back.tobytes() == msg.tobytes()}


def test_caesar_crack():
    check(caesar_crack, TEXT, 7, ENGLISH, rtol=1e-4)


def test_vigenere():
    check(vigenere, TEXT, "LEMON")


def test_hill():
    check(hill, TEXT, np.array([[3, 3], [2, 5]]))


def test_lfsr_stream():
    check(lfsr_stream, [1, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 0, 1, 1, 0, 1], [15, 13, 12, 10], 128, "ATTACK AT DAWN")


def test_rc4_keystream():
    check(rc4, "Secret", 16)


def test_fnv_hashes():
    check(fnv_hashes, ["apple", "banana", "kiwi", "cherry", "fig", "grape"])


def test_base64_encode():
    check(base64_encode, "Many hands make light work.")


def test_transposition():
    check(transposition, "WEAREDISCOVEREDFLEEATONCE", "ZEBRAS")
