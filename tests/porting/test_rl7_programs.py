"""Reinforcement learning as NumPy scripts write it: gridworld value iteration with np.pad and a transition
tensor, policy iteration by np.linalg.solve, epsilon-greedy and UCB multi-armed bandits with incremental means,
tabular Q-learning and SARSA on a chain with in-place table updates, Monte Carlo returns by a reversed discount
loop, softmax (Boltzmann) policies with keepdims, and a gradient bandit with one-hot baselines (tests/porting)."""

import numpy as np
from harness import check


def gridworld_value_iteration(np, n=5, gamma=0.9, iters=60):
    R = np.full((n, n), -0.04)
    R[0, n - 1], R[1, n - 1] = 1.0, -1.0
    terminal = np.zeros((n, n), dtype=bool)
    terminal[0, n - 1] = terminal[1, n - 1] = True
    V = np.zeros((n, n))
    deltas = []
    for _ in range(iters):
        P = np.pad(V, 1, mode="edge")
        Q = np.stack([P[:-2, 1:-1], P[2:, 1:-1], P[1:-1, :-2], P[1:-1, 2:]])  # up, down, left, right
        V_new = R + gamma * Q.max(axis=0)
        V_new[terminal] = R[terminal]
        deltas.append(float(np.abs(V_new - V).max()))
        V = V_new
    policy = np.argmax(Q, axis=0)
    policy[terminal] = -1
    arrows = "\n".join("".join("^v<>."[a] for a in row) for row in policy)  # kdsl has no string arrays
    return {"V": V, "policy": policy, "deltas": deltas[::10], "arrows": arrows}


def policy_iteration_solve(np, P_host, R_host, gamma=0.95):
    P = np.asarray(P_host)  # (actions, states, states)
    R = np.asarray(R_host)  # (states, actions)
    nA, nS, _ = P.shape
    pi = np.zeros(nS, dtype=int)
    for it in range(20):  # noqa: B007 - the count is a result
        P_pi = P[pi, np.arange(nS)]
        r_pi = R[np.arange(nS), pi]
        V = np.linalg.solve(np.eye(nS) - gamma * P_pi, r_pi)
        Q = R + gamma * np.einsum("ast,t->sa", P, V)
        new_pi = Q.argmax(axis=1)
        if np.array_equal(new_pi, pi):
            break
        pi = new_pi
    return {"pi": pi, "V": V, "iterations": it, "Q": Q, "advantage": Q - V[:, None]}


def epsilon_greedy_bandit(np, rewards_host, explore_host, picks_host, eps=0.1):
    true_means = rewards_host.mean(axis=0)
    k = rewards_host.shape[1]
    Q = np.zeros(k)
    N = np.zeros(k, dtype=np.int64)
    total = 0.0
    history = []
    for t in range(rewards_host.shape[0]):
        a = int(picks_host[t]) if explore_host[t] < eps else int(np.argmax(Q))
        r = float(rewards_host[t, a])
        N[a] += 1
        Q[a] += (r - Q[a]) / N[a]
        total += r
        history.append(a)
    best = int(np.argmax(true_means))
    frac_best = np.cumsum(np.array(history) == best) / np.arange(1, len(history) + 1)
    return {"Q": Q, "N": N, "total": total, "frac_best": frac_best[::25],
            "regret": float(true_means.max() * len(history) - total)}


def ucb_bandit(np, rewards_host, c=2.0):
    T, k = rewards_host.shape
    rewards = np.asarray(rewards_host)
    counts = np.zeros(k)
    sums = np.zeros(k)
    for t in range(T):
        if t < k:
            a = t
        else:
            ucb = sums / counts + c * np.sqrt(np.log(t) / counts)
            a = int(np.argmax(ucb))
        counts[a] += 1
        sums[a] += rewards[t, a]
    means = np.divide(sums, counts, out=np.zeros_like(sums), where=counts > 0)
    return {"counts": counts.astype(int), "means": np.round(means, 3), "best": int(counts.argmax())}


def q_learning_chain(np, rand_host, n=6, alpha=0.5, gamma=0.9, eps=0.2, episodes=40):
    Q = np.zeros((n, 2))  # actions: 0 left, 1 right; reward at the right end
    step = 0
    lengths = []
    for _ in range(episodes):
        s = 0
        for t in range(50):  # noqa: B007 - the episode's length
            u = rand_host[step % len(rand_host)]
            step += 1
            a = int(u[1] * 2) if u[0] < eps else int(np.argmax(Q[s]))
            s2 = max(0, s - 1) if a == 0 else s + 1
            done = s2 == n - 1
            r = 1.0 if done else 0.0
            target = r if done else r + gamma * Q[s2].max()
            Q[s, a] += alpha * (target - Q[s, a])
            s = s2
            if done:
                break
        lengths.append(t + 1)
    greedy = Q.argmax(axis=1)
    return {"Q": Q, "greedy": greedy[:-1], "lengths": np.array(lengths), "V": Q.max(axis=1)}


def sarsa_cliff_vectorised_td(np, rand_host, nS=8, gamma=0.95, lam=0.8, alpha=0.1):
    # TD(lambda) with eligibility traces on a random walk, values updated as whole arrays
    V = np.zeros(nS + 2)
    errors = []
    true_V = np.arange(nS + 2) / (nS + 1)
    true_V[-1] = 0.0
    for ep in range(30):
        e = np.zeros_like(V)
        s = nS // 2
        for u in rand_host[ep]:
            s2 = s + (1 if u > 0.5 else -1)
            r = 1.0 if s2 == nS + 1 else 0.0
            done = s2 in (0, nS + 1)
            delta = r + (0.0 if done else gamma * V[s2]) - V[s]
            e *= gamma * lam
            e[s] += 1.0
            V += alpha * delta * e
            s = s2
            if done:
                break
        errors.append(float(np.sqrt(np.mean((V[1:-1] - true_V[1:-1]) ** 2))))
    return {"V": V[1:-1], "rmse": np.array(errors)[::5]}


def monte_carlo_returns(np, rewards_host, gamma=0.99):
    rewards = np.asarray(rewards_host)
    G = np.zeros_like(rewards)
    running = np.zeros(rewards.shape[0])
    for t in reversed(range(rewards.shape[1])):
        running = rewards[:, t] + gamma * running
        G[:, t] = running
    disc = gamma ** np.arange(rewards.shape[1])
    G0 = (rewards * disc).sum(axis=1)
    adv = (G - G.mean(axis=0, keepdims=True)) / (G.std(axis=0, keepdims=True) + 1e-8)
    return {"G": G, "G0": G0, "same": bool(np.allclose(G0, G[:, 0], rtol=1e-4)), "adv": adv}


def softmax_policy_gradient(np, logits_host, actions_host, returns_host, lr=0.1):
    theta = np.asarray(logits_host).copy()  # (states, actions)
    acts = np.asarray(actions_host)
    ret = np.asarray(returns_host)
    states = np.arange(len(acts)) % theta.shape[0]
    for _ in range(5):
        z = theta - theta.max(axis=1, keepdims=True)
        pi = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
        onehot = np.eye(theta.shape[1])[acts]
        grad = (onehot - pi[states]) * (ret - ret.mean())[:, None]
        np.add.at(theta, states, lr * grad)
    entropy = -(pi * np.log(pi)).sum(axis=1)
    return {"theta": theta, "pi": pi, "entropy": entropy, "greedy": pi.argmax(-1)}


def softmax_policy_sampling(np, logits_host, tau=0.5, n=4000, seed=0):
    # sampled actions differ between libraries (kdsl's streams): their frequencies are compared
    rng = np.random.default_rng(seed)
    z = np.asarray(logits_host) / tau
    pi = np.exp(z - z.max(axis=1, keepdims=True))
    pi /= pi.sum(axis=1, keepdims=True)
    freqs = np.zeros_like(pi)
    for s in range(pi.shape[0]):
        actions = rng.choice(pi.shape[1], size=n, p=pi[s])
        freqs[s] = np.bincount(actions, minlength=pi.shape[1]) / n
    first = rng.choice(pi.shape[1], p=pi[0])
    return {"pi": pi, "freqs": freqs, "valid": bool(0 <= first < pi.shape[1])}


def random_mdp_value_iteration(np, P_host, R_host, gamma=0.9, tol=1e-6):
    P = np.asarray(P_host)  # (S, A, S')
    R = np.asarray(R_host)  # (S, A)
    V = np.zeros(P.shape[0])
    sweeps = 0
    while True:
        Q = R + gamma * np.einsum("sat,t->sa", P, V)
        V_new = Q.max(axis=1)
        sweeps += 1
        if np.max(np.abs(V_new - V)) < tol * (1 - gamma) / (2 * gamma) or sweeps > 500:
            V = V_new
            break
        V = V_new
    pi = np.argmax(Q, axis=1)
    q_pi = np.take_along_axis(Q, pi[:, None], axis=1).squeeze(1)
    P_pi = P[np.arange(len(pi)), pi]
    stationary = np.linalg.matrix_power(P_pi, 200)[0]
    return {"V": V, "pi": pi, "q_pi_is_V": bool(np.allclose(q_pi, V)), "sweeps_ok": sweeps < 500,
            "stationary": stationary, "avg_reward": float(stationary @ R[np.arange(len(pi)), pi])}


def replay_q_updates_row_views(np, trans_host, rewards_host, nS=5, nA=2, alpha=0.3, gamma=0.9, sweeps=3):
    T = np.asarray(trans_host)  # rows (s, a, s2)
    rewards = np.asarray(rewards_host)
    Q = np.zeros((nS, nA))
    counts = np.zeros((nS, nA), dtype=int)
    for _ in range(sweeps):
        for (s, a, s2), r in zip(T, rewards, strict=True):
            q = Q[s]  # a view of the row, as NumPy's scalar index gives
            q[a] += alpha * (r + gamma * Q[s2].max() - q[a])
            counts[s][a] += 1
    best = Q.argmax(axis=1)
    return {"Q": Q, "counts": counts, "best": best, "V": Q[np.arange(nS), best]}


def gradient_bandit(np, rewards_host, picks_host, alpha=0.1):
    T, k = rewards_host.shape
    H = np.zeros(k)
    baseline = 0.0
    for t in range(T):
        p = np.exp(H) / np.sum(np.exp(H))
        a = int(np.searchsorted(np.cumsum(p), picks_host[t]))
        a = min(a, k - 1)
        r = rewards_host[t, a]
        baseline += (r - baseline) / (t + 1)
        one = np.zeros(k)
        one[a] = 1
        H += alpha * (r - baseline) * (one - p)
    return {"H": H, "p": p, "baseline": baseline}


def _rewards(seed, T, k):
    rng = np.random.default_rng(seed)
    return rng.normal(rng.normal(0, 1, k), 1.0, size=(T, k))


def test_gridworld_value_iteration_pad_stack():
    check(gridworld_value_iteration, rtol=1e-4, atol=1e-5)


def test_policy_iteration_linear_solve():
    rng = np.random.default_rng(1)
    P = rng.random((3, 6, 6))
    P /= P.sum(axis=2, keepdims=True)
    check(policy_iteration_solve, P, rng.normal(size=(6, 3)), rtol=1e-3, atol=1e-3)


def test_epsilon_greedy_bandit_incremental_mean():
    rng = np.random.default_rng(2)
    check(epsilon_greedy_bandit, _rewards(3, 200, 5), rng.random(200), rng.integers(0, 5, 200), rtol=1e-4, atol=1e-4)


def test_ucb_bandit():
    check(ucb_bandit, _rewards(4, 150, 4), rtol=1e-4, atol=1e-3)


def test_q_learning_chain_table():
    check(q_learning_chain, np.random.default_rng(5).random((3000, 2)))


def test_td_lambda_eligibility_traces():
    check(sarsa_cliff_vectorised_td, np.random.default_rng(6).random((30, 200)), rtol=1e-3, atol=1e-4)


def test_monte_carlo_discounted_returns():
    check(monte_carlo_returns, np.random.default_rng(7).normal(size=(8, 30)), rtol=1e-3, atol=1e-4)


def test_softmax_policy_gradient_add_at():
    rng = np.random.default_rng(8)
    check(softmax_policy_gradient, rng.normal(size=(4, 3)), rng.integers(0, 3, 20), rng.normal(size=20),
          rtol=1e-3, atol=1e-4)


def test_softmax_policy_sampling_choice_p():
    check(softmax_policy_sampling, np.random.default_rng(11).normal(size=(3, 4)), rtol=1e-3, atol=0.03)


def test_random_mdp_value_iteration_einsum():
    rng = np.random.default_rng(12)
    P = rng.random((6, 3, 6)) ** 3
    P /= P.sum(axis=2, keepdims=True)
    check(random_mdp_value_iteration, P, rng.normal(size=(6, 3)), rtol=1e-3, atol=1e-3)


def test_replay_q_updates_through_row_views():
    rng = np.random.default_rng(13)
    T = np.column_stack([rng.integers(0, 5, 30), rng.integers(0, 2, 30), rng.integers(0, 5, 30)])
    check(replay_q_updates_row_views, T, rng.normal(size=30), rtol=1e-3, atol=1e-4)


def test_gradient_bandit_preferences():
    rng = np.random.default_rng(9)
    check(gradient_bandit, _rewards(10, 100, 4), rng.random(100), rtol=1e-3, atol=1e-4)
