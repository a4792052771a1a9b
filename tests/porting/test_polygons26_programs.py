"""Polygon geometry in plain NumPy: shoelace area, centroid and orientation by `np.roll`, ray-casting
point-in-polygon tests broadcast over points x edges and reduced by `np.logical_xor.reduce`, winding numbers by
`arctan2` angle sums, Sutherland-Hodgman clipping with growing Python lists of rows, a monotone-chain convex hull
after `np.lexsort`, fan triangulation with barycentric coordinates by batched `solve`, minimum-area bounding
rectangles by rotating to each edge with `einsum`, and Douglas-Peucker simplification by recursion on
cross-product distances (tests/porting)."""

import numpy as np
from harness import check


def shoelace(np, P):
    P = np.asarray(P, dtype=float)
    x, y = P[:, 0], P[:, 1]
    xn, yn = np.roll(x, -1), np.roll(y, -1)
    cross = x * yn - xn * y
    A = cross.sum() / 2
    cx = ((x + xn) * cross).sum() / (6 * A)
    cy = ((y + yn) * cross).sum() / (6 * A)
    edges = np.roll(P, -1, axis=0) - P
    lengths = np.hypot(edges[:, 0], edges[:, 1])
    normals = np.stack([edges[:, 1], -edges[:, 0]], axis=1) / lengths[:, None]
    prev = np.append(edges[-1:], edges[:-1], axis=0)
    turn = prev[:, 0] * edges[:, 1] - prev[:, 1] * edges[:, 0]  # (np.cross of 2-vectors: gone in NumPy 2.5)
    return {"area": abs(A), "ccw": bool(A > 0), "centroid": np.array([cx, cy]), "perimeter": lengths.sum(),
            "normals": normals, "convex": bool(np.all(turn > 0) or np.all(turn < 0)),
            "reflex": np.flatnonzero(turn < 0)}


def _cross2(u, v):
    """The z of the cross product of 2-vectors (np.cross of 2-vectors is deprecated since NumPy 2.0)."""
    return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]


def point_in_polygon(np, P, Q):
    P, Q = np.asarray(P), np.asarray(Q)
    x0, y0 = P[:, 0], P[:, 1]
    x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
    px, py = Q[:, 0:1], Q[:, 1:2]
    straddle = (y0 > py) != (y1 > py)
    with np.errstate(divide="ignore", invalid="ignore"):
        xint = x0 + (py - y0) * (x1 - x0) / (y1 - y0)
    hits = straddle & (px < xint)
    inside = np.logical_xor.reduce(hits, axis=1)
    count = hits.sum(axis=1)
    return {"inside": inside, "count": count, "parity": (count % 2 == 1) == inside,
            "frac": inside.mean(), "which": np.nonzero(inside)[0]}


def winding(np, P, Q):
    P, Q = np.asarray(P), np.asarray(Q)
    d = P[None, :, :] - Q[:, None, :]
    dn = np.roll(d, -1, axis=1)
    cross = d[..., 0] * dn[..., 1] - d[..., 1] * dn[..., 0]
    dot = np.einsum("qvk,qvk->qv", d, dn)
    ang = np.arctan2(cross, dot)
    w = np.rint(ang.sum(axis=1) / (2 * np.pi)).astype(int)
    return {"w": w, "total": ang.sum(axis=1), "inside": w != 0}


def clip_polygon(np, subject, clip):
    subject, clip = np.asarray(subject, dtype=float), np.asarray(clip, dtype=float)

    def inside(p, a, b):
        return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= 0

    def intersect(p, q, a, b):
        r, s = q - p, b - a
        t = ((a[0] - p[0]) * s[1] - (a[1] - p[1]) * s[0]) / (r[0] * s[1] - r[1] * s[0])
        return p + t * r

    out = list(subject)
    for i in range(len(clip)):
        a, b = clip[i], clip[(i + 1) % len(clip)]
        inp, out = out, []
        if not inp:
            break
        prev = inp[-1]
        for cur in inp:
            if inside(cur, a, b):
                if not inside(prev, a, b):
                    out.append(intersect(prev, cur, a, b))
                out.append(cur)
            elif inside(prev, a, b):
                out.append(intersect(prev, cur, a, b))
            prev = cur
    R = np.array(out)
    x, y = R[:, 0], R[:, 1]
    area = 0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))
    return {"poly": R, "n": len(R), "area": area, "bbox": np.concatenate([R.min(0), R.max(0)])}


def convex_hull(np, pts):
    pts = np.asarray(pts)
    order = np.lexsort((pts[:, 1], pts[:, 0]))
    P = pts[order]

    def half(points):
        h = []
        for p in points:
            while len(h) >= 2 and _cross2(h[-1] - h[-2], p - h[-2]) <= 0:
                h.pop()
            h.append(p)
        return h

    lower, upper = half(P), half(P[::-1])
    H = np.array(lower[:-1] + upper[:-1])
    idx = np.array([np.flatnonzero(np.all(pts == h, axis=1))[0] for h in H])
    x, y = H[:, 0], H[:, 1]
    return {"hull": H, "idx": idx, "area": 0.5 * np.abs(x @ np.roll(y, -1) - y @ np.roll(x, -1)),
            "order": order[:5]}


def fan_barycentric(np, P, Q):
    P, Q = np.asarray(P), np.asarray(Q)
    tris = np.stack([np.repeat(P[:1], len(P) - 2, axis=0), P[1:-1], P[2:]], axis=1)  # (T, 3, 2)
    T = np.concatenate([tris, np.ones(tris.shape[:2] + (1,))], axis=2).transpose(0, 2, 1)  # (T, 3, 3)
    rhs = np.concatenate([Q, np.ones((len(Q), 1))], axis=1).T  # (3, Q)
    lam = np.linalg.solve(T[:, None], np.broadcast_to(rhs.T[None, :, :, None], (len(tris), len(Q), 3, 1)))[..., 0]
    inside = np.all(lam >= -1e-12, axis=-1)
    owner = np.where(inside.any(axis=0), inside.argmax(axis=0), -1)
    areas = 0.5 * np.abs(np.linalg.det(T))
    return {"areas": areas, "lam": lam, "owner": owner, "total": areas.sum()}


def min_area_rect(np, pts):
    pts = np.asarray(pts)
    e = np.diff(np.vstack([pts, pts[:1]]), axis=0)
    ang = np.unique(np.mod(np.arctan2(e[:, 1], e[:, 0]), np.pi / 2))
    R = np.stack([np.stack([np.cos(ang), np.sin(ang)], -1), np.stack([-np.sin(ang), np.cos(ang)], -1)], axis=1)
    rot = np.einsum("aij,nj->ani", R, pts)
    span = rot.max(axis=1) - rot.min(axis=1)
    area = span.prod(axis=1)
    best = np.argmin(area)
    return {"angles": ang, "areas": area, "best": best, "sides": np.sort(span[best]),
            "aspect": span[best].max() / span[best].min()}


def douglas_peucker(np, line, eps):
    line = np.asarray(line)

    def dp(pts):
        a, b = pts[0], pts[-1]
        ab = b - a
        d = np.abs(_cross2(ab, pts - a)) / np.linalg.norm(ab)
        i = int(np.argmax(d))
        if d[i] > eps:
            left = dp(pts[: i + 1])
            return np.vstack([left[:-1], dp(pts[i:])])
        return np.vstack([a, b])

    simple = dp(line)
    keep = np.array([np.flatnonzero((line == p).all(axis=1))[0] for p in simple])
    seg = np.diff(simple, axis=0)
    return {"simple": simple, "keep": keep, "length": np.linalg.norm(seg, axis=1).sum(),
            "orig_length": np.sum(np.sqrt(np.sum(np.diff(line, axis=0) ** 2, axis=1)))}


STAR = np.array([[0.0, 3], [1, 1], [3, 1], [1.5, -0.5], [2.5, -3], [0, -1.5], [-2.5, -3], [-1.5, -0.5],
                 [-3, 1], [-1, 1]])


def test_shoelace():
    check(shoelace, STAR)
    check(shoelace, STAR[::-1])
    check(shoelace, [[0, 0], [4, 0], [4, 3], [0, 3]])


def test_point_in_polygon():
    rng = np.random.default_rng(2631)
    check(point_in_polygon, STAR, rng.uniform(-3, 3, (40, 2)))


def test_winding():
    rng = np.random.default_rng(2632)
    check(winding, STAR, rng.uniform(-3, 3, (25, 2)), rtol=1e-4, atol=1e-4)


def test_clip_polygon():
    square = [[-1.0, -1], [2, -1], [2, 2], [-1, 2]]
    check(clip_polygon, STAR, square)
    check(clip_polygon, [[0.0, 0], [1, 0], [0.5, 1]], [[5.0, 5], [6, 5], [6, 6], [5, 6]][:3] and square)


def test_convex_hull():
    rng = np.random.default_rng(2634)
    check(convex_hull, np.round(rng.uniform(-5, 5, (30, 2)), 1))


def test_fan_barycentric():
    P = np.array([[0.0, 0], [4, 0], [5, 3], [2, 5], [-1, 3]])
    rng = np.random.default_rng(2635)
    check(fan_barycentric, P, rng.uniform(-1, 5, (12, 2)), rtol=1e-4, atol=1e-5)


def test_min_area_rect():
    rng = np.random.default_rng(2636)
    theta = np.sort(rng.uniform(0, 2 * np.pi, 9))
    check(min_area_rect, np.stack([3 * np.cos(theta), np.sin(theta)], 1) @ np.array([[0.8, 0.6], [-0.6, 0.8]]),
          rtol=1e-4, atol=1e-5)


def test_douglas_peucker():
    t = np.linspace(0, 4 * np.pi, 40)
    check(douglas_peucker, np.stack([t, np.sin(t) * np.exp(-t / 8)], axis=1), 0.1)
