"""Signal-processing and quadrature programs: FFT convolution against np.convolve, spectral low-pass filtering with
rfft/irfft, autocorrelation by FFT and np.correlate, windowed periodograms, FIR design with sinc windows,
phase unwrapping, 2-D FFT image filtering (tests/porting)."""

import numpy as np
from harness import check


def fft_convolution(np, x_host, h_host):
    x, h = np.asarray(x_host), np.asarray(h_host)
    n = len(x) + len(h) - 1
    nfft = 1 << (n - 1).bit_length()
    y_fft = np.fft.irfft(np.fft.rfft(x, nfft) * np.fft.rfft(h, nfft), nfft)[:n]
    full = np.convolve(x, h)
    same = np.convolve(x, h, mode="same")
    valid = np.convolve(x, h, mode="valid")
    circ = np.real(np.fft.ifft(np.fft.fft(x) * np.fft.fft(h, len(x))))
    return {"fft": y_fft, "full": full, "same": same, "valid": valid, "circ": circ, "nfft": nfft,
            "agree": bool(np.allclose(y_fft, full, atol=1e-4))}


def spectral_lowpass(np, sig_host, fs=200.0, cutoff=15.0):
    sig = np.asarray(sig_host)
    n = len(sig)
    spec = np.fft.rfft(sig)
    freqs = np.fft.rfftfreq(n, d=1 / fs)
    mask = freqs <= cutoff
    filtered = np.fft.irfft(spec * mask, n=n)
    power = np.abs(spec) ** 2 / n
    peaks = freqs[np.argsort(power)[-2:]]
    band = power[(freqs > 5) & (freqs < 30)].sum()
    total = power.sum()
    odd = np.fft.irfft(np.fft.rfft(sig[:-1]), n=n - 1)
    return {"filtered": filtered, "peaks": np.sort(peaks), "band_frac": float(band / total),
            "odd_ok": bool(np.allclose(odd, sig[:-1], atol=1e-4)), "dc": float(spec[0].real / n)}


def autocorrelation(np, x_host):
    x = np.asarray(x_host)
    x = x - x.mean()
    n = len(x)
    f = np.fft.fft(x, n=2 * n)
    acf = np.fft.ifft(f * np.conjugate(f))[:n].real
    acf /= acf[0]
    direct = np.correlate(x, x, mode="full")[n - 1:]
    direct = direct / direct[0]
    valid = np.correlate(x, x[:5], mode="valid")
    same = np.correlate(x, np.array([1.0, 0.0, -1.0]), mode="same")
    lag = int(np.argmax(acf[1:n // 2]) + 1)
    coeffs = np.sort(np.fft.fft(x)[1:8])
    coeff_order = np.argsort(f[1:8])
    cross = np.correlate(x, np.roll(x, 3), mode="full")
    shift = int(np.argmax(cross) - (n - 1))
    return {"acf": acf[:20], "direct": direct[:20], "valid": valid, "same": same, "lag": lag, "shift": shift,
            "coeffs": coeffs, "coeff_order": coeff_order}


def windowed_periodogram(np, x_host, seg=64):
    x = np.asarray(x_host)
    windows = {"hann": np.hanning(seg), "hamming": np.hamming(seg), "blackman": np.blackman(seg),
               "bartlett": np.bartlett(seg), "kaiser": np.kaiser(seg, 8.6)}
    step = seg // 2
    starts = np.arange(0, len(x) - seg + 1, step)
    segs = np.stack([x[s:s + seg] for s in starts])
    out = {}
    for name, w in windows.items():
        spec = np.abs(np.fft.rfft((segs - segs.mean(axis=1, keepdims=True)) * w, axis=1)) ** 2
        psd = spec.mean(axis=0) / (w**2).sum()
        out[name] = psd
        out[name + "_peak"] = int(np.argmax(psd))
    out["enbw"] = float(seg * (windows["hann"] ** 2).sum() / windows["hann"].sum() ** 2)
    out["nseg"] = len(starts)
    return out


def fir_design(np, numtaps=31, fc=0.2):
    n = np.arange(numtaps) - (numtaps - 1) / 2
    h = 2 * fc * np.sinc(2 * fc * n)
    h *= np.hamming(numtaps)
    h /= h.sum()
    w = np.linspace(0, np.pi, 64)
    H = np.exp(-1j * np.outer(w, np.arange(numtaps))) @ h
    mag_db = 20 * np.log10(np.maximum(np.abs(H), 1e-10))
    phase = np.unwrap(np.angle(H))
    step = np.cumsum(h)
    imp = np.convolve(np.r_[1.0, np.zeros(40)], h)[:41]
    pass_ripple = float(np.ptp(mag_db[w < 0.3 * np.pi]))
    stop_atten = float(mag_db[w > 0.6 * np.pi].max())
    return {"h": h, "mag_db": mag_db[:40], "phase": phase[:30], "step": step, "imp": imp, "ripple": pass_ripple,
            "stop": stop_atten, "sym": bool(np.allclose(h, h[::-1]))}


def image_fft_filter(np, img_host):
    img = np.asarray(img_host)
    F = np.fft.fftshift(np.fft.fft2(img))
    h, w = img.shape
    yy, xx = np.mgrid[-(h // 2):h - h // 2, -(w // 2):w - w // 2]
    r = np.sqrt(xx**2 + yy**2)
    low = np.real(np.fft.ifft2(np.fft.ifftshift(F * (r <= 4))))
    gauss = np.exp(-(r**2) / (2 * 3.0**2))
    smooth = np.fft.irfft2(np.fft.rfft2(img) * np.fft.ifftshift(gauss)[:, : w // 2 + 1], s=img.shape)
    mag = np.log1p(np.abs(F))
    energy = np.abs(F) ** 2
    frac_low = energy[r <= 4].sum() / energy.sum()
    fy = np.fft.fftfreq(h)
    return {"low": low, "smooth": smooth, "mag": mag, "frac": float(frac_low), "fy": fy,
            "parseval": bool(np.isclose(energy.sum() / img.size, (img**2).sum(), rtol=1e-3))}


def test_fft_convolution_matches_convolve_modes():
    rng = np.random.default_rng(321)
    check(fft_convolution, rng.normal(size=50), np.hanning(7), rtol=1e-3, atol=1e-4)


def test_rfft_lowpass_rfftfreq_odd_length():
    t = np.arange(400) / 200.0
    rng = np.random.default_rng(322)
    sig = np.sin(2 * np.pi * 8 * t) + 0.5 * np.sin(2 * np.pi * 40 * t) + 0.2 * rng.normal(size=400)
    check(spectral_lowpass, sig, rtol=1e-3, atol=1e-3)


def test_autocorrelation_fft_correlate_modes():
    t = np.arange(120)
    rng = np.random.default_rng(323)
    check(autocorrelation, np.sin(2 * np.pi * t / 12) + 0.3 * rng.normal(size=120), rtol=1e-3, atol=1e-4)


def test_windows_periodogram_segments():
    t = np.arange(512) / 128.0
    rng = np.random.default_rng(324)
    check(windowed_periodogram, np.sin(2 * np.pi * 20 * t) + rng.normal(size=512) * 0.5, rtol=2e-3, atol=1e-5)


def test_fir_sinc_hamming_unwrap_angle():
    check(fir_design, rtol=1e-3, atol=1e-3)


def test_fft2_shift_mgrid_irfft2():
    rng = np.random.default_rng(325)
    img = np.add.outer(np.sin(np.arange(24) / 3), np.cos(np.arange(20) / 2)) + 0.1 * rng.normal(size=(24, 20))
    check(image_fft_filter, img, rtol=1e-3, atol=1e-3)


def gauss_quadrature_integrals(np, a=0.0, b=np.pi):
    x, w = np.polynomial.legendre.leggauss(8)
    t = 0.5 * (b - a) * x + 0.5 * (b + a)
    sin_int = 0.5 * (b - a) * np.sum(w * np.sin(t))
    xs = np.linspace(a, b, 33)
    trap = np.trapezoid(np.sin(xs), xs)
    h, hw = np.polynomial.hermite.hermgauss(12)
    mu, sigma = 0.3, 0.8
    expect_sq = np.sum(hw * (np.sqrt(2) * sigma * h + mu) ** 2) / np.sqrt(np.pi)
    lx, lw = np.polynomial.laguerre.laggauss(6)
    gamma4 = np.sum(lw * lx**3)
    cx, cw = np.polynomial.chebyshev.chebgauss(10)
    cheb_int = np.sum(cw * cx**2)
    nodes = np.polynomial.chebyshev.chebpts2(9)
    return {"sin": float(sin_int), "trap_worse": bool(abs(trap - 2.0) > 1e3 * abs(sin_int - 2.0)),
            "E_sq": float(expect_sq), "gamma4": float(gamma4), "cheb": float(cheb_int), "h": h, "hw": hw,
            "nodes": nodes}


def test_gauss_legendre_hermite_laguerre_quadrature():
    check(gauss_quadrature_integrals, rtol=1e-5, atol=1e-6)
