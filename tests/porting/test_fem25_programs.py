"""Finite elements on small meshes in plain NumPy: a 1-D bar with `np.add.at` on `ix_`-style index grids, 2-D linear
triangles (stiffness by `einsum` of stacked gradients, `det` of stacked Jacobians), assembly by `bincount` of
flattened (row, col) keys and by `K[np.ix_(dofs, dofs)] += ke`, Dirichlet conditions by `delete`/`setdiff1d`
and by row replacement, a truss with direction cosines, Gauss quadrature from `leggauss`, a consistent mass matrix and
the lowest modes by `eigh` of a generalised problem via `cholesky`, and a mesh's boundary edges by `unique(axis=0,
return_counts=)` (tests/porting)."""

import numpy as np
from harness import check


def bar_1d(np, n_el, length, EA, load):
    nodes = np.linspace(0, length, n_el + 1)
    conn = np.column_stack([np.arange(n_el), np.arange(1, n_el + 1)])
    h = np.diff(nodes)
    ke = EA / h[:, None, None] * np.array([[1.0, -1.0], [-1.0, 1.0]])
    K = np.zeros((n_el + 1, n_el + 1))
    np.add.at(K, (conn[:, :, None], conn[:, None, :]), ke)
    f = np.zeros(n_el + 1)
    np.add.at(f, conn, load * h[:, None] / 2)
    free = np.setdiff1d(np.arange(n_el + 1), [0])
    u = np.zeros(n_el + 1)
    u[free] = np.linalg.solve(K[np.ix_(free, free)], f[free])
    strain = np.diff(u) / h
    exact = load / EA * (length * nodes - nodes**2 / 2)
    return {"K": K, "u": u, "strain": strain, "err": np.max(np.abs(u - exact)), "reaction": K[0] @ u - f[0]}


def tri_mesh(np, nx, ny):
    x, y = np.meshgrid(np.linspace(0, 1, nx + 1), np.linspace(0, 1, ny + 1))
    pts = np.column_stack([x.ravel(), y.ravel()])
    idx = np.arange((nx + 1) * (ny + 1)).reshape(ny + 1, nx + 1)
    a, b, c, d = idx[:-1, :-1].ravel(), idx[:-1, 1:].ravel(), idx[1:, :-1].ravel(), idx[1:, 1:].ravel()
    tris = np.concatenate([np.stack([a, b, d], 1), np.stack([a, d, c], 1)])
    return pts, tris


def poisson_2d(np, nx, ny):
    pts, tris = tri_mesh(np, nx, ny)
    P = pts[tris]  # (ne, 3, 2)
    J = np.stack([P[:, 1] - P[:, 0], P[:, 2] - P[:, 0]], axis=-1)  # (ne, 2, 2)
    detJ = np.linalg.det(J)
    area = np.abs(detJ) / 2
    dN_ref = np.array([[-1.0, -1.0], [1.0, 0.0], [0.0, 1.0]])
    G = dN_ref @ np.linalg.inv(J)  # (ne, 3, 2)
    ke = np.einsum("eik,ejk,e->eij", G, G, area)
    n = len(pts)
    rows = np.repeat(tris, 3, axis=1).ravel()
    cols = np.tile(tris, (1, 3)).ravel()
    K = np.bincount(rows * n + cols, weights=ke.ravel(), minlength=n * n).reshape(n, n)
    f = np.bincount(tris.ravel(), weights=np.repeat(area / 3, 3), minlength=n)
    on_b = (np.isclose(pts[:, 0], 0) | np.isclose(pts[:, 0], 1) | np.isclose(pts[:, 1], 0)
            | np.isclose(pts[:, 1], 1))
    A = K.copy()
    A[on_b] = 0
    A[on_b, on_b] = 1
    rhs = np.where(on_b, 0.0, f)
    u = np.linalg.solve(A, rhs)
    return {"area": area.sum(), "detJ": detJ, "rowsum": np.abs(K.sum(axis=1)).max(), "u": u,
            "umax": u.max(), "sym": bool(np.allclose(K, K.T)), "nb": int(on_b.sum())}


def assemble_ix(np, nx, ny):
    pts, tris = tri_mesh(np, nx, ny)
    n = len(pts)
    K = np.zeros((n, n))
    for t in tris:
        p = pts[t]
        B = np.array([[p[1, 1] - p[2, 1], p[2, 1] - p[0, 1], p[0, 1] - p[1, 1]],
                      [p[2, 0] - p[1, 0], p[0, 0] - p[2, 0], p[1, 0] - p[0, 0]]])
        A2 = abs(np.linalg.det(np.vstack([np.ones(3), p.T])))
        K[np.ix_(t, t)] += B.T @ B / (2 * A2)
    w = np.linalg.eigvalsh(K)
    return {"K": K, "null": w[0], "w": w[1:5], "trace": np.trace(K)}


def truss(np, nodes, bars, EA, fixed, loads):
    nodes, bars = np.asarray(nodes, dtype=float), np.asarray(bars)
    n = len(nodes)
    d = nodes[bars[:, 1]] - nodes[bars[:, 0]]
    L = np.linalg.norm(d, axis=1)
    c, s = (d / L[:, None]).T
    k = np.stack([c * c, c * s, s * s], axis=1) * (EA / L)[:, None]
    kb = np.array([[k[:, 0], k[:, 1]], [k[:, 1], k[:, 2]]]).transpose(2, 0, 1)
    ke = np.block([[kb, -kb], [-kb, kb]])
    dofs = np.concatenate([2 * bars[:, :1] + [0, 1], 2 * bars[:, 1:] + [0, 1]], axis=1)
    K = np.zeros((2 * n, 2 * n))
    for e in range(len(bars)):
        K[np.ix_(dofs[e], dofs[e])] += ke[e]
    free = np.delete(np.arange(2 * n), fixed)
    u = np.zeros(2 * n)
    u[free] = np.linalg.solve(K[free][:, free], np.asarray(loads, dtype=float)[free])
    du = u.reshape(n, 2)[bars[:, 1]] - u.reshape(n, 2)[bars[:, 0]]
    force = EA / L * np.sum(du * np.column_stack([c, s]), axis=1)
    return {"u": u, "force": force, "tension": force > 0, "L": L, "react": (K @ u)[fixed]}


def gauss_quad(np, order):
    x, w = np.polynomial.legendre.leggauss(order)
    X, Y = np.meshgrid(x, x, indexing="ij")
    W = np.outer(w, w)
    f = np.exp(X) * np.cos(Y)
    I2 = np.sum(W * f)
    xi = (x + 1) / 2
    I1 = np.sum(w / 2 * xi**5)
    N = np.stack([(1 - xi), xi], axis=0)
    M = np.einsum("iq,jq,q->ij", N, N, w / 2)
    return {"x": x, "w": w, "I2": I2, "I1": I1, "M": M}


def beam_modes(np, n_el, L, EI, rhoA):
    h = L / n_el
    ke = EI / h**3 * np.array([[12, 6 * h, -12, 6 * h], [6 * h, 4 * h * h, -6 * h, 2 * h * h],
                               [-12, -6 * h, 12, -6 * h], [6 * h, 2 * h * h, -6 * h, 4 * h * h]])
    me = rhoA * h / 420 * np.array([[156, 22 * h, 54, -13 * h], [22 * h, 4 * h * h, 13 * h, -3 * h * h],
                                    [54, 13 * h, 156, -22 * h], [-13 * h, -3 * h * h, -22 * h, 4 * h * h]])
    nd = 2 * (n_el + 1)
    K, M = np.zeros((nd, nd)), np.zeros((nd, nd))
    for e in range(n_el):
        s = slice(2 * e, 2 * e + 4)
        K[s, s] += ke
        M[s, s] += me
    K, M = K[2:, 2:], M[2:, 2:]
    Lc = np.linalg.cholesky(M)
    Li = np.linalg.inv(Lc)
    w2, V = np.linalg.eigh(Li @ K @ Li.T)
    freq = np.sqrt(w2[:3]) / (2 * np.pi)
    modes = Li.T @ V[:, :3]
    modes = modes / modes[np.argmax(np.abs(modes), axis=0), np.arange(3)]  # eigenvectors' signs are arbitrary
    return {"freq": freq, "orth": modes.T @ M @ modes, "tip": modes[-2]}


def boundary_edges(np, nx, ny):
    pts, tris = tri_mesh(np, nx, ny)
    edges = np.concatenate([tris[:, [0, 1]], tris[:, [1, 2]], tris[:, [2, 0]]])
    edges = np.sort(edges, axis=1)
    uniq, inv, counts = np.unique(edges, axis=0, return_inverse=True, return_counts=True)
    bnd = uniq[counts == 1]
    perim = np.linalg.norm(pts[bnd[:, 0]] - pts[bnd[:, 1]], axis=1).sum()
    deg = np.bincount(uniq.ravel(), minlength=len(pts))
    return {"n_edges": len(uniq), "bnd": bnd, "perim": perim, "deg": deg, "inv": inv[:10],
            "interior": np.setdiff1d(np.arange(len(pts)), np.unique(bnd))}


def test_bar_1d():
    check(bar_1d, 8, 2.0, 100.0, 3.0, rtol=1e-4, atol=1e-6)


def test_poisson_2d():
    check(poisson_2d, 4, 3, rtol=1e-3, atol=1e-5)


def test_assemble_ix():
    check(assemble_ix, 3, 2, rtol=1e-3, atol=1e-4)


def test_truss():
    nodes = np.array([[0, 0], [1, 0], [2, 0], [0.5, 1], [1.5, 1]])
    bars = np.array([[0, 1], [1, 2], [0, 3], [1, 3], [1, 4], [2, 4], [3, 4]])
    loads = np.zeros(10)
    loads[3] = -10.0
    loads[8] = 2.0
    check(truss, nodes, bars, 1000.0, np.array([0, 1, 5]), loads, rtol=1e-3, atol=1e-4)


def test_gauss_quad():
    check(gauss_quad, 5, rtol=1e-4, atol=1e-6)


def test_beam_modes():
    check(beam_modes, 6, 2.0, 10.0, 1.0, rtol=2e-3, atol=1e-3)


def test_boundary_edges():
    check(boundary_edges, 3, 2)
