"""3-D and computational geometry as NumPy code writes it: rotation matrices from axis-angle (Rodrigues) and
quaternions composed with einsum, the Kabsch alignment by SVD, ray-sphere intersections by the quadratic
formula, triangle rasterisation with barycentric coordinates on a pixel grid, segment intersection tests by
cross products, point-to-segment distances with clipping, axis-aligned bounding-box overlaps, great-circle
distances by the haversine formula, and a per-polygon area with np.vectorize(signature=) (tests/porting)."""

import numpy as np
from harness import check


def rotations(np, axes_host, angles_host, pts_host):
    axes = np.asarray(axes_host)
    axes = axes / np.linalg.norm(axes, axis=1, keepdims=True)
    theta = np.asarray(angles_host)
    K = np.zeros((len(axes), 3, 3))
    K[:, 0, 1], K[:, 0, 2] = -axes[:, 2], axes[:, 1]
    K[:, 1, 0], K[:, 1, 2] = axes[:, 2], -axes[:, 0]
    K[:, 2, 0], K[:, 2, 1] = -axes[:, 1], axes[:, 0]
    s, c = np.sin(theta)[:, None, None], np.cos(theta)[:, None, None]
    R = np.eye(3) + s * K + (1 - c) * (K @ K)
    w = np.cos(theta / 2)
    xyz = axes * np.sin(theta / 2)[:, None]
    q = np.column_stack([w, xyz])
    qw, qx, qy, qz = q.T
    Rq = np.stack([
        np.stack([1 - 2 * (qy**2 + qz**2), 2 * (qx * qy - qz * qw), 2 * (qx * qz + qy * qw)], axis=-1),
        np.stack([2 * (qx * qy + qz * qw), 1 - 2 * (qx**2 + qz**2), 2 * (qy * qz - qx * qw)], axis=-1),
        np.stack([2 * (qx * qz - qy * qw), 2 * (qy * qz + qx * qw), 1 - 2 * (qx**2 + qy**2)], axis=-1),
    ], axis=1)
    pts = np.asarray(pts_host)
    rotated = np.einsum("rij,pj->rpi", R, pts)
    composed = np.linalg.multi_dot([R[0], R[1], R[2]])
    return {"R": R, "agree": float(np.abs(R - Rq).max()), "det": np.linalg.det(R),
            "orthogonal": float(np.abs(np.einsum("rji,rjk->rik", R, R) - np.eye(3)).max()), "rotated": rotated,
            "composed": composed, "trace_angle": np.arccos(np.clip((np.trace(R, axis1=1, axis2=2) - 1) / 2, -1, 1))}


def kabsch(np, P_host, angle=0.7):
    P = np.asarray(P_host)
    c, s = np.cos(angle), np.sin(angle)
    R_true = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    Q = P @ R_true.T + np.array([1.0, -2.0, 0.5])
    Pc, Qc = P - P.mean(axis=0), Q - Q.mean(axis=0)
    H = Pc.T @ Qc
    U, S, Vt = np.linalg.svd(H)
    d = np.sign(np.linalg.det(Vt.T @ U.T))
    D = np.diag([1.0, 1.0, d])
    R = Vt.T @ D @ U.T
    t = Q.mean(axis=0) - R @ P.mean(axis=0)
    rmsd = np.sqrt(np.mean(np.sum((P @ R.T + t - Q) ** 2, axis=1)))
    return {"R": R, "t": t, "rmsd": float(rmsd), "S": S, "angle": float(np.arctan2(R[1, 0], R[0, 0]))}


def ray_spheres(np, origins_host, dirs_host, centres_host, radii_host):
    o, d = np.asarray(origins_host), np.asarray(dirs_host)
    d = d / np.linalg.norm(d, axis=1, keepdims=True)
    C, r = np.asarray(centres_host), np.asarray(radii_host)
    oc = o[:, None, :] - C[None, :, :]
    b = np.einsum("rk,rsk->rs", d, oc)
    cc = np.einsum("rsk,rsk->rs", oc, oc) - r**2
    disc = b**2 - cc
    hit = disc >= 0
    t = np.where(hit, -b - np.sqrt(np.where(hit, disc, 0)), np.inf)
    t = np.where(t > 0, t, np.inf)
    nearest = np.argmin(t, axis=1)
    t_near = t[np.arange(len(o)), nearest]
    any_hit = np.isfinite(t_near)
    points = o + d * np.where(any_hit, t_near, 0)[:, None]
    normals = (points - C[nearest]) / r[nearest][:, None]
    shade = np.where(any_hit, np.clip(normals @ np.array([0.0, 0.0, -1.0]), 0, 1), 0)
    return {"hit": hit, "nearest": np.where(any_hit, nearest, -1), "t": np.where(any_hit, t_near, -1.0),
            "shade": shade}


def rasterise(np, tri_host, size=24):
    tri = np.asarray(tri_host)
    ys, xs = np.mgrid[0:size, 0:size] + 0.5
    (x0, y0), (x1, y1), (x2, y2) = tri
    area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
    w0 = ((x1 - xs) * (y2 - ys) - (x2 - xs) * (y1 - ys)) / area
    w1 = ((x2 - xs) * (y0 - ys) - (x0 - xs) * (y2 - ys)) / area
    w2 = 1 - w0 - w1
    inside = (w0 >= 0) & (w1 >= 0) & (w2 >= 0)
    colours = np.array([[255, 0, 0], [0, 255, 0], [0, 0, 255]])
    bary = np.stack([w0, w1, w2], axis=-1)
    img = np.where(inside[..., None], bary @ colours, 0).round().astype(np.uint8)
    return {"inside": inside, "count": int(inside.sum()), "area": float(abs(area) / 2), "img": img}


def segments(np, a_host, b_host, c_host, d_host):
    A, B, C, D = (np.asarray(x) for x in (a_host, b_host, c_host, d_host))

    def cross2(u, v):
        return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]

    d1 = cross2(D - C, A - C)
    d2 = cross2(D - C, B - C)
    d3 = cross2(B - A, C - A)
    d4 = cross2(B - A, D - A)
    proper = (d1 * d2 < 0) & (d3 * d4 < 0)
    denom = cross2(B - A, D - C)
    t = np.divide(cross2(C - A, D - C), denom, out=np.full(denom.shape, np.nan), where=denom != 0)
    where = A + t[:, None] * (B - A)
    AB = B - A
    u = np.clip(np.einsum("ij,ij->i", C - A, AB) / np.einsum("ij,ij->i", AB, AB), 0, 1)
    closest = A + u[:, None] * AB
    dist = np.linalg.norm(C - closest, axis=1)
    return {"proper": proper, "t": t, "where": np.where(proper[:, None], where, np.nan), "u": u, "dist": dist}


def aabb_overlaps(np, pts_host, labels_host):
    pts, labels = np.asarray(pts_host), np.asarray(labels_host)
    k = labels.max() + 1
    lo = np.full((k, 2), np.inf)
    hi = np.full((k, 2), -np.inf)
    np.minimum.at(lo, labels, pts)
    np.maximum.at(hi, labels, pts)
    overlap = np.all((lo[:, None, :] <= hi[None, :, :]) & (lo[None, :, :] <= hi[:, None, :]), axis=-1)
    np.fill_diagonal(overlap, False)
    inter = np.clip(np.minimum(hi[:, None], hi[None]) - np.maximum(lo[:, None], lo[None]), 0, None).prod(-1)
    area = (hi - lo).prod(axis=1)
    return {"lo": lo, "hi": hi, "overlap": overlap, "pairs": np.argwhere(np.triu(overlap)), "inter": inter,
            "area": area}


def haversine(np, lat_host, lon_host):
    lat, lon = np.radians(np.asarray(lat_host)), np.radians(np.asarray(lon_host))
    dlat = lat[:, None] - lat[None, :]
    dlon = lon[:, None] - lon[None, :]
    a = np.sin(dlat / 2) ** 2 + np.cos(lat[:, None]) * np.cos(lat[None, :]) * np.sin(dlon / 2) ** 2
    D = 2 * 6371.0 * np.arcsin(np.sqrt(a))
    route = [0]
    left = np.ones(len(lat), dtype=bool)
    left[0] = False
    while left.any():
        nxt = int(np.argmin(np.where(left, D[route[-1]], np.inf)))
        route.append(nxt)
        left[nxt] = False
    length = D[route[:-1], route[1:]].sum()
    bearing = np.degrees(np.arctan2(np.sin(dlon) * np.cos(lat[None, :]),
                                    np.cos(lat[:, None]) * np.sin(lat[None, :])
                                    - np.sin(lat[:, None]) * np.cos(lat[None, :]) * np.cos(dlon))) % 360
    return {"D": D, "route": route, "length": float(length), "bearing": bearing[0]}


def polygon_areas(np, polys_host):
    polys = np.asarray(polys_host)
    shoelace = np.vectorize(lambda p: 0.5 * abs(np.dot(p[:, 0], np.roll(p[:, 1], -1))
                                                - np.dot(p[:, 1], np.roll(p[:, 0], -1))), signature="(n,2)->()")
    centroid = np.vectorize(lambda p: p.mean(axis=0), signature="(n,2)->(2)")
    areas = shoelace(polys)
    return {"areas": areas, "centroids": centroid(polys), "largest": int(np.argmax(areas)),
            "total": float(areas.sum())}


def test_rodrigues_quaternion_rotations_einsum():
    rng = np.random.default_rng(681)
    check(rotations, rng.normal(size=(3, 3)), rng.uniform(-np.pi, np.pi, 3), rng.normal(size=(5, 3)),
          rtol=1e-3, atol=1e-4)


def test_kabsch_alignment_svd():
    check(kabsch, np.random.default_rng(682).normal(size=(12, 3)), rtol=1e-3, atol=1e-4)


def test_ray_sphere_intersections():
    rng = np.random.default_rng(683)
    origins = np.zeros((16, 3))
    origins[:, 2] = -10
    dirs = np.column_stack([rng.uniform(-0.4, 0.4, (16, 2)), np.ones(16)])
    check(ray_spheres, origins, dirs, np.array([[0.0, 0.0, 0.0], [2.0, 1.0, 3.0], [-2.0, -1.0, 1.0]]),
          np.array([1.5, 1.0, 0.8]), rtol=1e-3, atol=1e-4)


def test_triangle_rasterisation_barycentric():
    check(rasterise, np.array([[2.0, 3.0], [21.0, 6.5], [8.0, 20.0]]))


def test_segment_intersections_and_distances():
    rng = np.random.default_rng(685)
    check(segments, *(rng.integers(0, 10, (20, 2)).astype(float) for _ in range(4)), rtol=1e-3, atol=1e-4)


def test_bounding_boxes_minimum_at_overlaps():
    rng = np.random.default_rng(686)
    labels = rng.integers(0, 5, 60)
    pts = rng.normal(size=(60, 2)) + labels[:, None] * 0.8
    check(aabb_overlaps, pts, labels)


def test_haversine_distance_matrix_greedy_route():
    rng = np.random.default_rng(687)
    check(haversine, rng.uniform(-60, 60, 9), rng.uniform(-180, 180, 9), rtol=1e-3, atol=1e-2)


def test_polygon_areas_vectorize_signature():
    rng = np.random.default_rng(688)
    angles = np.sort(rng.uniform(0, 2 * np.pi, (6, 7)), axis=1)
    radii = rng.uniform(1, 3, (6, 7))
    check(polygon_areas, np.stack([radii * np.cos(angles), radii * np.sin(angles)], axis=-1))
