"""Information theory as course notebooks (MacKay's exercises, compression tutorials) write it: Shannon entropy of
byte histograms (`np.bincount(minlength=256)`, `0 log 0` by masks and `np.errstate`) and of sliding blocks, mutual
information and conditional entropies from a `np.histogram2d` joint table, KL and Jensen-Shannon divergences with the
binary-symmetric channel's capacity, Huffman code lengths by repeatedly merging the two smallest weights
(`np.argsort`) with canonical codes by `np.lexsort`, run-length encoding by `np.diff`/`np.flatnonzero` and decoding by
`np.repeat`, a Hamming(7,4) code over GF(2) with syndrome decoding, Shannon-Fano-Elias code words from a `cumsum`, and
the entropy rate of a Markov source from transition counts by `np.add.at` (tests/porting)."""

import numpy as np
from harness import check


def byte_entropy(np, data, block):
    b = np.asarray(data)
    counts = np.bincount(b, minlength=256)
    p = counts / counts.sum()
    nz = p > 0
    H = -np.sum(p[nz] * np.log2(p[nz]))
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, -p * np.log2(p), 0.0)
    blocks = b[: len(b) // block * block].reshape(-1, block)
    per_block = []
    for row in blocks:
        c = np.bincount(row, minlength=256)
        q = c[c > 0] / block
        per_block.append(-(q * np.log2(q)).sum())
    pairs = b[:-1].astype(np.int64) * 256 + b[1:]
    _, pc = np.unique(pairs, return_counts=True)
    pp = pc / pc.sum()
    H2 = -np.sum(pp * np.log2(pp))
    return {"H": H, "terms_sum": terms.sum(), "per_block": np.array(per_block), "H_pair": H2,
            "cond": H2 - H, "max_bits": np.log2(np.count_nonzero(counts)), "redundancy": 1 - H / 8}


def mutual_information(np, x, y, bins):
    joint, xe, ye = np.histogram2d(np.asarray(x), np.asarray(y), bins=bins)
    pxy = joint / joint.sum()
    px = pxy.sum(axis=1)
    py = pxy.sum(axis=0)
    outer = np.outer(px, py)
    nz = pxy > 0
    mi = np.sum(pxy[nz] * np.log(pxy[nz] / outer[nz]))
    Hx = -np.sum(px[px > 0] * np.log(px[px > 0]))
    Hy = -np.sum(py[py > 0] * np.log(py[py > 0]))
    Hxy = -np.sum(pxy[nz] * np.log(pxy[nz]))
    with np.errstate(divide="ignore", invalid="ignore"):
        cond = np.where(px[:, None] > 0, pxy / px[:, None], 0.0)
    return {"mi": mi, "Hx": Hx, "Hy": Hy, "Hxy": Hxy, "nmi": mi / np.sqrt(Hx * Hy),
            "check": np.isclose(mi, Hx + Hy - Hxy, atol=1e-5), "cond_rows": cond.sum(axis=1),
            "edges": xe[[0, -1]]}


def divergences(np, p, q, flips):
    p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
    p, q = p / p.sum(), q / q.sum()
    kl_pq = np.sum(np.where(p > 0, p * np.log2(p / q), 0.0))
    kl_qp = np.sum(np.where(q > 0, q * np.log2(q / p), 0.0))
    m = (p + q) / 2
    js = 0.5 * np.sum(p * np.log2(p / m)) + 0.5 * np.sum(q * np.log2(q / m))
    cross = -np.sum(p * np.log2(q))
    f = np.asarray(flips)
    with np.errstate(divide="ignore", invalid="ignore"):
        hb = -f * np.log2(f) - (1 - f) * np.log2(1 - f)
    hb = np.nan_to_num(hb, nan=0.0)
    return {"kl_pq": kl_pq, "kl_qp": kl_qp, "js": js, "cross": cross, "H": cross - kl_pq,
            "capacity": 1 - hb, "tv": 0.5 * np.abs(p - q).sum()}


def huffman_lengths(np, weights):
    w = np.asarray(weights, dtype=float)
    n = len(w)
    lengths = np.zeros(n, dtype=int)
    groups = [[i] for i in range(n)]
    live = w.copy()
    alive = np.ones(n, dtype=bool)
    for _ in range(n - 1):
        idx = np.flatnonzero(alive)
        two = idx[np.argsort(live[idx], kind="stable")[:2]]
        a, b = int(two[0]), int(two[1])
        members = groups[a] + groups[b]
        lengths[members] += 1
        groups[a] = members
        live[a] += live[b]
        alive[b] = False
    order = np.lexsort((np.arange(n), lengths))
    codes = np.zeros(n, dtype=np.int64)
    code = 0
    prev = lengths[order[0]]
    for k, sym in enumerate(order):
        if k:
            code = (code + 1) << int(lengths[sym] - prev)
        codes[sym] = code
        prev = lengths[sym]
    p = w / w.sum()
    avg = np.sum(p * lengths)
    H = -np.sum(p * np.log2(p))
    kraft = np.sum(2.0 ** -lengths)
    return {"lengths": lengths, "codes": codes, "avg": avg, "H": H, "kraft": kraft,
            "bound": bool(H <= avg < H + 1), "by_len": np.bincount(lengths)}


def run_length(np, signal):
    x = np.asarray(signal)
    change = np.flatnonzero(np.diff(x)) + 1
    starts = np.concatenate([[0], change])
    lengths = np.diff(np.concatenate([starts, [len(x)]]))
    values = x[starts]
    decoded = np.repeat(values, lengths)
    longest = int(np.argmax(lengths))
    ones = lengths[values == 1]
    bits = np.packbits(x.astype(np.uint8))
    return {"values": values, "lengths": lengths, "ok": bool(np.array_equal(decoded, x)),
            "ratio": 2 * len(values) / len(x), "longest": [int(values[longest]), int(lengths[longest])],
            "ones_hist": np.bincount(ones), "packed": bits}


def hamming74(np, data_bits, error_pos):
    G = np.array([[1, 0, 0, 0, 1, 1, 0], [0, 1, 0, 0, 1, 0, 1], [0, 0, 1, 0, 0, 1, 1], [0, 0, 0, 1, 1, 1, 1]])
    H = np.array([[1, 1, 0, 1, 1, 0, 0], [1, 0, 1, 1, 0, 1, 0], [0, 1, 1, 1, 0, 0, 1]])
    d = np.asarray(data_bits).reshape(-1, 4)
    code = d @ G % 2
    recv = code.copy()
    pos = np.asarray(error_pos)
    rows = np.flatnonzero(pos >= 0)
    recv[rows, pos[rows]] ^= 1
    syn = recv @ H.T % 2
    syn_val = syn @ np.array([4, 2, 1])
    col_val = H.T @ np.array([4, 2, 1])
    lookup = np.full(8, -1)
    lookup[col_val] = np.arange(7)
    fix = lookup[syn_val]
    fixed = recv.copy()
    bad = fix >= 0
    fixed[np.flatnonzero(bad), fix[bad]] ^= 1
    return {"code": code, "syndrome": syn_val, "fixed_ok": bool(np.array_equal(fixed, code)),
            "decoded": fixed[:, :4].ravel(), "GHt": G @ H.T % 2, "weights": np.bincount(code.sum(axis=1))}


def shannon_fano_elias(np, probs):
    p = np.asarray(probs)
    F = np.cumsum(p) - p
    Fbar = F + p / 2
    lengths = np.ceil(np.log2(1 / p)).astype(int) + 1
    shifts = np.arange(lengths.max())
    words = np.floor(Fbar * 2.0 ** lengths).astype(np.int64)
    bits = (words[:, None] >> (lengths[:, None] - 1 - shifts)) & 1
    bits = np.where(shifts < lengths[:, None], bits, -1)
    prefix_free = True
    for i in range(len(p)):
        for j in range(len(p)):
            if i != j and lengths[i] <= lengths[j]:
                if words[j] >> (lengths[j] - lengths[i]) == words[i]:
                    prefix_free = False
    return {"F": F, "lengths": lengths, "words": words, "bits": bits, "prefix_free": prefix_free,
            "avg": np.sum(p * lengths), "H": -np.sum(p * np.log2(p))}


def markov_entropy_rate(np, seq, k):
    s = np.asarray(seq)
    T = np.zeros((k, k))
    np.add.at(T, (s[:-1], s[1:]), 1)
    P = T / T.sum(axis=1, keepdims=True)
    w, V = np.linalg.eig(P.T)
    pi = np.real(V[:, np.argmin(np.abs(w - 1))])
    pi = pi / pi.sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(P > 0, np.log2(P), 0.0)
    row_H = -np.sum(P * logs, axis=1)
    rate = pi @ row_H
    freq = np.bincount(s, minlength=k) / len(s)
    H0 = -np.sum(freq * np.log2(freq))
    return {"P": P, "pi": pi, "row_H": row_H, "rate": rate, "H0": H0, "gain": H0 - rate,
            "most_likely_next": np.argmax(P, axis=1)}


def test_byte_entropy_blocks():
    rng = np.random.default_rng(1451)
    text = np.frombuffer(b"the quick brown fox jumps over the lazy dog " * 20, dtype=np.uint8)
    noise = rng.integers(0, 256, 512).astype(np.uint8)
    check(byte_entropy, np.concatenate([text, noise]), 128, rtol=1e-4, atol=1e-5)


def test_mutual_information_joint_histogram():
    rng = np.random.default_rng(1452)
    x = rng.normal(size=2000)
    check(mutual_information, x, 0.8 * x + 0.6 * rng.normal(size=2000), 16, rtol=1e-3, atol=1e-5)


def test_kl_js_and_bsc_capacity():
    rng = np.random.default_rng(1453)
    check(divergences, rng.random(12) + 0.01, rng.random(12) + 0.01, np.array([0.0, 0.01, 0.1, 0.25, 0.5, 1.0]),
          rtol=1e-4, atol=1e-6)


def test_huffman_code_lengths():
    check(huffman_lengths, np.array([45, 13, 12, 16, 9, 5, 30, 2, 2, 1]), rtol=1e-5)


def test_run_length_encoding():
    rng = np.random.default_rng(1455)
    for n in (400, 200_000):  # ~16 000 runs: np.repeat gathers (tests/api/test_repeat_many_runs_porting14.py)
        x = (np.cumsum(rng.random(n) < 0.08) % 2).astype(np.int64)
        check(run_length, x)


def test_hamming_7_4_syndromes():
    rng = np.random.default_rng(1456)
    check(hamming74, rng.integers(0, 2, 64), np.where(rng.random(16) < 0.6, rng.integers(0, 7, 16), -1))


def test_shannon_fano_elias_codes():
    check(shannon_fano_elias, np.array([0.25, 0.5, 0.125, 0.0625, 0.0625]))
    check(shannon_fano_elias, np.array([0.4, 0.3, 0.2, 0.1]))


def test_markov_source_entropy_rate():
    rng = np.random.default_rng(1458)
    P = np.array([[0.8, 0.15, 0.05], [0.2, 0.6, 0.2], [0.3, 0.3, 0.4]])
    s = [0]
    u = rng.random(3000)
    for k in range(2999):
        s.append(int(np.searchsorted(np.cumsum(P[s[-1]]), u[k])))
    check(markov_entropy_rate, np.array(s), 3, rtol=1e-3, atol=1e-4)
