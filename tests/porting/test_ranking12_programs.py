"""Search and recommendation ranking metrics as information-retrieval course notebooks write them: precision and
recall at k from an argsort of scores, DCG/NDCG with graded relevance (log2 discounts, ideal order by `-np.sort`),
MAP and MRR over queries held as rows (cumsum of hits, `np.argmax` of the first hit), ROC AUC by ranks (ties
averaged with `np.unique(return_inverse=True)`), Spearman and Kendall tau by hand, pairwise preference accuracy
with `np.triu_indices`, and a batch evaluation printed as a table with `np.set_printoptions` (tests/porting)."""

import numpy as np
from harness import check


def precision_recall_at_k(np, scores, relevant, ks):
    order = np.argsort(-scores, axis=1, kind="stable")
    hits = np.take_along_axis(relevant, order, axis=1)
    n_rel = relevant.sum(axis=1)
    prec, rec = [], []
    for k in ks:
        top = hits[:, :k].sum(axis=1)
        prec.append(top / k)
        rec.append(np.where(n_rel > 0, top / np.maximum(n_rel, 1), 0.0))
    prec, rec = np.stack(prec, axis=1), np.stack(rec, axis=1)
    f1 = np.divide(2 * prec * rec, prec + rec, out=np.zeros_like(prec), where=(prec + rec) > 0)
    return {"order": order[:, :5], "hits": hits, "prec": prec, "rec": rec, "f1": f1,
            "mean_p": prec.mean(axis=0), "best_query": int(np.argmax(f1[:, -1]))}


def ndcg(np, scores, gains, k):
    order = np.argsort(scores, axis=1)[:, ::-1]
    ranked = np.take_along_axis(gains, order, axis=1)[:, :k]
    discounts = 1.0 / np.log2(np.arange(2, k + 2))
    dcg = ((2.0 ** ranked - 1) * discounts).sum(axis=1)
    ideal = -np.sort(-gains, axis=1)[:, :k]
    idcg = ((2.0 ** ideal - 1) * discounts).sum(axis=1)
    nd = np.zeros_like(dcg)
    ok = idcg > 0
    nd[ok] = dcg[ok] / idcg[ok]
    linear = (ranked * discounts).sum(axis=1) / np.maximum((ideal * discounts).sum(axis=1), 1e-12)
    return {"dcg": dcg, "idcg": idcg, "ndcg": nd, "mean": nd.mean(), "linear": linear,
            "worst": np.argsort(nd)[:3], "perfect": int((nd > 0.999).sum())}


def map_and_mrr(np, scores, relevant):
    order = np.argsort(-scores, axis=1, kind="stable")
    hits = np.take_along_axis(relevant, order, axis=1).astype(float)
    ranks = np.arange(1, hits.shape[1] + 1)
    prec_at = np.cumsum(hits, axis=1) / ranks
    n_rel = hits.sum(axis=1)
    ap = (prec_at * hits).sum(axis=1) / np.where(n_rel == 0, 1, n_rel)
    first = np.argmax(hits > 0, axis=1)
    rr = np.where(hits.any(axis=1), 1.0 / (first + 1), 0.0)
    r_prec = np.array([hits[i, :int(n)].mean() if n > 0 else 0.0 for i, n in enumerate(n_rel)])
    return {"ap": ap, "map": ap.mean(), "rr": rr, "mrr": rr.mean(), "first": first, "r_prec": r_prec}


def auc_by_ranks(np, y, score):
    uniq, inv, counts = np.unique(score, return_inverse=True, return_counts=True)
    ends = np.cumsum(counts)
    avg_rank = (ends - (counts - 1) / 2.0)[inv]
    n_pos, n_neg = y.sum(), (1 - y).sum()
    auc = (avg_rank[y == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)
    diff = score[y == 1][:, None] - score[y == 0][None, :]
    pairwise = ((diff > 0).sum() + 0.5 * (diff == 0).sum()) / diff.size
    order = np.argsort(-score, kind="stable")
    tpr = np.concatenate([[0], np.cumsum(y[order]) / n_pos])
    fpr = np.concatenate([[0], np.cumsum(1 - y[order]) / n_neg])
    trapz = np.trapezoid(tpr, fpr)
    return {"ranks": avg_rank, "auc": auc, "pairwise": pairwise, "trapz": trapz, "n_ties": int((counts > 1).sum()),
            "uniq": uniq.size}


def rank_correlations(np, a, b):
    ra = np.empty(len(a))
    ra[np.argsort(a)] = np.arange(1, len(a) + 1)
    rb = np.empty_like(ra)
    rb[np.argsort(b)] = np.arange(1, len(b) + 1)
    n = len(a)
    rho = 1 - 6 * np.sum((ra - rb) ** 2) / (n * (n * n - 1))
    rho2 = np.corrcoef(ra, rb)[0, 1]
    i, j = np.triu_indices(n, k=1)
    s = np.sign(a[i] - a[j]) * np.sign(b[i] - b[j])
    tau = s.sum() / len(i)
    discordant = np.flatnonzero(s < 0)
    return {"ra": ra, "rb": rb, "rho": rho, "rho2": rho2, "tau": tau, "n_disc": discordant.size,
            "first_disc": (i[discordant[:3]], j[discordant[:3]])}


def pairwise_preferences(np, scores, labels, qid):
    acc, counts = [], []
    for q in np.unique(qid):
        m = qid == q
        s, lab = scores[m], labels[m]
        i, j = np.triu_indices(len(s), 1)
        keep = lab[i] != lab[j]
        i, j = i[keep], j[keep]
        want = np.sign(lab[i] - lab[j])
        got = np.sign(s[i] - s[j])
        acc.append(float(np.mean(want == got)) if len(i) else np.nan)
        counts.append(len(i))
    acc = np.array(acc)
    return {"acc": acc, "counts": np.array(counts), "mean": np.nanmean(acc),
            "weighted": np.nansum(acc * np.array(counts)) / np.sum(counts)}


def batch_report(np, scores, gains):
    k = 5
    order = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    top_gain = gains[np.arange(len(gains))[:, None], order]
    disc = np.log2(np.arange(k) + 2.0)
    dcg = np.sum(top_gain / disc, axis=1)
    ideal = np.sort(gains, axis=1)[:, ::-1][:, :k]
    ndcg = dcg / np.sum(ideal / disc, axis=1)
    table = np.column_stack([np.arange(len(ndcg)), dcg, ndcg])
    old = np.get_printoptions()
    np.set_printoptions(precision=3, suppress=True)
    try:
        text = str(np.round(table, 3))
    finally:
        np.set_printoptions(**old)
    lines = [f"q{int(r[0])}: dcg={r[1]:.3f} ndcg={r[2]:.3f}" for r in table.tolist()]
    return {"table": table, "text": text, "lines": lines, "top_gain": top_gain}


def test_precision_recall_f1_at_k():
    rng = np.random.default_rng(1201)
    scores = rng.random((8, 20))
    relevant = (rng.random((8, 20)) < 0.25).astype(np.int64)
    relevant[3] = 0
    check(precision_recall_at_k, scores, relevant, [1, 3, 5, 10])


def test_dcg_ndcg_graded():
    rng = np.random.default_rng(1202)
    gains = rng.integers(0, 4, (6, 15)).astype(np.float64)
    gains[2] = 0
    check(ndcg, rng.random((6, 15)), gains, 10)


def test_map_mrr_rprecision():
    rng = np.random.default_rng(1203)
    relevant = (rng.random((7, 12)) < 0.3).astype(np.int64)
    relevant[0] = 0
    check(map_and_mrr, rng.random((7, 12)), relevant)


def test_auc_tied_ranks():
    rng = np.random.default_rng(1204)
    y = rng.integers(0, 2, 40)
    score = np.round(rng.random(40) + 0.3 * y, 1)
    check(auc_by_ranks, y, score)


def test_spearman_kendall_by_hand():
    rng = np.random.default_rng(1205)
    a = rng.normal(size=25)
    check(rank_correlations, a, a + rng.normal(scale=0.7, size=25))


def test_pairwise_preference_accuracy():
    rng = np.random.default_rng(1206)
    labels = rng.integers(0, 3, 30)
    check(pairwise_preferences, labels + rng.normal(scale=1.0, size=30), labels, np.repeat([4, 1, 7], 10))


def test_batch_report_printed():
    rng = np.random.default_rng(1207)
    check(batch_report, rng.random((5, 12)), rng.integers(0, 4, (5, 12)).astype(np.float64))
