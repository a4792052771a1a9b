"""Dynamic programming vectorised along rows, and computational geometry with broadcasting (tests/porting)."""

import numpy as np
from harness import check


def levenshtein_rows(np, a_codes, b_codes):
    a = np.asarray(a_codes)
    b = np.asarray(b_codes)
    prev = np.arange(len(b) + 1)
    rows = [prev.copy()]
    for i in range(1, len(a) + 1):
        cost = (a[i - 1] != b).astype(int)
        sub = prev[:-1] + cost
        dele = prev[1:] + 1
        cur = np.empty_like(prev)
        cur[0] = i
        cur[1:] = np.minimum(sub, dele)
        # insertions chain along the row: cur[j] = min_k (cur[k] + j - k), a running minimum
        j = np.arange(len(cur))
        cur = np.minimum.accumulate(cur - j) + j
        rows.append(cur)
        prev = cur
    table = np.vstack(rows)
    return {"distance": int(prev[-1]), "table": table, "similarity": 1 - prev[-1] / max(len(a), len(b))}


def knapsack_rows(np, weights_host, values_host, capacity=25):
    w = np.asarray(weights_host)
    v = np.asarray(values_host)
    best = np.zeros(capacity + 1, dtype=np.int64)
    keep = np.zeros((len(w), capacity + 1), dtype=bool)
    for i in range(len(w)):
        take = np.full(capacity + 1, -1, dtype=np.int64)
        take[w[i]:] = best[: capacity + 1 - w[i]] + v[i]
        keep[i] = take > best
        best = np.maximum(best, take)
    chosen = []
    c = capacity
    for i in range(len(w) - 1, -1, -1):
        if keep[i, c]:
            chosen.append(i)
            c -= int(w[i])
    chosen = sorted(chosen)
    return {"best": best, "value": int(best[-1]), "chosen": chosen, "weight": int(w[chosen].sum()),
            "keep_counts": keep.sum(axis=1)}


def viterbi(np, obs_host, log_pi_host, log_A_host, log_B_host):
    obs = np.asarray(obs_host)
    log_pi, log_A, log_B = np.asarray(log_pi_host), np.asarray(log_A_host), np.asarray(log_B_host)
    T, S = len(obs), log_A.shape[0]
    delta = np.zeros((T, S))
    psi = np.zeros((T, S), dtype=int)
    delta[0] = log_pi + log_B[:, obs[0]]
    for t in range(1, T):
        scores = delta[t - 1][:, None] + log_A
        psi[t] = scores.argmax(axis=0)
        delta[t] = scores.max(axis=0) + log_B[:, obs[t]]
    path = np.zeros(T, dtype=int)
    path[-1] = delta[-1].argmax()
    for t in range(T - 2, -1, -1):
        path[t] = psi[t + 1, path[t + 1]]
    # forward algorithm with logaddexp for the total likelihood
    alpha = log_pi + log_B[:, obs[0]]
    for t in range(1, T):
        alpha = np.logaddexp.reduce(alpha[:, None] + log_A, axis=0) + log_B[:, obs[t]]
    return {"path": path, "best": float(delta[-1].max()), "loglik": float(np.logaddexp.reduce(alpha)),
            "delta": delta}


def lcs_and_coins(np, a_codes, b_codes, coins=(1, 5, 10, 25), amount=63):
    a, b = np.asarray(a_codes), np.asarray(b_codes)
    L = np.zeros((len(a) + 1, len(b) + 1), dtype=int)
    match = a[:, None] == b[None, :]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            L[i, j] = L[i - 1, j - 1] + 1 if match[i - 1, j - 1] else max(L[i - 1, j], L[i, j - 1])
    ways = np.zeros(amount + 1, dtype=np.int64)
    ways[0] = 1
    fewest = np.full(amount + 1, np.iinfo(np.int32).max, dtype=np.int64)
    fewest[0] = 0
    for c in coins:
        for s in range(c, amount + 1):
            ways[s] += ways[s - c]
        for s in range(c, amount + 1):
            fewest[s] = min(fewest[s], fewest[s - c] + 1)
    return {"lcs": int(L[-1, -1]), "L": L, "ways": ways, "fewest": fewest, "matches": int(match.sum())}


def pairwise_geometry(np, P_host, Q_host):
    P, Q = np.asarray(P_host), np.asarray(Q_host)
    diff = P[:, None, :] - Q[None, :, :]
    D = np.sqrt((diff**2).sum(axis=-1))
    D2 = (P**2).sum(1)[:, None] + (Q**2).sum(1)[None, :] - 2 * P @ Q.T
    nearest = D.argmin(axis=1)
    dself = np.linalg.norm(P[:, None] - P[None], axis=-1)
    dself[np.diag_indices_from(dself)] = np.inf
    closest_pair = np.unravel_index(np.argmin(dself), dself.shape)
    centroid = P.mean(axis=0)
    radius = np.max(np.linalg.norm(P - centroid, axis=1))
    bbox = np.stack([P.min(axis=0), P.max(axis=0)])
    inside = np.all((Q >= bbox[0]) & (Q <= bbox[1]), axis=1)
    return {"D": D, "D2": np.sqrt(np.clip(D2, 0, None)), "nearest": nearest,
            "pair": sorted(int(i) for i in closest_pair), "radius": float(radius), "bbox": bbox, "inside": inside}


def polygons(np, poly_host, pts_host):
    poly = np.asarray(poly_host)
    x, y = poly[:, 0], poly[:, 1]
    area = 0.5 * (np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    cx = np.sum((x + np.roll(x, -1)) * (x * np.roll(y, -1) - np.roll(x, -1) * y)) / (6 * area)
    cy = np.sum((y + np.roll(y, -1)) * (x * np.roll(y, -1) - np.roll(x, -1) * y)) / (6 * area)
    edges = np.roll(poly, -1, axis=0) - poly
    perimeter = np.hypot(edges[:, 0], edges[:, 1]).sum()
    pts = np.asarray(pts_host)
    px, py = pts[:, 0:1], pts[:, 1:2]
    x0, y0 = x[None, :], y[None, :]
    x1, y1 = np.roll(x, -1)[None, :], np.roll(y, -1)[None, :]
    crosses = ((y0 > py) != (y1 > py)) & (px < (x1 - x0) * (py - y0) / (y1 - y0 + 1e-300) + x0)
    inside = crosses.sum(axis=1) % 2 == 1
    e3 = np.hstack([edges, np.zeros((len(edges), 1))])
    turns = np.cross(e3, np.roll(e3, -1, axis=0))[:, 2]
    convex = bool(np.all(turns > 0) or np.all(turns < 0))
    return {"area": float(area), "centroid": [float(cx), float(cy)], "perimeter": float(perimeter),
            "inside": inside, "turns": turns, "convex": convex}


def angular_sort_hull(np, pts_host):
    pts = np.asarray(pts_host)
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    r = np.linalg.norm(pts - c, axis=1)
    order = np.lexsort((r, ang))
    # Andrew's monotone chain on lexsorted points, a Python loop over rows
    idx = np.lexsort((pts[:, 1], pts[:, 0]))
    P = pts[idx]

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
    hx, hy = hull[:, 0], hull[:, 1]
    hull_area = 0.5 * abs(np.sum(hx * np.roll(hy, 1) - hy * np.roll(hx, 1)))
    deg = np.degrees(ang)
    octant = np.digitize(deg, np.linspace(-180, 180, 9)) - 1
    return {"order": order, "hull": hull, "area": float(hull_area), "n": len(hull),
            "octants": np.bincount(octant, minlength=9)}


def vectors_3d(np, V_host):
    V = np.asarray(V_host)
    a, b, c = V[0::3], V[1::3], V[2::3]
    n = np.cross(b - a, c - a)
    area = 0.5 * np.linalg.norm(n, axis=1)
    unit = n / np.linalg.norm(n, axis=1, keepdims=True)
    vol = np.einsum("ij,ij->i", a, np.cross(b, c)) / 6
    cosang = np.sum((b - a) * (c - a), axis=1) / (np.linalg.norm(b - a, axis=1) * np.linalg.norm(c - a, axis=1))
    angle = np.degrees(np.arccos(np.clip(cosang, -1, 1)))
    theta = np.pi / 5
    R = np.array([[np.cos(theta), -np.sin(theta), 0], [np.sin(theta), np.cos(theta), 0], [0, 0, 1]])
    rotated = V @ R.T
    ortho = np.allclose(R @ R.T, np.eye(3), atol=1e-6)
    proj = (V @ unit[0])[:, None] * unit[0]
    return {"area": area, "unit": unit, "vol": vol, "angle": angle, "rotated": rotated, "ortho": bool(ortho),
            "proj": proj, "det": float(np.linalg.det(R))}


def codes(s):
    return np.frombuffer(s.encode(), dtype=np.uint8).astype(np.int64)


def test_levenshtein_rows_running_minimum():
    check(levenshtein_rows, codes("intention"), codes("execution"))


def test_knapsack_rows_and_backtrack():
    rng = np.random.default_rng(21)
    check(knapsack_rows, rng.integers(1, 10, size=8), rng.integers(1, 30, size=8))


def test_viterbi_and_forward_logaddexp():
    rng = np.random.default_rng(22)
    A = rng.dirichlet(np.ones(3), size=3)
    B = rng.dirichlet(np.ones(4), size=3)
    pi = rng.dirichlet(np.ones(3))
    obs = rng.integers(0, 4, size=15)
    check(viterbi, obs, np.log(pi), np.log(A), np.log(B), rtol=1e-4, atol=1e-4)


def test_lcs_and_coin_change_loops():
    check(lcs_and_coins, codes("AGGTABQ"), codes("GXTXAYB"))


def test_pairwise_distances_broadcast_and_gram():
    rng = np.random.default_rng(23)
    check(pairwise_geometry, rng.normal(size=(15, 3)), rng.normal(size=(6, 3)), rtol=1e-3, atol=1e-3)


def test_polygon_shoelace_point_in_polygon():
    t = np.linspace(0, 2 * np.pi, 9)[:-1]
    r = np.array([3.0, 2.0, 3.0, 1.5, 3.0, 2.0, 3.0, 2.5])
    poly = np.column_stack([r * np.cos(t), r * np.sin(t)])
    rng = np.random.default_rng(24)
    check(polygons, poly, rng.uniform(-3.2, 3.1, size=(40, 2)), rtol=1e-4, atol=1e-4)


def test_angular_sort_and_monotone_chain_hull():
    rng = np.random.default_rng(25)
    check(angular_sort_hull, rng.normal(size=(30, 2)), rtol=1e-4, atol=1e-4)


def test_triangles_cross_products_rotations():
    rng = np.random.default_rng(26)
    check(vectors_3d, rng.normal(size=(12, 3)), rtol=1e-3, atol=1e-4)
