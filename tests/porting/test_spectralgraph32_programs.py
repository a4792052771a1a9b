"""Spectral graph methods on dense adjacency matrices as they are prototyped in NumPy: Gaussian affinities from
pairwise distances with `fill_diagonal`, normalised Laplacians, the leading eigenvectors by power iteration with
deflation and an early exit (checked against `np.linalg.eigh`), spectral clustering finished by a small k-means
with `argmin` over broadcast distances, the Fiedler vector's sweep cut with `argsort` and `cumsum`, connected
components by min-label propagation, a k-core peel with boolean masks, and label propagation with `np.add.at`
votes (tests/porting)."""

import numpy as np
from harness import check


def affinity_laplacian(np, X, sigma):
    X = np.asarray(X)
    sq = (X**2).sum(axis=1)
    D2 = np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0)
    W = np.exp(-D2 / (2 * sigma**2))
    np.fill_diagonal(W, 0.0)
    d = W.sum(axis=1)
    L = np.diag(d) - W
    dinv = 1.0 / np.sqrt(d)
    Lsym = np.eye(len(W)) - dinv[:, None] * W * dinv[None, :]
    Lrw = np.eye(len(W)) - W / d[:, None]
    return {"W": W, "d": d, "L_rowsum": np.abs(L.sum(axis=1)).max(), "Lsym": Lsym, "Lrw_rows": Lrw.sum(axis=1),
            "sym": bool(np.allclose(Lsym, Lsym.T)), "eig": np.linalg.eigvalsh(Lsym)[:4]}


def power_deflation(np, M, k, tol):
    M = np.asarray(M)
    n = len(M)
    vals, vecs, iters = [], [], []
    B = M.copy()
    for j in range(k):
        v = np.ones(n) / np.sqrt(n)
        v[j] += 0.1
        lam = 0.0
        steps = 0
        for _ in range(1000):
            steps += 1
            w = B @ v
            lam_new = v @ w
            w /= np.linalg.norm(w)
            if abs(lam_new - lam) < tol:
                break
            v, lam = w, lam_new
        v = w * np.sign(w[np.argmax(np.abs(w))])
        vals.append(lam_new)
        vecs.append(v)
        iters.append(steps)
        B = B - lam_new * np.outer(v, v)
    ref = np.linalg.eigvalsh(M)[::-1][:k]
    return {"vals": np.array(vals), "ref": ref, "V": np.stack(vecs, axis=1), "converged": np.array(iters) < 1000,
            "ortho": np.abs(np.stack(vecs) @ np.stack(vecs).T - np.eye(k)).max() < 1e-3}


def spectral_clusters(np, X, k):
    X = np.asarray(X, dtype=np.float32)
    D2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    W = np.exp(-D2 / np.median(D2))
    np.fill_diagonal(W, 0)
    dinv = 1 / np.sqrt(W.sum(1))
    A = dinv[:, None] * W * dinv[None, :]
    vals, vecs = np.linalg.eigh(A)
    U = vecs[:, -k:]
    U = U / np.linalg.norm(U, axis=1, keepdims=True)
    C = U[[0, len(U) // 2, len(U) - 1][:k]].copy()
    for _ in range(20):
        lab = ((U[:, None, :] - C[None]) ** 2).sum(-1).argmin(1)
        newC = np.stack([U[lab == c].mean(0) if np.any(lab == c) else C[c] for c in range(k)])
        if np.allclose(newC, C):
            break
        C = newC
    sizes = np.bincount(lab, minlength=k)
    return {"lab": lab, "sizes": sizes, "gap": vals[-k] - vals[-k - 1], "dtype": A.dtype.name,
            "top": vals[-k:]}


def fiedler_sweep(np, W):
    W = np.asarray(W)
    d = W.sum(axis=1)
    L = np.diag(d) - W
    vals, vecs = np.linalg.eigh(L)
    f = vecs[:, 1]
    f = f * np.sign(f[0])
    order = np.argsort(f)
    inside = np.zeros(len(W), dtype=bool)
    vol_total = d.sum()
    conds = []
    for i in order[:-1]:
        inside[i] = True
        cut = W[inside][:, ~inside].sum()
        vol = min(d[inside].sum(), vol_total - d[inside].sum())
        conds.append(cut / vol)
    conds = np.array(conds)
    best = int(np.argmin(conds))
    part = np.zeros(len(W), dtype=int)
    part[order[:best + 1]] = 1
    return {"lambda2": vals[1], "conds": conds, "best": best, "part": part, "cheeger": bool(
        conds[best] ** 2 / 2 <= vals[1] / d.max() + 1e-9)}


def components(np, A):
    A = np.asarray(A).astype(bool)
    A = A | A.T
    n = len(A)
    label = np.arange(n)
    rounds = 0
    while True:
        neigh = np.where(A, label[None, :], n)
        new = np.minimum(label, neigh.min(axis=1))
        rounds += 1
        if np.array_equal(new, label):
            break
        label = new
    roots, comp, sizes = np.unique(label, return_inverse=True, return_counts=True)
    return {"label": label, "comp": comp, "sizes": sizes, "n": len(roots), "rounds": rounds,
            "largest": np.flatnonzero(comp == np.argmax(sizes))}


def k_core(np, A):
    A = np.asarray(A, dtype=np.int32)
    alive = np.ones(len(A), dtype=bool)
    core = np.zeros(len(A), dtype=np.int32)
    k = 0
    while alive.any():
        deg = (A * alive[None, :]).sum(axis=1)
        low = alive & (deg <= k)
        if not low.any():
            k += 1
            continue
        core[low] = k
        alive[low] = False
    hist = np.bincount(core)
    return {"core": core, "kmax": int(core.max()), "hist": hist, "deg": A.sum(1),
            "top": np.flatnonzero(core == core.max())}


def label_propagation(np, A, seeds, seed_labels, iters):
    A = np.asarray(A)
    n = len(A)
    k = int(np.max(seed_labels)) + 1
    lab = np.full(n, -1)
    lab[seeds] = seed_labels
    src, dst = np.nonzero(A)
    rounds = 0
    for _ in range(iters):
        rounds += 1
        votes = np.zeros((n, k))
        ok = lab[src] >= 0
        np.add.at(votes, (dst[ok], lab[src[ok]]), A[src[ok], dst[ok]])
        new = np.where(votes.sum(1) > 0, votes.argmax(1), -1)
        new[seeds] = seed_labels
        if np.array_equal(new, lab):
            break
        lab = new
    return {"lab": lab, "iters": rounds, "counts": np.unique(lab, return_counts=True)[1],
            "unlabelled": int((lab < 0).sum())}


def _blobs(seed, sizes, spread=0.4):
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 0.0], [4.0, 0.5], [1.5, 4.0]])
    X = np.concatenate([rng.normal(centres[i], spread, (s, 2)) for i, s in enumerate(sizes)])
    return X, rng


def _sbm(seed, sizes, p_in, p_out):
    rng = np.random.default_rng(seed)
    g = np.repeat(np.arange(len(sizes)), sizes)
    P = np.where(g[:, None] == g[None, :], p_in, p_out)
    U = rng.random(P.shape)
    A = np.triu(U < P, 1)
    return (A | A.T).astype(float), g, rng


def test_affinity_laplacian():
    X, _ = _blobs(3221, (8, 8, 6))
    check(affinity_laplacian, X, 1.0, rtol=1e-3, atol=1e-5)


def test_power_deflation():
    rng = np.random.default_rng(3222)
    Q, _ = np.linalg.qr(rng.normal(size=(8, 8)))
    M = Q @ np.diag([9.0, 6.0, 4.0, 2.0, 1.0, 0.5, 0.2, 0.1]) @ Q.T
    check(power_deflation, M, 3, 1e-9, rtol=1e-3, atol=1e-3)


def test_spectral_clusters():
    X, _ = _blobs(3223, (10, 12, 9))
    check(spectral_clusters, X, 3, rtol=2e-3, atol=1e-3)


def test_fiedler_sweep():
    A, _, _ = _sbm(3224, (9, 11), 0.7, 0.05)
    check(fiedler_sweep, A, rtol=1e-3, atol=1e-5)


def test_components():
    A, _, rng = _sbm(3225, (6, 5, 7, 1), 0.5, 0.0)
    perm = rng.permutation(len(A))
    check(components, A[perm][:, perm])


def test_k_core():
    A, _, _ = _sbm(3226, (10, 8), 0.6, 0.1)
    check(k_core, A)


def test_label_propagation():
    A, g, rng = _sbm(3227, (10, 10, 10), 0.4, 0.03)
    A = A * rng.uniform(0.5, 1.5, A.shape)
    A = np.triu(A, 1) + np.triu(A, 1).T
    seeds = np.array([0, 1, 10, 11, 20, 21])
    check(label_propagation, A, seeds, g[seeds], 20)
