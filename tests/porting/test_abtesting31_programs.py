"""A/B testing as growth teams write it in NumPy: a two-proportion test with pooled variance, bootstrap confidence
intervals from a passed-in resample index matrix (percentile, basic and BCa with a jackknife), a permutation test
from passed-in label shuffles, sequential monitoring by cumulative sums, CUPED variance reduction and strata by
`np.unique(return_inverse=True)` and weighted `bincount`, Benjamini-Hochberg and Holm corrections by `argsort` and
`minimum.accumulate`, an epsilon-greedy bandit with `np.add.at`, and a printed report (tests/porting)."""

import math

import numpy as np
from harness import check


def _normal_sf(np, z):
    # survival function of the standard normal through erfc, one element at a time (no scipy in the notebook)
    z = np.asarray(z, dtype=float)
    return np.array([0.5 * math.erfc(float(v) / math.sqrt(2)) for v in z.ravel()]).reshape(z.shape)


def two_proportion(np, conv_a, n_a, conv_b, n_b):
    conv = np.array([conv_a, conv_b], dtype=np.int64)
    n = np.array([n_a, n_b], dtype=np.int64)
    p = conv / n
    pooled = conv.sum() / n.sum()
    se = np.sqrt(pooled * (1 - pooled) * (1 / n).sum())
    z = (p[1] - p[0]) / se
    p_value = 2 * _normal_sf(np, np.abs(z))
    se_unpooled = np.sqrt(np.sum(p * (1 - p) / n))
    ci = (p[1] - p[0]) + np.array([-1.96, 1.96]) * se_unpooled
    lift = p[1] / p[0] - 1
    return {"rates": p, "z": z, "p": p_value, "ci": ci, "lift": np.round(lift * 100, 2),
            "significant": bool(p_value < 0.05), "dtype": p.dtype.kind}


def bootstrap_bca(np, x, idx, alpha):
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    theta = np.mean(x)
    boots = np.take(x, idx).mean(axis=1)
    lo, hi = np.percentile(boots, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    basic = np.array([2 * theta - hi, 2 * theta - lo])
    # BCa: bias correction from the share below theta, acceleration from the jackknife
    prop = np.count_nonzero(boots < theta) / boots.size
    jack = (x.sum() - x) / (n - 1)
    d = jack.mean() - jack
    accel = np.sum(d**3) / (6 * np.sum(d**2) ** 1.5)
    quants = np.quantile(boots, [0.025, 0.5, 0.975], method="median_unbiased")
    return {"theta": theta, "pct": (lo, hi), "basic": basic, "prop": prop, "accel": accel, "quants": quants,
            "width": np.ptp(boots), "se": np.std(boots, ddof=1)}


def permutation_test(np, a, b, shuffles):
    a, b = np.asarray(a), np.asarray(b)
    pooled = np.concatenate((a, b))
    labels = np.r_[np.zeros(len(a), dtype=bool), np.ones(len(b), dtype=bool)]
    observed = b.mean() - a.mean()
    perm_labels = labels[np.asarray(shuffles)]
    counts = perm_labels.sum(axis=1, keepdims=True)
    sums_b = np.where(perm_labels, pooled, 0.0).sum(axis=1, keepdims=True)
    sums_a = np.sum(np.broadcast_to(pooled, perm_labels.shape), where=~perm_labels, axis=1, keepdims=True)
    diffs = (sums_b / counts - sums_a / (len(pooled) - counts)).ravel()
    p_two = (np.count_nonzero(np.abs(diffs) >= abs(observed)) + 1) / (diffs.size + 1)
    hist, edges = np.histogram(diffs, bins=8)
    return {"observed": observed, "diffs": diffs, "p": p_two, "hist": hist, "edges": edges,
            "greater": np.mean(diffs >= observed)}


def sequential_monitor(np, daily_conv, daily_n, boundary):
    conv = np.cumsum(np.asarray(daily_conv), axis=1)
    n = np.cumsum(np.asarray(daily_n), axis=1)
    rate = conv / n
    pooled = conv.sum(axis=0) / n.sum(axis=0)
    se = np.sqrt(pooled * (1 - pooled) * (1 / n[0] + 1 / n[1]))
    z = (rate[1] - rate[0]) / se
    crossed = np.abs(z) > boundary
    first = int(np.argmax(crossed)) if crossed.any() else -1
    running_max = np.maximum.accumulate(np.abs(z))
    days_ahead = np.diff(rate, axis=0).ravel()
    return {"z": z, "first": first, "running_max": running_max, "lead_days": int((days_ahead > 0).sum()),
            "final_rates": rate[:, -1], "sample": n[:, -1]}


def cuped_strata(np, y, pre, treat, segment):
    y, pre, treat = np.asarray(y), np.asarray(pre), np.asarray(treat, dtype=bool)
    cov = np.cov(y, pre)
    theta = cov[0, 1] / cov[1, 1]
    y_cv = y - theta * (pre - pre.mean())
    var_ratio = y_cv.var(ddof=1) / y.var(ddof=1)
    effect_raw = y[treat].mean() - y[~treat].mean()
    effect_cv = y_cv[treat].mean() - y_cv[~treat].mean()
    names, inv = np.unique(np.asarray(segment), return_inverse=True)
    k = len(names)
    n_t = np.bincount(inv[treat], minlength=k)
    n_c = np.bincount(inv[~treat], minlength=k)
    mean_t = np.bincount(inv[treat], weights=y[treat], minlength=k) / n_t
    mean_c = np.bincount(inv[~treat], weights=y[~treat], minlength=k) / n_c
    w = (n_t + n_c) / len(y)
    strat = np.average(mean_t - mean_c, weights=w)
    return {"theta": theta, "var_ratio": var_ratio, "raw": effect_raw, "cv": effect_cv, "names": names,
            "n_t": n_t, "strat": strat, "per_segment": mean_t - mean_c}


def multiple_testing(np, pvals, q):
    p = np.asarray(pvals, dtype=float)
    m = p.size
    order = np.argsort(p, kind="stable")
    ranked = p[order] * m / np.arange(1, m + 1)
    adj_sorted = np.minimum.accumulate(ranked[::-1])[::-1]
    bh = np.empty_like(p)
    bh[order] = np.clip(adj_sorted, 0, 1)
    holm_sorted = np.maximum.accumulate(p[order] * (m - np.arange(m)))
    holm = np.empty(m)
    holm[order] = np.minimum(holm_sorted, 1.0)
    below = p[order] <= q * np.arange(1, m + 1) / m
    n_reject = int(np.nonzero(below)[0].max() + 1) if below.any() else 0
    return {"bh": bh, "holm": holm, "reject": bh <= q, "n_reject": n_reject,
            "bonf": np.minimum(p * m, 1), "order": order}


def epsilon_greedy(np, true_rates, explore_u, arm_u, reward_u, eps):
    true_rates = np.asarray(true_rates)
    k = len(true_rates)
    counts = np.zeros(k, dtype=np.int64)
    wins = np.zeros(k)
    chosen = np.empty(len(explore_u), dtype=np.int64)
    for t in range(len(explore_u)):
        est = np.divide(wins, counts, out=np.full(k, np.inf), where=counts > 0)
        arm = int(arm_u[t] * k) if explore_u[t] < eps else int(np.argmax(est))
        chosen[t] = arm
        counts[arm] += 1
        wins[arm] += reward_u[t] < true_rates[arm]
    pulls = np.zeros(k, dtype=np.int64)
    np.add.at(pulls, chosen, 1)
    regret = np.cumsum(true_rates.max() - true_rates[chosen])
    return {"counts": counts, "same": bool(np.array_equal(pulls, counts)), "wins": wins, "regret": regret,
            "best": int(np.argmax(wins / np.maximum(counts, 1)))}


def printed_report(np, rates, lifts, pvals):
    rates = np.asarray(rates, dtype=np.float64)
    lifts = np.asarray(lifts, dtype=np.float32)
    lines = []
    with np.printoptions(precision=3, suppress=True):
        lines.append(f"rates: {rates}")
        lines.append(f"lifts: {lifts * 100}")
    lines.append(np.array2string(np.asarray(pvals), precision=4, separator=", "))
    best = int(np.argmax(lifts))
    lines.append(f"best variant {best}: lift {lifts[best]:.2%}, p={pvals[best]:.3g}")
    lines.append(str(np.round(rates, 2)))  # repr differs by design: kdsl's names its dtype
    lines.append(str(np.float64(rates.sum())))
    return {"text": "\n".join(lines)}


def test_two_proportion():
    check(two_proportion, 412, 10000, 468, 10050)


def test_two_proportion_equal():
    r = check(two_proportion, 50, 1000, 50, 1000)
    assert not r["significant"]


def test_bootstrap_bca():
    rng = np.random.default_rng(3101)
    x = rng.lognormal(1.0, 0.6, 60)
    check(bootstrap_bca, x, rng.integers(0, 60, (400, 60)), 0.1)


def test_permutation_test():
    rng = np.random.default_rng(3102)
    a, b = rng.normal(10, 2, 30), rng.normal(11, 2, 25)
    shuffles = np.argsort(rng.random((300, 55)), axis=1)
    check(permutation_test, a, b, shuffles)


def test_sequential_monitor():
    rng = np.random.default_rng(3103)
    n = rng.integers(800, 1200, (2, 21))
    conv = rng.binomial(n, np.array([[0.05], [0.058]]))
    check(sequential_monitor, conv, n, 2.5)


def test_cuped_strata():
    rng = np.random.default_rng(3104)
    pre = rng.gamma(2.0, 5.0, 400)
    treat = rng.uniform(size=400) < 0.5
    segment = rng.choice(np.array([3, 11, 7]), 400)
    y = 0.8 * pre + 1.5 * treat + rng.normal(0, 3, 400) + segment
    check(cuped_strata, y, pre, treat, segment)


def test_multiple_testing():
    rng = np.random.default_rng(3105)
    p = np.concatenate([rng.uniform(0, 0.01, 4), rng.uniform(0, 1, 16)])
    p[7] = p[2]  # a tie: stable order decides
    check(multiple_testing, p, 0.1)


def test_epsilon_greedy():
    rng = np.random.default_rng(3106)
    T = 150
    check(epsilon_greedy, [0.04, 0.06, 0.05], rng.random(T), rng.random(T), rng.random(T), 0.15)


def test_printed_report():
    check(printed_report, [0.0412, 0.04657, 0.05], [0.0, 0.1304, 0.2136], np.array([1.0, 0.0321, 0.00087]))
