"""Image programs: Sobel edges with sliding windows, separable Gaussian blur, grey morphology (erosion, dilation,
opening, top-hat) over padded windows, median filtering, integral images and box sums, histogram equalisation,
connected-component labelling by iterated min-propagation, padding by statistics (tests/porting)."""

import numpy as np
from harness import check


def sobel_edges(np, img_host):
    img = np.asarray(img_host, dtype=np.float64)
    kx = np.array([[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]], dtype=float)
    ky = kx.T
    win = np.lib.stride_tricks.sliding_window_view(np.pad(img, 1, mode="edge"), (3, 3))
    gx = np.einsum("ijkl,kl->ij", win, kx)
    gy = (win * ky).sum(axis=(-2, -1))
    mag = np.hypot(gx, gy)
    ang = np.rad2deg(np.arctan2(gy, gx)) % 180
    q = (np.round(ang / 45) % 4).astype(int)
    edges = mag > np.percentile(mag, 80)
    return {"gx": gx, "gy": gy, "mag": mag, "q_counts": np.bincount(q[edges], minlength=4),
            "n_edges": int(edges.sum()), "strongest": np.unravel_index(np.argmax(mag), mag.shape)}


def gaussian_blur_separable(np, img_host, sigma=1.2):
    img = np.asarray(img_host)
    r = int(3 * sigma)
    x = np.arange(-r, r + 1)
    k = np.exp(-x**2 / (2 * sigma**2))
    k /= k.sum()
    padded = np.pad(img, ((r, r), (r, r)), mode="reflect")
    rows = np.apply_along_axis(lambda v: np.convolve(v, k, mode="valid"), 1, padded)
    blur = np.apply_along_axis(lambda v: np.convolve(v, k, mode="valid"), 0, rows)
    k2 = np.outer(k, k)
    win = np.lib.stride_tricks.sliding_window_view(padded, k2.shape)
    blur2 = np.tensordot(win, k2, axes=([2, 3], [0, 1]))
    sharp = np.clip(img + 1.5 * (img - blur), 0, 255)
    return {"blur": blur, "same": bool(np.allclose(blur, blur2)), "sharp": sharp, "k": k,
            "energy": float(np.abs(img - blur).mean())}


def morphology(np, img_host):
    img = np.asarray(img_host)
    padded_max = np.pad(img, 1, mode="minimum")
    padded_min = np.pad(img, 1, mode="maximum")
    dil = np.lib.stride_tricks.sliding_window_view(padded_max, (3, 3)).max(axis=(-1, -2))
    ero = np.lib.stride_tricks.sliding_window_view(padded_min, (3, 3)).min(axis=(-1, -2))
    opened = np.lib.stride_tricks.sliding_window_view(np.pad(ero, 1, mode="maximum"), (3, 3)).max(axis=(2, 3))
    tophat = img - opened
    grad = dil - ero
    binary = img > img.mean()
    b = np.pad(binary, 1, constant_values=False)
    cross = b[1:-1, 1:-1] & b[:-2, 1:-1] & b[2:, 1:-1] & b[1:-1, :-2] & b[1:-1, 2:]
    boundary = binary & ~cross
    return {"dil": dil, "ero": ero, "opened": opened, "tophat": tophat, "grad": grad, "boundary": boundary,
            "n_interior": int(cross.sum())}


def median_and_box_filters(np, img_host):
    img = np.asarray(img_host)
    med = np.median(np.lib.stride_tricks.sliding_window_view(np.pad(img, 1, mode="symmetric"), (3, 3)),
                    axis=(-2, -1))
    ii = np.pad(img.cumsum(axis=0).cumsum(axis=1), ((1, 0), (1, 0)))
    k = 3
    box = ii[k:, k:] - ii[:-k, k:] - ii[k:, :-k] + ii[:-k, :-k]
    box_ref = np.lib.stride_tricks.sliding_window_view(img, (k, k)).sum(axis=(2, 3))
    local_mean = np.pad(box / k**2, 1, mode="mean")
    ramp = np.pad(img[:3, :3], 2, mode="linear_ramp", end_values=0)
    med_pad = np.pad(img[:4, :4], ((1, 1), (2, 0)), mode="median")
    return {"med": med, "box": box, "same": bool(np.allclose(box, box_ref)), "local_mean": local_mean,
            "ramp": ramp, "med_pad": med_pad}


def histogram_equalisation(np, img_host):
    img = np.asarray(img_host).astype(np.uint8)
    hist = np.bincount(img.ravel(), minlength=256)
    cdf = hist.cumsum()
    cdf_min = cdf[np.nonzero(cdf)[0][0]]
    lut = np.round((cdf - cdf_min) / (img.size - cdf_min) * 255).clip(0, 255).astype(np.uint8)
    eq = lut[img]
    h2, _ = np.histogram(eq, bins=16, range=(0, 256))
    gamma = (255 * (img / 255.0) ** 0.5).astype(np.uint8)
    stretched = np.round((img - img.min()) * (255.0 / np.ptp(img))).astype(np.uint8)
    return {"lut": lut, "eq": eq, "h2": h2, "gamma": gamma, "stretched": stretched,
            "levels": len(np.unique(eq)), "dtype": str(eq.dtype)}


def connected_components(np, mask_host, max_iter=50):
    mask = np.asarray(mask_host)
    h, w = mask.shape
    big = h * w + 1
    labels = np.where(mask, np.arange(h * w).reshape(h, w) + 1, big)
    for _ in range(max_iter):
        p = np.pad(labels, 1, constant_values=big)
        nb = np.minimum.reduce([p[1:-1, 1:-1], p[:-2, 1:-1], p[2:, 1:-1], p[1:-1, :-2], p[1:-1, 2:]])
        new = np.where(mask, nb, big)
        if np.array_equal(new, labels):
            break
        labels = new
    ids, relabeled = np.unique(np.where(mask, labels, 0), return_inverse=True)
    relabeled = relabeled.reshape(h, w)
    sizes = np.bincount(relabeled.ravel())[1:]
    return {"labels": relabeled, "n": len(ids) - 1, "sizes": np.sort(sizes)[::-1]}


def _image(seed, shape=(20, 24)):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:shape[0], 0:shape[1]]
    img = 120 + 80 * np.sin(xx / 4.0) * np.cos(yy / 5.0) + rng.normal(0, 8, shape)
    img[5:9, 6:14] += 60
    return np.clip(img, 0, 255)


def test_sobel_sliding_window_einsum():
    check(sobel_edges, _image(351), rtol=1e-3, atol=1e-3)


def test_separable_gaussian_apply_along_axis():
    check(gaussian_blur_separable, _image(352, (16, 18)), rtol=1e-3, atol=1e-3)


def test_grey_morphology_pad_minimum_maximum():
    check(morphology, _image(353).round(), rtol=1e-4, atol=1e-3)


def test_median_box_integral_image_pad_modes():
    check(median_and_box_filters, _image(354, (12, 14)).round(), rtol=1e-4, atol=1e-2)


def test_histogram_equalisation_lut():
    check(histogram_equalisation, _image(355).round())


def test_connected_components_min_propagation():
    rng = np.random.default_rng(356)
    check(connected_components, rng.random((14, 16)) > 0.55)
