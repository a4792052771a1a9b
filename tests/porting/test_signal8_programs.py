"""Signal-processing programs: spectra with np.fft.rfft/rfftfreq and fftshift, the convolution theorem against
np.convolve in its three modes, low-pass filtering by masking the spectrum, autocorrelation via FFT against
np.correlate, Hann-windowed spectra with dB printing, complex64 analytic signals, and a moving-average filter
(tests/porting)."""

import numpy as np
from harness import check


def spectrum_peaks(np, x, fs):
    n = len(x)
    spec = np.abs(np.fft.rfft(x)) / n
    freqs = np.fft.rfftfreq(n, d=1 / fs)
    top = np.argsort(spec)[::-1][:2]
    full = np.fft.fftshift(np.fft.fft(x))
    shifted_f = np.fft.fftshift(np.fft.fftfreq(n, 1 / fs))
    power = np.sum(np.abs(full) ** 2) / n
    return {"peaks": np.sort(freqs[top]), "amp": np.round(spec[np.sort(top)] * 2, 3), "parseval": power,
            "energy": np.sum(x ** 2), "f0": shifted_f[0], "f_end": shifted_f[-1], "dc": spec[0]}


def convolution_theorem(np, a, b):
    n = len(a) + len(b) - 1
    via_fft = np.fft.irfft(np.fft.rfft(a, n) * np.fft.rfft(b, n), n)
    return {"full": np.convolve(a, b), "same": np.convolve(a, b, mode="same"),
            "valid": np.convolve(a, b, mode="valid"), "fft": via_fft,
            "close": bool(np.allclose(via_fft, np.convolve(a, b), atol=1e-4)),
            "corr": np.correlate(a, b, mode="valid"), "corr_full": np.correlate(a, b, "full")}


def lowpass_mask(np, x, fs, cutoff):
    X = np.fft.rfft(x)
    f = np.fft.rfftfreq(len(x), 1 / fs)
    X[f > cutoff] = 0
    y = np.fft.irfft(X, n=len(x))
    kept = int(np.count_nonzero(np.abs(X) > 1e-6))
    residual = x - y
    return {"y": y, "kept": kept, "rms": float(np.sqrt(np.mean(residual ** 2))), "max": y.max(),
            "dtype": y.dtype.kind}


def autocorrelation(np, x):
    x = x - x.mean()
    n = len(x)
    F = np.fft.fft(x, n=2 * n)
    acf = np.fft.ifft(F * np.conj(F)).real[:n]
    acf /= acf[0]
    direct = np.correlate(x, x, mode="full")[n - 1:]
    direct = direct / direct[0]
    lag = int(np.argmax(acf[5:])) + 5
    return {"acf": acf[:20], "direct": direct[:20], "lag": lag, "ok": bool(np.allclose(acf, direct, atol=1e-4))}


def windowed_spectrum(np, x):
    n = len(x)
    w = np.hanning(n)
    X = np.fft.rfft(x * w)
    db = 20 * np.log10(np.abs(X) / (w.sum() / 2) + 1e-12)
    peak = int(np.argmax(db))
    lines = [f"{k:3d}: {v:7.2f} dB" for k, v in zip(range(peak - 2, peak + 3), db[peak - 2:peak + 3], strict=True)]
    bl = np.blackman(n)
    hm = np.hamming(n)
    return {"peak": peak, "db": np.round(db[peak - 3:peak + 4], 2), "lines": "\n".join(lines),
            "gains": [round(float(w.mean()), 4), round(float(bl.mean()), 4), round(float(hm.mean()), 4)]}


def analytic_signal(np, x):
    n = len(x)
    X = np.fft.fft(x).astype(np.complex64)
    h = np.zeros(n)
    h[0] = 1
    h[1:n // 2] = 2
    h[n // 2] = 1
    z = np.fft.ifft(X * h)
    env = np.abs(z)
    phase = np.unwrap(np.angle(z))
    inst_f = np.diff(phase) / (2 * np.pi)
    return {"env": env[10:-10], "freq": float(np.median(inst_f)), "real_ok": bool(np.allclose(z.real, x, atol=1e-3)),
            "kind": z.dtype.kind}


def moving_average(np, x, k):
    kernel = np.ones(k) / k
    smooth = np.convolve(x, kernel, mode="valid")
    c = np.cumsum(np.insert(x, 0, 0))
    via_cumsum = (c[k:] - c[:-k]) / k
    ema = np.empty_like(x)
    ema[0] = x[0]
    alpha = 2 / (k + 1)
    for i in range(1, len(x)):
        ema[i] = alpha * x[i] + (1 - alpha) * ema[i - 1]
    crossings = np.flatnonzero(np.diff(np.sign(x[k - 1:] - smooth)) != 0)
    return {"smooth": smooth, "cumsum": via_cumsum, "ema": ema, "crossings": crossings.size > 0}


def spectrogram_frames(np, x, frame, hop):
    starts = np.arange(0, len(x) - frame + 1, hop)
    idx = starts[:, None] + np.arange(frame)
    frames = x[idx] * np.hanning(frame)
    S = np.abs(np.fft.rfft(frames, axis=1)) ** 2
    dominant = S.argmax(axis=1)
    S_db = 10 * np.log10(S + 1e-10)
    return {"shape": S.shape, "dominant": dominant, "max_db": np.round(S_db.max(axis=1), 1),
            "mean_power": S.mean(axis=0, keepdims=True)[:, :8]}


def gated_segment_spectrum(np, x, gate, fs):
    n = np.count_nonzero(gate)
    seg = (x[gate] - x[gate].mean()) * np.hanning(n)
    spec = np.abs(np.fft.rfft(seg, n=n)) ** 2
    freqs = np.fft.rfftfreq(n, d=1 / fs)
    half = np.fft.fftfreq(n // 2, 2 / fs)
    centroid = np.sum(freqs * spec) / np.sum(spec)
    return {"n": int(n), "peak": float(freqs[np.argmax(spec)]), "centroid": round(float(centroid), 2),
            "half": half}


FS = 128.0
T = np.arange(256) / FS
SIG = np.sin(2 * np.pi * 10 * T) + 0.5 * np.sin(2 * np.pi * 30 * T)


def test_rfft_peaks_fftshift_parseval():
    check(spectrum_peaks, SIG + 0.1, FS, rtol=1e-3, atol=1e-3)


def test_convolution_theorem_and_modes():
    rng = np.random.default_rng(811)
    check(convolution_theorem, rng.normal(size=20), rng.normal(size=5), rtol=1e-3, atol=1e-4)


def test_lowpass_by_masking_spectrum():
    noise = np.random.default_rng(812).normal(0, 0.2, T.size)
    check(lowpass_mask, SIG + noise, FS, 20.0, rtol=1e-3, atol=1e-3)


def test_autocorrelation_via_fft():
    rng = np.random.default_rng(813)
    check(autocorrelation, np.sin(2 * np.pi * T[:128] * 8) + rng.normal(0, 0.3, 128), rtol=1e-3, atol=1e-3)


def test_hann_windowed_spectrum_db():
    check(windowed_spectrum, SIG, rtol=1e-3, atol=2e-3)


def test_analytic_signal_complex64():
    check(analytic_signal, (1 + 0.5 * np.cos(2 * np.pi * 2 * T)) * np.cos(2 * np.pi * 20 * T), rtol=1e-3, atol=1e-3)


def test_moving_average_ema():
    check(moving_average, np.random.default_rng(814).normal(size=60).cumsum(), 5, rtol=1e-3, atol=1e-4)


def test_gated_segment_spectrum_count_nonzero_length():
    gate = np.zeros(T.size, dtype=bool)
    gate[40:200] = True
    check(gated_segment_spectrum, SIG, gate, FS, rtol=1e-3, atol=1e-3)


def test_spectrogram_by_fancy_index_frames():
    check(spectrogram_frames, SIG, 32, 16, rtol=1e-3, atol=1e-3)
