"""Psychometrics and grading as teachers' and test-analysts' notebooks write them: item-response scoring
against a key (`==` broadcast, `sum(axis=1)`), item difficulty and point-biserial discrimination, Cronbach's
alpha and alpha-if-item-deleted, curve grading by `np.percentile` cut points and `np.searchsorted` into letter
grades, rank ties by `argsort`-of-`argsort` and average ranks through `np.unique(return_inverse=True)`,
z/T-scores with `np.nan*` over absent students, a one-parameter (Rasch) model fitted by vectorised Newton steps,
and a gradebook with weighted categories, dropped lowest scores and a printed report (tests/porting)."""

import numpy as np
from harness import check


def score_items(np, responses, key):
    correct = responses == key
    raw = correct.sum(axis=1)
    difficulty = correct.mean(axis=0)
    total = raw.astype(float)
    disc = np.empty(key.size)
    for j in range(key.size):
        rest = total - correct[:, j]
        disc[j] = np.corrcoef(correct[:, j], rest)[0, 1]
    options = np.stack([(responses == o).sum(axis=0) for o in range(4)])
    distractor = np.where(np.arange(4)[:, None] == key, -1, options).argmax(axis=0)
    flagged = np.flatnonzero((difficulty < 0.2) | (difficulty > 0.95) | (disc < 0.1))
    return {"raw": raw, "difficulty": difficulty, "disc": disc, "options": options,
            "distractor": distractor, "flagged": flagged}


def cronbach_alpha(np, X):
    k = X.shape[1]
    item_var = X.var(axis=0, ddof=1)
    total_var = X.sum(axis=1).var(ddof=1)
    alpha = k / (k - 1) * (1 - item_var.sum() / total_var)
    deleted = np.empty(k)
    for j in range(k):
        keep = np.arange(k) != j
        Y = X[:, keep]
        deleted[j] = (k - 1) / (k - 2) * (1 - Y.var(axis=0, ddof=1).sum() / Y.sum(axis=1).var(ddof=1))
    C = np.cov(X, rowvar=False)
    alpha_cov = k / (k - 1) * (1 - np.trace(C) / C.sum())
    R = np.corrcoef(X, rowvar=False)
    mean_r = R[np.triu_indices(k, 1)].mean()
    standardized = k * mean_r / (1 + (k - 1) * mean_r)
    return {"alpha": alpha, "deleted": deleted, "alpha_cov": alpha_cov, "standardized": standardized,
            "weakest": int(np.argmax(deleted))}


def curve_grades(np, scores):
    cuts = np.percentile(scores, [10, 30, 70, 90])
    letters = "FDCBA"  # kdsl holds no string arrays (docs/numpy-api.md): letters by Python indexing
    idx = np.searchsorted(cuts, scores, side="right")
    grade = [letters[i] for i in idx]
    dist = np.bincount(idx, minlength=5)
    bumped = np.clip(scores + (85 - np.median(scores)), 0, 100)
    sqrt_curve = np.sqrt(scores) * 10
    gpa = np.array([0.0, 1.0, 2.0, 3.0, 4.0])[idx].mean()
    return {"cuts": cuts, "grades": "".join(grade), "dist": dist, "bumped": bumped, "sqrt": sqrt_curve,
            "gpa": gpa, "top": np.argsort(scores)[-3:][::-1]}


def rank_ties(np, scores):
    order = np.argsort(-scores, kind="stable")
    ordinal = np.empty_like(order)
    ordinal[order] = np.arange(1, len(scores) + 1)
    uniq, inv, cnt = np.unique(-scores, return_inverse=True, return_counts=True)
    first = np.cumsum(cnt) - cnt + 1
    competition = first[inv]
    dense = inv + 1
    average = (first + (cnt - 1) / 2)[inv]
    pct_rank = (np.searchsorted(np.sort(scores), scores, side="right")) / len(scores) * 100
    return {"ordinal": ordinal, "competition": competition, "dense": dense, "average": average,
            "pct": pct_rank, "ties": int((cnt > 1).sum())}


def standard_scores(np, raw):
    mu = np.nanmean(raw, axis=0)
    sd = np.nanstd(raw, axis=0, ddof=1)
    z = (raw - mu) / sd
    T = 50 + 10 * z
    composite = np.nanmean(z, axis=1)
    absent = np.isnan(raw).sum(axis=1)
    stanine = np.clip(np.round(2 * z + 5), 1, 9)
    best = np.nanargmax(composite)
    return {"z": z, "T": np.round(T, 1), "composite": composite, "absent": absent, "stanine": stanine,
            "best": int(best), "median": np.nanmedian(raw, axis=0)}


def rasch_newton(np, X, iters):
    n, k = X.shape
    r = X.sum(axis=1)
    keep = (r > 0) & (r < k)
    X = X[keep]
    theta = np.log(X.mean(axis=1) / (1 - X.mean(axis=1)))
    b = -np.log(X.mean(axis=0) / (1 - X.mean(axis=0)))
    for _ in range(iters):
        P = 1 / (1 + np.exp(-(theta[:, None] - b[None, :])))
        W = P * (1 - P)
        theta = theta + (X - P).sum(axis=1) / W.sum(axis=1)
        P = 1 / (1 + np.exp(-(theta[:, None] - b[None, :])))
        W = P * (1 - P)
        b = b - (X - P).sum(axis=0) / W.sum(axis=0)
        b -= b.mean()
    info = W.sum(axis=1)
    return {"b": b, "theta": theta, "se": 1 / np.sqrt(info), "kept": int(keep.sum()),
            "infit": ((X - P) ** 2).sum(axis=0) / W.sum(axis=0)}


def gradebook(np, hw, quizzes, exams, weights):
    hw_sorted = np.sort(hw, axis=1)
    hw_score = hw_sorted[:, 2:].mean(axis=1)  # drop two lowest
    quiz = np.nan_to_num(quizzes, nan=0.0)
    quiz_score = np.partition(quiz, 1, axis=1)[:, 1:].mean(axis=1)
    exam_score = exams.max(axis=1) * 0.6 + exams.min(axis=1) * 0.4
    parts = np.column_stack([hw_score, quiz_score, exam_score])
    final = parts @ weights
    final[exams[:, -1] < 40] = np.minimum(final[exams[:, -1] < 40], 59)
    np.set_printoptions(precision=1, suppress=True)
    try:
        report = np.array2string(parts[:4], separator=" | ")
    finally:
        np.set_printoptions(precision=8, suppress=False)
    return {"final": final, "report": report, "passing": int((final >= 60).sum()),
            "hist": np.histogram(final, bins=[0, 60, 70, 80, 90, 101])[0]}


def test_item_scoring():
    rng = np.random.default_rng(14341)
    key = rng.integers(0, 4, 15)
    ability = rng.normal(0, 1, 80)
    right = rng.random((80, 15)) < 1 / (1 + np.exp(-(ability[:, None] - rng.normal(0, 1, 15))))
    resp = np.where(right, key, rng.integers(0, 4, (80, 15)))
    check(score_items, resp, key, rtol=1e-3, atol=1e-4)


def test_cronbach_alpha():
    rng = np.random.default_rng(14342)
    trait = rng.normal(0, 1, (120, 1))
    X = np.clip(np.round(3 + trait + rng.normal(0, 0.9, (120, 8))), 1, 5)
    X[:, 5] = rng.integers(1, 6, 120)
    check(cronbach_alpha, X, rtol=1e-3, atol=1e-4)


def test_curve_grading():
    check(curve_grades, np.round(np.random.default_rng(14343).normal(68, 12, 60).clip(0, 100)), rtol=1e-3)


def test_rank_ties():
    check(rank_ties, np.random.default_rng(14344).integers(50, 60, 30).astype(float), rtol=1e-4)


def test_standard_scores_with_absences():
    rng = np.random.default_rng(14345)
    raw = rng.normal([70, 55, 80], [10, 15, 6], (40, 3))
    raw[rng.random((40, 3)) < 0.08] = np.nan
    check(standard_scores, raw, rtol=1e-3, atol=1e-3)


def test_rasch_newton():
    rng = np.random.default_rng(14346)
    theta, b = rng.normal(0, 1, 150), np.linspace(-1.5, 1.5, 10)
    X = (rng.random((150, 10)) < 1 / (1 + np.exp(-(theta[:, None] - b)))).astype(float)
    check(rasch_newton, X, 15, rtol=2e-3, atol=1e-3)


def test_gradebook_report():
    rng = np.random.default_rng(14347)
    quizzes = rng.uniform(40, 100, (25, 5))
    quizzes[rng.random((25, 5)) < 0.1] = np.nan
    check(gradebook, rng.uniform(50, 100, (25, 8)), quizzes, rng.uniform(30, 100, (25, 2)),
          np.array([0.3, 0.2, 0.5]), rtol=1e-3, atol=1e-3)
