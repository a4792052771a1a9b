"""Bag-of-words text processing in plain NumPy on integer token ids (no strings): document-term counts by
`np.add.at` on `(doc, token)` pairs, TF-IDF with `log1p` and row norms by `linalg.norm(keepdims=)`, cosine
similarity with a masked diagonal, bigram ids by `ravel_multi_index` and `unique(return_counts=)`, co-occurrence in a
sliding window, PMI with `errstate`, BM25 scoring, CSR arrays built by `bincount`/`cumsum`/`argsort`, multinomial naive
Bayes by log-sum-exp, vocabulary pruning by document frequency and top-k terms per document by `argpartition`
(tests/porting)."""

import numpy as np
from harness import check


def doc_term(np, doc, tok, n_docs, vocab):
    doc, tok = np.asarray(doc), np.asarray(tok)
    D = np.zeros((n_docs, vocab), dtype=np.int64)
    np.add.at(D, (doc, tok), 1)
    lengths = D.sum(axis=1)
    df = np.count_nonzero(D, axis=0)
    present = (D > 0).astype(np.int8)
    return {"D": D, "len": lengths, "df": df, "both": present.T @ present, "empty": np.flatnonzero(lengths == 0)}


def tfidf(np, D):
    D = np.asarray(D)
    n = D.shape[0]
    tf = D / np.maximum(D.sum(axis=1, keepdims=True), 1)
    df = (D > 0).sum(axis=0)
    idf = np.log((1 + n) / (1 + df)) + 1  # smoothed, as scikit-learn's default
    W = np.log1p(D) * idf
    norms = np.linalg.norm(W, axis=1, keepdims=True)
    Wn = np.divide(W, norms, out=np.zeros_like(W), where=norms > 0)
    return {"tf": tf, "idf": idf, "W": Wn, "top_term": np.argmax(Wn, axis=1), "unit": np.linalg.norm(Wn, axis=1)}


def cosine(np, W):
    W = np.asarray(W, dtype=float)
    n = np.sqrt(np.einsum("ij,ij->i", W, W))
    S = (W @ W.T) / np.outer(n, n)
    np.fill_diagonal(S, -np.inf)
    # (a scaled duplicate ties every cosine with its original: the lower index wins, whatever the rounding)
    nearest = (S - 1e-6 * np.arange(len(S))).argmax(axis=1)
    best = S[np.arange(len(S)), nearest]
    iu = np.triu_indices(len(S), k=1)
    pairs = np.column_stack(iu)[np.argsort(-S[iu], kind="stable")[:3]]
    return {"nearest": nearest, "best": best, "pairs": pairs, "dup": np.argwhere(np.isclose(S, 1.0))}


def bigrams(np, tokens, vocab):
    t = np.asarray(tokens)
    ids = np.ravel_multi_index((t[:-1], t[1:]), (vocab, vocab))
    u, c = np.unique(ids, return_counts=True)
    first, second = np.unravel_index(u, (vocab, vocab))
    top = np.argsort(-c, kind="stable")[:4]
    follow = np.zeros((vocab, vocab))
    follow[first, second] = c
    P = follow / np.where(follow.sum(axis=1, keepdims=True) == 0, 1, follow.sum(axis=1, keepdims=True))
    return {"u": u, "c": c, "top": np.stack([first[top], second[top], c[top]], axis=1), "P": P,
            "rows": np.isclose(P.sum(axis=1), 1.0)}


def cooccurrence_pmi(np, tokens, vocab, window):
    t = np.asarray(tokens)
    win = np.lib.stride_tricks.sliding_window_view(t, window)
    centre = np.repeat(win[:, 0], window - 1)
    context = win[:, 1:].ravel()
    C = np.zeros((vocab, vocab))
    np.add.at(C, (centre, context), 1.0)
    C = C + C.T
    total = C.sum()
    p_w = C.sum(axis=1) / total
    with np.errstate(divide="ignore", invalid="ignore"):
        pmi = np.log(C / total / np.outer(p_w, p_w))
    ppmi = np.where(np.isfinite(pmi), np.maximum(pmi, 0), 0.0)
    return {"C": C, "ppmi": ppmi, "neg_inf": np.count_nonzero(np.isneginf(pmi)), "nan": int(np.isnan(pmi).sum())}


def bm25(np, D, query, k1, b):
    D = np.asarray(D, dtype=float)
    q = np.asarray(query)
    N = D.shape[0]
    dl = D.sum(axis=1)
    avgdl = dl.mean()
    df = np.count_nonzero(D[:, q], axis=0)
    idf = np.log((N - df + 0.5) / (df + 0.5) + 1)
    f = D[:, q]
    score = (idf * f * (k1 + 1) / (f + k1 * (1 - b + b * dl[:, None] / avgdl))).sum(axis=1)
    ranking = np.argsort(-score, kind="stable")
    return {"idf": idf, "score": score, "ranking": ranking, "hits": np.count_nonzero(score > 0)}


def csr(np, doc, tok, n_docs):
    doc, tok = np.asarray(doc), np.asarray(tok)
    order = np.lexsort((tok, doc))
    indptr = np.concatenate([[0], np.cumsum(np.bincount(doc, minlength=n_docs))])
    indices = tok[order]
    row_of = np.repeat(np.arange(n_docs), np.diff(indptr))
    same = np.r_[False, (indices[1:] == indices[:-1]) & (row_of[1:] == row_of[:-1])]
    uniq_per_row = np.add.reduceat((~same).astype(int), indptr[:-1][np.diff(indptr) > 0])
    return {"indptr": indptr, "indices": indices, "row_of": row_of, "uniq": uniq_per_row,
            "nnz_rows": np.flatnonzero(np.diff(indptr))}


def naive_bayes(np, D, labels, n_classes, test):
    D, y, T = np.asarray(D, dtype=float), np.asarray(labels), np.asarray(test, dtype=float)
    Y = np.eye(n_classes)[y]  # one-hot (docs, classes)
    counts = Y.T @ D + 1.0  # Laplace smoothing
    log_theta = np.log(counts) - np.log(counts.sum(axis=1, keepdims=True))
    log_prior = np.log(Y.mean(axis=0))
    jll = T @ log_theta.T + log_prior
    m = jll.max(axis=1, keepdims=True)
    log_post = jll - (m + np.log(np.exp(jll - m).sum(axis=1, keepdims=True)))
    return {"log_theta": log_theta, "post": np.exp(log_post), "pred": jll.argmax(axis=1),
            "train_acc": np.mean((D @ log_theta.T + log_prior).argmax(axis=1) == y)}


def prune_topk(np, D, min_df, max_df_frac, k):
    D = np.asarray(D)
    df = (D > 0).sum(axis=0)
    keep = (df >= min_df) & (df <= max_df_frac * D.shape[0])
    kept_ids = np.nonzero(keep)[0]
    Dk = D[:, keep]
    kk = min(k, Dk.shape[1])
    part = np.argpartition(-Dk, kk - 1, axis=1)[:, :kk]
    vals = np.take_along_axis(Dk, part, axis=1)
    order = np.argsort(-vals, axis=1, kind="stable")
    top_vals = np.take_along_axis(vals, order, axis=1)
    return {"kept": kept_ids, "shape": Dk.shape, "top_vals": top_vals, "coverage": Dk.sum() / D.sum()}


def _corpus(seed, n_docs, n_tok, vocab):
    rng = np.random.default_rng(seed)
    doc = np.sort(rng.integers(0, n_docs, n_tok))
    tok = np.minimum(rng.zipf(1.6, n_tok) - 1, vocab - 1)
    return doc, tok


def _counts(seed, n_docs=8, n_tok=200, vocab=25):
    doc, tok = _corpus(seed, n_docs, n_tok, vocab)
    D = np.zeros((n_docs, vocab), dtype=np.int64)
    np.add.at(D, (doc, tok), 1)
    return D


def test_doc_term():
    doc, tok = _corpus(2421, 7, 150, 20)
    doc[doc == 3] = 4  # an empty document
    check(doc_term, doc, tok, 7, 20)


def test_tfidf():
    D = _counts(2422)
    D[5] = 0
    check(tfidf, D)


def test_cosine():
    D = _counts(2423).astype(float)
    D[6] = D[2] * 3  # a scaled duplicate
    check(cosine, D, atol=1e-5)


def test_bigrams():
    rng = np.random.default_rng(2424)
    check(bigrams, np.minimum(rng.zipf(1.5, 120) - 1, 11), 12)


def test_cooccurrence_pmi():
    rng = np.random.default_rng(2425)
    check(cooccurrence_pmi, np.minimum(rng.zipf(1.4, 90) - 1, 9), 10, 3, rtol=1e-3, atol=1e-5)


def test_bm25():
    check(bm25, _counts(2426), np.array([0, 3, 7, 24]), 1.5, 0.75, rtol=1e-3)


def test_csr():
    doc, tok = _corpus(2427, 9, 60, 15)
    doc[doc == 0] = 1
    check(csr, doc, tok, 9)


def test_naive_bayes():
    D = _counts(2428, n_docs=12)
    labels = np.array([0, 1, 2] * 4)
    check(naive_bayes, D, labels, 3, _counts(2429, n_docs=4), rtol=1e-3, atol=1e-6)


def test_prune_topk():
    check(prune_topk, _counts(2430, n_docs=10), 2, 0.9, 3)
