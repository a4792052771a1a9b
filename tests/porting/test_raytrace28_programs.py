"""Ray tracing in plain NumPy, all rays at once: ray-sphere intersection with the quadratic's stable root and
hard shadows towards a point light, mirror reflections (one bounce by fancy indexing of the hit sphere),
Moller-Trumbore ray-triangle tests broadcast over rays x triangles, slab tests against axis-aligned boxes with
`np.errstate` for division by zero direction components, refraction by Snell's law with total internal
reflection picked by `np.where`, ambient occlusion from passed-in hemisphere directions, and gamma-corrected
`uint8` images with `np.clip`/`np.rint` and a `histogram` of the luminance (tests/porting)."""

import numpy as np
from harness import check


def camera_rays(np, w, h, fov_deg):
    aspect = w / h
    scale = np.tan(np.radians(fov_deg) / 2)
    px = (2 * (np.arange(w) + 0.5) / w - 1) * aspect * scale
    py = (1 - 2 * (np.arange(h) + 0.5) / h) * scale
    X, Y = np.meshgrid(px, py)
    d = np.dstack([X, Y, -np.ones_like(X)]).reshape(-1, 3)
    return d / np.linalg.norm(d, axis=1)[:, np.newaxis]


def intersect_spheres(np, origins, dirs, centers, radii):
    oc = origins[:, None, :] - centers[None, :, :]
    b = np.sum(dirs[:, None, :] * oc, axis=-1)
    c = np.sum(oc * oc, axis=-1) - radii[None, :] ** 2
    disc = b * b - c
    sq = np.sqrt(np.maximum(disc, 0))
    t0, t1 = -b - sq, -b + sq
    t = np.where(t0 > 1e-4, t0, t1)
    t[(disc < 0) | (t <= 1e-4)] = np.inf
    idx = np.argmin(t, axis=1)
    return t[np.arange(len(t)), idx], idx


def shadows(np, w, h, centers, radii, light):
    centers, radii, light = np.asarray(centers), np.asarray(radii), np.asarray(light)
    dirs = camera_rays(np, w, h, 60.0)
    origins = np.zeros_like(dirs)
    t, idx = intersect_spheres(np, origins, dirs, centers, radii)
    hit = np.isfinite(t)
    p = dirs[hit] * t[hit, None]
    n = (p - centers[idx[hit]]) / radii[idx[hit], None]
    to_l = light - p
    dist_l = np.linalg.norm(to_l, axis=1)
    l = to_l / dist_l[:, None]
    ts, _ = intersect_spheres(np, p + 1e-3 * n, l, centers, radii)
    lit = ts > dist_l
    diffuse = np.clip(np.einsum("ij,ij->i", n, l), 0, None) * lit
    img = np.zeros(w * h)
    img[hit] = 0.05 + 0.95 * diffuse
    return {"hit": hit.reshape(h, w), "ids": np.where(hit, idx, -1).reshape(h, w), "img": img.reshape(h, w),
            "in_shadow": int(np.sum(~lit)), "per_sphere": np.bincount(idx[hit], minlength=len(radii))}


def reflections(np, w, h, centers, radii, albedo):
    centers, radii, albedo = np.asarray(centers), np.asarray(radii), np.asarray(albedo)
    dirs = camera_rays(np, w, h, 50.0)
    t, idx = intersect_spheres(np, np.zeros_like(dirs), dirs, centers, radii)
    hit = np.isfinite(t)
    colour = np.tile(np.array([0.2, 0.3, 0.5]), (len(dirs), 1))  # sky
    p = dirs * np.where(hit, t, 0)[:, None]
    n = (p - centers[idx]) / radii[idx][:, None]
    r = dirs - 2 * np.sum(dirs * n, axis=1, keepdims=True) * n
    t2, idx2 = intersect_spheres(np, p + 1e-3 * n, r, centers, radii)
    second = hit & np.isfinite(t2)
    base = albedo[idx]
    colour[hit] = base[hit] * 0.7
    colour[second] += 0.3 * albedo[idx2[second]]
    colour[hit & ~second] += 0.3 * np.array([0.2, 0.3, 0.5])
    img = (np.clip(colour, 0, 1) ** (1 / 2.2) * 255).round().astype(np.uint8).reshape(h, w, 3)
    return {"img": img, "second": int(second.sum()), "mean_rgb": img.reshape(-1, 3).mean(axis=0)}


def triangles(np, origins, dirs, v0, v1, v2):
    origins, dirs = np.asarray(origins), np.asarray(dirs)
    v0, v1, v2 = np.asarray(v0), np.asarray(v1), np.asarray(v2)
    e1, e2 = v1 - v0, v2 - v0
    pvec = np.cross(dirs[:, None, :], e2[None, :, :])
    det = np.einsum("tk,rtk->rt", e1, pvec)
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / det
        tvec = origins[:, None, :] - v0[None]
        u = np.einsum("rtk,rtk->rt", tvec, pvec) * inv
        q = np.cross(tvec, e1[None])
        v = np.einsum("rk,rtk->rt", dirs, q) * inv
        t = np.einsum("tk,rtk->rt", e2, q) * inv
    ok = (np.abs(det) > 1e-9) & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > 0)
    t = np.where(ok, t, np.inf)
    first = np.argmin(t, axis=1)
    area = 0.5 * np.linalg.norm(np.cross(e1, e2), axis=1)
    return {"t": np.min(t, axis=1), "first": np.where(ok.any(axis=1), first, -1), "ok": ok, "area": area,
            "backface": det < 0}


def slab_boxes(np, origins, dirs, lo, hi):
    origins, dirs, lo, hi = (np.asarray(a) for a in (origins, dirs, lo, hi))
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / dirs
        t1 = (lo[None] - origins[:, None]) * inv[:, None]
        t2 = (hi[None] - origins[:, None]) * inv[:, None]
    tmin = np.nanmax(np.minimum(t1, t2), axis=-1)
    tmax = np.nanmin(np.maximum(t1, t2), axis=-1)
    hit = (tmax >= np.maximum(tmin, 0))
    entry = np.where(hit, np.maximum(tmin, 0), np.inf)
    return {"hit": hit, "entry": entry, "nearest": np.argmin(entry, axis=1), "count": hit.sum(axis=1),
            "inv_inf": np.isinf(inv).sum()}


def refraction(np, dirs, normals, eta):
    d = np.asarray(dirs)
    n = np.asarray(normals)
    cos_i = -np.sum(d * n, axis=-1)
    inside = cos_i < 0
    n = np.where(inside[:, None], -n, n)
    cos_i = np.abs(cos_i)
    ratio = np.where(inside, eta, 1 / eta)
    k = 1 - ratio**2 * (1 - cos_i**2)
    tir = k < 0
    refr = ratio[:, None] * d + (ratio * cos_i - np.sqrt(np.maximum(k, 0)))[:, None] * n
    refl = d + 2 * cos_i[:, None] * n
    out = np.where(tir[:, None], refl, refr)
    r0 = ((1 - eta) / (1 + eta)) ** 2
    fresnel = np.select([tir], [1.0], default=r0 + (1 - r0) * (1 - cos_i) ** 5)
    return {"out": out, "tir": tir, "fresnel": fresnel, "unit": np.allclose(np.linalg.norm(out, axis=1), 1, atol=1e-5)}


def ambient_occlusion(np, points, normals, samples, centers, radii, reach):
    points, normals, samples = np.asarray(points), np.asarray(normals), np.asarray(samples)
    centers, radii = np.asarray(centers), np.asarray(radii)
    # flip samples into each normal's hemisphere
    s = samples[None, :, :] * np.sign(np.einsum("pk,sk->ps", normals, samples))[..., None]
    rays = s.reshape(-1, 3)
    orig = np.repeat(points + 1e-3 * normals, len(samples), axis=0)
    t, _ = intersect_spheres(np, orig, rays, centers, radii)
    occluded = (t < reach).reshape(len(points), len(samples))
    ao = 1 - occluded.mean(axis=1)
    lum = (np.rint(np.clip(ao, 0, 1) * 255)).astype(np.uint8)
    hist, edges = np.histogram(lum, bins=4, range=(0, 256))
    return {"ao": ao, "lum": lum, "hist": hist, "edges": edges}


SCENE = (np.array([[0.0, 0.0, -4.0], [1.2, -0.3, -3.0], [-1.0, -101.0, -4.0]]), np.array([1.0, 0.5, 100.0]))


def test_shadows():
    check(shadows, 16, 12, *SCENE, [3.0, 4.0, 0.0], rtol=1e-3, atol=1e-3)


def test_reflections():
    check(reflections, 16, 12, *SCENE, [[0.9, 0.2, 0.2], [0.2, 0.9, 0.2], [0.6, 0.6, 0.6]], rtol=1e-3, atol=1e-3)


def test_triangles():
    rng = np.random.default_rng(2871)
    v0 = rng.uniform(-1, 1, (5, 3)) + [0, 0, -3]
    v1 = v0 + rng.uniform(-1, 1, (5, 3))
    v2 = v0 + rng.uniform(-1, 1, (5, 3))
    dirs = rng.normal(size=(30, 3)) * [0.3, 0.3, 0.0] + [0, 0, -1]
    check(triangles, np.zeros((30, 3)), dirs / np.linalg.norm(dirs, axis=1, keepdims=True), v0, v1, v2,
          rtol=1e-3, atol=1e-4)


def test_slab_boxes():
    rng = np.random.default_rng(2872)
    dirs = rng.normal(size=(20, 3))
    dirs[:4, 0] = 0.0  # axis-parallel rays: 1/0 = inf in the slab test
    dirs[4, :2] = 0.0
    lo = np.array([[-1.0, -1, -1], [2, 0, 0], [-3, -3, 1]])
    check(slab_boxes, rng.uniform(-0.5, 0.5, (20, 3)), dirs, lo, lo + [0.8, 1.5, 2.0], rtol=1e-4, atol=1e-5)


def test_refraction():
    rng = np.random.default_rng(2873)
    d = rng.normal(size=(25, 3))
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    check(refraction, d, np.tile([0.0, 0.0, 1.0], (25, 1)), 1.5, rtol=1e-4, atol=1e-5)


def test_ambient_occlusion():
    rng = np.random.default_rng(2874)
    samples = rng.normal(size=(16, 3))
    samples /= np.linalg.norm(samples, axis=1, keepdims=True)
    pts = np.column_stack([rng.uniform(-2, 2, 10), np.full(10, -1.0), rng.uniform(-5, -3, 10)])
    normals = np.tile([0.0, 1.0, 0.0], (10, 1))
    check(ambient_occlusion, pts, normals, samples, *SCENE, 3.0)
