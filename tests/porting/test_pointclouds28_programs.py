"""Point clouds and projective geometry in plain NumPy: rigid alignment by Kabsch (SVD with the reflection fix
through `det`), point-to-point ICP with brute-force nearest neighbours (`argmin` of a distance matrix), surface
normals by PCA of k-nearest neighbourhoods (`argpartition`, batched `eigh`), voxel-grid downsampling by `floor`,
`unique(axis=0, return_inverse=True, return_counts=True)` and `np.add.at`, homographies by the DLT (the last
right-singular vector) with Hartley normalisation, RANSAC over passed-in minimal samples, and ray-sphere
intersection of a pinhole camera's rays with shading (tests/porting)."""

import numpy as np
from harness import check


def kabsch(np, P, Q):
    P, Q = np.asarray(P), np.asarray(Q)
    cp, cq = P.mean(axis=0), Q.mean(axis=0)
    H = (P - cp).T @ (Q - cq)
    U, S, Vt = np.linalg.svd(H)
    d = np.sign(np.linalg.det(Vt.T @ U.T))
    D = np.diag([1.0, 1.0, d])
    R = Vt.T @ D @ U.T
    t = cq - R @ cp
    aligned = P @ R.T + t
    rmsd = np.sqrt(np.mean(np.sum((aligned - Q) ** 2, axis=1)))
    angle = np.degrees(np.arccos(np.clip((np.trace(R) - 1) / 2, -1.0, 1.0)))
    return {"R": R, "t": t, "rmsd": rmsd, "det": np.linalg.det(R), "S": S, "angle": angle,
            "orthonormal": np.allclose(R @ R.T, np.eye(3), atol=1e-5)}


def icp(np, src, dst, iters):
    src, dst = np.asarray(src, dtype=np.float64), np.asarray(dst, dtype=np.float64)
    cur = src.copy()
    errors, R_total, t_total = [], np.eye(3), np.zeros(3)
    for _ in range(iters):
        d2 = ((cur[:, None, :] - dst[None, :, :]) ** 2).sum(-1)
        nn = d2.argmin(axis=1)
        errors.append(np.sqrt(d2[np.arange(len(cur)), nn]).mean())
        matched = dst[nn]
        mc, md = cur.mean(0), matched.mean(0)
        U, _, Vt = np.linalg.svd((cur - mc).T @ (matched - md))
        R = Vt.T @ U.T
        if np.linalg.det(R) < 0:
            Vt[-1] *= -1
            R = Vt.T @ U.T
        t = md - R @ mc
        cur = cur @ R.T + t
        R_total, t_total = R @ R_total, R @ t_total + t
    return {"errors": np.array(errors), "R": R_total, "t": t_total, "cur": cur,
            "unique_matches": len(np.unique(nn))}


def pca_normals(np, pts, k):
    pts = np.asarray(pts)
    d2 = np.sum((pts[:, None] - pts[None]) ** 2, axis=-1)
    nbr = np.argpartition(d2, k, axis=1)[:, :k + 1]
    patches = pts[nbr]
    centred = patches - patches.mean(axis=1, keepdims=True)
    cov = np.einsum("nki,nkj->nij", centred, centred) / k
    w, v = np.linalg.eigh(cov)
    normals = v[:, :, 0]
    normals *= np.where(normals[:, 2:3] < 0, -1.0, 1.0)
    curvature = w[:, 0] / w.sum(axis=1)
    return {"normals": normals, "curvature": curvature, "flat": curvature < 0.01,
            "w_sorted": bool(np.all(np.diff(w, axis=1) >= 0)), "mean_normal": normals.mean(axis=0)}


def voxel_downsample(np, pts, size):
    pts = np.asarray(pts)
    keys = np.floor(pts / size).astype(np.int64)
    vox, inv, counts = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
    inv = inv.ravel()
    sums = np.zeros((len(vox), 3))
    np.add.at(sums, inv, pts)
    centroids = sums / counts[:, None]
    lo = np.full((len(vox), 3), np.inf)
    np.minimum.at(lo, inv, pts)
    first = np.full(len(vox), len(pts))
    np.minimum.at(first, inv, np.arange(len(pts)))
    return {"vox": vox, "counts": counts, "centroids": centroids, "lo": lo, "first": first,
            "occupancy": np.bincount(counts), "bbox": np.ptp(vox, axis=0)}


def _normalise(np, p):
    c = p.mean(axis=0)
    s = np.sqrt(2) / np.mean(np.linalg.norm(p - c, axis=1))
    T = np.array([[s, 0, -s * c[0]], [0, s, -s * c[1]], [0, 0, 1]])
    ph = np.column_stack([p, np.ones(len(p))]) @ T.T
    return ph, T


def dlt_homography(np, src, dst):
    src, dst = np.asarray(src), np.asarray(dst)
    a, Ta = _normalise(np, src)
    b, Tb = _normalise(np, dst)
    n = len(src)
    M = np.zeros((2 * n, 9))
    M[0::2, 0:3] = -a
    M[0::2, 6:9] = a * b[:, 0:1]
    M[1::2, 3:6] = -a
    M[1::2, 6:9] = a * b[:, 1:2]
    _, s, Vt = np.linalg.svd(M)
    Hn = Vt[-1].reshape(3, 3)
    H = np.linalg.inv(Tb) @ Hn @ Ta
    H /= H[2, 2]
    proj = np.column_stack([src, np.ones(n)]) @ H.T
    proj = proj[:, :2] / proj[:, 2:]
    return {"H": H, "err": np.abs(proj - dst).max(), "smallest_sv": s[-1] / s[0], "rank": np.linalg.matrix_rank(M)}


def ransac_homography(np, src, dst, samples, thresh):
    src, dst = np.asarray(src), np.asarray(dst)
    best_inliers = np.zeros(len(src), dtype=bool)
    scores = []
    hs = np.column_stack([src, np.ones(len(src))])
    for idx in samples:
        H = dlt_homography(np, src[idx], dst[idx])["H"]
        p = hs @ H.T
        err = np.linalg.norm(p[:, :2] / p[:, 2:3] - dst, axis=1)
        inl = err < thresh
        scores.append(int(inl.sum()))
        if inl.sum() > best_inliers.sum():
            best_inliers = inl
    refit = dlt_homography(np, src[best_inliers], dst[best_inliers])
    return {"scores": scores, "inliers": np.flatnonzero(best_inliers), "H": refit["H"],
            "best": int(np.argmax(scores))}


def ray_spheres(np, width, height, centers, radii, light):
    centers, radii = np.asarray(centers), np.asarray(radii)
    i, j = np.meshgrid(np.arange(width), np.arange(height))
    u = (i + 0.5) / width * 2 - 1
    v = 1 - (j + 0.5) / height * 2
    dirs = np.stack([u, v, -np.ones_like(u)], axis=-1)
    dirs /= np.linalg.norm(dirs, axis=-1, keepdims=True)
    oc = -centers  # the camera sits at the origin
    b = np.einsum("hwk,sk->hws", dirs, oc)
    c = np.sum(oc**2, axis=1) - radii**2
    disc = b**2 - c
    hit = disc >= 0
    t = np.where(hit, -b - np.sqrt(np.where(hit, disc, 0.0)), np.inf)
    t = np.where(t > 1e-6, t, np.inf)
    nearest = np.argmin(t, axis=-1)
    depth = np.take_along_axis(t, nearest[..., None], axis=-1)[..., 0]
    visible = np.isfinite(depth)
    p = dirs * np.where(visible, depth, 0.0)[..., None]
    normal = (p - centers[nearest]) / radii[nearest][..., None]
    lam = np.clip(normal @ (np.asarray(light) / np.linalg.norm(light)), 0, 1)
    shade = np.where(visible, 0.1 + 0.9 * lam, 0.0)
    img = (shade * 255).astype(np.uint8)
    return {"ids": np.where(visible, nearest, -1), "depth": np.where(visible, depth, 0.0), "img": img,
            "coverage": visible.mean(), "hist": np.bincount(img.ravel() // 64, minlength=4)}


def _rot(ax, ay, az):
    cx, sx, cy, sy, cz, sz = np.cos(ax), np.sin(ax), np.cos(ay), np.sin(ay), np.cos(az), np.sin(az)
    Rx = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    Ry = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    Rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    return Rz @ Ry @ Rx


def test_kabsch():
    rng = np.random.default_rng(2820)
    P = rng.normal(size=(30, 3))
    Q = P @ _rot(0.3, -0.2, 0.9).T + [1.0, -2.0, 0.5] + rng.normal(0, 0.01, (30, 3))
    check(kabsch, P, Q, rtol=1e-3, atol=1e-4)


def test_icp():
    rng = np.random.default_rng(2821)
    dst = rng.uniform(-1, 1, (40, 3))
    src = (dst - [0.05, 0.02, -0.03]) @ _rot(0.05, 0.02, -0.04)
    check(icp, src, dst, 5, rtol=1e-3, atol=1e-4)


def test_pca_normals():
    rng = np.random.default_rng(2822)
    xy = rng.uniform(-1, 1, (36, 2))
    z = 0.3 * xy[:, 0] + 0.1 * xy[:, 1] ** 2
    check(pca_normals, np.column_stack([xy, z]), 6, rtol=2e-3, atol=2e-4)


def test_voxel_downsample():
    rng = np.random.default_rng(2823)
    pts = rng.uniform(-1, 1, (120, 3))
    check(voxel_downsample, pts, 0.5)
    check(voxel_downsample, pts[:1], 0.5)


def test_dlt_homography():
    H = np.array([[1.1, 0.05, 3.0], [-0.02, 0.95, -1.0], [1e-3, 2e-3, 1.0]])
    src = np.array([[0, 0], [10, 0], [10, 8], [0, 8], [5, 4], [2, 7.0]])
    p = np.column_stack([src, np.ones(len(src))]) @ H.T
    check(dlt_homography, src, p[:, :2] / p[:, 2:], rtol=2e-3, atol=2e-3)


def test_ransac_homography():
    rng = np.random.default_rng(2825)
    H = np.array([[0.9, -0.1, 2.0], [0.1, 1.05, 1.0], [5e-4, -1e-3, 1.0]])
    src = rng.uniform(0, 20, (25, 2))
    p = np.column_stack([src, np.ones(len(src))]) @ H.T
    dst = p[:, :2] / p[:, 2:] + rng.normal(0, 0.02, (25, 2))
    dst[[3, 8, 15, 21]] += rng.uniform(3, 6, (4, 2))
    samples = [rng.choice(25, 4, replace=False) for _ in range(6)] + [np.array([0, 1, 2, 4])]
    check(ransac_homography, src, dst, samples, 0.5, rtol=5e-3, atol=5e-3)


def test_ray_spheres():
    centers = np.array([[0.0, 0.0, -3.0], [0.8, 0.3, -2.0], [-1.0, -0.6, -4.0]])
    check(ray_spheres, 16, 12, centers, np.array([1.0, 0.4, 0.7]), [1.0, 1.0, 0.5], rtol=1e-3, atol=1e-3)
