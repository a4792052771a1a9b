"""Remote-sensing band maths as Earth-observation notebooks write it in NumPy: NDVI/NDWI with `np.errstate` and
`np.ma` cloud masks from QA bit flags (`np.bitwise_and`, `right_shift`), median and max-NDVI composites over a
time stack (`np.nanmedian`, `nanargmax` with `take_along_axis`), per-class zonal statistics with `bincount`
weights, digital numbers to reflectance with uint16 scaling and `astype(casting=)`, a change-detection threshold
by Otsu's method on a histogram, tasselled-cap transforms by `einsum`/`tensordot`, and a masked-array pipeline
with `np.ma.masked_where`, `filled`, `count` and `anom` (tests/porting)."""

import numpy as np
from harness import check


def ndvi_masked(np, red, nir, qa):
    red = np.asarray(red, dtype=np.float32) * 2.75e-5 - 0.2
    nir = np.asarray(nir, dtype=np.float32) * 2.75e-5 - 0.2
    qa = np.asarray(qa, dtype=np.uint16)
    cloud = np.bitwise_and(np.right_shift(qa, 3), 1).astype(bool)
    shadow = (qa & (1 << 4)) != 0
    with np.errstate(divide="ignore", invalid="ignore"):
        ndvi = (nir - red) / (nir + red)
    bad = cloud | shadow | ~np.isfinite(ndvi)
    m = np.ma.masked_array(ndvi, mask=bad)
    return {"mean": m.mean(), "count": m.count(), "filled": m.filled(np.nan), "cloud_frac": cloud.mean(),
            "max_rc": np.unravel_index(np.argmax(m.filled(-np.inf)), m.shape), "std": m.std(),
            "row_means": m.mean(axis=1).filled(-9999.0)}


def composites(np, stack, clouds):
    stack = np.asarray(stack, dtype=float)
    stack[np.asarray(clouds)] = np.nan
    red, nir = stack[:, 0], stack[:, 1]
    ndvi = (nir - red) / (nir + red)
    median = np.nanmedian(stack, axis=0)
    all_cloudy = np.all(np.isnan(ndvi), axis=0)
    safe = np.where(all_cloudy, -np.inf, ndvi)
    best = np.nanargmax(np.where(np.isnan(safe), -np.inf, safe), axis=0)
    maxndvi = np.take_along_axis(stack, best[None, None], axis=0)[0]
    valid = np.sum(~np.isnan(ndvi), axis=0)
    return {"median": median, "best": best, "maxndvi": maxndvi, "valid": valid, "gaps": int(all_cloudy.sum()),
            "mean_ts": np.nanmean(ndvi, axis=(1, 2))}


def zonal_stats(np, landcover, values, n_classes):
    lc = np.asarray(landcover).ravel()
    v = np.asarray(values).ravel()
    ok = ~np.isnan(v)
    counts = np.bincount(lc[ok], minlength=n_classes)
    sums = np.bincount(lc[ok], weights=v[ok], minlength=n_classes)
    sq = np.bincount(lc[ok], weights=v[ok] ** 2, minlength=n_classes)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = sums / counts
        std = np.sqrt(sq / counts - mean**2)
    order = np.lexsort((lc[ok], v[ok]))
    cls, first = np.unique(lc[ok][order], return_index=True)
    mins = v[ok][order][first]
    return {"counts": counts, "mean": mean, "std": std, "cls": cls, "mins": mins,
            "area_ha": counts * 30 * 30 / 1e4, "majority": int(np.argmax(counts))}


def dn_to_reflectance(np, dn, gain, offset, sun_elev):
    dn = np.asarray(dn, dtype=np.uint16)
    fill = dn == 0
    rad = dn.astype(np.float32) * np.float32(gain) + np.float32(offset)
    refl = rad / np.sin(np.deg2rad(sun_elev))
    refl = np.clip(refl, 0.0, 1.0)
    scaled = np.round(refl * 10000).astype(np.uint16, casting="unsafe")
    scaled[fill] = 65535
    back = scaled.astype(np.int32)
    diff = np.diff(back, axis=1)
    sat = np.count_nonzero(dn == np.iinfo(np.uint16).max)
    return {"refl": np.where(fill, np.nan, refl), "scaled": scaled, "diff": diff, "sat": sat,
            "dtype": str(scaled.dtype), "wrap": (scaled[:2, :2] + np.uint16(65000)).astype(np.int64)}


def otsu_change(np, before, after, bins):
    d = np.abs(np.asarray(after) - np.asarray(before)).ravel()
    hist, edges = np.histogram(d, bins=bins)
    centers = (edges[:-1] + edges[1:]) / 2
    w0 = np.cumsum(hist)
    w1 = w0[-1] - w0
    m0 = np.cumsum(hist * centers) / np.maximum(w0, 1)
    m1 = (np.sum(hist * centers) - np.cumsum(hist * centers)) / np.maximum(w1, 1)
    between = w0 * w1 * (m0 - m1) ** 2
    k = int(np.argmax(between[:-1]))
    thr = centers[k]
    changed = (d > thr).reshape(np.shape(before))
    return {"thr": thr, "changed": changed, "frac": changed.mean(), "between": between / between.max(),
            "rows": np.flatnonzero(changed.any(axis=1))}


def tasselled_cap(np, bands):
    coeffs = np.array([[0.3029, 0.2786, 0.4733, 0.5599, 0.508, 0.1872],
                       [-0.2941, -0.243, -0.5424, 0.7276, 0.0713, -0.1608],
                       [0.1511, 0.1973, 0.3283, 0.3407, -0.7117, -0.4559]])
    b = np.asarray(bands)
    tc = np.einsum("kb,byx->kyx", coeffs, b)
    tc2 = np.tensordot(coeffs, b, axes=(1, 0))
    flat = b.reshape(b.shape[0], -1)
    cov = np.cov(flat)
    evals, evecs = np.linalg.eigh(cov)
    order = np.argsort(evals)[::-1]
    explained = evals[order] / evals.sum()
    return {"tc": tc, "same": bool(np.allclose(tc, tc2)), "explained": explained,
            "bright_max": tc[0].max(), "wet_min_loc": np.unravel_index(tc[2].argmin(), tc[2].shape)}


def masked_pipeline(np, lst, water, valid_range):
    lst = np.asarray(lst, dtype=float)
    m = np.ma.masked_where(np.asarray(water), lst)
    m = np.ma.masked_outside(m, *valid_range)
    kelvin = m * 0.02
    celsius = kelvin - 273.15
    clim = celsius.mean(axis=0)
    anom = celsius - clim
    hot = np.ma.masked_less(celsius, 30)
    sentinel_left = 0.0 in m  # the fill value is masked: never found
    kept = float(lst[3, 2, 2]) in m
    return {"sentinel_left": sentinel_left, "kept": kept,
            "count": celsius.count(axis=0), "clim": clim.filled(np.nan), "anom": anom.filled(0.0),
            "hot_days": hot.count(axis=0), "overall": float(celsius.mean()), "frac_masked":
            np.ma.getmaskarray(celsius).mean(), "ptp": celsius.ptp(axis=0).filled(-1),
            "max": celsius.max(), "compressed": np.sort(celsius.compressed())[:5]}


def test_ndvi_masked():
    rng = np.random.default_rng(3131)
    red = rng.integers(7500, 12000, (12, 14))
    nir = rng.integers(8000, 25000, (12, 14))
    qa = rng.choice(np.array([0, 8, 16, 24, 1], dtype=np.uint16), (12, 14), p=[0.7, 0.1, 0.1, 0.05, 0.05])
    red[0, 0] = nir[0, 0] = 7273  # reflectance ~0: 0/0
    check(ndvi_masked, red, nir, qa, rtol=1e-3, atol=1e-5)


def test_composites():
    rng = np.random.default_rng(3132)
    stack = rng.uniform(0.02, 0.5, (7, 2, 6, 5))
    stack[:, 1] += 0.1
    clouds = np.broadcast_to(rng.uniform(size=(7, 1, 6, 5)) < 0.4, stack.shape).copy()
    clouds[:, :, 0, 0] = True
    check(composites, stack, clouds)


def test_zonal_stats():
    rng = np.random.default_rng(3133)
    lc = rng.integers(0, 5, (10, 10))
    lc[lc == 3] = 4  # class 3 absent: 0/0 in the statistics
    v = rng.normal(0.4, 0.1, (10, 10))
    v[rng.uniform(size=v.shape) < 0.1] = np.nan
    check(zonal_stats, lc, v, 6)


def test_dn_to_reflectance():
    rng = np.random.default_rng(3134)
    dn = rng.integers(0, 65536, (6, 7)).astype(np.uint16)
    dn[0, :2] = 0
    dn[1, 1] = 65535
    check(dn_to_reflectance, dn, 2.0e-5, -0.1, 42.5, rtol=1e-4, atol=2e-4)


def test_otsu_change():
    rng = np.random.default_rng(3135)
    before = rng.normal(0.3, 0.02, (16, 16))
    after = before + rng.normal(0, 0.01, before.shape)
    after[4:9, 3:11] += 0.2
    check(otsu_change, before, after, 32)


def test_tasselled_cap():
    rng = np.random.default_rng(3136)
    check(tasselled_cap, rng.uniform(0, 0.5, (6, 5, 7)), rtol=1e-3, atol=1e-6)


def test_masked_pipeline():
    rng = np.random.default_rng(3137)
    lst = rng.normal(15200, 400, (9, 4, 5))
    lst[2, 1, 1] = 0  # fill value outside the valid range
    water = np.zeros(lst.shape, dtype=bool)
    water[:, 0, :2] = True
    check(masked_pipeline, lst, water, (13000.0, 17500.0), rtol=1e-4, atol=1e-3)
