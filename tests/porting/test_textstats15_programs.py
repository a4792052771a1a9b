"""Text statistics on integer token ids as NLP course notebooks write them: bigram and trigram counts by
`sliding_window_view` and `unique(axis=0, return_counts=True)`, a TF-IDF matrix built by `np.add.at` on
(document, token) pairs with cosine similarities, a Zipf fit by `polyfit` on log rank, rolling n-gram hashes in
uint64 with wrap-around and bit masks, sentence lengths by `flatnonzero` and `add.reduceat`, an add-k bigram model
with perplexity, type-token growth by `unique(return_index=True)`, and PMI of collocations under `errstate`
(tests/porting)."""

import numpy as np
from harness import check


def ngram_counts(np, tokens, n, top):
    windows = np.lib.stride_tricks.sliding_window_view(tokens, n)
    grams, inverse, counts = np.unique(windows, axis=0, return_inverse=True, return_counts=True)
    order = np.lexsort((np.arange(len(counts)), -counts))[:top]
    singletons = (counts == 1).sum()
    return {"n_types": len(grams), "top": grams[order], "top_counts": counts[order],
            "singletons": singletons, "coverage": counts[order].sum() / len(windows),
            "inverse_head": inverse.ravel()[:20], "check": bool((grams[inverse.ravel()] == windows).all())}


def tf_idf(np, doc_ids, tokens, n_docs, vocab):
    tf = np.zeros((n_docs, vocab))
    np.add.at(tf, (doc_ids, tokens), 1)
    df = (tf > 0).sum(axis=0)
    idf = np.log((1 + n_docs) / (1 + df)) + 1
    w = tf / tf.sum(axis=1, keepdims=True) * idf
    w /= np.linalg.norm(w, axis=1, keepdims=True)
    sim = w @ w.T
    np.fill_diagonal(sim, 0)
    best = np.unravel_index(np.argmax(sim), sim.shape)
    keywords = np.argsort(-w, axis=1, kind="stable")[:, :3]
    return {"df": df, "idf": idf, "sim": sim, "best_pair": [int(best[0]), int(best[1])], "keywords": keywords}


def zipf_fit(np, tokens):
    counts = np.bincount(tokens)
    counts = counts[counts > 0]
    freq = np.sort(counts)[::-1]
    rank = np.arange(1, len(freq) + 1)
    slope, intercept = np.polyfit(np.log(rank), np.log(freq), 1)
    head = np.polyfit(np.log(rank[:50]), np.log(freq[:50]), 1)[0]
    hapax = np.sum(counts == 1) / len(counts)
    cum = np.cumsum(freq) / freq.sum()
    half = int(np.searchsorted(cum, 0.5)) + 1
    return {"slope": slope, "intercept": intercept, "head": head, "hapax": hapax,
            "half": half, "types": len(counts)}


def rolling_hash(np, tokens, n, buckets_bits):
    t = tokens.astype(np.uint64)
    base = np.uint64(1_000_003)
    h = np.zeros(len(t) - n + 1, dtype=np.uint64)
    for k in range(n):
        h = h * base + t[k:len(t) - n + 1 + k]
    h ^= h >> np.uint64(29)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(32)
    bucket = (h & np.uint64((1 << buckets_bits) - 1)).astype(np.int64)
    hist = np.bincount(bucket, minlength=1 << buckets_bits)
    uniq, first = np.unique(h, return_index=True)
    return {"h": h[:30], "bucket": bucket[:30], "max_load": hist.max(), "empty": int((hist == 0).sum()),
            "distinct": len(uniq), "first": np.sort(first)[:20], "top_bit": (h >> np.uint64(63)).sum()}


def sentence_lengths(np, tokens, eos):
    ends = np.flatnonzero(tokens == eos)
    starts = np.concatenate([[0], ends[:-1] + 1])
    lengths = ends - starts
    content = (tokens != eos).astype(np.int64)
    per_sentence = np.add.reduceat(content, starts)
    long_ = lengths > np.percentile(lengths, 75)
    hist, edges = np.histogram(lengths, bins=np.arange(0, lengths.max() + 5, 5))
    return {"lengths": lengths, "same": bool((per_sentence == lengths).all()), "mean": lengths.mean(),
            "median": np.median(lengths), "long_idx": np.flatnonzero(long_)[:10], "hist": hist, "edges": edges,
            "std": lengths.std(ddof=1)}


def bigram_model(np, train, test, vocab, k):
    counts = np.zeros((vocab, vocab))
    np.add.at(counts, (train[:-1], train[1:]), 1)
    probs = (counts + k) / (counts.sum(axis=1, keepdims=True) + k * vocab)
    logp = np.log(probs[test[:-1], test[1:]])
    ppl = np.exp(-logp.mean())
    greedy = [int(test[0])]
    for _ in range(8):
        greedy.append(int(np.argmax(probs[greedy[-1]])))
    entropy = -(probs * np.log2(probs)).sum(axis=1)
    return {"ppl": ppl, "greedy": greedy, "entropy": entropy, "rowsum": probs.sum(axis=1),
            "unseen": int((counts[test[:-1], test[1:]] == 0).sum())}


def type_token_growth(np, tokens, checkpoints):
    _, first = np.unique(tokens, return_index=True)
    is_new = np.zeros(len(tokens), dtype=bool)
    is_new[first] = True
    types = np.cumsum(is_new)
    ttr = types / np.arange(1, len(tokens) + 1)
    at = types[np.asarray(checkpoints) - 1]
    b, log_k = np.polyfit(np.log(checkpoints), np.log(at), 1)
    return {"types": at, "ttr": ttr[np.asarray(checkpoints) - 1], "heaps_beta": b, "heaps_k": np.exp(log_k),
            "last_new": int(np.flatnonzero(is_new)[-1])}


def pmi_collocations(np, tokens, vocab, min_count):
    uni = np.bincount(tokens, minlength=vocab).astype(np.float64)
    pairs = tokens[:-1] * vocab + tokens[1:]
    bi = np.bincount(pairs, minlength=vocab * vocab).reshape(vocab, vocab).astype(np.float64)
    N = len(tokens)
    with np.errstate(divide="ignore", invalid="ignore"):
        pmi = np.log2(bi * N / np.outer(uni, uni) * N / (N - 1))
    pmi[bi < min_count] = -np.inf
    flat = np.argsort(pmi, axis=None)[::-1][:8]
    r, c = np.unravel_index(flat, pmi.shape)
    finite = np.isfinite(pmi)
    return {"pairs": np.stack([r, c], axis=1), "pmi": pmi[r, c], "n_finite": int(finite.sum()),
            "npmi_max": np.max(pmi[finite] / -np.log2(bi[finite] / (N - 1)))}


def _zipf_tokens(rng, n, vocab, s=1.1):
    p = 1 / np.arange(1, vocab + 1) ** s
    return rng.choice(vocab, n, p=p / p.sum())


def test_ngram_counts_by_unique_axis0():
    rng = np.random.default_rng(1531)
    tokens = _zipf_tokens(rng, 3000, 40)
    check(ngram_counts, tokens, 2, 10)
    check(ngram_counts, tokens, 3, 10)


def test_tf_idf_and_cosine():
    rng = np.random.default_rng(1532)
    docs = rng.integers(0, 8, 1200)
    check(tf_idf, docs, _zipf_tokens(rng, 1200, 60), 8, 60, rtol=1e-5)


def test_zipf_fit():
    rng = np.random.default_rng(1533)
    check(zipf_fit, _zipf_tokens(rng, 20000, 500), rtol=1e-5)


def test_rolling_hash_uint64():
    rng = np.random.default_rng(1534)
    check(rolling_hash, _zipf_tokens(rng, 4000, 300), 3, 10)


def test_sentence_lengths():
    rng = np.random.default_rng(1535)
    tokens = _zipf_tokens(rng, 5000, 80) + 1
    tokens[rng.random(5000) < 0.06] = 0
    tokens[-1] = 0
    check(sentence_lengths, tokens, 0)


def test_bigram_model_perplexity():
    rng = np.random.default_rng(1536)
    toks = _zipf_tokens(rng, 6000, 50)
    check(bigram_model, toks[:5000], toks[5000:], 50, 0.5, rtol=1e-5)


def test_type_token_growth():
    rng = np.random.default_rng(1537)
    check(type_token_growth, _zipf_tokens(rng, 20000, 3000), [100, 300, 1000, 3000, 10000, 20000], rtol=1e-5)


def test_pmi_collocations():
    rng = np.random.default_rng(1538)
    tokens = _zipf_tokens(rng, 8000, 40)
    tokens[1::7] = (tokens[0::7][:len(tokens[1::7])] + 3) % 40
    check(pmi_collocations, tokens, 40, 5, rtol=1e-5)
