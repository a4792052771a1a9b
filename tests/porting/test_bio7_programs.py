"""Bioinformatics as NumPy scripts write it: DNA to integer codes through np.frombuffer and a lookup table,
one-hot encoding with np.eye, GC content in sliding windows, reverse complements by fancy indexing, k-mer
counting by base-4 codes with np.bincount and np.unique(return_counts=True), position weight matrices and
log-odds scanning, Needleman-Wunsch global alignment with a Python loop over a score matrix and traceback,
Hamming distance matrices by broadcasting, and a codon translation table lookup (tests/porting)."""

from harness import check

SEQ = "ATGGCGTACGTTAGCCGATCGATCGGCTAGCTAGGCTTACGATCGATGCATGCAACGTTGCAAGGCTTAA"


def encode(np, seq):
    lut = np.full(256, -1, dtype=np.int8)
    lut[np.frombuffer(b"ACGT", dtype=np.uint8)] = np.arange(4)
    return lut[np.frombuffer(seq.encode(), dtype=np.uint8)]


def one_hot_gc(np, seq=SEQ, w=10):
    codes = encode(np, seq)
    onehot = np.eye(4, dtype=np.float32)[codes]
    comp = onehot.mean(axis=0)
    gc = (codes == 1) | (codes == 2)
    windows = np.lib.stride_tricks.sliding_window_view(gc, w).mean(axis=1)
    cum = np.concatenate([[0], np.cumsum(gc)])
    windows2 = (cum[w:] - cum[:-w]) / w
    return {"codes": codes[:12], "onehot_sum": onehot.sum(axis=0), "comp": comp, "gc": float(gc.mean()),
            "windows": windows, "same": bool(np.allclose(windows, windows2)), "gc_rich": np.flatnonzero(windows >= 0.6)}


def reverse_complement(np, seq=SEQ):
    codes = encode(np, seq)
    rc = (3 - codes)[::-1]
    text = "".join("ACGT"[c] for c in rc.tolist())
    pal = codes == (3 - codes)[::-1]
    return {"rc": text, "rc_codes": rc[:10], "palindromic_positions": int(pal.sum()),
            "is_rc_involution": bool(np.array_equal((3 - rc)[::-1], codes))}


def kmer_counts(np, seq=SEQ, k=3):
    codes = encode(np, seq).astype(np.int64)
    windows = np.lib.stride_tricks.sliding_window_view(codes, k)
    ids = windows @ (4 ** np.arange(k - 1, -1, -1))
    counts = np.bincount(ids, minlength=4**k)
    uniq, cnt = np.unique(ids, return_counts=True)
    top = np.argsort(-counts, kind="stable")[:5]
    names = ["".join("ACGT"[(t // 4**p) % 4] for p in range(k - 1, -1, -1)) for t in top.tolist()]
    return {"counts_nonzero": int(np.count_nonzero(counts)), "uniq": uniq, "cnt": cnt, "top": names,
            "top_counts": counts[top], "same": bool(np.array_equal(counts[uniq], cnt))}


def pwm_scan(np, sites, seq=SEQ, pseudo=0.5):
    X = np.stack([np.eye(4)[encode(np, s)] for s in sites])  # (sites, L, 4)
    counts = X.sum(axis=0) + pseudo
    freqs = counts / counts.sum(axis=1, keepdims=True)
    bg = np.full(4, 0.25)
    pwm = np.log2(freqs / bg)
    L = pwm.shape[0]
    codes = encode(np, seq)
    win = np.lib.stride_tricks.sliding_window_view(codes, L)
    scores = pwm[np.arange(L), win].sum(axis=1)
    info = (freqs * np.log2(freqs / bg)).sum(axis=1)
    consensus = "".join("ACGT"[i] for i in pwm.argmax(axis=1).tolist())
    best = np.argsort(scores)[::-1][:3]
    return {"pwm": pwm, "scores": scores, "best": best, "info": info, "consensus": consensus,
            "max_possible": float(pwm.max(axis=1).sum())}


def needleman_wunsch(np, a="GATTACAGG", b="GCATGCTAG", match=1, mismatch=-1, gap=-2):
    x, y = encode(np, a), encode(np, b)
    n, m = len(x), len(y)
    S = np.where(x[:, None] == y[None, :], match, mismatch)
    F = np.zeros((n + 1, m + 1), dtype=int)
    F[:, 0] = gap * np.arange(n + 1)
    F[0, :] = gap * np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            F[i, j] = max(F[i - 1, j - 1] + S[i - 1, j - 1], F[i - 1, j] + gap, F[i, j - 1] + gap)
    i, j = n, m
    top, bottom = [], []
    while i > 0 or j > 0:
        if i > 0 and j > 0 and F[i, j] == F[i - 1, j - 1] + S[i - 1, j - 1]:
            top.append(a[i - 1])
            bottom.append(b[j - 1])
            i, j = i - 1, j - 1
        elif i > 0 and F[i, j] == F[i - 1, j] + gap:
            top.append(a[i - 1])
            bottom.append("-")
            i -= 1
        else:
            top.append("-")
            bottom.append(b[j - 1])
            j -= 1
    return {"score": int(F[n, m]), "F": F, "top": "".join(reversed(top)), "bottom": "".join(reversed(bottom))}


def nw_antidiagonal_rows(np, a="ACGTTGCAAC", b="ACTTGCAGC", gap=-1):
    # the same recurrence one row at a time: the diagonal and vertical moves vectorised, the horizontal by a scan
    x, y = encode(np, a), encode(np, b)
    m = len(y)
    prev = gap * np.arange(m + 1)
    for i in range(1, len(x) + 1):
        sub = np.where(y == x[i - 1], 2, -1)
        cur = np.empty(m + 1, dtype=prev.dtype)
        cur[0] = gap * i
        cur[1:] = np.maximum(prev[:-1] + sub, prev[1:] + gap)
        # horizontal gaps: cur[j] = max_k (cur[k] + gap * (j - k)), a running maximum of cur - gap * j
        j = np.arange(m + 1)
        cur = np.maximum.accumulate(cur - gap * j) + gap * j
        prev = cur
    return {"last_row": prev, "score": int(prev[-1])}


def levenshtein(np, a="GATTACA", b="GCATGCU"):
    D = np.zeros((len(a) + 1, len(b) + 1), dtype=int)
    D[0, :] = range(len(b) + 1)
    D[:, 0] = range(len(a) + 1)
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            D[i, j] = min(D[i - 1, j] + 1, D[i, j - 1] + 1, D[i - 1, j - 1] + cost)
    ratio = 1 - D[-1, -1] / max(len(a), len(b))
    return {"D": D, "distance": int(D[-1, -1]), "ratio": round(float(ratio), 4)}


def smith_waterman(np, a="TGTTACGGAC", b="GGTTGACTAC", match=3, mismatch=-3, gap=2):
    x, y = encode(np, a), encode(np, b)
    S = np.where(x[:, None] == y[None, :], match, mismatch)
    H = np.zeros((len(x) + 1, len(y) + 1), dtype=int)
    for i in range(1, len(x) + 1):
        diag = H[i - 1, :-1] + S[i - 1]
        up = H[i - 1, 1:] - gap
        H[i, 1:] = np.maximum(np.maximum(diag, up), 0)
        for j in range(1, len(y) + 1):  # the left move depends on this row's own values
            H[i, j] = max(H[i, j], H[i, j - 1] - gap)
    i, j = np.unravel_index(np.argmax(H), H.shape)
    best = int(H[i, j])
    end = (int(i), int(j))
    while H[i, j] > 0 and i > 0 and j > 0:
        if H[i, j] == H[i - 1, j - 1] + S[i - 1, j - 1]:
            i, j = i - 1, j - 1
        elif H[i, j] == H[i - 1, j] - gap:
            i -= 1
        else:
            j -= 1
    return {"score": best, "end": end, "start": (int(i), int(j)), "local_a": a[int(i) : end[0]],
            "H_max_rows": H.max(axis=1)}


def hamming_matrix(np, reads):
    R = np.stack([encode(np, r) for r in reads])
    D = (R[:, None, :] != R[None, :, :]).sum(axis=-1)
    iu = np.triu_indices(len(reads), 1)
    closest = np.argmin(np.where(np.eye(len(reads), dtype=bool), np.iinfo(np.int32).max, D), axis=1)
    consensus = np.array([np.bincount(col, minlength=4).argmax() for col in R.T])
    return {"D": D, "pairs": D[iu], "closest": closest, "consensus": "".join("ACGT"[c] for c in consensus.tolist()),
            "identity": np.round(1 - D / R.shape[1], 3)}


def translate_codons(np, seq=SEQ):
    bases = "TCAG"
    aa = "FFLLSSSSYY**CC*WLLLLPPPPHHQQRRRRIIIMTTTTNNKKSSRRVVVVAAAADDEEGGGG"
    lut = np.full(256, -1)
    lut[np.frombuffer(bases.encode(), dtype=np.uint8)] = np.arange(4)
    codes = lut[np.frombuffer(seq.encode(), dtype=np.uint8)]
    codons = codes[: len(codes) // 3 * 3].reshape(-1, 3)
    idx = codons[:, 0] * 16 + codons[:, 1] * 4 + codons[:, 2]
    protein = "".join(aa[i] for i in idx.tolist())
    stops = np.flatnonzero(np.array([aa[i] == "*" for i in idx.tolist()]))
    hydrophobic = np.isin(idx, [i for i, c in enumerate(aa) if c in "AVILMFW"])
    return {"protein": protein, "stops": stops, "hydrophobic_frac": float(hydrophobic.mean()),
            "codon_usage": np.bincount(idx, minlength=64).reshape(4, 16).sum(axis=1)}


def test_one_hot_and_gc_windows():
    check(one_hot_gc, rtol=1e-5)


def test_reverse_complement_fancy_indexing():
    check(reverse_complement)


def test_kmer_counting_bincount_unique():
    check(kmer_counts)


def test_pwm_log_odds_scanning():
    check(pwm_scan, ["TACGT", "TACGA", "TTCGT", "TACCT", "GACGT"], rtol=1e-4, atol=1e-5)


def test_needleman_wunsch_loops_traceback():
    check(needleman_wunsch)


def test_needleman_wunsch_rows_maximum_accumulate():
    check(nw_antidiagonal_rows)


def test_levenshtein_range_borders():
    check(levenshtein)


def test_smith_waterman_local_alignment():
    check(smith_waterman)


def test_hamming_distance_matrix_consensus():
    check(hamming_matrix, ["ACGTACGTAC", "ACGTTCGTAC", "TCGTACGAAC", "ACGAACGTAC", "ACGTACGTAA"])


def test_codon_translation_lookup():
    check(translate_codons)
