"""Camera calibration and homographies in plain NumPy: pinhole projection with intrinsics and Rodrigues rotations,
a normalised DLT homography from `svd` (the last row of `Vt`), reprojection errors, radial/tangential distortion and
its fixed-point inverse, Zhang's closed-form intrinsics from several homographies, the essential matrix by the
eight-point algorithm with a rank-2 projection, triangulation of many points by stacked `svd`, vanishing points as
`cross` products of homogeneous lines, and image warping by inverse mapping with bilinear sampling through fancy
indexing (tests/porting)."""

import numpy as np
from harness import check


def rodrigues(np, rvec):
    rvec = np.asarray(rvec, dtype=float)
    theta = np.linalg.norm(rvec)
    if theta < 1e-12:
        return np.eye(3)
    k = rvec / theta
    Kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + np.sin(theta) * Kx + (1 - np.cos(theta)) * Kx @ Kx


def project(np, X, K, R, t):
    Xc = X @ R.T + t
    x = Xc @ K.T
    return x[:, :2] / x[:, 2:3], Xc[:, 2]


def pinhole(np, X, K, rvec, t):
    X, K, t = np.asarray(X), np.asarray(K), np.asarray(t)
    R = rodrigues(np, rvec)
    uv, depth = project(np, X, K, R, t)
    visible = (depth > 0) & np.all((uv >= 0) & (uv < [640, 480]), axis=1)
    ang = np.degrees(np.arccos(np.clip((np.trace(R) - 1) / 2, -1.0, 1.0)))
    return {"R": R, "orth": bool(np.allclose(R @ R.T, np.eye(3), atol=1e-6)), "uv": uv, "depth": depth,
            "visible": visible, "angle": ang, "det": np.linalg.det(R)}


def normalise(np, pts):
    c = pts.mean(axis=0)
    s = np.sqrt(2) / np.mean(np.linalg.norm(pts - c, axis=1))
    T = np.array([[s, 0, -s * c[0]], [0, s, -s * c[1]], [0, 0, 1]])
    ph = np.column_stack([pts, np.ones(len(pts))]) @ T.T
    return ph, T


def dlt_homography(np, src, dst):
    src, dst = np.asarray(src), np.asarray(dst)
    ps, Ts = normalise(np, src)
    pd, Td = normalise(np, dst)
    n = len(src)
    A = np.zeros((2 * n, 9))
    A[0::2, 3:6] = -pd[:, 2:3] * ps
    A[0::2, 6:9] = pd[:, 1:2] * ps
    A[1::2, 0:3] = pd[:, 2:3] * ps
    A[1::2, 6:9] = -pd[:, 0:1] * ps
    _, sv, Vt = np.linalg.svd(A)
    Hn = Vt[-1].reshape(3, 3)
    H = np.linalg.inv(Td) @ Hn @ Ts
    H /= H[2, 2]
    proj = np.column_stack([src, np.ones(n)]) @ H.T
    proj = proj[:, :2] / proj[:, [2]]
    err = np.linalg.norm(proj - dst, axis=1)
    return {"H": H, "err": err.max() < 1e-3, "sv_min": sv[-1] < 1e-3, "proj": proj}


def distortion(np, xy, k1, k2, p1, p2):
    xy = np.asarray(xy)
    x, y = xy[:, 0], xy[:, 1]
    r2 = x * x + y * y
    radial = 1 + k1 * r2 + k2 * r2**2
    xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
    yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
    d = np.stack([xd, yd], axis=-1)
    u = d.copy()
    for _ in range(20):
        ux, uy = u[:, 0], u[:, 1]
        ur2 = ux**2 + uy**2
        rad = 1 + k1 * ur2 + k2 * ur2**2
        dx = 2 * p1 * ux * uy + p2 * (ur2 + 2 * ux**2)
        dy = p1 * (ur2 + 2 * uy**2) + 2 * p2 * ux * uy
        u = (d - np.column_stack([dx, dy])) / rad[:, None]
    return {"d": d, "u": u, "resid": np.abs(u - xy).max() < 1e-5, "shift": np.linalg.norm(d - xy, axis=1)}


def zhang_intrinsics(np, Hs):
    Hs = np.asarray(Hs)

    def v(H, i, j):
        return np.array([H[0, i] * H[0, j], H[0, i] * H[1, j] + H[1, i] * H[0, j], H[1, i] * H[1, j],
                         H[2, i] * H[0, j] + H[0, i] * H[2, j], H[2, i] * H[1, j] + H[1, i] * H[2, j],
                         H[2, i] * H[2, j]])

    V = np.concatenate([np.stack([v(H, 0, 1), v(H, 0, 0) - v(H, 1, 1)]) for H in Hs])
    b = np.linalg.svd(V)[2][-1]
    b = b * np.sign(b[0])
    B11, B12, B22, B13, B23, B33 = b
    v0 = (B12 * B13 - B11 * B23) / (B11 * B22 - B12**2)
    lam = B33 - (B13**2 + v0 * (B12 * B13 - B11 * B23)) / B11
    alpha = np.sqrt(lam / B11)
    beta = np.sqrt(lam * B11 / (B11 * B22 - B12**2))
    gamma = -B12 * alpha**2 * beta / lam
    u0 = gamma * v0 / beta - B13 * alpha**2 / lam
    return {"K": np.array([[alpha, gamma, u0], [0, beta, v0], [0, 0, 1]])}


def eight_point(np, x1, x2):
    x1, x2 = np.asarray(x1), np.asarray(x2)
    A = np.einsum("ni,nj->nij", x2, x1).reshape(len(x1), 9)
    E = np.linalg.svd(A)[2][-1].reshape(3, 3)
    U, S, Vt = np.linalg.svd(E)
    E2 = U @ np.diag([1.0, 1.0, 0.0]) @ Vt
    E2 /= np.linalg.norm(E2)
    resid = np.abs(np.einsum("ni,ij,nj->n", x2, E2, x1))
    return {"S": S / S[0], "rank": np.linalg.matrix_rank(E2, tol=1e-6), "resid": resid.max() < 1e-6,
            "sv2": np.linalg.svd(E2, compute_uv=False)}


def triangulate(np, P1, P2, x1, x2):
    P1, P2, x1, x2 = map(np.asarray, (P1, P2, x1, x2))
    A = np.stack([x1[:, 0, None] * P1[2] - P1[0], x1[:, 1, None] * P1[2] - P1[1],
                  x2[:, 0, None] * P2[2] - P2[0], x2[:, 1, None] * P2[2] - P2[1]], axis=1)
    _, _, Vt = np.linalg.svd(A)
    X = Vt[:, -1, :]
    X = X[:, :3] / X[:, 3:]
    return {"X": X}


def vanishing(np, segs):
    s = np.asarray(segs)  # (n, 2, 2) line segments
    h = np.concatenate([s, np.ones(s.shape[:2] + (1,))], axis=-1)
    lines = np.cross(h[:, 0], h[:, 1])
    lines /= np.linalg.norm(lines[:, :2], axis=1, keepdims=True)
    vp = np.cross(lines[0], lines[1])
    vp = vp / vp[2]
    dist = np.abs(lines @ vp)
    _, _, Vt = np.linalg.svd(lines)
    ls = Vt[-1] / Vt[-1, 2]
    return {"lines": lines * np.sign(lines[:, 2:3]), "vp": vp[:2], "dist": dist, "ls": ls[:2]}


def warp(np, img, H, shape):
    img, H = np.asarray(img), np.asarray(H)
    h, w = shape
    ys, xs = np.indices((h, w))
    pts = np.stack([xs.ravel(), ys.ravel(), np.ones(h * w)], axis=0)
    src = np.linalg.inv(H) @ pts
    sx, sy = src[0] / src[2], src[1] / src[2]
    x0, y0 = np.floor(sx).astype(int), np.floor(sy).astype(int)
    inside = (x0 >= 0) & (y0 >= 0) & (x0 < img.shape[1] - 1) & (y0 < img.shape[0] - 1)
    x0c, y0c = np.clip(x0, 0, img.shape[1] - 2), np.clip(y0, 0, img.shape[0] - 2)
    fx, fy = sx - x0c, sy - y0c
    val = (img[y0c, x0c] * (1 - fx) * (1 - fy) + img[y0c, x0c + 1] * fx * (1 - fy)
           + img[y0c + 1, x0c] * (1 - fx) * fy + img[y0c + 1, x0c + 1] * fx * fy)
    out = np.where(inside, val, 0.0).reshape(h, w)
    return {"out": out, "coverage": inside.mean()}


def test_pinhole():
    rng = np.random.default_rng(2551)
    X = rng.uniform([-1, -1, 3], [1, 1, 8], (20, 3))
    K = np.array([[500.0, 0, 320], [0, 500, 240], [0, 0, 1]])
    check(pinhole, X, K, np.array([0.1, -0.2, 0.05]), np.array([0.1, 0.0, 0.5]), rtol=1e-4, atol=1e-3)


def test_dlt_homography():
    rng = np.random.default_rng(2552)
    H = np.array([[1.1, 0.05, 20], [-0.03, 0.95, -10], [1e-4, 2e-4, 1.0]])
    src = rng.uniform(0, 400, (10, 2))
    d = np.column_stack([src, np.ones(10)]) @ H.T
    check(dlt_homography, src, d[:, :2] / d[:, 2:], rtol=1e-3, atol=1e-2)


def test_distortion():
    rng = np.random.default_rng(2553)
    check(distortion, rng.uniform(-0.5, 0.5, (12, 2)), -0.2, 0.05, 0.001, -0.002, rtol=1e-4, atol=1e-5)


def test_zhang_intrinsics():
    K = np.array([[800.0, 0.0, 320], [0, 780, 240], [0, 0, 1]])
    Hs = []
    for r, t in [([0.2, 0.1, 0.0], [0.1, 0.2, 3.0]), ([-0.3, 0.2, 0.1], [-0.2, 0.1, 4.0]),
                 ([0.1, -0.4, 0.2], [0.3, -0.1, 3.5]), ([0.3, 0.3, -0.1], [0.0, 0.0, 5.0])]:
        R = rodrigues(np, r)
        H = K @ np.column_stack([R[:, 0], R[:, 1], t])
        Hs.append(H / H[2, 2])
    check(zhang_intrinsics, np.array(Hs), rtol=2e-2, atol=1.0)


def test_eight_point():
    rng = np.random.default_rng(2554)
    X = rng.uniform([-1, -1, 4], [1, 1, 8], (12, 3))
    R = rodrigues(np, [0.05, 0.2, -0.03])
    t = np.array([1.0, 0.1, 0.05])
    x1 = X / X[:, 2:]
    X2 = X @ R.T + t
    x2 = X2 / X2[:, 2:]
    check(eight_point, x1, x2, rtol=1e-3, atol=1e-4)


def test_triangulate():
    rng = np.random.default_rng(2555)
    X = rng.uniform([-1, -1, 4], [1, 1, 8], (9, 3))
    P1 = np.hstack([np.eye(3), np.zeros((3, 1))])
    P2 = np.hstack([rodrigues(np, [0.0, 0.1, 0.0]), np.array([[-1.0], [0], [0]])])
    Xh = np.column_stack([X, np.ones(9)])
    x1 = Xh @ P1.T
    x2 = Xh @ P2.T
    check(triangulate, P1, P2, x1[:, :2] / x1[:, 2:], x2[:, :2] / x2[:, 2:], rtol=1e-3, atol=1e-3)


def test_vanishing():
    segs = np.array([[[0, 0], [100, 10]], [[0, 50], [100, 52]], [[0, 100], [100, 94]], [[10, 0], [20, 100]]],
                    dtype=float)
    check(vanishing, segs, rtol=1e-3, atol=1e-3)


def test_warp():
    rng = np.random.default_rng(2556)
    H = np.array([[1.0, 0.1, 2.0], [-0.05, 1.1, 1.0], [0.001, 0.0, 1.0]])
    check(warp, rng.uniform(0, 1, (12, 14)), H, (10, 12), rtol=1e-4, atol=1e-4)
