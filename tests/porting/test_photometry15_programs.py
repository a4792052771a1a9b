"""Astronomy data reduction as observing-course notebooks write it: aperture photometry by circular masks on an
`np.ogrid` grid with a sky annulus median, instrumental magnitudes and errors, a light curve folded by phase
with `argsort` and binned by `digitize`/`bincount`, a brute-force Lomb-Scargle periodogram by `np.outer` sums, a
sigma-clipped frame stack with `nanmedian`/`nanstd` in a loop, centroids of cutouts gathered by broadcast fancy
indexing, airmass extinction fits by `polyfit`, and a catalogue cross-match by `searchsorted` (tests/porting)."""

import numpy as np
from harness import check


def aperture_photometry(np, image, xs, ys, r_ap, r_in, r_out, zp, gain):
    yy, xx = np.ogrid[:image.shape[0], :image.shape[1]]
    fluxes, skies, npix = [], [], []
    for x, y in zip(xs, ys, strict=True):
        r2 = (xx - x) ** 2 + (yy - y) ** 2
        ap = r2 <= r_ap ** 2
        ann = (r2 >= r_in ** 2) & (r2 < r_out ** 2)
        sky = np.median(image[ann])
        n = ap.sum()
        fluxes.append(image[ap].sum() - n * sky)
        skies.append(sky)
        npix.append(n)
    flux = np.array(fluxes)
    sky = np.array(skies)
    npix = np.array(npix)
    err = np.sqrt(flux / gain + npix * sky / gain)
    good = flux > 0
    mag = np.full(len(flux), np.nan)
    mag[good] = zp - 2.5 * np.log10(flux[good])
    mag_err = 1.0857 * err / flux
    return {"flux": flux, "sky": sky, "npix": npix, "mag": mag, "mag_err": np.where(good, mag_err, np.inf),
            "brightest": int(np.nanargmin(mag)), "snr": np.round(flux / err, 2)}


def fold_light_curve(np, t, flux, period, t0, nbins):
    phase = ((t - t0) / period) % 1.0
    order = np.argsort(phase)
    ph, fl = phase[order], flux[order]
    edges = np.linspace(0, 1, nbins + 1)
    idx = np.digitize(ph, edges) - 1
    idx[idx == nbins] = nbins - 1
    counts = np.bincount(idx, minlength=nbins)
    sums = np.bincount(idx, weights=fl, minlength=nbins)
    with np.errstate(invalid="ignore", divide="ignore"):
        binned = sums / counts
    depth = np.nanmax(binned) - np.nanmin(binned)
    minimum_phase = edges[np.nanargmin(binned)] + 0.5 / nbins
    return {"phase": ph[::25], "flux": fl[::25], "counts": counts, "binned": binned, "depth": depth,
            "min_phase": minimum_phase, "cycles": np.unique(np.floor((t - t0) / period)).size}


def lomb_scargle(np, t, y, freqs):
    y = y - y.mean()
    w = 2 * np.pi * freqs
    arg = np.outer(w, t)
    tau = np.arctan2(np.sin(2 * arg).sum(axis=1), np.cos(2 * arg).sum(axis=1)) / (2 * w)
    phase = arg - (w * tau)[:, None]
    c, s = np.cos(phase), np.sin(phase)
    power = 0.5 * ((c @ y) ** 2 / (c ** 2).sum(axis=1) + (s @ y) ** 2 / (s ** 2).sum(axis=1)) / y.var()
    top = np.argsort(power)[::-1][:3]
    return {"power": power, "best_freq": freqs[np.argmax(power)], "top3": freqs[top],
            "fap_like": np.exp(-power.max())}


def sigma_clip_stack(np, frames, nsigma, iters):
    data = frames.astype(np.float64).copy()
    clipped = []
    for _ in range(iters):
        med = np.nanmedian(data, axis=0)
        std = np.nanstd(data, axis=0)
        bad = np.abs(data - med) > nsigma * std
        clipped.append(int(bad.sum()))
        data[bad] = np.nan
    combined = np.nanmean(data, axis=0)
    coverage = np.isfinite(data).sum(axis=0)
    return {"combined": combined, "coverage": coverage, "clipped": clipped,
            "hot": np.argwhere(coverage < frames.shape[0] - 1)}


def centroids(np, image, peaks, half):
    offs = np.arange(-half, half + 1)
    rows = peaks[:, 0, None, None] + offs[None, :, None]
    cols = peaks[:, 1, None, None] + offs[None, None, :]
    cut = image[rows, cols]
    cut = cut - cut.min(axis=(1, 2), keepdims=True)
    tot = cut.sum(axis=(1, 2))
    cy = (cut.sum(axis=2) * offs).sum(axis=1) / tot + peaks[:, 0]
    cx = (cut.sum(axis=1) * offs).sum(axis=1) / tot + peaks[:, 1]
    m2 = (cut * (offs[None, :, None] ** 2 + offs[None, None, :] ** 2)).sum(axis=(1, 2)) / tot
    fwhm = 2.3548 * np.sqrt(m2 / 2)
    return {"cx": cx, "cy": cy, "fwhm": fwhm, "peak": cut.max(axis=(1, 2))}


def extinction_fit(np, airmass, mags):
    coeffs = np.array([np.polyfit(airmass, m, 1) for m in mags])
    k, m0 = coeffs[:, 0], coeffs[:, 1]
    resid = mags - (m0[:, None] + k[:, None] * airmass)
    A = np.column_stack([airmass, np.ones_like(airmass)])
    sol, res, rank, sv = np.linalg.lstsq(A, mags.T, rcond=None)
    return {"k": k, "m0": m0, "rms": np.sqrt((resid ** 2).mean(axis=1)), "lstsq": sol, "rank": rank,
            "mean_k": np.mean(k), "outlier": np.isclose(k, k.mean(), atol=0.05)}


def cross_match(np, ra1, dec1, ra2, dec2, radius_deg):
    order = np.argsort(ra2)
    ra_s, dec_s = ra2[order], dec2[order]
    lo = np.searchsorted(ra_s, ra1 - radius_deg, side="left")
    hi = np.searchsorted(ra_s, ra1 + radius_deg, side="right")
    match = np.full(len(ra1), -1)
    sep = np.full(len(ra1), np.inf)
    for i in range(len(ra1)):
        if hi[i] > lo[i]:
            dra = (ra_s[lo[i]:hi[i]] - ra1[i]) * np.cos(np.deg2rad(dec1[i]))
            d = np.hypot(dra, dec_s[lo[i]:hi[i]] - dec1[i])
            j = np.argmin(d)
            if d[j] < radius_deg:
                match[i] = order[lo[i] + j]
                sep[i] = d[j] * 3600
    return {"match": match, "sep": sep, "n": int((match >= 0).sum()), "window": hi - lo}


def _image(rng, h, w, stars):
    yy, xx = np.mgrid[:h, :w]
    img = 100.0 + rng.normal(0, 3, (h, w))
    for x, y, f in stars:
        img += f * np.exp(-((xx - x) ** 2 + (yy - y) ** 2) / (2 * 1.8 ** 2)) / (2 * np.pi * 1.8 ** 2)
    return img


def test_aperture_photometry():
    rng = np.random.default_rng(1501)
    stars = [(12.3, 15.1, 5e4), (40.7, 30.2, 2e4), (25.0, 44.5, 8e3), (50.2, 10.4, 1e5)]
    img = _image(rng, 56, 64, stars)
    xs, ys = [s[0] for s in stars], [s[1] for s in stars]
    check(aperture_photometry, img, xs, ys, 5.0, 8.0, 12.0, 25.0, 1.5, rtol=1e-5)


def test_fold_light_curve():
    rng = np.random.default_rng(1502)
    t = np.sort(rng.uniform(0, 40, 700))
    period, t0 = 2.7183, 0.4
    phase = ((t - t0) / period) % 1
    flux = 1 - 0.02 * (np.abs(phase - 0.5) < 0.05) + rng.normal(0, 0.002, t.size)
    check(fold_light_curve, t, flux, period, t0, 40)


def test_lomb_scargle_brute_force():
    rng = np.random.default_rng(1503)
    t = np.sort(rng.uniform(0, 30, 180))
    y = np.sin(2 * np.pi * 0.37 * t) + 0.4 * rng.normal(size=t.size)
    check(lomb_scargle, t, y, np.linspace(0.05, 1.5, 400), rtol=1e-6, atol=1e-8)


def test_sigma_clip_stack():
    rng = np.random.default_rng(1504)
    frames = rng.normal(1000, 10, (9, 24, 30))
    frames[rng.integers(0, 9, 40), rng.integers(0, 24, 40), rng.integers(0, 30, 40)] += 500
    frames[:, 5, 7] += np.arange(9) * 300
    check(sigma_clip_stack, frames.astype(np.float32), 3.0, 3, rtol=1e-5)


def test_centroids_of_cutouts():
    rng = np.random.default_rng(1505)
    stars = [(12.3, 15.1, 5e4), (40.7, 30.2, 2e4), (25.0, 44.5, 8e3)]
    img = _image(rng, 56, 64, stars)
    peaks = np.array([[15, 12], [30, 41], [44, 25]])
    check(centroids, img, peaks, 4, rtol=1e-6)


def test_extinction_fit():
    rng = np.random.default_rng(1506)
    airmass = np.linspace(1.0, 2.2, 12)
    k = np.array([0.21, 0.15, 0.32, 0.12, 0.25])
    mags = 14 + np.arange(5)[:, None] + k[:, None] * airmass + rng.normal(0, 0.01, (5, 12))
    check(extinction_fit, airmass, mags, rtol=1e-6)


def test_catalogue_cross_match():
    rng = np.random.default_rng(1507)
    ra2, dec2 = rng.uniform(150, 151, 300), rng.uniform(2, 3, 300)
    pick = rng.choice(300, 60, replace=False)
    ra1 = np.concatenate([ra2[pick] + rng.normal(0, 1e-4, 60), rng.uniform(150, 151, 20)])
    dec1 = np.concatenate([dec2[pick] + rng.normal(0, 1e-4, 60), rng.uniform(2, 3, 20)])
    check(cross_match, ra1, dec1, ra2, dec2, 5e-4, rtol=1e-6)
