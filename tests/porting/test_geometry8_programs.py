"""Plane geometry: a convex hull by Andrew's monotone chain (Python loops over lexsorted points), vectorised
point-in-polygon by ray casting, shoelace areas and centroids, pairwise distances by broadcasting with
nearest neighbours via argsort/argpartition, rotations and homogeneous transforms, segment intersections and the
closest pair, and bounding boxes with angle sorting (tests/porting)."""

import numpy as np
from harness import check


def convex_hull(np, pts):
    pts = np.asarray(pts)
    order = np.lexsort((pts[:, 1], pts[:, 0]))
    P = pts[order]

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower, upper = [], []
    for p in P:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in P[::-1]:
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    hull = np.array(lower[:-1] + upper[:-1])
    x, y = hull[:, 0], hull[:, 1]
    area = 0.5 * np.abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))
    perimeter = np.sum(np.linalg.norm(np.diff(np.vstack([hull, hull[:1]]), axis=0), axis=1))
    return {"hull": hull, "n": len(hull), "area": area, "perimeter": perimeter}


def point_in_polygon(np, poly, pts):
    x, y = pts[:, 0:1], pts[:, 1:2]
    x1, y1 = poly[:, 0], poly[:, 1]
    x2, y2 = np.roll(x1, -1), np.roll(y1, -1)
    crosses = (y1 > y) != (y2 > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        xint = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
    inside = np.count_nonzero(crosses & (x < xint), axis=1) % 2 == 1
    return {"inside": inside, "count": int(inside.sum()), "idx": np.nonzero(inside)[0]}


def shoelace_centroid(np, poly):
    x, y = poly[:, 0], poly[:, 1]
    xs, ys = np.roll(x, -1), np.roll(y, -1)
    cr = x * ys - xs * y
    A = cr.sum() / 2
    cx = ((x + xs) * cr).sum() / (6 * A)
    cy = ((y + ys) * cr).sum() / (6 * A)
    ccw = A > 0
    rev = poly[::-1]
    A2 = 0.5 * (np.dot(rev[:, 0], np.roll(rev[:, 1], -1)) - np.dot(rev[:, 1], np.roll(rev[:, 0], -1)))
    return {"A": A, "centroid": np.array([cx, cy]), "ccw": bool(ccw), "A2": A2, "mean": poly.mean(axis=0)}


def nearest_neighbours(np, X, k):
    D = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=-1))
    np.fill_diagonal(D, np.inf)
    nn = D.argmin(axis=1)
    knn = np.argsort(D, axis=1, kind="stable")[:, :k]
    part = np.sort(np.partition(D, k, axis=1)[:, :k], axis=1)
    i, j = np.unravel_index(np.argmin(D), D.shape)
    sq = np.sum(X**2, axis=1)
    D2 = np.sqrt(np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0))
    np.fill_diagonal(D2, 0)
    iu = np.triu_indices(len(X), 1)
    return {"nn": nn, "knn": knn, "part": part, "pair": sorted([int(i), int(j)]), "D2": D2,
            "mean_pair": D2[iu].mean(), "radius": np.max(np.min(D, axis=1))}


def rotations(np, pts, deg):
    t = np.deg2rad(deg)
    R = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    rotated = pts @ R.T
    H = np.eye(3)
    H[:2, :2] = R
    H[:2, 2] = [2.0, -1.0]
    homog = np.hstack([pts, np.ones((len(pts), 1))])
    moved = (H @ homog.T).T[:, :2]
    back = (np.linalg.inv(H) @ np.c_[moved, np.ones(len(pts))].T).T[:, :2]
    angles = np.degrees(np.arctan2(rotated[:, 1], rotated[:, 0])) - np.degrees(np.arctan2(pts[:, 1], pts[:, 0]))
    return {"rotated": rotated, "moved": moved, "back_ok": bool(np.allclose(back, pts, atol=1e-4)),
            "angles": np.round((angles + 180) % 360 - 180, 3), "norms_kept": np.linalg.norm(rotated, axis=1),
            "det": np.linalg.det(R)}


def segment_intersections(np, segs):
    p, r = segs[:, None, :2], segs[:, None, 2:] - segs[:, None, :2]
    q, s = segs[None, :, :2], segs[None, :, 2:] - segs[None, :, :2]
    rxs = r[..., 0] * s[..., 1] - r[..., 1] * s[..., 0]
    qp = q - p
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (qp[..., 0] * s[..., 1] - qp[..., 1] * s[..., 0]) / rxs
        u = (qp[..., 0] * r[..., 1] - qp[..., 1] * r[..., 0]) / rxs
    hit = (rxs != 0) & (t >= 0) & (t <= 1) & (u >= 0) & (u <= 1)
    ii, jj = np.nonzero(np.triu(hit, 1))
    points = segs[ii, :2] + t[ii, jj][:, None] * (segs[ii, 2:] - segs[ii, :2])
    return {"pairs": np.column_stack([ii, jj]), "points": points, "n": int(np.triu(hit, 1).sum())}


def bbox_and_angle_sort(np, pts):
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    c = pts.mean(axis=0, keepdims=True)
    ang = np.arctan2(pts[:, 1] - c[0, 1], pts[:, 0] - c[0, 0])
    order = np.argsort(ang)
    radial = np.hypot(*(pts - c).T)
    far = pts[np.argmax(radial)]
    inside_box = np.all((pts >= lo + 0.25 * (hi - lo)) & (pts <= hi - 0.25 * (hi - lo)), axis=1)
    q = np.digitize(ang, np.linspace(-np.pi, np.pi, 5)) - 1
    return {"lo": lo, "hi": hi, "order": order, "far": far, "inner": np.flatnonzero(inside_box),
            "quadrants": np.bincount(q, minlength=4), "span": np.ptp(pts, axis=0)}


RNG = np.random.default_rng(831)
POLY = np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 3.0], [2.0, 1.5], [0.0, 3.0]])


def test_convex_hull_monotone_chain():
    check(convex_hull, RNG.random((25, 2)) * 10, rtol=1e-4, atol=1e-4)


def test_point_in_polygon_ray_casting():
    check(point_in_polygon, POLY, np.random.default_rng(832).random((30, 2)) * [4, 3])


def test_shoelace_area_and_centroid():
    check(shoelace_centroid, POLY)


def test_pairwise_distances_nearest_neighbours():
    check(nearest_neighbours, np.random.default_rng(833).random((12, 2)), 3, rtol=1e-3, atol=1e-3)


def test_rotation_and_homogeneous_transform():
    check(rotations, np.random.default_rng(834).normal(size=(6, 2)), 30.0, rtol=1e-3, atol=1e-3)


def test_segment_intersections_by_broadcasting():
    check(segment_intersections, np.random.default_rng(835).random((8, 4)), rtol=1e-3, atol=1e-4)


def test_bounding_box_and_angle_sort():
    check(bbox_and_angle_sort, np.random.default_rng(836).normal(size=(20, 2)), rtol=1e-4, atol=1e-4)
