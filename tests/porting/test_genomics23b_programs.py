"""Genomics and epidemiology ported from NumPy scripts: k-mer counts of uint8 base codes by
`sliding_window_view` and a dot with powers of 4, `unique(return_counts=True)` ranked by a stable `argsort`,
GC skew by `cumsum`, reverse complements by negative strides, contact matrices by a three-operand `einsum`,
next-generation matrices with `eigvals` of a non-symmetric matrix and `real_if_close`, and Elo ratings
updated in Python loops over 0-d arrays (tests/porting)."""

import numpy as np
from harness import check


def kmer_counts(np, seq, k):
    codes = np.asarray(seq, dtype=np.uint8)
    windows = np.lib.stride_tricks.sliding_window_view(codes, k)
    ids = windows.astype(np.int64) @ (4 ** np.arange(k - 1, -1, -1))
    kmers, counts = np.unique(ids, return_counts=True)
    order = np.argsort(-counts, kind="stable")
    spectrum = np.bincount(ids, minlength=4 ** k)
    return {"top": kmers[order[:5]], "top_n": counts[order[:5]], "distinct": len(kmers),
            "spectrum_max": int(spectrum.max()), "absent": int(np.sum(spectrum == 0))}


def reverse_complement(np, seq):
    codes = np.asarray(seq, dtype=np.uint8)
    rc = (3 - codes)[::-1]
    same = np.flatnonzero(codes == rc)
    gc = np.isin(codes, [1, 2])
    skew = np.cumsum(np.where(codes == 2, 1, np.where(codes == 1, -1, 0)))
    return {"rc": rc, "same": same, "gc": gc.mean(), "skew_min": int(np.argmin(skew)),
            "palin": bool(np.array_equal(codes[:6], rc[-6:]))}


def gc_windows(np, seq, w):
    codes = np.asarray(seq, dtype=np.uint8)
    gc = ((codes == 1) | (codes == 2)).astype(np.float64)
    win = np.lib.stride_tricks.sliding_window_view(gc, w)[::2]
    frac = win.mean(axis=-1)
    runs = np.diff(np.concatenate(([0], (frac > 0.5).astype(np.int8), [0])))
    return {"frac": frac, "starts": np.flatnonzero(runs == 1), "ends": np.flatnonzero(runs == -1),
            "conv": np.convolve(gc, np.ones(w) / w, mode="valid")[::2]}


def hamming_matrix(np, reads):
    reads = np.asarray(reads, dtype=np.uint8)
    d = (reads[:, None, :] != reads[None, :, :]).sum(axis=-1)
    np.fill_diagonal(d, d.max() + 1)
    nearest = d.argmin(axis=1)
    iu = np.triu_indices(len(reads), k=1)
    return {"d": d, "nearest": nearest, "pairs": np.sort(d[iu]), "consensus": np.array(
        [np.bincount(col, minlength=4).argmax() for col in reads.T])}


def contact_matrix(np, contacts, pop, susc, inf):
    C = np.asarray(contacts)
    N = np.asarray(pop)
    sym = (C * N[:, None] + (C * N[:, None]).T) / (2 * N[:, None])
    ngm = np.einsum("i,ij,j->ij", susc, sym, inf)
    ev = np.linalg.eigvals(ngm)
    r0 = np.max(np.abs(ev))
    lam = np.real_if_close(ev[np.argsort(-np.abs(ev))])
    total = np.einsum("i,ij,j", susc, sym, inf)
    return {"sym": sym, "r0": r0, "lam0": lam[0].real, "total": total, "ngm_tr": np.trace(ngm)}


def nonsymmetric_spectrum(np, A):
    A = np.asarray(A)
    ev = np.linalg.eigvals(A)
    ev = ev[np.lexsort((ev.imag, ev.real))]
    rc = np.real_if_close(np.linalg.eigvals(np.array([[2.0, 1.0], [0.0, 3.0]])))
    return {"re": ev.real, "im": np.abs(ev.imag), "iscomplex": bool(np.iscomplexobj(ev)),
            "rc": np.sort(rc), "rc_kind": rc.dtype.kind, "det": np.prod(ev).real}


def sir_age(np, C, beta, gamma, days):
    C = np.asarray(C)
    S = np.array([0.99, 0.98, 0.97])
    I = 1 - S
    R = np.zeros(3)
    peak = []
    for _ in range(days):
        force = beta * np.einsum("ij,j->i", C, I)
        new = S * force
        S, I, R = S - new, I + new - gamma * I, R + gamma * I
        peak.append(I.sum())
    peak = np.array(peak)
    return {"S": S, "R": R, "peak_day": int(np.argmax(peak)), "peak": peak.max(), "tot": S + I + R}


def elo_season(np, games, k):
    games = np.asarray(games)
    rating = np.full(4, 1500.0)
    history = []
    for h, a, res in games:
        exp_h = 1 / (1 + 10 ** ((rating[a] - rating[h]) / 400))
        d = k * (float(res) / 2 - exp_h)
        rating[h] += d
        rating[a] -= d
        history.append(round(float(rating[h]), 3))
    best = int(np.argmax(rating))
    return {"rating": rating, "best": best, "hist": history, "top": rating[best].item(),
            "spread": float(rating.max() - rating.min()), "wins": int((games[:, 2] == 2).sum())}


def league_table(np, home, away, hg, ag):
    home, away, hg, ag = (np.asarray(v) for v in (home, away, hg, ag))
    pts_h = np.select([hg > ag, hg == ag], [3, 1], 0)
    pts_a = np.select([ag > hg, hg == ag], [3, 1], 0)
    pts = np.bincount(home, pts_h, minlength=5) + np.bincount(away, pts_a, minlength=5)
    gd = np.zeros(5, dtype=np.int64)
    np.add.at(gd, home, hg - ag)
    np.add.at(gd, away, ag - hg)
    order = np.lexsort((-gd, -pts))
    lines = [f"{int(t)}: {int(pts[t])} pts, gd {int(gd[t]):+d}" for t in order]
    return {"order": order, "pts": pts, "gd": gd, "lines": lines}


def test_kmer_counts():
    rng = np.random.default_rng(2301)
    check(kmer_counts, rng.integers(0, 4, 80), 3)


def test_reverse_complement():
    rng = np.random.default_rng(2302)
    seq = rng.integers(0, 4, 30)
    seq[:6] = [0, 1, 2, 1, 2, 3]
    check(reverse_complement, seq)


def test_gc_windows():
    rng = np.random.default_rng(2303)
    check(gc_windows, rng.integers(0, 4, 40), 6)


def test_hamming_matrix():
    rng = np.random.default_rng(2304)
    check(hamming_matrix, rng.integers(0, 4, (6, 12)))


def test_contact_matrix():
    C = np.array([[8.0, 3, 1], [2, 10, 2], [1, 3, 5]])
    check(contact_matrix, C, np.array([300.0, 500, 200]), np.array([0.05, 0.03, 0.04]),
          np.array([1.0, 0.8, 1.2]), rtol=1e-3, atol=1e-5)


def test_nonsymmetric_spectrum():
    A = np.array([[0.0, -2, 1, 0], [1, 0, 0, 1], [0.5, 0, 0.3, -1], [0, 1, 1, 0.2]])
    check(nonsymmetric_spectrum, A, rtol=1e-3, atol=1e-4)


def test_sir_age():
    C = np.array([[2.0, 0.5, 0.2], [0.5, 1.5, 0.4], [0.2, 0.4, 1.0]])
    check(sir_age, C, 0.3, 0.1, 25, rtol=1e-3, atol=1e-5)


def test_elo_season():
    rng = np.random.default_rng(2305)
    games = np.column_stack([rng.permutation(4)[:2] for _ in range(10)]).T
    check(elo_season, np.column_stack([games, rng.integers(0, 3, 10)]), 24, rtol=1e-4, atol=1e-3)


def test_league_table():
    rng = np.random.default_rng(2306)
    home = np.array([0, 1, 2, 3, 4, 0, 1, 2])
    away = np.array([1, 2, 3, 4, 0, 2, 3, 4])
    check(league_table, home, away, rng.integers(0, 4, 8), rng.integers(0, 4, 8))


def encode_reads(np, text):
    lut = np.full(256, 255, dtype=np.uint8)
    lut[np.frombuffer(b"ACGT", dtype=np.uint8)] = np.arange(4)
    codes = lut[np.frombuffer(text.encode(), dtype=np.uint8)]
    valid = codes != 255
    comp = np.where(valid, 3 - codes, 255).astype(np.uint8)[::-1]
    back = "".join("ACGTN"[min(int(c), 4)] for c in comp)
    two_bit = np.unpackbits(codes[valid][:, None], axis=1)[:, 6:]  # each base in 2 bits
    packed = np.packbits(two_bit, axis=None)
    return {"codes": codes, "n_bad": int((~valid).sum()), "rc": back, "packed": packed,
            "freq": np.bincount(codes[valid], minlength=4) / valid.sum()}


def profile_matrix(np, reads):
    reads = np.asarray(reads, dtype=np.uint8)
    counts = np.stack([(reads == b).sum(axis=0) for b in range(4)])
    prof = (counts + 1) / (counts.sum(axis=0) + 4)
    logp = np.log2(prof)
    windows = np.lib.stride_tricks.sliding_window_view(reads[0], 4)
    scores = logp[windows, np.arange(4)].sum(axis=1)
    best = np.take_along_axis(np.argsort(-logp, axis=0), np.zeros((1, logp.shape[1]), dtype=int), axis=0)
    return {"counts": counts, "info": 2 + (prof * logp).sum(axis=0), "scores": scores, "best": best[0]}


def test_encode_reads():
    check(encode_reads, "ACGTNNGATTACAGGC")


def test_profile_matrix():
    rng = np.random.default_rng(2307)
    check(profile_matrix, rng.integers(0, 4, (7, 9)), rtol=1e-4, atol=1e-4)
