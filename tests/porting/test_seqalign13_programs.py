"""Bioinformatics on integer encodings as Rosalind solutions and genomics course notebooks write them: bytes to
codes through a 256-entry lookup table (`np.frombuffer(seq.encode(), np.uint8)`), k-mer counting by a base-4 rolling
code (`sliding_window_view @ 4 ** np.arange(k)[::-1]`, `np.unique(return_counts=True)`, minimizers by
`argmin` per window), GC skew with `np.cumsum` to locate the origin of replication, Phred qualities from bytes with
BWA-style trimming by a cumulative sum, global alignment with affine gaps (three DP matrices filled row by row and
scored from a substitution matrix read by `np.ix_`), pairwise Jukes-Cantor distances between aligned reads with
gaps masked out and a UPGMA-style merge loop, open reading frames in three frames via stop-codon positions and
`np.searchsorted`, a de Bruijn graph's edges and degrees from `np.unique(axis=0)`, and quality-weighted k-mer
abundances summed per distinct k-mer by `np.add.reduceat` over thousands of sorted groups (tests/porting)."""

import numpy as np
from harness import check


def _lut(np):
    lut = np.full(256, 4, dtype=np.uint8)
    lut[np.frombuffer(b"ACGTacgt", dtype=np.uint8)] = np.array([0, 1, 2, 3, 0, 1, 2, 3], dtype=np.uint8)
    return lut


def encode(np, seq):
    return _lut(np)[np.frombuffer(seq.encode(), dtype=np.uint8)]


def kmer_minimizers(np, seq, k, w):
    codes = encode(np, seq).astype(np.int64)
    windows = np.lib.stride_tricks.sliding_window_view(codes, k)
    valid = ~(windows == 4).any(axis=1)
    kmers = windows @ (4 ** np.arange(k)[::-1])
    kmers = np.where(valid, kmers, -1)
    uniq, counts = np.unique(kmers[valid], return_counts=True)
    top = uniq[np.argsort(-counts, kind="stable")[:5]]
    spectrum = np.bincount(counts)
    rc = (3 - windows[:, ::-1]) @ (4 ** np.arange(k)[::-1])
    canonical = np.minimum(kmers, np.where(valid, rc, -1))
    win = np.lib.stride_tricks.sliding_window_view(canonical, w)
    mins = np.argmin(win, axis=1) + np.arange(len(win))
    minimizers = np.unique(mins)
    return {"n_valid": int(valid.sum()), "uniq": uniq.size, "top": top, "spectrum": spectrum,
            "canonical": canonical[:30], "minimizers": minimizers, "density": minimizers.size / len(win)}


def gc_skew(np, seq, window):
    codes = encode(np, seq)
    g = (codes == 2).astype(np.int64)
    c = (codes == 1).astype(np.int64)
    skew = np.cumsum(g - c)
    ori = int(np.argmin(skew))
    ter = int(np.argmax(skew))
    gs = np.convolve(g, np.ones(window, dtype=np.int64), "valid")
    cs = np.convolve(c, np.ones(window, dtype=np.int64), "valid")
    tot = gs + cs
    local = np.divide(gs - cs, tot, out=np.zeros(tot.shape), where=tot > 0)
    gc = (gs + cs) / window
    return {"skew_end": skew[-1], "ori": ori, "ter": ter, "minima": np.flatnonzero(skew == skew.min()),
            "local": local[::10], "gc_max": gc.max(), "gc_argmax": int(gc.argmax())}


def quality_trim(np, qual_lines, threshold):
    results = []
    means = []
    for line in qual_lines:
        q = np.frombuffer(line.encode("ascii"), dtype=np.uint8).astype(np.int32) - 33
        means.append(q.mean())
        s = np.cumsum((threshold - q)[::-1])
        cut = len(q) - int(np.argmax(s)) - 1 if s.max() > 0 else len(q)
        results.append(cut)
    Q = np.array([np.frombuffer(l.encode(), np.uint8) for l in qual_lines]).astype(np.int16) - 33
    p_err = 10.0 ** (-Q / 10)
    expected_errors = p_err.sum(axis=1)
    return {"cut": np.array(results), "mean": np.array(means), "ee": expected_errors,
            "per_pos": Q.mean(axis=0), "low": np.argwhere(Q < 10)[:10]}


def affine_global(np, a, b, sub, alphabet_idx, gap_open, gap_ext):
    x, y = encode(np, a), encode(np, b)
    S = sub[np.ix_(alphabet_idx[x], alphabet_idx[y])]
    n, m = len(x), len(y)
    NEG = -1e9
    M = np.full((n + 1, m + 1), NEG)
    X = np.full((n + 1, m + 1), NEG)
    Y = np.full((n + 1, m + 1), NEG)
    M[0, 0] = 0
    X[1:, 0] = -gap_open - gap_ext * np.arange(n)
    Y[0, 1:] = -gap_open - gap_ext * np.arange(m)
    for i in range(1, n + 1):
        M[i, 1:] = np.maximum(np.maximum(M[i - 1, :-1], X[i - 1, :-1]), Y[i - 1, :-1]) + S[i - 1]
        X[i, 1:] = np.maximum(M[i - 1, 1:] - gap_open, X[i - 1, 1:] - gap_ext)
        for j in range(1, m + 1):
            Y[i, j] = max(M[i, j - 1] - gap_open, Y[i, j - 1] - gap_ext)
    best = np.max([M[n, m], X[n, m], Y[n, m]])
    return {"score": best, "M_last": M[-1], "S_diag": np.diagonal(S).copy(), "which": int(np.argmax([M[n, m], X[n, m],
                                                                                                      Y[n, m]]))}


def jc_distances(np, aligned):
    A = np.array([encode(np, s.replace("-", "N")) for s in aligned])
    n = len(A)
    ok = A < 4
    both = ok[:, None, :] & ok[None, :, :]
    diff = (A[:, None, :] != A[None, :, :]) & both
    p = diff.sum(axis=2) / np.maximum(both.sum(axis=2), 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        d = -0.75 * np.log(1 - 4 * p / 3)
    d[np.isnan(d)] = np.inf
    D = d.copy()
    np.fill_diagonal(D, np.inf)
    clusters = [[i] for i in range(n)]
    merges = []
    while len(clusters) > 1:
        i, j = np.unravel_index(np.argmin(D), D.shape)
        i, j = min(i, j), max(i, j)
        merges.append((int(i), int(j), float(D[i, j])))
        size_i, size_j = len(clusters[i]), len(clusters[j])
        new = (D[i] * size_i + D[j] * size_j) / (size_i + size_j)
        D[i, :] = new
        D[:, i] = new
        D[i, i] = np.inf
        D = np.delete(np.delete(D, j, axis=0), j, axis=1)
        clusters[i] = clusters[i] + clusters.pop(j)
    return {"p": p, "d": d, "merges": merges}


def orfs(np, seq, min_codons):
    codes = encode(np, seq).astype(np.int64)
    found = []
    for frame in range(3):
        n = (len(codes) - frame) // 3
        cod = codes[frame:frame + 3 * n].reshape(n, 3) @ np.array([16, 4, 1])
        starts = np.flatnonzero(cod == 14)  # ATG
        stops = np.flatnonzero(np.isin(cod, [48, 50, 56]))  # TAA TAG TGA
        nxt = np.searchsorted(stops, starts)
        has = nxt < len(stops)
        s, e = starts[has], stops[nxt[has]]
        keep = (e - s) >= min_codons
        s, e = s[keep], e[keep]
        first = np.unique(e, return_index=True)[1]
        for a, b in zip(s[first], e[first], strict=True):
            found.append((frame, int(frame + 3 * a), int(frame + 3 * b + 3)))
    found.sort(key=lambda t: (-(t[2] - t[1]), t[1]))
    return {"orfs": found, "longest": found[0][2] - found[0][1] if found else 0}


def de_bruijn(np, reads, k):
    edges = []
    for r in reads:
        c = encode(np, r).astype(np.int64)
        w = np.lib.stride_tricks.sliding_window_view(c, k)
        edges.append(np.stack([w[:, :-1] @ 4 ** np.arange(k - 2, -1, -1), w[:, 1:] @ 4 ** np.arange(k - 2, -1, -1)],
                              axis=1))
    E = np.concatenate(edges)
    uniq_edges, mult = np.unique(E, axis=0, return_counts=True)
    nodes, inv = np.unique(uniq_edges, return_inverse=True)
    inv = inv.reshape(uniq_edges.shape)
    out_deg = np.bincount(inv[:, 0], minlength=len(nodes))
    in_deg = np.bincount(inv[:, 1], minlength=len(nodes))
    balance = out_deg - in_deg
    return {"edges": uniq_edges, "mult": mult, "nodes": nodes, "out": out_deg, "in": in_deg,
            "start": nodes[balance == 1], "end": nodes[balance == -1]}


def weighted_kmer_abundance(np, seq, quals, k):
    codes = encode(np, seq).astype(np.int64)
    kmers = np.lib.stride_tricks.sliding_window_view(codes, k) @ (4 ** np.arange(k)[::-1])
    weight = np.lib.stride_tricks.sliding_window_view(1 - 10.0 ** (-quals / 10), k).prod(axis=1)
    order = np.argsort(kmers, kind="stable")
    sk = kmers[order]
    starts = np.flatnonzero(np.r_[True, sk[1:] != sk[:-1]])
    total = np.add.reduceat(weight[order], starts)
    best = np.maximum.reduceat(weight[order], starts)
    counts = np.diff(np.r_[starts, len(sk)])
    solid = sk[starts][total >= 1.5]
    return {"n_distinct": len(starts), "total": total, "best": best, "counts": counts,
            "solid": solid, "top": sk[starts][np.argsort(-total, kind="stable")[:5]]}


def _random_seq(rng, n, p=None):
    return "".join(rng.choice(list("ACGT"), n, p=p))


def test_kmer_counts_minimizers():
    rng = np.random.default_rng(1341)
    seq = _random_seq(rng, 300)
    seq = seq[:100] + "NNN" + seq[100:] + seq[40:80]
    check(kmer_minimizers, seq, 5, 8)


def test_gc_skew_origin():
    rng = np.random.default_rng(1342)
    seq = _random_seq(rng, 400, [0.25, 0.3, 0.2, 0.25]) + _random_seq(rng, 400, [0.25, 0.2, 0.3, 0.25])
    check(gc_skew, seq, 50)


def test_phred_quality_trimming():
    rng = np.random.default_rng(1343)
    lines = []
    for _ in range(6):
        q = np.clip(np.linspace(38, 5, 40) + rng.normal(0, 4, 40), 2, 41).astype(int)
        lines.append("".join(chr(v + 33) for v in q))
    check(quality_trim, lines, 20, rtol=1e-3)


def test_affine_gap_global_alignment():
    sub = np.array([[5, -4, -4, -4], [-4, 5, -4, -4], [-4, -4, 5, -4], [-4, -4, -4, 5]], dtype=np.float64)
    check(affine_global, "ACGTTGACCGATTACA", "ACGTGACCGGATTTACA", sub, np.arange(5) % 4, 10.0, 1.0)


def test_jukes_cantor_upgma():
    rng = np.random.default_rng(1345)
    root = rng.choice(list("ACGT"), 60)
    aligned = []
    for rate in [0.02, 0.05, 0.1, 0.1, 0.2]:
        s = root.copy()
        flip = rng.random(60) < rate
        s[flip] = rng.choice(list("ACGT"), flip.sum())
        s[rng.random(60) < 0.05] = "-"
        aligned.append("".join(s))
    check(jc_distances, aligned, rtol=1e-3)


def test_open_reading_frames():
    rng = np.random.default_rng(1346)
    seq = _random_seq(rng, 200) + "ATG" + _random_seq(rng, 90, [0.3, 0.2, 0.3, 0.2]) + "TAA" + _random_seq(rng, 100)
    check(orfs, seq, 10)


def test_de_bruijn_graph_degrees():
    rng = np.random.default_rng(1347)
    genome = _random_seq(rng, 80)
    reads = [genome[i:i + 20] for i in range(0, 61, 6)]
    check(de_bruijn, reads, 4)


def test_quality_weighted_kmer_abundance_reduceat():
    rng = np.random.default_rng(1348)
    seq = _random_seq(rng, 3000)
    seq = seq + seq[500:1500]  # repeats make solid k-mers
    check(weighted_kmer_abundance, seq, rng.integers(5, 41, len(seq)).astype(np.float64), 7, rtol=1e-3)
