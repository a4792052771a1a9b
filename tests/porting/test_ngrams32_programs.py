"""Text statistics on integer codes as NumPy users write them once the text is bytes (`np.frombuffer(..., uint8)`):
character n-grams by `sliding_window_view`, FNV-1a hashes in wrapping uint64 arithmetic counted with
`np.unique(return_counts=True)`, a Bloom filter of bigram keys, a suffix array by prefix doubling with `lexsort`
and ranks from `cumsum` of changes, a Rabin-Karp rolling hash in Python ints mod a prime, word bigram transition
matrices by `np.add.at`, Zipf's law fitted by `polyfit` on log ranks, and case folding by masked in-place
arithmetic on a copy (tests/porting)."""

import numpy as np
from harness import check

TEXT = (b"the cat sat on the mat and the cat ate the rat that sat on the hat while the dog sat on the log "
        b"and the rat ran to the mat so the cat ran after the rat and the dog ran after the cat")


def char_ngrams(np, codes, n):
    c = np.asarray(codes).astype(np.int64)
    W = np.lib.stride_tricks.sliding_window_view(c, n)
    keys = W @ (256 ** np.arange(n - 1, -1, -1))
    grams, first, inv, counts = np.unique(keys, return_index=True, return_inverse=True, return_counts=True)
    order = np.argsort(-counts, kind="stable")[:8]
    top = (grams[order][:, None] // 256 ** np.arange(n - 1, -1, -1)) % 256
    p = counts / counts.sum()
    entropy = -(p * np.log2(p)).sum()
    return {"top": top, "top_counts": counts[order], "first": first[order], "n_types": len(grams),
            "entropy": entropy, "hapax": int((counts == 1).sum()), "inv_head": inv[:20]}


def fnv_hashes(np, codes, n):
    c = np.asarray(codes).astype(np.uint64)
    W = np.lib.stride_tricks.sliding_window_view(c, n)
    h = np.full(len(W), np.uint64(14695981039346656037))
    for k in range(n):
        h = (h ^ W[:, k]) * np.uint64(1099511628211)
    u, cnt = np.unique(h, return_counts=True)
    buckets = np.bincount((h % np.uint64(32)).astype(np.int64), minlength=32)
    return {"h": h, "distinct": len(u), "max_count": cnt.max(), "buckets": buckets, "top_bits": h >> np.uint64(60),
            "chi2": ((buckets - buckets.mean()) ** 2 / buckets.mean()).sum()}


def bloom_filter(np, codes, probes):
    c = np.asarray(codes).astype(np.int64)
    key = c[:-1] * 256 + c[1:]
    m = 211
    bits = np.zeros(m, dtype=bool)
    mults = np.array([7, 13, 29, 31])
    pos = (key[:, None] * mults[None, :] + 11) % m
    bits[pos.ravel()] = True
    probes = np.asarray(probes).astype(np.int64)
    pkey = probes[:, 0] * 256 + probes[:, 1]
    hit = bits[(pkey[:, None] * mults + 11) % m].all(axis=1)
    truth = np.isin(pkey, key)
    fill = bits.mean()
    return {"bits": np.packbits(bits), "hit": hit, "false_pos": int((hit & ~truth).sum()), "fill": fill,
            "expected_fp": fill ** len(mults), "missed": int((truth & ~hit).sum())}


def suffix_array(np, codes):
    s = np.asarray(codes).astype(np.int64)
    n = len(s)
    rank = s.copy()
    k = 1
    rounds = 0
    while True:
        second = np.full(n, -1, dtype=np.int64)
        second[:n - k] = rank[k:]
        sa = np.lexsort((second, rank))
        r1, r2 = rank[sa], second[sa]
        new = np.empty(n, dtype=np.int64)
        new[sa] = np.cumsum(np.concatenate(([0], (r1[1:] != r1[:-1]) | (r2[1:] != r2[:-1]))))
        rank = new
        k *= 2
        rounds += 1
        if rank.max() == n - 1 or k > n:
            break
    lcp = np.zeros(n, dtype=np.int64)
    h = 0
    for i in range(n):
        if rank[i] > 0:
            j = sa[rank[i] - 1]
            while i + h < n and j + h < n and s[i + h] == s[j + h]:
                h += 1
            lcp[rank[i]] = h
            h = max(h - 1, 0)
        else:
            h = 0
    longest = int(np.argmax(lcp))
    return {"sa": sa, "rank": rank, "rounds": rounds, "lcp": lcp, "repeat": s[sa[longest]:sa[longest] + lcp[longest]],
            "distinct_substrings": int(n * (n + 1) // 2 - lcp.sum())}


def rabin_karp(np, codes, pattern):
    c = np.asarray(codes).astype(np.int64)
    pat = np.asarray(pattern).astype(np.int64)
    m, p, base = len(pat), 1_000_003, 257
    target = 0
    h = 0
    for j in range(m):
        target = (target * base + pat[j]) % p
        h = (h * base + c[j]) % p
    top = pow(base, m - 1, p)
    hs = [h]
    for i in range(m, len(c)):
        h = ((h - c[i - m] * top) * base + c[i]) % p
        hs.append(h)
    hs = np.array(hs)
    cand = np.flatnonzero(hs == target)
    W = np.lib.stride_tricks.sliding_window_view(c, m)
    exact = cand[(W[cand] == pat).all(axis=1)]
    return {"hs": hs, "cand": cand, "exact": exact, "gaps": np.diff(exact), "collisions": len(cand) - len(exact)}


def word_bigrams(np, codes):
    c = np.asarray(codes)
    cuts = np.flatnonzero(c == 32)
    words = [bytes(w) for w in np.split(c, cuts + 1)]
    words = [w.strip() for w in words]
    vocab = {w: i for i, w in enumerate(sorted(set(words)))}
    ids = np.array([vocab[w] for w in words])
    V = len(vocab)
    M = np.zeros((V, V), dtype=np.int32)
    np.add.at(M, (ids[:-1], ids[1:]), 1)
    P = (M + 0.1) / (M.sum(axis=1, keepdims=True) + 0.1 * V)
    logp = np.log(P[ids[:-1], ids[1:]]).sum()
    follows_the = np.argsort(-M[vocab[b"the"]], kind="stable")[:3]
    lens = np.array([len(w) for w in words])
    return {"ids": ids, "M_sum": M.sum(), "perplexity": np.exp(-logp / (len(ids) - 1)), "follows_the": follows_the,
            "len_hist": np.bincount(lens), "mean_len": lens.mean(), "self_loops": np.trace(M)}


def zipf_fit(np, codes):
    c = np.asarray(codes)
    letters = c[(c >= 97) & (c <= 122)] - 97
    counts = np.bincount(letters, minlength=26)
    seen = np.sort(counts[counts > 0])[::-1]
    ranks = np.arange(1, len(seen) + 1)
    slope, intercept = np.polyfit(np.log(ranks), np.log(seen), 1)
    fitted = np.exp(intercept) * ranks ** slope
    resid = np.log(seen) - np.log(fitted)
    top = np.argsort(counts)[::-1][:5]
    return {"counts": counts, "slope": slope, "intercept": intercept, "r2": 1 - resid.var() / np.log(seen).var(),
            "top": top, "letters": "".join(chr(97 + int(i)) for i in top), "missing": np.flatnonzero(counts == 0)}


def case_fold(np, codes):
    c = np.array(codes)
    c[::7] = np.where((c[::7] >= 97) & (c[::7] <= 122), c[::7] - 32, c[::7])
    upper = (c >= 65) & (c <= 90)
    folded = c.copy()
    folded[upper] += 32
    vowels = np.isin(folded, np.frombuffer(b"aeiou", dtype=np.uint8))
    starts = np.flatnonzero(np.diff(np.concatenate(([0], (folded != 32).astype(np.int8)))) == 1)
    caps = c[starts]
    return {"text": folded.tobytes().decode(), "n_upper": int(upper.sum()), "vowel_share": vowels.mean(),
            "starts": starts, "caps": caps, "u8": folded.dtype.name, "shifted": (c.astype(np.int16) - 96)[:12]}


def _codes():
    return np.frombuffer(TEXT, dtype=np.uint8).copy()


def test_char_ngrams():
    check(char_ngrams, _codes(), 3, rtol=1e-4)


def test_fnv_hashes():
    check(fnv_hashes, _codes(), 4, rtol=1e-4)


def test_bloom_filter():
    probes = np.frombuffer(b"thcaatzzqxonhe", dtype=np.uint8).reshape(-1, 2)
    check(bloom_filter, _codes(), probes)


def test_suffix_array():
    check(suffix_array, _codes()[:80])


def test_rabin_karp():
    check(rabin_karp, _codes(), np.frombuffer(b"the ", dtype=np.uint8))


def test_word_bigrams():
    check(word_bigrams, _codes(), rtol=1e-4)


def test_zipf_fit():
    check(zipf_fit, _codes(), rtol=1e-4)


def test_case_fold():
    check(case_fold, _codes())
