"""Astronomy and geodesy as NumPy code writes it: haversine distance matrices with deg2rad and broadcasting,
nearest neighbours among cities, equatorial to ecliptic and galactic rotations with einsum, geodetic to ECEF
conversion, great-circle bearings with arctan2 and degrees wrapped by mod, a two-body leapfrog orbit with
energy drift, Kepler's equation by Newton iterations, a sky-grid histogram of star positions, and a FITS-like
big-endian image read by frombuffer (tests/porting)."""

import numpy as np
from harness import check


def haversine_matrix(np, lat_host, lon_host):
    lat, lon = np.radians(np.asarray(lat_host)), np.radians(np.asarray(lon_host))
    dlat = lat[:, None] - lat[None, :]
    dlon = lon[:, None] - lon[None, :]
    a = np.sin(dlat / 2) ** 2 + np.cos(lat[:, None]) * np.cos(lat[None, :]) * np.sin(dlon / 2) ** 2
    d = 2 * 6371.0 * np.arcsin(np.sqrt(np.clip(a, 0, 1)))
    np.fill_diagonal(d, np.inf)
    nearest = d.argmin(axis=1)
    dmin = d.min(axis=1)
    np.fill_diagonal(d, 0)
    total = np.triu(d, k=1).sum()
    far_i, far_j = np.unravel_index(d.argmax(), d.shape)
    return {"d": d, "nearest": nearest, "dmin": dmin, "total": total, "far": (int(far_i), int(far_j)),
            "report": [f"{i}->{j}: {k:8.1f} km" for i, j, k in zip(range(3), nearest[:3], dmin[:3], strict=True)]}


def bearings(np, lat1_host, lon1_host, lat2_host, lon2_host):
    lat1, lon1, lat2, lon2 = map(np.deg2rad, map(np.asarray, (lat1_host, lon1_host, lat2_host, lon2_host)))
    dlon = lon2 - lon1
    y = np.sin(dlon) * np.cos(lat2)
    x = np.cos(lat1) * np.sin(lat2) - np.sin(lat1) * np.cos(lat2) * np.cos(dlon)
    brg = (np.rad2deg(np.arctan2(y, x)) + 360) % 360
    compass = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    sector = np.round(brg / 45).astype(int) % 8
    mid_lat = np.degrees(np.arctan2(np.sin(lat1) + np.sin(lat2),
                                    np.hypot(np.cos(lat1) + np.cos(lat2) * np.cos(dlon), np.cos(lat2) * np.sin(dlon))))
    return {"brg": brg, "sector": sector, "names": [str(compass[s]) for s in sector.tolist()], "mid_lat": mid_lat}


def sky_rotations(np, ra_host, dec_host):
    ra, dec = np.deg2rad(ra_host), np.deg2rad(dec_host)
    ra, dec = np.asarray(ra), np.asarray(dec)
    v = np.stack([np.cos(dec) * np.cos(ra), np.cos(dec) * np.sin(ra), np.sin(dec)], axis=-1)
    eps = np.deg2rad(23.4392911)
    R = np.array([[1, 0, 0], [0, np.cos(eps), np.sin(eps)], [0, -np.sin(eps), np.cos(eps)]])
    w = np.einsum("ij,nj->ni", R, v)
    lam = np.rad2deg(np.arctan2(w[:, 1], w[:, 0])) % 360
    beta = np.rad2deg(np.arcsin(w[:, 2]))
    back = w @ R
    sep = np.degrees(np.arccos(np.clip(v @ v.T, -1, 1)))
    return {"lam": lam, "beta": beta, "roundtrip": np.abs(back - v).max() < 1e-6,
            "orth": np.allclose(R @ R.T, np.eye(3)), "sep": sep, "norms": np.linalg.norm(w, axis=1)}


def geodetic_to_ecef(np, lat_host, lon_host, h_host):
    a, f = 6378137.0, 1 / 298.257223563
    e2 = f * (2 - f)
    lat, lon = np.radians(lat_host), np.radians(lon_host)
    h = np.asarray(h_host)
    N = a / np.sqrt(1 - e2 * np.sin(lat) ** 2)
    xyz = np.column_stack([(N + h) * np.cos(lat) * np.cos(lon), (N + h) * np.cos(lat) * np.sin(lon),
                           (N * (1 - e2) + h) * np.sin(lat)])
    p = np.hypot(xyz[:, 0], xyz[:, 1])
    lat_i = np.arctan2(xyz[:, 2], p * (1 - e2))
    for _ in range(5):
        Ni = a / np.sqrt(1 - e2 * np.sin(lat_i) ** 2)
        h_i = p / np.cos(lat_i) - Ni
        lat_i = np.arctan2(xyz[:, 2], p * (1 - e2 * Ni / (Ni + h_i)))
    return {"xyz_km": xyz / 1000, "lat_back": np.degrees(lat_i), "h_back": h_i,
            "chord_km": np.linalg.norm(np.diff(xyz, axis=0), axis=1) / 1000}


def leapfrog_orbit(np, r0_host, v0_host, dt=0.01, steps=300):
    r = np.array(r0_host, dtype=float)
    v = np.array(v0_host, dtype=float)
    GM = 1.0
    acc = lambda r: -GM * r / np.linalg.norm(r) ** 3  # noqa: E731
    energy = lambda r, v: 0.5 * v @ v - GM / np.linalg.norm(r)  # noqa: E731
    E0 = energy(r, v)
    traj = np.empty((steps + 1, 2))
    traj[0] = r
    a = acc(r)
    for i in range(steps):
        v += 0.5 * dt * a
        r += dt * v
        a = acc(r)
        v += 0.5 * dt * a
        traj[i + 1] = r
    L = traj[-1, 0] * v[1] - traj[-1, 1] * v[0]
    radii = np.linalg.norm(traj, axis=1)
    return {"traj": traj[::50], "drift": abs(energy(r, v) - E0) / abs(E0), "L": L,
            "peri": radii.min(), "apo": radii.max(), "ecc": (radii.max() - radii.min()) / (radii.max() + radii.min())}


def kepler_newton(np, M_host, e_host):
    M = np.asarray(M_host)
    e = np.asarray(e_host)[:, None]
    E = np.where(e < 0.8, M, np.pi * np.ones_like(M))
    for _ in range(12):
        E = E - (E - e * np.sin(E) - M) / (1 - e * np.cos(E))
    nu = 2 * np.arctan2(np.sqrt(1 + e) * np.sin(E / 2), np.sqrt(1 - e) * np.cos(E / 2))
    r = 1 - e * np.cos(E)
    resid = np.abs(E - e * np.sin(E) - M).max()
    return {"E": E, "nu": np.mod(nu, 2 * np.pi), "r": r, "resid_small": bool(resid < 1e-5)}


def sky_grid_histogram(np, ra_host, dec_host):
    ra, dec = np.asarray(ra_host), np.asarray(dec_host)
    H, ra_edges, dec_edges = np.histogram2d(ra, dec, bins=[12, 6], range=[[0, 360], [-90, 90]])
    band_area = np.diff(np.sin(np.radians(dec_edges)))
    density = H / band_area[None, :]
    ra_bin = np.digitize(ra, ra_edges[1:-1])
    dec_bin = np.digitize(dec, dec_edges[1:-1])
    flat = np.ravel_multi_index((ra_bin, dec_bin), H.shape)
    counts = np.bincount(flat, minlength=H.size).reshape(H.shape)
    return {"H": H, "density": density, "same": bool((counts == H).all()),
            "busiest": int(flat[np.argmax(counts[ra_bin, dec_bin])]),
            "empty": int((H == 0).sum())}


def fits_like_image(np, raw, header):
    cards = [header[i : i + 80] for i in range(0, len(header), 80)]
    meta = {c[:8].strip(): c[10:30].strip() for c in cards if c[8:10] == "= "}
    nx, ny, bitpix = int(meta["NAXIS1"]), int(meta["NAXIS2"]), int(meta["BITPIX"])
    dt = np.dtype(">i2") if bitpix == 16 else np.dtype(">f4")
    img = np.frombuffer(raw, dtype=dt, count=nx * ny).reshape(ny, nx)
    phys = img * float(meta["BSCALE"]) + float(meta["BZERO"])
    sky = np.median(phys)
    mad = np.median(np.abs(phys - sky)) * 1.4826
    stars = phys > sky + 5 * mad
    yy, xx = np.nonzero(stars)
    flux = phys[stars] - sky
    centroid = (np.sum(xx * flux) / flux.sum(), np.sum(yy * flux) / flux.sum())
    return {"shape": img.shape, "sky": sky, "mad": mad, "n_star_px": int(stars.sum()), "centroid": centroid,
            "peak": np.unravel_index(np.argmax(phys), phys.shape), "big_endian": dt.byteorder}


CITIES = np.array([[51.5074, -0.1278], [48.8566, 2.3522], [40.7128, -74.006], [35.6762, 139.6503],
                   [-33.8688, 151.2093], [55.7558, 37.6173], [-22.9068, -43.1729], [1.3521, 103.8198]])


def test_haversine_distance_matrix():
    check(haversine_matrix, CITIES[:, 0], CITIES[:, 1])


def test_great_circle_bearings():
    check(bearings, CITIES[:-1, 0], CITIES[:-1, 1], CITIES[1:, 0], CITIES[1:, 1], rtol=1e-3, atol=1e-3)


def test_equatorial_to_ecliptic():
    rng = np.random.default_rng(731)
    check(sky_rotations, rng.uniform(0, 360, 10), np.degrees(np.arcsin(rng.uniform(-1, 1, 10))),
          rtol=1e-3, atol=1e-3)


def test_geodetic_to_ecef_and_back():
    check(geodetic_to_ecef, CITIES[:, 0], CITIES[:, 1], np.linspace(0, 3000, 8), rtol=1e-4, atol=1e-2)


def test_leapfrog_two_body_orbit():
    check(leapfrog_orbit, [1.0, 0.0], [0.0, 1.2], rtol=1e-3, atol=1e-4)


def test_kepler_equation_newton():
    check(kepler_newton, np.linspace(0, 2 * np.pi, 9)[:-1], np.array([0.0, 0.3, 0.7, 0.95]), rtol=1e-3, atol=1e-4)


def test_sky_grid_histogram():
    rng = np.random.default_rng(732)
    check(sky_grid_histogram, rng.uniform(0, 360, 300), np.degrees(np.arcsin(rng.uniform(-1, 1, 300))))


def test_fits_like_big_endian_image():
    rng = np.random.default_rng(733)
    img = rng.normal(100, 3, (12, 16))
    img[5:8, 9:12] += [[20, 40, 20], [40, 90, 40], [20, 40, 20]]
    header = "".join(f"{k:<8}= {v:>20}".ljust(80) for k, v in
                     [("BITPIX", 16), ("NAXIS1", 16), ("NAXIS2", 12), ("BSCALE", 0.5), ("BZERO", 10.0)])
    check(fits_like_image, np.round((img - 10.0) / 0.5).astype(">i2").tobytes(), header)
