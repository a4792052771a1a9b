"""Markov chains as probability courses and blog posts write them: transition matrices from observed sequences
(`np.add.at` counts, row normalisation with `np.divide(..., where=)`), n-step distributions by
`np.linalg.matrix_power`, the stationary distribution three ways (left eigenvector of `eig`, `lstsq` of the
balance equations, power iteration), absorbing chains (fundamental matrix, expected steps, absorption
probabilities), simulation from host uniforms by `searchsorted` on cumulative rows, mean first passage times,
detailed balance checks, a bigram text chain with `np.unique(return_inverse=True)` of word indices, and a PageRank-style
teleporting chain on a sparse link list (tests/porting)."""

import numpy as np
from harness import check


def counts_to_matrix(np, seq, k):
    C = np.zeros((k, k))
    np.add.at(C, (seq[:-1], seq[1:]), 1)
    rows = C.sum(axis=1, keepdims=True)
    P = np.divide(C, rows, out=np.full_like(C, 1.0 / k), where=rows > 0)
    P2 = np.linalg.matrix_power(P, 2)
    P10 = np.linalg.matrix_power(P, 10)
    pi0 = np.eye(k)[seq[0]]
    dist = [pi0 @ np.linalg.matrix_power(P, n) for n in (1, 5, 20)]
    return {"C": C, "P": P, "P2": P2, "P10": P10, "dists": dist, "rowsum_ok": bool(np.allclose(P.sum(1), 1)),
            "most_likely_next": np.argmax(P, axis=1)}


def stationary(np, P):
    w, V = np.linalg.eig(P.T)
    i = np.argmin(np.abs(w - 1))
    pi_eig = np.real(V[:, i])
    pi_eig = pi_eig / pi_eig.sum()
    n = P.shape[0]
    A = np.vstack([P.T - np.eye(n), np.ones(n)])
    b = np.zeros(n + 1)
    b[-1] = 1
    pi_ls = np.linalg.lstsq(A, b, rcond=None)[0]
    pi = np.ones(n) / n
    for _ in range(200):
        pi = pi @ P
    gap = 1 - np.sort(np.abs(w))[-2]
    return {"eig": pi_eig, "ls": pi_ls, "power": pi, "gap": gap, "agree": bool(np.allclose(pi_eig, pi_ls, atol=1e-5)),
            "return_times": 1 / pi_ls}


def absorbing(np, P, transient):
    absorbing_states = np.setdiff1d(np.arange(len(P)), transient)
    Q = P[np.ix_(transient, transient)]
    R = P[np.ix_(transient, absorbing_states)]
    N = np.linalg.inv(np.eye(len(transient)) - Q)
    t = N @ np.ones(len(transient))
    B = N @ R
    var_t = (2 * N - np.eye(len(transient))) @ t - t ** 2
    return {"N": N, "steps": t, "B": B, "var": var_t, "absorbing": absorbing_states,
            "B_rows": B.sum(axis=1), "slowest": int(transient[np.argmax(t)])}


def simulate(np, P, u, start):
    cum = np.cumsum(P, axis=1)
    cum[:, -1] = 1.0
    n_walkers, n_steps = u.shape
    state = np.full(n_walkers, start)
    path = np.empty((n_walkers, n_steps + 1), dtype=np.int64)
    path[:, 0] = state
    for t in range(n_steps):
        state = (u[:, t][:, None] > cum[state]).sum(axis=1)
        path[:, t + 1] = state
    occupancy = np.stack([np.bincount(row, minlength=len(P)) for row in path]) / (n_steps + 1)
    first_hit = np.where((path == len(P) - 1).any(axis=1), np.argmax(path == len(P) - 1, axis=1), -1)
    walker0 = np.array([np.searchsorted(cum[s], v, side="right") for s, v in zip(path[0, :-1], u[0], strict=True)])
    return {"path": path, "occupancy": occupancy.mean(axis=0), "first_hit": first_hit,
            "walker0": walker0, "same": bool(np.array_equal(walker0, path[0, 1:]))}


def passage_times(np, P):
    n = len(P)
    M = np.zeros((n, n))
    for j in range(n):
        others = np.delete(np.arange(n), j)
        Q = P[np.ix_(others, others)]
        m = np.linalg.solve(np.eye(n - 1) - Q, np.ones(n - 1))
        M[others, j] = m
    w, V = np.linalg.eig(P.T)
    pi = np.real(V[:, np.argmax(np.real(w))])
    pi /= pi.sum()
    flux = pi[:, None] * P
    reversible = bool(np.allclose(flux, flux.T, atol=1e-7))
    kemeny = (M * pi[None, :]).sum(axis=1)
    return {"M": M, "pi": pi, "reversible": reversible, "kemeny": kemeny, "flux_asym": np.abs(flux - flux.T).max()}


def bigram_chain(np, words, u):
    vocab = sorted(set(words))  # (kdsl has no string arrays, docs/numpy-api.md: words are indexed on the host)
    _, ids = np.unique(np.array([vocab.index(w) for w in words]), return_inverse=True)
    k = len(vocab)
    C = np.zeros((k, k), dtype=np.int64)
    np.add.at(C, (ids[:-1], ids[1:]), 1)
    P = C / np.maximum(C.sum(axis=1, keepdims=True), 1)
    cum = P.cumsum(axis=1)
    cur = ids[0]
    out = [int(cur)]
    for v in u:
        if C[cur].sum() == 0:
            break
        cur = int(np.searchsorted(cum[cur], v * cum[cur, -1]))
        out.append(cur)
    ent = -np.sum(np.where(P > 0, P * np.log2(np.where(P > 0, P, 1)), 0), axis=1)
    return {"vocab": vocab, "C": C, "out": out, "entropy": ent,
            "top_pairs": np.dstack(np.unravel_index(np.argsort(C, axis=None)[::-1][:3], C.shape))[0]}


def teleporting_chain(np, src, dst, n, alpha):
    A = np.zeros((n, n))
    A[src, dst] = 1.0
    out_deg = A.sum(axis=1)
    dangling = out_deg == 0
    P = np.where(dangling[:, None], 1.0 / n, A / np.where(dangling, 1, out_deg)[:, None])
    G = alpha * P + (1 - alpha) / n
    r = np.full(n, 1.0 / n)
    history = []
    for _ in range(100):
        r_new = r @ G
        history.append(np.abs(r_new - r).sum())
        r = r_new
        if history[-1] < 1e-10:
            break
    ranks = np.argsort(-r, kind="stable")
    return {"r": r, "ranks": ranks, "iters_le": len(history) <= 100, "dangling": np.flatnonzero(dangling),
            "sum": r.sum()}


def _random_stochastic(rng, n):
    P = rng.random((n, n)) ** 2
    return P / P.sum(axis=1, keepdims=True)


def test_transition_counts_and_matrix_power():
    check(counts_to_matrix, np.random.default_rng(1231).integers(0, 4, 60), 5)


def test_stationary_eig_lstsq_power():
    check(stationary, _random_stochastic(np.random.default_rng(1232), 5), rtol=1e-3, atol=1e-5)


def test_absorbing_chain_fundamental_matrix():
    P = np.array([[1, 0, 0, 0, 0], [0.5, 0, 0.5, 0, 0], [0, 0.5, 0, 0.5, 0], [0, 0, 0.5, 0, 0.5], [0, 0, 0, 0, 1.0]])
    check(absorbing, P, np.array([1, 2, 3]))


def test_simulation_by_cumulative_rows():
    rng = np.random.default_rng(1234)
    check(simulate, _random_stochastic(rng, 4), rng.random((6, 25)), 0)


def test_mean_first_passage_and_reversibility():
    rng = np.random.default_rng(1235)
    W = rng.random((4, 4))
    W = W + W.T
    check(passage_times, W / W.sum(axis=1, keepdims=True), rtol=1e-3, atol=1e-4)


def test_bigram_text_chain():
    words = "the cat sat on the mat the cat ate the rat on the mat".split()
    check(bigram_chain, words, np.random.default_rng(1236).random(12))


def test_teleporting_chain_with_dangling_nodes():
    src = np.array([0, 0, 1, 2, 2, 3, 5, 5, 6])
    dst = np.array([1, 2, 2, 0, 3, 4, 6, 0, 5])
    check(teleporting_chain, src, dst, 7, 0.85, rtol=1e-3, atol=1e-6)
