"""Computer graphics as NumPy scripts write it: ray-sphere intersection for a whole image of rays with the
quadratic's discriminant as a mask, Lambert shading with clipped dot products, barycentric coordinates and a
point-in-triangle rasteriser, a z-buffer filled triangle by triangle with masks and np.minimum, rotation
matrices (Euler angles, Rodrigues, quaternions) checked orthonormal, a perspective projection with homogeneous
coordinates, per-vertex normals accumulated with np.add.at, and gamma-corrected uint8 output (tests/porting)."""

import numpy as np
from harness import check


def ray_sphere_image(np, w=24, h=16):
    xs = np.linspace(-1, 1, w)
    ys = np.linspace(0.66, -0.66, h)
    px, py = np.meshgrid(xs, ys)
    dirs = np.stack([px, py, -np.ones_like(px)], axis=-1)
    dirs /= np.linalg.norm(dirs, axis=-1, keepdims=True)
    origin = np.array([0.0, 0.0, 2.0])
    centers = np.array([[0.0, 0.0, -1.0], [0.8, -0.3, -0.5]])
    radii = np.array([0.8, 0.3])
    t_best = np.full((h, w), np.inf)
    hit_id = np.full((h, w), -1)
    for k in range(len(radii)):
        oc = origin - centers[k]
        b = dirs @ oc
        c = oc @ oc - radii[k] ** 2
        disc = b * b - c
        hit = disc >= 0
        t = np.where(hit, -b - np.sqrt(np.where(hit, disc, 0)), np.inf)
        closer = hit & (t > 0) & (t < t_best)
        t_best[closer] = t[closer]
        hit_id[closer] = k
    light = np.array([1.0, 1.0, 1.0]) / np.sqrt(3)
    P = origin + dirs * np.where(np.isfinite(t_best), t_best, 0)[..., None]
    N = P - centers[np.maximum(hit_id, 0)]
    N /= np.linalg.norm(N, axis=-1, keepdims=True)
    shade = np.where(hit_id >= 0, np.clip(N @ light, 0, 1), 0.0)
    img = (255 * shade ** (1 / 2.2)).round().astype(np.uint8)
    return {"hit_id": hit_id, "coverage": float((hit_id >= 0).mean()), "img": img[::3, ::4],
            "tmin": float(t_best[np.isfinite(t_best)].min())}


def barycentric_raster(np, tri_host, n=20):
    A, B, C = np.asarray(tri_host)
    ys, xs = np.mgrid[0:n, 0:n] + 0.5
    P = np.stack([xs, ys], axis=-1)
    v0, v1, v2 = B - A, C - A, P - A
    d00, d01, d11 = v0 @ v0, v0 @ v1, v1 @ v1
    d20, d21 = v2 @ v0, v2 @ v1
    den = d00 * d11 - d01 * d01
    v = (d11 * d20 - d01 * d21) / den
    w = (d00 * d21 - d01 * d20) / den
    u = 1 - v - w
    inside = (u >= 0) & (v >= 0) & (w >= 0)
    colors = np.array([[255, 0, 0], [0, 255, 0], [0, 0, 255]])
    img = np.zeros((n, n, 3), dtype=np.uint8)
    bary = np.stack([u, v, w], axis=-1)
    img[inside] = (bary[inside] @ colors).astype(np.uint8)
    area = 0.5 * abs(v0[0] * v1[1] - v0[1] * v1[0])
    return {"inside": int(inside.sum()), "area": float(area), "img_sum": img.sum(axis=(0, 1)),
            "rows": np.flatnonzero(inside.any(axis=1))}


def zbuffer(np, tris_host, depths_host, n=16):
    zbuf = np.full((n, n), np.inf)
    ids = np.full((n, n), -1, dtype=np.int32)
    ys, xs = np.mgrid[0:n, 0:n] + 0.5
    for t, (tri, z) in enumerate(zip(tris_host, depths_host, strict=True)):
        (x0, y0), (x1, y1), (x2, y2) = tri
        e0 = (x1 - x0) * (ys - y0) - (y1 - y0) * (xs - x0)
        e1 = (x2 - x1) * (ys - y1) - (y2 - y1) * (xs - x1)
        e2 = (x0 - x2) * (ys - y2) - (y0 - y2) * (xs - x2)
        inside = ((e0 >= 0) & (e1 >= 0) & (e2 >= 0)) | ((e0 <= 0) & (e1 <= 0) & (e2 <= 0))
        depth = np.where(inside, z, np.inf)
        closer = depth < zbuf
        zbuf = np.minimum(zbuf, depth)
        ids[closer] = t
    visible = np.unique(ids[ids >= 0])
    px_per_tri = np.bincount(ids[ids >= 0].ravel(), minlength=len(depths_host))
    return {"ids": ids, "visible": visible, "px": px_per_tri, "zmin": float(zbuf.min()),
            "covered": int(np.isfinite(zbuf).sum())}


def rotation_matrices(np, angles_host, axis_host, theta=0.7):
    a, b, c = angles_host
    Rx = np.array([[1, 0, 0], [0, np.cos(a), -np.sin(a)], [0, np.sin(a), np.cos(a)]])
    Ry = np.array([[np.cos(b), 0, np.sin(b)], [0, 1, 0], [-np.sin(b), 0, np.cos(b)]])
    Rz = np.array([[np.cos(c), -np.sin(c), 0], [np.sin(c), np.cos(c), 0], [0, 0, 1]])
    R = Rz @ Ry @ Rx
    k = np.asarray(axis_host) / np.linalg.norm(axis_host)
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    Rr = np.eye(3) + np.sin(theta) * K + (1 - np.cos(theta)) * K @ K
    q = np.concatenate([[np.cos(theta / 2)], np.sin(theta / 2) * k])
    w, x, y, z = q
    Rq = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                   [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                   [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
    angle_back = np.arccos(np.clip((np.trace(Rr) - 1) / 2, -1, 1))
    return {"R": R, "orth": float(np.abs(R.T @ R - np.eye(3)).max()), "det": float(np.linalg.det(R)),
            "Rr": Rr, "same": bool(np.allclose(Rr, Rq, atol=1e-5)), "angle": float(angle_back),
            "axis_fixed": Rr @ k}


def perspective_projection(np, verts_host, fov=60.0, near=0.1, far=50.0, w=64, h=48):
    V = np.asarray(verts_host)
    f = 1 / np.tan(np.radians(fov) / 2)
    aspect = w / h
    P = np.array([[f / aspect, 0, 0, 0], [0, f, 0, 0],
                  [0, 0, (far + near) / (near - far), 2 * far * near / (near - far)], [0, 0, -1, 0]])
    Vh = np.hstack([V, np.ones((len(V), 1))])
    clip = Vh @ P.T
    ndc = clip[:, :3] / clip[:, 3:4]
    visible = np.all(np.abs(ndc) <= 1, axis=1)
    sx = ((ndc[:, 0] + 1) * 0.5 * w).astype(int)
    sy = ((1 - ndc[:, 1]) * 0.5 * h).astype(int)
    return {"ndc": ndc, "visible": visible, "screen": np.column_stack([sx, sy])[visible]}


def vertex_normals(np, verts_host, faces_host):
    V = np.asarray(verts_host)
    F = np.asarray(faces_host)
    tri = V[F]  # (faces, 3, 3)
    fn = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    area = 0.5 * np.linalg.norm(fn, axis=1)
    vn = np.zeros_like(V)
    for j in range(3):
        np.add.at(vn, F[:, j], fn)
    vn /= np.linalg.norm(vn, axis=1, keepdims=True)
    return {"area": area.sum(), "vn": vn, "deg": np.bincount(F.ravel(), minlength=len(V))}


def gamma_tone_map(np, hdr_host):
    hdr = np.asarray(hdr_host)
    lum = 0.2126 * hdr[..., 0] + 0.7152 * hdr[..., 1] + 0.0722 * hdr[..., 2]
    key = np.exp(np.mean(np.log(lum + 1e-4)))
    scaled = hdr * (0.18 / key)
    mapped = scaled / (1 + scaled)
    srgb = np.where(mapped <= 0.0031308, 12.92 * mapped, 1.055 * mapped ** (1 / 2.4) - 0.055)
    out = np.clip(srgb * 255 + 0.5, 0, 255).astype(np.uint8)
    hist = np.histogram(out[..., 1], bins=8, range=(0, 256))[0]
    return {"key": float(key), "out": out[::2, ::2], "hist": hist, "mean_rgb": out.reshape(-1, 3).mean(axis=0)}


def bilinear_texture_lookat(np, tex_host, uv_host, eye=(2.0, 1.0, 3.0)):
    tex = np.asarray(tex_host)
    h, w = tex.shape[:2]
    uv = np.asarray(uv_host)
    x = uv[:, 0] * (w - 1)
    y = uv[:, 1] * (h - 1)
    x0 = np.floor(x).astype(int)
    y0 = np.floor(y).astype(int)
    x1 = np.clip(x0 + 1, 0, w - 1)
    y1 = np.clip(y0 + 1, 0, h - 1)
    fx, fy = (x - x0)[:, None], (y - y0)[:, None]
    c = (tex[y0, x0] * (1 - fx) * (1 - fy) + tex[y0, x1] * fx * (1 - fy)
         + tex[y1, x0] * (1 - fx) * fy + tex[y1, x1] * fx * fy)
    e = np.array(eye)
    f = -e / np.linalg.norm(e)
    r = np.cross(f, [0.0, 1.0, 0.0])
    r /= np.linalg.norm(r)
    u = np.cross(r, f)
    view = np.eye(4)
    view[0, :3], view[1, :3], view[2, :3] = r, u, -f
    view[:3, 3] = -view[:3, :3] @ e
    back = np.linalg.inv(view) @ np.array([0.0, 0.0, 0.0, 1.0])
    ortho = bool(np.allclose(view[:3, :3] @ view[:3, :3].T, np.eye(3), atol=1e-6))  # float32 (kdsl's eye)
    return {"colors": c, "view": view, "eye_back": back[:3], "ortho": ortho}


def test_ray_sphere_intersection_image():
    check(ray_sphere_image, rtol=1e-3, atol=1e-4)


def test_barycentric_rasteriser():
    check(barycentric_raster, np.array([[2.0, 3.0], [17.5, 6.0], [8.0, 18.0]]), rtol=1e-4, atol=1e-4)


def test_zbuffer_triangles_masks():
    rng = np.random.default_rng(0)
    check(zbuffer, rng.uniform(0, 16, size=(5, 3, 2)), rng.uniform(1, 10, size=5))


def test_rotation_matrices_euler_rodrigues_quaternion():
    check(rotation_matrices, (0.3, -0.5, 1.1), np.array([1.0, 2.0, 2.0]), rtol=1e-4, atol=1e-5)


def test_perspective_projection_homogeneous():
    rng = np.random.default_rng(1)
    V = np.column_stack([rng.uniform(-3, 3, 20), rng.uniform(-2, 2, 20), rng.uniform(-12, 1, 20)])
    check(perspective_projection, V, rtol=1e-4, atol=1e-4)


def test_vertex_normals_add_at():
    V = np.array([[0.0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0.5, 1]])
    Fc = np.array([[0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4], [0, 2, 1], [0, 3, 2]])
    check(vertex_normals, V, Fc, rtol=1e-4, atol=1e-5)


def test_bilinear_texture_sampling_and_lookat():
    rng = np.random.default_rng(3)
    check(bilinear_texture_lookat, rng.random((6, 8, 3)), rng.random((10, 2)), rtol=1e-4, atol=1e-5)


def test_tone_mapping_srgb_uint8():
    check(gamma_tone_map, np.random.default_rng(2).lognormal(0, 1.5, size=(10, 12, 3)), rtol=1e-3, atol=1e-3)
