"""Tensor code as physics and ML notebooks write it with `np.einsum`: CP decomposition by alternating least squares
on Khatri-Rao products, a higher-order SVD by mode unfoldings (`moveaxis` + `reshape`), a matrix-product-state
chain contracted site by site, batched bilinear forms and `...` broadcasting, multi-head attention, stress tensor
invariants, rigid-body inertia tensors, finite-element stiffness assembly by `einsum` then `np.add.at`, Kronecker
identities, and `einsum` against `tensordot`/`matmul`/`trace`/`diagonal` with `optimize=` (tests/porting)."""

import numpy as np
from harness import check


def cp_als(np, T, A0, B0, C0, sweeps):
    T, A, B, C = (np.asarray(x) for x in (T, A0, B0, C0))

    def khatri_rao(U, V):
        return np.einsum("ir,jr->ijr", U, V).reshape(-1, U.shape[1])

    for _ in range(sweeps):
        A = T.reshape(T.shape[0], -1) @ khatri_rao(B, C) @ np.linalg.pinv((B.T @ B) * (C.T @ C))
        B = np.moveaxis(T, 1, 0).reshape(T.shape[1], -1) @ khatri_rao(A, C) @ np.linalg.pinv((A.T @ A) * (C.T @ C))
        C = np.moveaxis(T, 2, 0).reshape(T.shape[2], -1) @ khatri_rao(A, B) @ np.linalg.pinv((A.T @ A) * (B.T @ B))
    R = np.einsum("ir,jr,kr->ijk", A, B, C)
    return {"rel_err": float(np.linalg.norm(R - T) / np.linalg.norm(T)), "R": R}


def hosvd(np, T):
    T = np.asarray(T)
    factors = []
    spectra = []
    for mode in range(T.ndim):
        unfolded = np.moveaxis(T, mode, 0).reshape(T.shape[mode], -1)
        U, s, _ = np.linalg.svd(unfolded, full_matrices=False)
        factors.append(U)
        spectra.append(s)
    core = np.einsum("abc,ai,bj,ck->ijk", T, *factors)
    back = np.einsum("ijk,ai,bj,ck->abc", core, *factors)
    truncated = np.einsum("ijk,ai,bj,ck->abc", core[:2, :2, :2], factors[0][:, :2], factors[1][:, :2],
                          factors[2][:, :2])
    return {"spectra": spectra, "core_norm": float(np.linalg.norm(core)), "back": back,
            "trunc_err": float(np.linalg.norm(T - truncated))}


def mps_chain(np, sites, vec_l, vec_r):
    # each site is (left bond, physical, right bond); contract into the full state vector
    state = np.einsum("a,apb->pb", np.asarray(vec_l), np.asarray(sites[0]))
    for site in sites[1:]:
        state = np.einsum("...a,apb->...pb", state, np.asarray(site))
    psi = np.einsum("...b,b->...", state, np.asarray(vec_r))
    # the norm by a transfer-matrix sweep, never building psi
    E = np.einsum("a,c->ac", vec_l, vec_l)
    for site in sites:
        s = np.asarray(site)
        E = np.einsum("ac,apb,cpd->bd", E, s, s)
    norm_sweep = np.einsum("bd,b,d->", E, vec_r, vec_r)
    return {"psi": psi, "shape": psi.shape, "norm": float(np.sum(psi ** 2)), "sweep": float(norm_sweep)}


def bilinear_batches(np, X, Y, M):
    X, Y, M = np.asarray(X), np.asarray(Y), np.asarray(M)
    forms = np.einsum("bi,ij,bj->b", X, M, Y)
    loop = np.array([x @ M @ y for x, y in zip(X, Y, strict=True)])
    stacked = np.einsum("...ij,...jk->...ik", M[None].repeat(3, axis=0), M.T)
    return {"forms": forms, "loop": loop, "stacked": stacked, "diag": np.einsum("ii->i", M),
            "trace": np.einsum("ii", M), "outer": np.einsum("i,j->ij", X[0], Y[0]),
            "colsum": np.einsum("ij->j", M), "total": np.einsum("ij->", M), "T": np.einsum("ij->ji", M)}


def attention(np, q, k, v, heads):
    q, k, v = (np.asarray(x) for x in (q, k, v))
    b, t, d = q.shape
    dh = d // heads

    def split(x):
        return x.reshape(b, t, heads, dh).transpose(0, 2, 1, 3)

    Q, K, V = split(q), split(k), split(v)
    scores = np.einsum("bhqd,bhkd->bhqk", Q, K) / np.sqrt(dh)
    mask = np.triu(np.ones((t, t), dtype=bool), k=1)
    scores = np.where(mask, -np.inf, scores)
    scores -= scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w /= w.sum(axis=-1, keepdims=True)
    out = np.einsum("bhqk,bhkd->bhqd", w, V).transpose(0, 2, 1, 3).reshape(b, t, d)
    return {"out": out, "w_rows": w.sum(-1), "first": w[..., 0, :]}


def stress_invariants(np, S):
    S = np.asarray(S)
    S = 0.5 * (S + np.swapaxes(S, -1, -2))
    I1 = np.einsum("...ii", S)
    dev = S - I1[..., None, None] / 3 * np.eye(3)
    J2 = 0.5 * np.einsum("...ij,...ij", dev, dev)
    von_mises = np.sqrt(3 * J2)
    principal = np.linalg.eigvalsh(S)
    I2 = 0.5 * (I1 ** 2 - np.einsum("...ij,...ji", S, S))
    return {"I1": I1, "J2": J2, "vm": von_mises, "principal": principal, "I2": I2,
            "I2_from_eigs": principal[:, 0] * principal[:, 1] + principal[:, 1] * principal[:, 2]
            + principal[:, 0] * principal[:, 2], "det": np.linalg.det(S)}


def inertia_tensors(np, pts, masses, body):
    pts, masses, body = np.asarray(pts), np.asarray(masses), np.asarray(body)
    n_bodies = body.max() + 1
    com = np.zeros((n_bodies, 3))
    np.add.at(com, body, masses[:, None] * pts)
    total = np.bincount(body, weights=masses)
    com /= total[:, None]
    r = pts - com[body]
    r2 = np.einsum("ij,ij->i", r, r)
    per_point = masses[:, None, None] * (r2[:, None, None] * np.eye(3) - np.einsum("ni,nj->nij", r, r))
    I = np.zeros((n_bodies, 3, 3))
    np.add.at(I, body, per_point)
    moments = np.linalg.eigvalsh(I)
    return {"com": com, "I": I, "moments": moments, "sym": bool(np.allclose(I, I.transpose(0, 2, 1)))}


def fem_assembly(np, nodes, elems, kappa):
    nodes, elems, kappa = np.asarray(nodes), np.asarray(elems), np.asarray(kappa)
    xy = nodes[elems]  # (e, 3, 2)
    J = np.stack([xy[:, 1] - xy[:, 0], xy[:, 2] - xy[:, 0]], axis=1)  # (e, 2, 2)
    det = np.linalg.det(J)
    dN_ref = np.array([[-1.0, -1.0], [1.0, 0.0], [0.0, 1.0]])
    dN = np.einsum("ak,eik->eai", dN_ref, np.linalg.inv(J).transpose(0, 2, 1))
    Ke = np.einsum("eai,ebi,e->eab", dN, dN, kappa * np.abs(det) / 2)
    n = len(nodes)
    K = np.zeros((n, n))
    rows = np.repeat(elems, 3, axis=1)
    cols = np.tile(elems, (1, 3))
    np.add.at(K, (rows.ravel(), cols.ravel()), Ke.reshape(len(elems), -1).ravel())
    return {"K": K, "rowsums": K.sum(axis=1), "sym": bool(np.allclose(K, K.T)), "area": float(np.abs(det).sum() / 2)}


def kron_identities(np, A, B, X):
    A, B, X = np.asarray(A), np.asarray(B), np.asarray(X)
    lhs = np.kron(A, B) @ X.reshape(-1, order="F")
    rhs = (B @ X @ A.T).reshape(-1, order="F")
    by_einsum = np.einsum("ij,kl->ikjl", A, B).reshape(A.shape[0] * B.shape[0], -1)
    return {"lhs": lhs, "rhs": rhs, "kron": np.kron(A, B), "einsum": by_einsum,
            "trace": float(np.trace(np.kron(A, B))), "tr_prod": float(np.trace(A) * np.trace(B))}


def contraction_forms(np, A, B, C):
    A, B, C = np.asarray(A), np.asarray(B), np.asarray(C)
    chain = np.einsum("ij,jk,kl->il", A, B, C, optimize=True)
    greedy = np.einsum("ij,jk,kl->il", A, B, C, optimize="greedy")
    td = np.tensordot(np.tensordot(A, B, axes=([1], [0])), C, axes=1)
    out = np.empty((A.shape[0], C.shape[1]), dtype=np.result_type(A, B, C))
    np.einsum("ij,jk,kl->il", A, B, C, out=out)
    T = np.einsum("ij,kl->ijkl", A, A)
    return {"chain": chain, "greedy": greedy, "matmul": A @ B @ C, "td": td, "out": out,
            "partial": np.einsum("ijkj->ik", T), "broadcast": np.einsum("ij,j->ij", A, A[0]),
            "sublist": np.einsum(A, [0, 1], B, [1, 2], [0, 2])}


def test_cp_als():
    rng = np.random.default_rng(1901)
    a, b, c = rng.normal(size=(4, 2)), rng.normal(size=(5, 2)), rng.normal(size=(6, 2))
    T = np.einsum("ir,jr,kr->ijk", a, b, c) + 0.01 * rng.normal(size=(4, 5, 6))
    check(cp_als, T, rng.normal(size=(4, 2)), rng.normal(size=(5, 2)), rng.normal(size=(6, 2)), 3,
          rtol=2e-3, atol=2e-3)


def test_hosvd():
    rng = np.random.default_rng(1902)
    check(hosvd, rng.normal(size=(4, 5, 3)), rtol=1e-3, atol=1e-4)


def test_mps_chain():
    rng = np.random.default_rng(1903)
    sites = [rng.normal(size=(3, 2, 3)) / 2 for _ in range(5)]
    check(mps_chain, sites, rng.normal(size=3), rng.normal(size=3), rtol=1e-3, atol=1e-5)


def test_bilinear_batches():
    rng = np.random.default_rng(1904)
    check(bilinear_batches, rng.normal(size=(6, 4)), rng.normal(size=(6, 4)), rng.normal(size=(4, 4)))


def test_causal_attention():
    rng = np.random.default_rng(1905)
    check(attention, *(rng.normal(size=(2, 5, 8)) for _ in range(3)), 2, rtol=1e-3)


def test_stress_invariants():
    rng = np.random.default_rng(1906)
    check(stress_invariants, rng.normal(size=(7, 3, 3)) * 50, rtol=1e-3, atol=1e-2)


def test_inertia_tensors():
    rng = np.random.default_rng(1907)
    check(inertia_tensors, rng.normal(size=(30, 3)), rng.uniform(0.5, 2.0, 30), rng.integers(0, 4, 30),
          rtol=1e-3, atol=1e-4)


def test_fem_assembly():
    xs, ys = np.meshgrid(np.linspace(0, 1, 4), np.linspace(0, 1, 3))
    nodes = np.column_stack([xs.ravel(), ys.ravel()])
    elems = []
    for j in range(2):
        for i in range(3):
            p = j * 4 + i
            elems += [[p, p + 1, p + 5], [p, p + 5, p + 4]]
    check(fem_assembly, nodes, np.array(elems), np.linspace(1.0, 2.0, len(elems)), rtol=1e-3, atol=1e-4)


def test_kron_identities():
    rng = np.random.default_rng(1909)
    check(kron_identities, rng.normal(size=(2, 3)), rng.normal(size=(3, 2)), rng.normal(size=(2, 3)), rtol=1e-3,
          atol=1e-5)


def test_contraction_forms():
    rng = np.random.default_rng(1910)
    check(contraction_forms, rng.normal(size=(3, 4)), rng.normal(size=(4, 5)), rng.normal(size=(5, 2)),
          rtol=1e-3, atol=1e-5)
