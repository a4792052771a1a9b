"""Probability programs on host draws: Monte Carlo integrals with standard errors (hit-or-miss and mean value),
Buffon's needle, the birthday problem by sorting and np.diff, gambler's ruin as an absorbing Markov chain (the
fundamental matrix by np.linalg.inv) checked against simulation, a word-level Markov chain on integer tokens with
transition counts from np.add.at, first-passage times of random walks with argmax on a boolean matrix, and
the central limit theorem by reshaping draws (tests/porting)."""

import numpy as np
from harness import check


def monte_carlo_integrals(np, u_host):
    u = np.asarray(u_host)
    x, y = u[:, 0], u[:, 1]
    f = np.exp(-(x**2))
    est = f.mean()
    se = f.std(ddof=1) / np.sqrt(len(f))
    hits = y < np.exp(-(x**2))
    hit_est = hits.mean()
    anti = 0.5 * (np.exp(-(x**2)) + np.exp(-((1 - x) ** 2)))
    batches = f.reshape(20, -1).mean(axis=1)
    ci = est + np.array([-1.96, 1.96]) * se
    return {"est": float(est), "se": float(se), "hit": float(hit_est), "anti": float(anti.mean()),
            "anti_se": float(anti.std(ddof=1) / np.sqrt(len(anti))), "batches": batches, "ci": ci}


def buffon(np, u_host, length=0.8, gap=1.0):
    u = np.asarray(u_host)
    centre = u[:, 0] * gap / 2
    theta = u[:, 1] * np.pi / 2
    crosses = centre <= length / 2 * np.sin(theta)
    p = np.count_nonzero(crosses) / len(crosses)
    pi_est = 2 * length / (p * gap)
    running = np.cumsum(crosses) / np.arange(1, len(crosses) + 1)
    return {"p": p, "pi": float(pi_est), "running": running[::100]}


def birthday(np, days_host):
    days = np.asarray(days_host)
    s = np.sort(days, axis=1)
    shared = (np.diff(s, axis=1) == 0).any(axis=1)
    n = np.arange(1, 61)
    exact = 1 - np.cumprod((365 - n + 1) / 365)
    first_over_half = int(np.argmax(exact > 0.5)) + 1
    counts = np.apply_along_axis(lambda r: np.bincount(r, minlength=365).max(), 1, days)
    return {"p_sim": float(shared.mean()), "exact23": float(exact[22]), "first": first_over_half,
            "max_same": np.bincount(counts)}


def gamblers_ruin(np, coin_host, n=6, p=0.45, start=3):
    P = np.zeros((n + 1, n + 1))
    P[0, 0] = P[n, n] = 1
    for i in range(1, n):
        P[i, i + 1] = p
        P[i, i - 1] = 1 - p
    transient = np.arange(1, n)
    Q = P[np.ix_(transient, transient)]
    R = P[np.ix_(transient, [0, n])]
    N = np.linalg.inv(np.eye(n - 1) - Q)
    B = N @ R
    steps = N.sum(axis=1)
    coins = np.asarray(coin_host)
    wealth = np.full(coins.shape[0], start)
    alive = np.ones(coins.shape[0], dtype=bool)
    duration = np.zeros(coins.shape[0], dtype=int)
    for t in range(coins.shape[1]):
        move = np.where(coins[:, t] < p, 1, -1)
        wealth = np.where(alive, wealth + move, wealth)
        duration += alive
        alive &= (wealth > 0) & (wealth < n)
    win_sim = np.mean(wealth[~alive] == n)
    Pk = np.linalg.matrix_power(P, 50)
    return {"B": B, "steps": steps, "win_exact": float(B[start - 1, 1]), "win_sim": float(win_sim),
            "mean_duration": float(duration[~alive].mean()), "P50": Pk[start]}


def token_markov_chain(np, tokens_host, u_host, vocab=6):
    tokens = np.asarray(tokens_host)
    counts = np.zeros((vocab, vocab))
    np.add.at(counts, (tokens[:-1], tokens[1:]), 1)
    row_sums = counts.sum(axis=1, keepdims=True)
    T = np.divide(counts, row_sums, out=np.full_like(counts, 1.0 / vocab), where=row_sums > 0)
    cdf = np.cumsum(T, axis=1)
    state = tokens[0]
    generated = [int(state)]
    for u in np.asarray(u_host):
        state = int(np.searchsorted(cdf[state], u * cdf[state, -1], side="right"))
        state = min(state, vocab - 1)
        generated.append(state)
    bigrams = np.unique(np.stack([tokens[:-1], tokens[1:]], axis=1), axis=0, return_counts=True)
    w, v = np.linalg.eig(T.T)
    pi = np.real(v[:, np.argmin(np.abs(w - 1))])
    pi = pi / pi.sum()
    return {"T": T, "generated": generated, "n_bigrams": len(bigrams[0]), "top": bigrams[0][np.argmax(bigrams[1])],
            "pi": pi}


def first_passage(np, steps_host, level=4):
    walks = np.cumsum(np.asarray(steps_host), axis=1)
    hit = walks >= level
    reached = hit.any(axis=1)
    first = np.where(reached, hit.argmax(axis=1) + 1, -1)
    max_drawdown = (np.maximum.accumulate(walks, axis=1) - walks).max(axis=1)
    time_positive = (walks > 0).mean(axis=1)
    return {"first": first, "p_reach": float(reached.mean()), "median_first": float(np.median(first[reached])),
            "drawdown": max_drawdown, "arcsine_hist": np.histogram(time_positive, bins=5, range=(0, 1))[0]}


def central_limit(np, u_host):
    u = np.asarray(u_host)
    means = {}
    for k in (1, 4, 16):
        m = u[: (len(u) // k) * k].reshape(-1, k).mean(axis=1)
        z = (m - 0.5) / np.sqrt(1 / 12 / k)
        means[k] = (float(z.mean()), float(z.std()), float(np.mean(np.abs(z) < 1.96)))
    skews = [float((((u[: (len(u) // k) * k].reshape(-1, k).mean(1) - 0.5) / np.sqrt(1 / 12 / k)) ** 3).mean())
             for k in (1, 2, 8)]
    return {"means": means, "skews": skews}


def test_monte_carlo_integrals_standard_errors():
    check(monte_carlo_integrals, np.random.default_rng(591).random((2000, 2)), rtol=1e-3, atol=1e-4)


def test_buffons_needle():
    check(buffon, np.random.default_rng(592).random((1000, 2)), rtol=1e-3, atol=1e-4)


def test_birthday_problem_sort_diff_cumprod():
    check(birthday, np.random.default_rng(593).integers(0, 365, (300, 23)), rtol=1e-4, atol=1e-5)


def test_gamblers_ruin_fundamental_matrix_and_simulation():
    check(gamblers_ruin, np.random.default_rng(594).random((400, 80)), rtol=1e-3, atol=1e-4)


def test_token_markov_chain_add_at_searchsorted():
    rng = np.random.default_rng(595)
    check(token_markov_chain, rng.integers(0, 6, 300), rng.random(40), rtol=1e-3, atol=1e-4)


def test_random_walk_first_passage():
    check(first_passage, 2 * np.random.default_rng(596).integers(0, 2, (200, 60)) - 1)


def test_central_limit_by_reshaping():
    check(central_limit, np.random.default_rng(597).random(4800), rtol=1e-3, atol=1e-4)
