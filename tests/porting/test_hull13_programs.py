"""Computational geometry as competitive-programming and GIS notebooks write it with NumPy: Jarvis's gift wrapping
(cross products by broadcasting, `np.lexsort` tie-breaks), the quickhull recursion on boolean masks, point in
polygon by the winding number (`np.arctan2` of consecutive vertices, `np.roll`, `np.isclose`), nearest neighbours on
a uniform grid of buckets (`np.floor` cell ids, `np.ravel_multi_index`, `argsort` + `np.searchsorted` bucket
ranges) checked against brute force, the closest pair by sorting on x with a strip scan (the brute force masks its
diagonal through the writeable view `np.einsum('ii->i', D)[:] = np.inf`), polygon clipping by Sutherland-Hodgman
against a convex window with areas by `np.cross` of 2-d vectors written as the 3-d product, and rasterised coverage
of a scanline fill by `np.meshgrid`, `np.logical_xor.reduce` of edge crossings and `np.count_nonzero`
(tests/porting)."""

import numpy as np
from harness import check


def _cross(np, o, a, b):
    return (a[..., 0] - o[..., 0]) * (b[..., 1] - o[..., 1]) - (a[..., 1] - o[..., 1]) * (b[..., 0] - o[..., 0])


def gift_wrapping(np, pts):
    start = int(np.lexsort((pts[:, 1], pts[:, 0]))[0])
    hull = [start]
    current = start
    while True:
        cand = (current + 1) % len(pts)
        cr = _cross(np, pts[current], pts[cand], pts)
        d_c = ((pts[cand] - pts[current]) ** 2).sum()
        d_all = ((pts - pts[current]) ** 2).sum(axis=1)
        better = (cr < 0) | ((cr == 0) & (d_all > d_c))
        while better.any():
            cand = int(np.flatnonzero(better)[0])
            cr = _cross(np, pts[current], pts[cand], pts)
            d_c = d_all[cand]
            better = (cr < 0) | ((cr == 0) & (d_all > d_c))
        current = cand
        if current == start:
            break
        hull.append(current)
    h = pts[hull]
    area = 0.5 * np.abs(np.dot(h[:, 0], np.roll(h[:, 1], -1)) - np.dot(h[:, 1], np.roll(h[:, 0], -1)))
    perim = np.linalg.norm(np.diff(np.vstack([h, h[:1]]), axis=0), axis=1).sum()
    return {"hull": hull, "area": area, "perimeter": perim}


def quickhull(np, pts):
    def side(a, b, subset):
        if len(subset) == 0:
            return []
        d = _cross(np, a, b, subset)
        far = subset[np.argmax(d)]
        left1 = subset[_cross(np, a, far, subset) > 0]
        left2 = subset[_cross(np, far, b, subset) > 0]
        return side(a, far, left1) + [far] + side(far, b, left2)

    lo, hi = pts[np.argmin(pts[:, 0])], pts[np.argmax(pts[:, 0])]
    above = pts[_cross(np, lo, hi, pts) > 0]
    below = pts[_cross(np, hi, lo, pts) > 0]
    hull = np.array([lo] + side(lo, hi, above) + [hi] + side(hi, lo, below))
    centroid = hull.mean(axis=0)
    angles = np.arctan2(hull[:, 1] - centroid[1], hull[:, 0] - centroid[0])
    return {"hull": hull[np.argsort(angles)], "n": len(hull), "centroid": centroid}


def winding_number(np, poly, pts):
    v = poly[None, :, :] - pts[:, None, :]
    nxt = np.roll(v, -1, axis=1)
    ang = np.arctan2(v[..., 0] * nxt[..., 1] - v[..., 1] * nxt[..., 0], (v * nxt).sum(axis=-1))
    wn = np.round(ang.sum(axis=1) / (2 * np.pi)).astype(int)
    on_vertex = np.isclose(np.abs(v).sum(axis=-1), 0).any(axis=1)
    return {"wn": wn, "inside": wn != 0, "on_vertex": on_vertex, "n_in": int(np.count_nonzero(wn))}


def grid_neighbours(np, pts, queries, cell):
    ij = np.floor(pts / cell).astype(np.int64)
    dims = tuple(ij.max(axis=0) + 1)
    cid = np.ravel_multi_index(ij.T, dims)
    order = np.argsort(cid, kind="stable")
    sorted_cid = cid[order]
    found = []
    for q in queries:
        qi = np.floor(q / cell).astype(np.int64)
        best, best_d = -1, np.inf
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                a, b = qi[0] + di, qi[1] + dj
                if not (0 <= a < dims[0] and 0 <= b < dims[1]):
                    continue
                c = np.ravel_multi_index((a, b), dims)
                lo, hi = np.searchsorted(sorted_cid, [c, c + 1])
                cand = order[lo:hi]
                if len(cand) == 0:
                    continue
                d = np.hypot(*(pts[cand] - q).T)
                k = int(np.argmin(d))
                if d[k] < best_d:
                    best, best_d = int(cand[k]), float(d[k])
        found.append(best)
    brute = np.argmin(((queries[:, None, :] - pts[None]) ** 2).sum(-1), axis=1)
    counts = np.bincount(cid, minlength=int(np.prod(dims)))
    return {"found": np.array(found), "brute": brute, "counts": counts.reshape(dims), "dims": list(dims)}


def closest_pair(np, pts):
    order = np.argsort(pts[:, 0])
    p = pts[order]
    best = np.inf
    pair = (-1, -1)
    for i in range(len(p)):
        j = i + 1
        while j < len(p) and p[j, 0] - p[i, 0] < best:
            d = np.sqrt(((p[j] - p[i]) ** 2).sum())
            if d < best:
                best, pair = d, (int(order[i]), int(order[j]))
            j += 1
    D = np.linalg.norm(pts[:, None] - pts[None], axis=-1)
    np.einsum("ii->i", D)[:] = np.inf  # Stack Overflow's writeable diagonal view
    brute = np.unravel_index(np.argmin(D), D.shape)
    return {"best": best, "pair": sorted(pair), "brute": sorted(int(v) for v in brute), "brute_d": D.min()}


def sutherland_hodgman(np, subject, window):
    out = subject
    for k in range(len(window)):
        a, b = window[k], window[(k + 1) % len(window)]
        inp = out
        if len(inp) == 0:
            break
        prev = inp[-1]
        pieces = []
        for cur in inp:
            cur_in = _cross(np, a, b, cur) >= 0
            prev_in = _cross(np, a, b, prev) >= 0
            if cur_in != prev_in:
                d1, d2 = prev - cur, a - b
                den = d1[0] * d2[1] - d1[1] * d2[0]
                t = ((prev[0] - a[0]) * d2[1] - (prev[1] - a[1]) * d2[0]) / den
                pieces.append(prev - t * d1)
            if cur_in:
                pieces.append(cur)
            prev = cur
        out = np.array(pieces)
    closed = np.vstack([out, out[:1]])
    v3 = np.hstack([closed, np.zeros((len(closed), 1))])
    area = 0.5 * np.cross(v3[:-1], v3[1:])[:, 2].sum()
    return {"clipped": out, "area": area, "n": len(out)}


def scanline_coverage(np, poly, res):
    xs = (np.arange(res) + 0.5) / res
    X, Y = np.meshgrid(xs, xs)
    x0, y0 = poly[:, 0], poly[:, 1]
    x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
    straddle = (y0[:, None, None] > Y) != (y1[:, None, None] > Y)
    with np.errstate(divide="ignore", invalid="ignore"):
        xint = x0[:, None, None] + (Y - y0[:, None, None]) * (x1 - x0)[:, None, None] / (y1 - y0)[:, None, None]
    crossings = straddle & (X < xint)
    inside = np.logical_xor.reduce(crossings, axis=0)
    cover = np.count_nonzero(inside) / res ** 2
    rows = inside.sum(axis=1)
    area = 0.5 * np.abs(np.sum(x0 * y1 - x1 * y0))
    return {"inside": inside, "cover": cover, "area": area, "rows": rows, "first_row": int(np.argmax(rows > 0))}


def test_gift_wrapping_hull():
    rng = np.random.default_rng(1351)
    pts = np.round(rng.random((40, 2)) * 20) / 2
    check(gift_wrapping, pts)


def test_quickhull_recursion():
    rng = np.random.default_rng(1352)
    check(quickhull, rng.normal(size=(60, 2)))


def test_winding_number_point_in_polygon():
    rng = np.random.default_rng(1353)
    poly = np.array([[0, 0], [4, 0], [4, 3], [2, 1.5], [0, 3]], dtype=float)
    pts = np.vstack([rng.random((30, 2)) * [5, 4] - 0.5, poly[:2]])
    check(winding_number, poly, pts)


def test_grid_bucket_nearest_neighbour():
    rng = np.random.default_rng(1354)
    check(grid_neighbours, rng.random((200, 2)) * 10, rng.random((15, 2)) * 10, 1.5)


def test_closest_pair_strip_scan():
    rng = np.random.default_rng(1355)
    check(closest_pair, rng.random((80, 2)))


def test_sutherland_hodgman_clipping():
    subject = np.array([[0.5, -1.0], [3.0, 0.5], [2.5, 3.0], [-1.0, 2.0]])
    window = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])
    check(sutherland_hodgman, subject, window)


def test_scanline_coverage_xor_reduce():
    poly = np.array([[0.113, 0.131], [0.927, 0.213], [0.611, 0.523], [0.834, 0.907], [0.229, 0.718]])
    check(scanline_coverage, poly, 40)  # no pixel centre on an edge: X, Y are float32 in kdsl
