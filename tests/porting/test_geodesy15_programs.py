"""Geodesy and mapping as GIS course notebooks write it: haversine distance matrices by broadcasting with
nearest neighbours by `fill_diagonal(inf)` and `argmin`, a transverse-Mercator (UTM-like) projection by its series
with zone numbers by `floor` and southern false northing by `np.where`, grid binning of points by `digitize` and
`ravel_multi_index`/`bincount` against `histogram2d`, initial bearings and destination points, geodetic to ECEF
and back by fixed-point latitude iteration, a vectorised ray-casting point-in-polygon test with a spherical-excess
area by the shoelace formula on projected coordinates, and a GPS track resampled by `np.interp` on cumulative
distance (tests/porting)."""

import numpy as np
from harness import check

R_EARTH = 6371.0088


def haversine_matrix(np, lat, lon):
    phi, lam = np.radians(lat), np.radians(lon)
    dphi = phi[:, None] - phi[None, :]
    dlam = lam[:, None] - lam[None, :]
    a = np.sin(dphi / 2) ** 2 + np.cos(phi)[:, None] * np.cos(phi)[None, :] * np.sin(dlam / 2) ** 2
    D = 2 * R_EARTH * np.arcsin(np.sqrt(np.clip(a, 0, 1)))
    D2 = D.copy()
    np.fill_diagonal(D2, np.inf)
    nn = D2.argmin(axis=1)
    within = (D2 < 500).sum(axis=1)
    i, j = np.unravel_index(np.argmax(D), D.shape)
    return {"D": D, "nn": nn, "nn_dist": D2[np.arange(len(lat)), nn], "within500": within,
            "farthest": sorted([int(i), int(j)]), "symmetric": bool(np.allclose(D, D.T))}


def utm_like(np, lat, lon):
    a, f, k0 = 6378137.0, 1 / 298.257223563, 0.9996
    e2 = f * (2 - f)
    ep2 = e2 / (1 - e2)
    zone = (np.floor((lon + 180) / 6) + 1).astype(int)
    lon0 = np.radians((zone - 1) * 6 - 180 + 3)
    phi, lam = np.radians(lat), np.radians(lon)
    N = a / np.sqrt(1 - e2 * np.sin(phi) ** 2)
    T = np.tan(phi) ** 2
    C = ep2 * np.cos(phi) ** 2
    A = np.cos(phi) * (lam - lon0)
    M = a * ((1 - e2 / 4 - 3 * e2 ** 2 / 64 - 5 * e2 ** 3 / 256) * phi
             - (3 * e2 / 8 + 3 * e2 ** 2 / 32 + 45 * e2 ** 3 / 1024) * np.sin(2 * phi)
             + (15 * e2 ** 2 / 256 + 45 * e2 ** 3 / 1024) * np.sin(4 * phi)
             - (35 * e2 ** 3 / 3072) * np.sin(6 * phi))
    easting = k0 * N * (A + (1 - T + C) * A ** 3 / 6 + (5 - 18 * T + T ** 2 + 72 * C - 58 * ep2) * A ** 5 / 120) \
        + 500000.0
    northing = k0 * (M + N * np.tan(phi) * (A ** 2 / 2 + (5 - T + 9 * C + 4 * C ** 2) * A ** 4 / 24
                                             + (61 - 58 * T + T ** 2 + 600 * C - 330 * ep2) * A ** 6 / 720))
    northing = np.where(lat < 0, northing + 10_000_000.0, northing)
    bands = "CDEFGHJKLMNPQRSTUVWXX"
    band = [bands[int(b)] for b in np.clip(np.floor((lat + 80) / 8), 0, 20)]
    return {"zone": zone, "E": np.round(easting, 2), "N": np.round(northing, 2), "band": "".join(band)}


def grid_binning(np, lat, lon, value, lat_edges, lon_edges):
    iy = np.digitize(lat, lat_edges) - 1
    ix = np.digitize(lon, lon_edges) - 1
    ny, nx = len(lat_edges) - 1, len(lon_edges) - 1
    inside = (iy >= 0) & (iy < ny) & (ix >= 0) & (ix < nx)
    flat = np.ravel_multi_index((iy[inside], ix[inside]), (ny, nx))
    counts = np.bincount(flat, minlength=ny * nx).reshape(ny, nx)
    sums = np.bincount(flat, weights=value[inside], minlength=ny * nx).reshape(ny, nx)
    H, ye, xe = np.histogram2d(lat, lon, bins=[lat_edges, lon_edges])
    Hw, _, _ = np.histogram2d(lat, lon, bins=[lat_edges, lon_edges], weights=value)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = sums / counts
    busiest = np.unravel_index(counts.argmax(), counts.shape)
    return {"counts": counts, "H": H, "same": bool(np.array_equal(counts, H.astype(int))), "mean": mean,
            "Hw": Hw, "outside": int((~inside).sum()), "busiest": [int(busiest[0]), int(busiest[1])],
            "empty": np.argwhere(counts == 0)[:5]}


def bearings_and_destinations(np, lat1, lon1, lat2, lon2, dist_km):
    p1, p2 = np.radians(lat1), np.radians(lat2)
    dl = np.radians(lon2 - lon1)
    y = np.sin(dl) * np.cos(p2)
    x = np.cos(p1) * np.sin(p2) - np.sin(p1) * np.cos(p2) * np.cos(dl)
    brg = (np.degrees(np.arctan2(y, x)) + 360) % 360
    d = dist_km / R_EARTH
    th = np.radians(brg)
    p3 = np.arcsin(np.sin(p1) * np.cos(d) + np.cos(p1) * np.sin(d) * np.cos(th))
    l3 = np.radians(lon1) + np.arctan2(np.sin(th) * np.sin(d) * np.cos(p1), np.cos(d) - np.sin(p1) * np.sin(p3))
    lon3 = (np.degrees(l3) + 540) % 360 - 180
    compass = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]  # a list: kdsl holds no string arrays (documented)
    sector = np.round(brg / 45).astype(int) % 8
    return {"bearing": brg, "lat3": np.degrees(p3), "lon3": lon3, "sector": sector,
            "names": " ".join(compass[s] for s in sector)}


def ecef_roundtrip(np, lat, lon, h):
    a, f = 6378137.0, 1 / 298.257223563
    e2 = f * (2 - f)
    phi, lam = np.radians(lat), np.radians(lon)
    N = a / np.sqrt(1 - e2 * np.sin(phi) ** 2)
    X = (N + h) * np.cos(phi) * np.cos(lam)
    Y = (N + h) * np.cos(phi) * np.sin(lam)
    Z = (N * (1 - e2) + h) * np.sin(phi)
    xyz = np.stack([X, Y, Z], axis=-1)
    p = np.hypot(X, Y)
    phi2 = np.arctan2(Z, p * (1 - e2))
    for _ in range(6):
        N2 = a / np.sqrt(1 - e2 * np.sin(phi2) ** 2)
        h2 = p / np.cos(phi2) - N2
        phi2 = np.arctan2(Z, p * (1 - e2 * N2 / (N2 + h2)))
    chord = np.linalg.norm(xyz[:, None, :] - xyz[None, :, :], axis=-1)
    return {"xyz": xyz, "lat": np.degrees(phi2), "lon": np.degrees(np.arctan2(Y, X)), "h": h2,
            "chord": chord / 1000, "err": np.abs(np.degrees(phi2) - lat).max() < 1e-9}


def polygon_tests(np, poly_xy, pts):
    x, y = poly_xy[:, 0], poly_xy[:, 1]
    xn, yn = np.roll(x, -1), np.roll(y, -1)
    area = 0.5 * np.abs(np.dot(x, yn) - np.dot(xn, y))
    cx = ((x + xn) * (x * yn - xn * y)).sum() / (6 * 0.5 * (np.dot(x, yn) - np.dot(xn, y)))
    px, py = pts[:, 0:1], pts[:, 1:2]
    crosses = ((y > py) != (yn > py)) & (px < (xn - x) * (py - y) / (yn - y + 1e-300) + x)
    inside = crosses.sum(axis=1) % 2 == 1
    perim = np.hypot(xn - x, yn - y).sum()
    return {"area": area, "cx": cx, "inside": inside, "n_inside": int(inside.sum()), "perimeter": perim,
            "compactness": 4 * np.pi * area / perim ** 2}


def resample_track(np, lat, lon, t, step_km):
    phi, lam = np.radians(lat), np.radians(lon)
    a = np.sin(np.diff(phi) / 2) ** 2 + np.cos(phi[:-1]) * np.cos(phi[1:]) * np.sin(np.diff(lam) / 2) ** 2
    seg = 2 * R_EARTH * np.arcsin(np.sqrt(a))
    cum = np.concatenate([[0.0], np.cumsum(seg)])
    marks = np.arange(0, cum[-1], step_km)
    rl = np.interp(marks, cum, lat)
    ro = np.interp(marks, cum, lon)
    rt = np.interp(marks, cum, t)
    speed = np.diff(marks) / np.diff(rt) * 3600
    stops = np.flatnonzero(seg < 1e-3)
    return {"total": cum[-1], "lat": rl, "lon": ro, "t": rt, "speed": speed, "stops": stops,
            "fast": int(np.argmax(speed))}


def test_haversine_distance_matrix():
    rng = np.random.default_rng(1551)
    check(haversine_matrix, rng.uniform(-60, 70, 40), rng.uniform(-180, 180, 40), rtol=1e-6)


def test_utm_like_projection():
    rng = np.random.default_rng(1552)
    lat = np.concatenate([rng.uniform(-79, 83, 30), [0.0, -33.86, 51.48, 64.1]])
    lon = np.concatenate([rng.uniform(-179, 179, 30), [3.0, 151.21, -0.0, -21.9]])
    check(utm_like, lat, lon, rtol=1e-9, atol=0.02)


def test_grid_binning_digitize_histogram2d():
    rng = np.random.default_rng(1553)
    lat = rng.normal(45, 3, 3000)
    lon = rng.normal(7, 4, 3000)
    check(grid_binning, lat, lon, rng.gamma(2, 10, 3000), np.arange(38, 53, 1.5), np.arange(-3, 18, 2.0),
          rtol=1e-6)


def test_bearings_and_destinations():
    rng = np.random.default_rng(1554)
    n = 25
    check(bearings_and_destinations, rng.uniform(-50, 50, n), rng.uniform(-170, 170, n), rng.uniform(-50, 50, n),
          rng.uniform(-170, 170, n), rng.uniform(1, 3000, n), rtol=1e-6, atol=1e-9)


def test_ecef_roundtrip():
    rng = np.random.default_rng(1555)
    check(ecef_roundtrip, rng.uniform(-89, 89, 20), rng.uniform(-180, 180, 20), rng.uniform(-100, 9000, 20),
          rtol=1e-8, atol=1e-6)


def test_point_in_polygon_and_area():
    rng = np.random.default_rng(1556)
    ang = np.sort(rng.uniform(0, 2 * np.pi, 14))
    r = rng.uniform(5, 10, 14)
    poly = np.column_stack([r * np.cos(ang), r * np.sin(ang)])
    check(polygon_tests, poly, rng.uniform(-11, 11, (300, 2)), rtol=1e-9)


def test_resample_gps_track():
    rng = np.random.default_rng(1557)
    n = 200
    lat = 46.5 + np.cumsum(rng.normal(0, 3e-4, n))
    lon = 6.6 + np.cumsum(rng.normal(2e-4, 3e-4, n))
    lat[50:55] = lat[50]
    lon[50:55] = lon[50]
    check(resample_track, lat, lon, np.cumsum(rng.uniform(4, 6, n)), 0.25, rtol=1e-6, atol=1e-9)
