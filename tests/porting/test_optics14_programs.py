"""Optics as course notebooks write it: ray-sphere intersection by broadcasting rays against spheres (nearest hit by
`argmin`, Lambert shading with `np.clip`, shadow rays), vector Snell's law with total internal reflection masks and
Schlick's Fresnel term, thin-film interference in complex128 over a `np.meshgrid` of wavelengths and thicknesses,
a dielectric mirror by stacked 2x2 characteristic matrices (`np.matmul` over a wavelength axis), Fraunhofer
diffraction of slits and a circular aperture by `fft2`/`fftshift`, a radial PSF profile by `np.bincount` weights,
ABCD ray-transfer matrices with `np.linalg.multi_dot`, and Gaussian beams by the complex q parameter
(tests/porting)."""

import numpy as np
from harness import check


def ray_sphere_scene(np, origins, dirs, centers, radii, light):
    origins, dirs = np.asarray(origins), np.asarray(dirs)
    centers, radii = np.asarray(centers), np.asarray(radii)
    dirs = dirs / np.linalg.norm(dirs, axis=1, keepdims=True)
    oc = origins[:, None, :] - centers[None, :, :]  # (rays, spheres, 3)
    b = np.einsum("nk,nmk->nm", dirs, oc)
    c = np.sum(oc ** 2, axis=-1) - radii ** 2
    disc = b ** 2 - c
    hit = disc >= 0
    sq = np.sqrt(np.where(hit, disc, 0.0))
    t = np.where(hit, -b - sq, np.inf)
    t[t <= 1e-6] = np.inf
    nearest = np.argmin(t, axis=1)
    t_near = t[np.arange(len(t)), nearest]
    any_hit = np.isfinite(t_near)
    p = origins + dirs * np.where(any_hit, t_near, 0.0)[:, None]
    normal = (p - centers[nearest]) / radii[nearest][:, None]
    to_light = np.asarray(light) - p
    to_light /= np.linalg.norm(to_light, axis=1, keepdims=True)
    lambert = np.clip(np.sum(normal * to_light, axis=1), 0, None)
    shade = np.where(any_hit, lambert, 0.0)
    return {"nearest": np.where(any_hit, nearest, -1), "t": np.where(any_hit, t_near, -1.0), "shade": shade,
            "hits_per_sphere": np.bincount(nearest[any_hit], minlength=len(radii)),
            "coverage": any_hit.mean()}


def snell_refraction(np, incident, normal, n1, n2):
    d = np.asarray(incident)
    d = d / np.linalg.norm(d, axis=1, keepdims=True)
    nrm = np.asarray(normal) / np.linalg.norm(normal)
    cos_i = -d @ nrm
    eta = n1 / n2
    k = 1 - eta ** 2 * (1 - cos_i ** 2)
    tir = k < 0
    t = eta * d + (eta * cos_i - np.sqrt(np.maximum(k, 0)))[:, None] * nrm
    t[tir] = 0.0
    r = d + 2 * cos_i[:, None] * nrm
    R0 = ((n1 - n2) / (n1 + n2)) ** 2
    schlick = R0 + (1 - R0) * (1 - cos_i) ** 5
    schlick[tir] = 1.0
    angle_in = np.degrees(np.arccos(np.clip(cos_i, -1, 1)))
    angle_out = np.degrees(np.arccos(np.clip(-(t @ nrm), -1, 1)))
    critical = np.degrees(np.arcsin(n2 / n1)) if n1 > n2 else np.nan
    return {"t": t, "r": r, "tir": tir, "R": schlick, "in": angle_in, "out": np.where(tir, np.nan, angle_out),
            "critical": critical, "n_tir": int(tir.sum())}


def thin_film(np, wavelengths_nm, thicknesses_nm, n_film, n_sub):
    lam, d = np.meshgrid(np.asarray(wavelengths_nm), np.asarray(thicknesses_nm), indexing="ij")
    n0 = 1.0
    r01 = (n0 - n_film) / (n0 + n_film)
    r12 = (n_film - n_sub) / (n_film + n_sub)
    delta = 2 * np.pi * n_film * d / lam
    phase = np.exp(2j * delta)
    r = (r01 + r12 * phase) / (1 + r01 * r12 * phase)
    R = np.abs(r) ** 2
    best = np.asarray(wavelengths_nm)[np.argmax(R, axis=0)]
    quarter = np.asarray(wavelengths_nm) / (4 * n_film)
    R_bare = ((n0 - n_sub) / (n0 + n_sub)) ** 2
    return {"R": R, "phase": np.angle(r[::7, ::3]), "best_lambda": best, "quarter_wave": quarter,
            "min_R": R.min(axis=0), "ar_gain": R_bare - R.min(), "dtype": str(r.dtype)}


def bragg_mirror(np, wavelengths, n_hi, n_lo, pairs, design):
    lam = np.asarray(wavelengths)
    layers = np.array([n_hi, n_lo] * pairs)
    d = design / (4 * layers)
    M = np.broadcast_to(np.eye(2, dtype=complex), (len(lam), 2, 2)).copy()
    for n, t in zip(layers, d, strict=True):
        delta = 2 * np.pi * n * t / lam
        layer = np.empty((len(lam), 2, 2), dtype=complex)
        layer[:, 0, 0] = np.cos(delta)
        layer[:, 0, 1] = 1j * np.sin(delta) / n
        layer[:, 1, 0] = 1j * n * np.sin(delta)
        layer[:, 1, 1] = np.cos(delta)
        M = M @ layer
    n0, ns = 1.0, 1.52
    B = M[:, 0, 0] + M[:, 0, 1] * ns
    C = M[:, 1, 0] + M[:, 1, 1] * ns
    r = (n0 * B - C) / (n0 * B + C)
    R = np.abs(r) ** 2
    band = lam[R > 0.9]
    det = np.linalg.det(M)
    return {"R": R, "peak": R.max(), "band": [band.min(), band.max()] if band.size else [],
            "det": np.abs(det), "at_design": R[np.argmin(np.abs(lam - design))]}


def fraunhofer(np, n, slit_w, slit_sep, radius):
    x = np.arange(n) - n // 2
    X, Y = np.meshgrid(x, x)
    single = (np.abs(X) <= slit_w // 2).astype(float)
    double = ((np.abs(X - slit_sep // 2) <= slit_w // 2) | (np.abs(X + slit_sep // 2) <= slit_w // 2)).astype(float)
    circle = (X ** 2 + Y ** 2 <= radius ** 2).astype(float)
    out = {}
    for name, ap in (("single", single), ("double", double), ("circle", circle)):
        field = np.fft.fftshift(np.fft.fft2(np.fft.ifftshift(ap)))
        I = np.abs(field) ** 2
        I /= I.max()
        row = I[n // 2]
        interior = (row[1:-1] < row[:-2]) & (row[1:-1] < row[2:])
        minima = np.flatnonzero(interior) + 1
        out[name] = {"row": np.round(row, 6), "minima": minima[np.abs(minima - n // 2) < n // 4],
                     "energy": np.sum(np.abs(field) ** 2) / (n * n), "open": int(ap.sum())}
    return out


def radial_psf(np, n, radius, nbins):
    y, x = np.indices((n, n))
    r = np.hypot(x - n / 2, y - n / 2)
    pupil = (r <= radius).astype(np.complex128)
    psf = np.abs(np.fft.fftshift(np.fft.fft2(pupil))) ** 2
    psf /= psf.sum()
    rbin = np.minimum((r / r.max() * nbins).astype(int), nbins - 1)
    tot = np.bincount(rbin.ravel(), weights=psf.ravel(), minlength=nbins)
    cnt = np.bincount(rbin.ravel(), minlength=nbins)
    profile = tot / np.maximum(cnt, 1)
    encircled = np.cumsum(tot)
    r50 = int(np.searchsorted(encircled, 0.5))
    strehl_ratio = psf.max() / (pupil.real.sum() ** 2 / pupil.size / pupil.real.sum())
    return {"profile": profile, "encircled": encircled, "r50": r50, "peak": psf.max(), "strehl": strehl_ratio}


def abcd_system(np, f1, f2, gap, obj_dist, rays):
    def prop(d):
        return np.array([[1.0, d], [0.0, 1.0]])

    def lens(f):
        return np.array([[1.0, 0.0], [-1.0 / f, 1.0]])

    system = np.linalg.multi_dot([lens(f2), prop(gap), lens(f1)])
    f_eff = -1.0 / system[1, 0]
    full = prop(0.0) @ system @ prop(obj_dist)
    img = -full[0, 1] / full[1, 1]
    imaged = prop(img) @ full
    out = np.einsum("ij,nj->ni", imaged, np.asarray(rays))
    return {"system": system, "f_eff": f_eff, "image_dist": img, "mag": imaged[0, 0], "rays_out": out,
            "det": np.linalg.det(system), "bfl": -system[0, 0] / system[1, 0]}


def gaussian_beam(np, wavelength, w0, z, f):
    zR = np.pi * w0 ** 2 / wavelength
    q0 = 1j * zR
    q = q0 + np.asarray(z)
    inv = 1 / q
    w = np.sqrt(-wavelength / (np.pi * inv.imag))
    with np.errstate(divide="ignore"):
        R = 1 / inv.real
    gouy = np.arctan(np.asarray(z) / zR)
    q_lens = 1 / (1 / q - 1 / f)
    waist_pos = -q_lens.real
    new_w0 = np.sqrt(q_lens.imag * wavelength / np.pi)
    return {"w": w, "R": np.where(np.isfinite(R), R, 0.0), "gouy": gouy, "zR": zR, "waist_pos": waist_pos,
            "new_w0": new_w0, "q": q[::5]}


def test_ray_sphere_scene_broadcast():
    rng = np.random.default_rng(1401)
    n = 64
    origins = np.zeros((n, 3))
    dirs = np.column_stack([rng.uniform(-0.6, 0.6, n), rng.uniform(-0.6, 0.6, n), np.ones(n)])
    centers = np.array([[0.0, 0.0, 5.0], [1.5, 0.5, 7.0], [-1.2, -0.8, 4.0], [0.0, -101.0, 5.0]])
    check(ray_sphere_scene, origins, dirs, centers, np.array([1.0, 1.2, 0.6, 100.0]), np.array([5.0, 5.0, -2.0]),
          rtol=1e-3, atol=1e-4)


def test_snell_refraction_tir():
    rng = np.random.default_rng(1402)
    inc = np.column_stack([rng.uniform(-1, 1, 40), -np.ones(40), rng.uniform(-1, 1, 40)])
    check(snell_refraction, inc, np.array([0.0, 1.0, 0.0]), 1.5, 1.0, rtol=1e-3, atol=1e-3)
    check(snell_refraction, inc, np.array([0.0, 1.0, 0.0]), 1.0, 1.33, rtol=1e-3, atol=1e-3)


def test_thin_film_interference():
    check(thin_film, np.linspace(400.0, 700.0, 61), np.arange(50.0, 400.0, 25.0), 1.38, 1.52, rtol=1e-3,
          atol=1e-5)


def test_bragg_mirror_stack():
    check(bragg_mirror, np.linspace(450.0, 750.0, 121), 2.3, 1.38, 6, 600.0, rtol=1e-3, atol=1e-5)


def test_fraunhofer_fft_diffraction():
    check(fraunhofer, 128, 7, 24, 10, rtol=1e-3, atol=1e-5)


def test_radial_psf_bincount():
    check(radial_psf, 96, 12, 40, rtol=1e-3, atol=1e-6)


def test_abcd_ray_matrices():
    rays = np.array([[1.0, 0.0], [0.5, 0.01], [-1.0, 0.02], [0.0, -0.03]])
    check(abcd_system, 100.0, 50.0, 30.0, 400.0, rays, rtol=1e-4, atol=1e-6)


def test_gaussian_beam_q_parameter():
    check(gaussian_beam, 633e-9, 0.5e-3, np.linspace(-2.0, 2.0, 41), 0.25, rtol=1e-4, atol=1e-9)
