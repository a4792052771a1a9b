"""Text processing as NumPy code writes it, with tokens as integer ids (the vocabulary is a Python dict): a
bag-of-words matrix by add.at, tf-idf with l2 rows, cosine similarity and the nearest document, bigram counts by
np.unique on pairs (axis=0) and on linear keys, a co-occurrence window, document lengths and Zipf's law by a
log-log polyfit, character histograms from frombuffer of bytes, and a top-k keyword table (tests/porting)."""

import numpy as np
from harness import check

DOCS = ["the cat sat on the mat", "the dog sat on the log", "cats and dogs are pets",
        "the mat was on the floor", "a dog and a cat", "pets sat on the floor and the mat"]


def _encode(docs):
    vocab = {}
    ids = [[vocab.setdefault(w, len(vocab)) for w in d.split()] for d in docs]
    return vocab, ids


def bag_of_words(np, docs):
    vocab, ids = _encode(docs)
    doc_idx = np.concatenate([np.full(len(t), i) for i, t in enumerate(ids)])
    tok = np.concatenate([np.array(t) for t in ids])
    X = np.zeros((len(docs), len(vocab)), dtype=np.int64)
    np.add.at(X, (doc_idx, tok), 1)
    df = (X > 0).sum(axis=0)
    common = np.argsort(-X.sum(axis=0), kind="stable")[:3]
    words = list(vocab)
    return {"X": X, "df": df, "common": [words[i] for i in common], "nnz": np.count_nonzero(X),
            "lengths": X.sum(1)}


def tfidf_cosine(np, docs):
    vocab, ids = _encode(docs)
    X = np.zeros((len(docs), len(vocab)))
    for i, t in enumerate(ids):
        np.add.at(X[i], t, 1)
    tf = X / X.sum(axis=1, keepdims=True)
    idf = np.log((1 + len(docs)) / (1 + (X > 0).sum(axis=0))) + 1
    T = tf * idf
    T /= np.linalg.norm(T, axis=1, keepdims=True)
    S = T @ T.T
    np.fill_diagonal(S, -1)
    best = S.argmax(axis=1)
    q = np.zeros(len(vocab))
    q[[vocab["cat"], vocab["mat"]]] = 1
    scores = T @ (q * idf) / np.linalg.norm(q * idf)
    return {"T": T, "S": S, "best": best, "ranking": np.argsort(-scores, kind="stable"), "top": scores.max()}


def bigram_counts(np, docs):
    vocab, ids = _encode(docs)
    pairs = np.concatenate([np.column_stack([t[:-1], t[1:]]) for t in map(np.array, ids)])
    uniq, counts = np.unique(pairs, axis=0, return_counts=True)
    keys = pairs[:, 0] * len(vocab) + pairs[:, 1]
    ukeys, inv, kcounts = np.unique(keys, return_inverse=True, return_counts=True)
    words = list(vocab)
    top = np.argsort(-counts, kind="stable")[:4]
    return {"uniq": uniq, "counts": counts, "same": bool((kcounts == counts).all()), "inv": inv,
            "top": [f"{words[a]} {words[b]}: {c}"
                    for (a, b), c in zip(uniq[top].tolist(), counts[top].tolist(), strict=True)]}


def cooccurrence_window(np, docs, window=2):
    vocab, ids = _encode(docs)
    V = len(vocab)
    C = np.zeros((V, V))
    for t in ids:
        t = np.asarray(t)
        for off in range(1, window + 1):
            a, b = t[:-off], t[off:]
            np.add.at(C, (a, b), 1.0 / off)
            np.add.at(C, (b, a), 1.0 / off)
    total = C.sum()
    pw = C.sum(axis=1) / total
    with np.errstate(divide="ignore"):
        pmi = np.log(C / total / np.outer(pw, pw))
    ppmi = np.maximum(pmi, 0)
    return {"C": C, "sym": bool((C == C.T).all()), "ppmi": ppmi,
            "strongest": np.unravel_index(ppmi.argmax(), ppmi.shape)}


def zipf_fit(np, ids_host):
    ids = np.asarray(ids_host)
    counts = np.bincount(ids)
    counts = counts[counts > 0]
    freq = np.sort(counts)[::-1]
    rank = np.arange(1, freq.size + 1)
    slope, c = np.polyfit(np.log(rank), np.log(freq), 1)
    hapax = np.sum(counts == 1)
    coverage = np.cumsum(freq) / freq.sum()
    k80 = np.searchsorted(coverage, 0.8) + 1
    return {"slope": slope, "c": c, "hapax": hapax, "k80": k80, "ttr": counts.size / ids.size,
            "line": f"s = {-slope:.2f}, {hapax} hapax legomena"}


def char_histogram(np, text):
    b = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    letters = b[(b >= ord("a")) & (b <= ord("z"))] - ord("a")
    hist = np.bincount(letters, minlength=26)
    p = hist / hist.sum()
    entropy = -np.sum(p[p > 0] * np.log2(p[p > 0]))
    upper = np.where((b >= 97) & (b <= 122), b - 32, b).astype(np.uint8)
    shifted = (letters + 3) % 26 + ord("a")
    top = np.argsort(-hist, kind="stable")[:5]
    return {"hist": hist, "entropy": entropy, "upper": upper.tobytes().decode(),
            "caesar": bytes(shifted.astype(np.uint8).tolist()).decode(),
            "top": "".join(chr(ord("a") + i) for i in top.tolist()), "spaces": int(np.sum(b == 32))}


def keyword_table(np, docs, k=2):
    vocab, ids = _encode(docs)
    words = np.array(list(range(len(vocab))))
    X = np.zeros((len(docs), len(vocab)))
    rows = np.repeat(np.arange(len(docs)), [len(t) for t in ids])
    np.add.at(X, (rows, np.concatenate(ids)), 1)
    idf = np.log(len(docs) / (X > 0).sum(0))
    W = X * idf
    topk = np.argsort(-W, axis=1, kind="stable")[:, :k]
    topw = np.take_along_axis(W, topk, axis=1)
    names = list(vocab)
    table = [" | ".join(f"{names[j]}={w:.2f}" for j, w in zip(r, s, strict=True))
             for r, s in zip(topk.tolist(), topw.tolist(), strict=True)]
    return {"topk": words[topk], "topw": topw, "table": table, "stop": [names[i] for i in np.flatnonzero(idf < 0.5)]}


def test_bag_of_words_matrix():
    check(bag_of_words, DOCS)


def test_tfidf_cosine_similarity():
    check(tfidf_cosine, DOCS)


def test_bigram_counts_unique_rows():
    check(bigram_counts, DOCS)


def test_cooccurrence_ppmi():
    check(cooccurrence_window, DOCS)


def test_zipf_log_log_fit():
    rng = np.random.default_rng(751)
    check(zipf_fit, rng.zipf(1.6, 2000) % 300)


def test_character_histogram_bytes():
    check(char_histogram, "the quick brown fox jumps over the lazy dog and keeps running far away")


def test_keyword_table_topk():
    check(keyword_table, DOCS)
