

def gp_posterior(np, X, y, Xs, length, noise):
    X, y, Xs = np.asarray(X), np.asarray(y), np.asarray(Xs)

    def rbf(a, b):
        d2 = np.sum(a**2, 1)[:, None] + np.sum(b**2, 1)[None, :] - 2 * a @ b.T
        return np.exp(-0.5 * np.maximum(d2, 0) / length**2)

    K = rbf(X, X) + noise**2 * np.eye(len(X))
    K_inv = np.linalg.inv(K)
    Ks = rbf(Xs, X)
    mean = Ks @ K_inv @ y
    var = 1.0 - np.einsum("ij,jk,ik->i", Ks, K_inv, Ks)
    alpha = np.linalg.solve(K, y)
    sign, logdet = np.linalg.slogdet(K)
    nll = 0.5 * y @ alpha + 0.5 * logdet + 0.5 * len(X) * np.log(2 * np.pi)
    return {"mean": mean, "std": np.sqrt(np.clip(var, 0, None)), "same": np.allclose(K_inv @ y, alpha, atol=1e-6),
            "nll": nll, "sign": sign, "sym": np.abs(K_inv - K_inv.T).max() < 1e-6}


def test_gp_posterior():
    # 200 training points: inv of 200 x 200 (past one dispatch's loop budget: 1.8 s on lavapipe before)
    rng = np.random.default_rng(2858)
    X = rng.uniform(-3, 3, (200, 1))
    y = np.sin(2 * X[:, 0]) + rng.normal(0, 0.1, 200)
    check(gp_posterior, X, y, np.linspace(-3.5, 3.5, 15)[:, None], 0.8, 0.1, rtol=5e-3, atol=1e-3)
