"""Image and signal programs (convolution by slicing, histogram equalisation, moving averages, FFT filtering)."""

import numpy as np
from harness import check


def conv2d_slicing(np, img_host, kernel_host):
    img = np.asarray(img_host, dtype=np.float32)
    k = np.asarray(kernel_host, dtype=np.float32)
    kh, kw = k.shape
    H, W = img.shape
    out = np.zeros((H - kh + 1, W - kw + 1), dtype=np.float32)
    for i in range(kh):
        for j in range(kw):
            out += k[i, j] * img[i:i + H - kh + 1, j:j + W - kw + 1]
    padded = np.pad(img, 1, mode="edge")
    blur = (padded[:-2, :-2] + padded[:-2, 1:-1] + padded[:-2, 2:] + padded[1:-1, :-2] + padded[1:-1, 1:-1]
            + padded[1:-1, 2:] + padded[2:, :-2] + padded[2:, 1:-1] + padded[2:, 2:]) / 9.0
    gx = img[:, 2:] - img[:, :-2]
    gy = img[2:, :] - img[:-2, :]
    mag = np.hypot(gx[1:-1, :], gy[:, 1:-1])
    edges = (mag > mag.mean() + mag.std()).astype(np.uint8) * 255
    return {"out": out, "blur": blur, "edges": edges, "flipped": img[::-1, ::2], "thumb": img[::2, ::2].T}


def histogram_equalisation(np, img_host):
    img = np.asarray(img_host)
    hist, bins = np.histogram(img.flatten(), bins=256, range=(0, 256))
    cdf = hist.cumsum()
    cdf_normalized = cdf * hist.max() / cdf.max()
    cdf_m = (cdf - cdf.min()) * 255 / (cdf.max() - cdf.min())
    equalised = np.interp(img.flatten(), bins[:-1], cdf_m).reshape(img.shape)
    lut = np.clip(np.round(cdf_m), 0, 255).astype(np.uint8)
    via_lut = lut[img]
    counts = np.bincount(img.ravel(), minlength=256)
    return {"hist": hist, "cdf_norm": cdf_normalized, "eq": equalised, "lut": via_lut,
            "same_counts": bool(np.array_equal(counts, hist)), "mean": float(img.mean())}


def moving_averages(np, x_host, w=5):
    x = np.asarray(x_host, dtype=float)
    ma_conv = np.convolve(x, np.ones(w) / w, mode="valid")
    c = np.cumsum(np.insert(x, 0, 0))
    ma_cum = (c[w:] - c[:-w]) / w
    same = np.convolve(x, np.ones(w), mode="same") / w
    ema = np.empty_like(x)
    ema[0] = x[0]
    alpha = 2 / (w + 1)
    for t in range(1, len(x)):
        ema[t] = alpha * x[t] + (1 - alpha) * ema[t - 1]
    diffs = np.diff(x)
    peaks = np.where((x[1:-1] > x[:-2]) & (x[1:-1] > x[2:]))[0] + 1
    zero_cross = np.nonzero(np.diff(np.sign(x - x.mean())))[0]
    return {"conv": ma_conv, "cum": ma_cum, "same": same, "ema": ema, "peaks": peaks, "zc": zero_cross,
            "close": np.allclose(ma_conv, ma_cum), "d": diffs}


def fft_filter(np, n=128, fs=64.0, cutoff=6.0):
    t = np.arange(n) / fs
    signal = np.sin(2 * np.pi * 3 * t) + 0.5 * np.sin(2 * np.pi * 15 * t)
    spectrum = np.fft.rfft(signal)
    freqs = np.fft.rfftfreq(n, d=1 / fs)
    spectrum[freqs > cutoff] = 0
    filtered = np.fft.irfft(spectrum, n=n)
    power = np.abs(np.fft.fft(signal)) ** 2
    dominant = freqs[np.argmax(np.abs(np.fft.rfft(signal)))]
    full = np.fft.ifft(np.fft.fft(signal)).real
    shifted = np.fft.fftshift(np.fft.fftfreq(8))
    return {"filtered": filtered, "dominant": float(dominant), "power_top": np.sort(power)[-4:],
            "roundtrip": np.allclose(full, signal, atol=1e-4), "shifted": shifted}


def image_stats(np, imgs_host):
    imgs = np.asarray(imgs_host).astype(np.float32) / 255.0
    mean = imgs.mean(axis=(0, 1, 2))
    std = imgs.std(axis=(0, 1, 2))
    normed = (imgs - mean) / std
    gray = imgs @ np.array([0.299, 0.587, 0.114], dtype=np.float32)
    brightest = np.argmax(gray.reshape(len(gray), -1).mean(axis=1))
    crops = imgs[:, 2:6, 2:6, :]
    flipped = imgs[:, :, ::-1]
    batch = np.concatenate([imgs, flipped], axis=0)
    return {"mean": mean, "std": std, "normed": normed[0, 0], "gray": gray, "brightest": int(brightest),
            "crops": crops.shape, "batch": batch.shape, "tr": np.transpose(imgs, (0, 3, 1, 2))[1, 2]}


def test_conv2d_by_slicing():
    rng = np.random.default_rng(0)
    img = rng.integers(0, 256, size=(16, 20)).astype(np.uint8)
    check(conv2d_slicing, img, np.array([[1, 0, -1], [2, 0, -2], [1, 0, -1]]), rtol=1e-5, atol=1e-3)


def test_histogram_equalisation():
    rng = np.random.default_rng(1)
    img = np.clip(rng.normal(100, 20, size=(24, 32)), 0, 255).astype(np.uint8)
    check(histogram_equalisation, img, rtol=1e-4, atol=1e-3)


def test_moving_averages():
    x = np.cumsum(np.random.default_rng(2).normal(size=60))
    check(moving_averages, x, rtol=1e-4, atol=1e-4)


def test_fft_lowpass_filter():
    check(fft_filter, rtol=1e-3, atol=1e-3)


def test_image_batch_stats():
    imgs = np.random.default_rng(3).integers(0, 256, size=(4, 8, 8, 3)).astype(np.uint8)
    check(image_stats, imgs, rtol=1e-4, atol=1e-5)
