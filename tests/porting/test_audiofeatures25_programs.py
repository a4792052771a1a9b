"""Audio features in plain NumPy: an STFT by strided frames and `rfft(axis=)`, a mel filterbank from `linspace` in
mel space and `searchsorted`, MFCCs by a DCT-II matrix, the real cepstrum by `irfft` of a log spectrum, spectral
centroid/rolloff/flatness with `where=`, onset strength by half-wave rectified flux, pitch by autocorrelation through
`irfft(n=)`, pre-emphasis and frame energy in dB with `np.float32` data, and chroma by folding bins onto pitch
classes with `np.add.at` (tests/porting)."""

import numpy as np
from harness import check


def hz_to_mel(np, f):
    return 2595.0 * np.log10(1.0 + f / 700.0)


def mel_to_hz(np, m):
    return 700.0 * (10.0 ** (m / 2595.0) - 1.0)


def frames(np, x, n_fft, hop):
    n = 1 + (len(x) - n_fft) // hop
    idx = np.arange(n_fft)[None, :] + hop * np.arange(n)[:, None]
    return x[idx]


def stft(np, x, n_fft, hop):
    x = np.asarray(x)
    fr = frames(np, np.pad(x, n_fft // 2, mode="reflect"), n_fft, hop)
    win = np.hanning(n_fft + 1)[:-1]
    S = np.fft.rfft(fr * win, axis=-1)
    mag = np.abs(S)
    freqs = np.fft.rfftfreq(n_fft, d=1 / 8000)
    peak = freqs[np.argmax(mag, axis=1)]
    power_db = 10 * np.log10(np.maximum(mag**2, 1e-10))
    return {"mag": mag, "peak": peak, "db": power_db - power_db.max(), "shape": S.shape, "dc": S[:, 0].real}


def mel_filterbank(np, sr, n_fft, n_mels):
    fmax = sr / 2
    mels = np.linspace(hz_to_mel(np, 0.0), hz_to_mel(np, fmax), n_mels + 2)
    hz = mel_to_hz(np, mels)
    bins = np.fft.rfftfreq(n_fft, 1.0 / sr)
    lower, center, upper = hz[:-2, None], hz[1:-1, None], hz[2:, None]
    up = (bins[None, :] - lower) / (center - lower)
    down = (upper - bins[None, :]) / (upper - center)
    fb = np.maximum(0, np.minimum(up, down))
    enorm = 2.0 / (hz[2:] - hz[:-2])
    fb *= enorm[:, np.newaxis]
    first = np.searchsorted(bins, hz[1:-1])
    return {"fb": fb, "first": first, "nonzero": np.count_nonzero(fb, axis=1), "hz": hz}


def mfcc(np, x, sr, n_fft, hop, n_mels, n_mfcc):
    x = np.asarray(x)
    fr = frames(np, x, n_fft, hop) * np.hamming(n_fft)
    power = np.abs(np.fft.rfft(fr, n=n_fft)) ** 2 / n_fft
    fb = mel_filterbank(np, sr, n_fft, n_mels)["fb"]
    mel = power @ fb.T
    logmel = np.log(mel + 1e-6)
    k = np.arange(n_mels)
    dct = np.cos(np.pi / n_mels * (k[None, :] + 0.5) * np.arange(n_mfcc)[:, None])
    dct[0] *= 1 / np.sqrt(2)
    dct *= np.sqrt(2.0 / n_mels)
    c = logmel @ dct.T
    cmvn = (c - c.mean(axis=0)) / (c.std(axis=0) + 1e-8)
    delta = np.gradient(c, axis=0)
    return {"mfcc": c, "cmvn": cmvn, "delta": delta, "ortho": dct @ dct.T}


def cepstrum(np, x, sr):
    x = np.asarray(x)
    spec = np.fft.rfft(x * np.blackman(len(x)))
    ceps = np.fft.irfft(np.log(np.abs(spec) + 1e-9), n=len(x))
    qmin, qmax = int(sr / 400), int(sr / 60)
    q = qmin + np.argmax(ceps[qmin:qmax])
    lifter = np.zeros(len(x))
    lifter[:20] = 1
    lifter[-19:] = 1
    envelope = np.fft.rfft(ceps * lifter).real
    return {"ceps": ceps[:200], "f0": sr / q, "env": envelope}


def spectral_shape(np, mag, sr):
    mag = np.asarray(mag)
    n_fft = 2 * (mag.shape[1] - 1)
    f = np.fft.rfftfreq(n_fft, d=1.0 / sr)
    total = mag.sum(axis=1, keepdims=True)
    centroid = (mag * f).sum(axis=1, keepdims=True) / np.where(total == 0, 1, total)
    spread = np.sqrt(np.sum((f - centroid) ** 2 * mag, axis=1) / np.maximum(total[:, 0], 1e-12))
    cum = np.cumsum(mag, axis=1)
    roll = f[np.argmax(cum >= 0.85 * cum[:, -1:], axis=1)]
    geo = np.exp(np.mean(np.log(mag, out=np.full_like(mag, -30.0), where=mag > 0), axis=1))
    flat = geo / np.maximum(np.mean(mag, axis=1, where=mag >= 0), 1e-12)
    return {"centroid": centroid[:, 0], "spread": spread, "rolloff": roll, "flatness": flat}


def onsets(np, mag, hop, sr):
    mag = np.asarray(mag)
    flux = np.diff(mag, axis=0, prepend=mag[:1])
    strength = np.maximum(flux, 0).sum(axis=1)
    thr = np.median(strength) + 1.5 * np.std(strength)
    peaks = (strength[1:-1] > strength[:-2]) & (strength[1:-1] >= strength[2:]) & (strength[1:-1] > thr)
    idx = np.nonzero(peaks)[0] + 1
    return {"strength": strength, "onsets": idx, "times": idx * hop / sr}


def autocorr_pitch(np, x, sr):
    x = np.asarray(x) - np.mean(x)
    n = len(x)
    X = np.fft.rfft(x, n=2 * n)
    ac = np.fft.irfft(X * np.conj(X), n=2 * n)[:n]
    ac /= ac[0]
    lo, hi = sr // 500, sr // 50
    lag = lo + int(np.argmax(ac[lo:hi]))
    a, b, c = ac[lag - 1], ac[lag], ac[lag + 1]
    shift = 0.5 * (a - c) / (a - 2 * b + c)
    return {"ac": ac[:300], "lag": lag, "f0": sr / (lag + shift)}


def preemphasis_energy(np, x, n_fft, hop, coef):
    x = np.asarray(x, dtype=np.float32)
    y = np.append(x[0], x[1:] - np.float32(coef) * x[:-1])
    fr = frames(np, y, n_fft, hop)
    energy = np.sum(fr.astype(np.float64) ** 2, axis=1)
    db = 10 * np.log10(energy / n_fft + np.finfo(np.float32).eps)
    voiced = db > db.max() - 20
    zcr = np.mean(np.abs(np.diff(np.signbit(fr), axis=1)), axis=1)
    return {"y": y, "dtype": str(y.dtype), "db": db, "voiced": voiced, "zcr": zcr,
            "runs": np.diff(voiced.astype(np.int8))}


def chroma(np, mag, sr, n_fft):
    mag = np.asarray(mag)
    f = np.fft.rfftfreq(n_fft, 1 / sr)[1:]
    midi = 69 + 12 * np.log2(f / 440.0)
    pc = np.mod(np.round(midi).astype(int), 12)
    C = np.zeros((mag.shape[0], 12))
    for k in range(12):
        C[:, k] = mag[:, 1:][:, pc == k].sum(axis=1)
    C2 = np.zeros((12, mag.shape[0]))
    np.add.at(C2, pc, mag[:, 1:].T)
    Cn = C / np.linalg.norm(C, axis=1, keepdims=True)
    return {"C": C, "same": np.allclose(C, C2.T), "norm": Cn, "key": np.argmax(Cn.sum(axis=0))}


def tone(sr, n, f0s, amps, noise, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(n) / sr
    x = sum(a * np.sin(2 * np.pi * f * t) for f, a in zip(f0s, amps, strict=True))
    return x + noise * rng.standard_normal(n)


def test_stft():
    check(stft, tone(8000, 1024, [440, 1250], [1.0, 0.5], 0.01, 2511), 256, 128, rtol=1e-3, atol=2e-3)


def test_mel_filterbank():
    check(mel_filterbank, 16000, 512, 20, rtol=1e-3, atol=1e-6)


def test_mfcc():
    check(mfcc, tone(16000, 4096, [300, 900, 2200], [1.0, 0.6, 0.3], 0.05, 2512), 16000, 512, 256, 26, 13,
          rtol=2e-3, atol=2e-3)


def test_cepstrum():
    # a noise floor far above float32's: kd.blackman is float32 (kdsl's default), and the log of a float64
    # spectrum's 1e-9 leakage between harmonics would compare float32 rounding noise
    x = sum(np.sin(2 * np.pi * 150 * k * np.arange(2048) / 8000) / k for k in range(1, 12))
    x = x + 1e-3 * np.random.default_rng(2518).standard_normal(x.size)
    check(cepstrum, x, 8000, rtol=2e-3, atol=2e-3)


def test_spectral_shape():
    rng = np.random.default_rng(2513)
    mag = np.abs(rng.standard_normal((6, 65)))
    mag[2] = 0.0
    mag[3, ::2] = 0.0
    check(spectral_shape, mag, 8000, rtol=1e-3, atol=1e-4)


def test_onsets():
    rng = np.random.default_rng(2514)
    mag = np.abs(rng.standard_normal((40, 33))) * 0.1
    mag[[8, 20, 31]] += 2.0
    check(onsets, mag, 256, 16000)


def test_autocorr_pitch():
    check(autocorr_pitch, tone(8000, 1024, [220, 440, 660], [1.0, 0.5, 0.25], 0.02, 2515), 8000, rtol=1e-3,
          atol=1e-3)


def test_preemphasis_energy():
    x = tone(8000, 2048, [200], [0.8], 0.01, 2516)
    x[700:1100] *= 0.001
    check(preemphasis_energy, x, 256, 128, 0.97, rtol=1e-3, atol=1e-3)


def test_chroma():
    rng = np.random.default_rng(2517)
    check(chroma, np.abs(rng.standard_normal((5, 129))), 8000, 256, rtol=1e-4, atol=1e-5)
