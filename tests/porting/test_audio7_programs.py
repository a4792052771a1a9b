"""Audio DSP as NumPy code writes it: windows (hanning, hamming, blackman, bartlett, kaiser) and their coherent
gains, an STFT by framing with strides and index arithmetic, a spectrogram in dB with a floor, a windowed-sinc FIR
low-pass applied with convolve, linear-interpolation resampling, overlap-add reconstruction, a pre-emphasis and
mel filterbank, pitch by autocorrelation and a DTMF detector by the DFT at the tone bins (tests/porting)."""

import numpy as np
from harness import check


def windows_and_gains(np, M=32):
    wins = {"hann": np.hanning(M), "hamm": np.hamming(M), "black": np.blackman(M), "bart": np.bartlett(M),
            "kais": np.kaiser(M, 8.6)}
    out = {}
    for name, w in wins.items():
        out[name] = w
        out[name + "_cg"] = w.sum() / M
        out[name + "_enbw"] = M * np.sum(w**2) / np.sum(w) ** 2
    out["one"] = np.hanning(1)
    out["empty"] = np.hamming(0)
    out["sym"] = bool(np.allclose(wins["kais"], wins["kais"][::-1]))
    return out


def stft_frames(np, x_host, n_fft=64, hop=16):
    x = np.asarray(x_host)
    x = np.pad(x, n_fft // 2, mode="reflect")
    n_frames = 1 + (len(x) - n_fft) // hop
    idx = np.arange(n_fft)[None, :] + hop * np.arange(n_frames)[:, None]
    frames = x[idx] * np.hanning(n_fft + 1)[:-1]
    spec = np.fft.rfft(frames, axis=1)
    power = np.abs(spec) ** 2
    db = 10 * np.log10(np.maximum(power, 1e-10))
    db = np.maximum(db, db.max() - 80)
    freqs = np.fft.rfftfreq(n_fft, d=1 / 8000)
    peak = freqs[power.mean(axis=0).argmax()]
    return {"shape": frames.shape, "db": db, "freqs": freqs, "peak": peak, "centroid":
            (power * freqs).sum(axis=1) / power.sum(axis=1)}


def fir_lowpass(np, x_host, taps=31, cutoff=0.2):
    x = np.asarray(x_host)
    n = np.arange(taps) - (taps - 1) / 2
    h = 2 * cutoff * np.sinc(2 * cutoff * n) * np.hamming(taps)
    h /= h.sum()
    y_full = np.convolve(x, h)
    y_same = np.convolve(x, h, mode="same")
    y_valid = np.convolve(x, h, mode="valid")
    H = np.fft.rfft(h, 512)
    gain_db = 20 * np.log10(np.abs(H) + 1e-12)
    passband = gain_db[: int(0.15 * 512)].min()
    stop = gain_db[int(0.3 * 512):].max()
    return {"h": h, "full": y_full, "same": y_same, "valid": y_valid, "passband": passband, "stop": stop,
            "delay": (taps - 1) // 2, "energy": np.sum(y_same**2) / np.sum(x**2)}


def resample_linear(np, x_host, sr_in=8000, sr_out=11025):
    x = np.asarray(x_host)
    t_in = np.arange(x.size) / sr_in
    n_out = int(np.floor(x.size * sr_out / sr_in))
    t_out = np.arange(n_out) / sr_out
    y = np.interp(t_out, t_in, x)
    down = x[::2]
    dec = np.convolve(x, np.ones(4) / 4, mode="same")[::4]
    up = np.zeros(x.size * 3)
    up[::3] = x
    up = np.convolve(up, np.bartlett(7) , mode="same")
    return {"y": y, "n_out": n_out, "down": down, "dec": dec, "up": up, "rms": np.sqrt(np.mean(y**2))}


def overlap_add(np, x_host, n=32, hop=16):
    x = np.asarray(x_host, dtype=np.float64)
    w = np.sin(np.pi * (np.arange(n) + 0.5) / n) ** 2
    starts = np.arange(0, x.size - n + 1, hop)
    out = np.zeros_like(x)
    norm = np.zeros_like(x)
    for s in starts:
        seg = x[s : s + n] * w
        spec = np.fft.rfft(seg)
        spec[10:] *= 0.5
        out[s : s + n] += np.fft.irfft(spec, n) * w
        norm[s : s + n] += w**2
    ok = norm > 1e-8
    out[ok] /= norm[ok]
    return {"out": out, "covered": int(ok.sum()), "err": np.abs(out - x)[n:-n].max()}


def mel_filterbank(np, x_host, sr=16000, n_fft=128, n_mels=10):
    x = np.asarray(x_host)
    emph = np.append(x[0], x[1:] - 0.97 * x[:-1])
    frames = np.lib.stride_tricks.sliding_window_view(emph, n_fft)[::n_fft // 2] * np.hamming(n_fft)
    P = np.abs(np.fft.rfft(frames)) ** 2 / n_fft
    hz2mel = lambda f: 2595 * np.log10(1 + f / 700)  # noqa: E731
    mel2hz = lambda m: 700 * (10 ** (m / 2595) - 1)  # noqa: E731
    pts = mel2hz(np.linspace(hz2mel(0), hz2mel(sr / 2), n_mels + 2))
    bins = np.floor((n_fft + 1) * pts / sr).astype(int)
    fb = np.zeros((n_mels, n_fft // 2 + 1))
    for m in range(1, n_mels + 1):
        l, c, r = bins[m - 1], bins[m], bins[m + 1]
        fb[m - 1, l:c] = (np.arange(l, c) - l) / (c - l)
        fb[m - 1, c:r] = (r - np.arange(c, r)) / (r - c)
    energies = P @ fb.T
    energies = np.where(energies == 0, np.finfo(float).eps, energies)
    logmel = 20 * np.log10(energies)
    return {"bins": bins, "fb": fb, "logmel": logmel, "mean": logmel.mean(axis=0)}


def pitch_autocorrelation(np, f0s_host, sr=8000, n=400):
    t = np.arange(n) / sr
    out = []
    for f0 in f0s_host:
        x = np.sin(2 * np.pi * f0 * t) + 0.5 * np.sin(4 * np.pi * f0 * t)
        ac = np.correlate(x, x, mode="full")[n - 1 :]
        ac /= ac[0]
        lo, hi = sr // 500, sr // 60
        lag = lo + np.argmax(ac[lo:hi])
        out.append(round(sr / lag, 1))
    zc = np.count_nonzero(np.diff(np.signbit(x)))
    return {"pitches": out, "zero_cross": zc}


def dtmf_tone_bins(np, digit_tones_host, sr=8000, n=205):
    lows = np.array([697, 770, 852, 941])
    highs = np.array([1209, 1336, 1477])
    freqs = np.concatenate([lows, highs])
    t = np.arange(n) / sr
    keys = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9], [-1, 0, -2]])
    decoded = []
    for lo_i, hi_i in digit_tones_host:
        x = np.sin(2 * np.pi * lows[lo_i] * t) + np.sin(2 * np.pi * highs[hi_i] * t)
        k = np.round(n * freqs / sr)
        basis = np.exp(-2j * np.pi * np.outer(k, np.arange(n)) / n)
        power = np.abs(basis @ x) ** 2
        decoded.append(int(keys[power[:4].argmax(), power[4:].argmax()]))
    return {"decoded": decoded}


def chirp_spectrogram_text(np, sr=2000, n=1024, nfft=128, hop=64):
    t = np.arange(n) / sr
    x = np.sin(2 * np.pi * (50 * t + 0.5 * (800 - 50) / t[-1] * t**2))
    w = np.hanning(nfft)
    frames = np.stack([x[i : i + nfft] * w for i in range(0, n - nfft + 1, hop)])
    S = np.abs(np.fft.rfft(frames, axis=1)) ** 2
    S_db = 10 * np.log10(S / S.max() + 1e-12)
    track = np.fft.rfftfreq(nfft, 1 / sr)[S.argmax(axis=1)]
    slope = np.polyfit(np.arange(track.size) * hop / sr, track, 1)[0]
    levels = np.digitize(S_db[:, :16], [-60, -40, -20, -6])
    art = "\n".join("".join(" .:*#"[v] for v in row) for row in levels.T[::-1])
    return {"track": track, "slope": slope, "art": art,
            "db_text": np.array2string(S_db[:3, :6], precision=1, floatmode="fixed")}


def legacy_buffers(np, pcm_bytes, gains):
    import array
    pcm = np.array(array.array("h", pcm_bytes))
    gain_buf = np.asarray(array.array("d", gains))
    x = pcm / 32768.0
    y = np.clip(x[:, None] * gain_buf[None, :], -1.0, 1.0 - 2**-15)
    out = np.round(y * 32768).astype(np.int16)
    clipped = (np.abs(y) >= 1.0 - 2**-15).sum(axis=0)
    rms_db = 20 * np.log10(np.sqrt(np.mean(y**2, axis=0)) + 1e-12)
    return {"dtype": str(gain_buf.dtype), "out": out, "clipped": clipped, "rms_db": rms_db,
            "peak": np.abs(out).max(axis=0), "bytes": list(out[:4].tobytes())}


def test_windows_and_gains():
    check(windows_and_gains)
    check(windows_and_gains, M=7)


def test_stft_spectrogram_db():
    t = np.arange(800) / 8000
    x = np.sin(2 * np.pi * 1000 * t) + 0.3 * np.random.default_rng(721).normal(size=800)
    check(stft_frames, x, rtol=1e-3, atol=2e-3)


def test_fir_lowpass_convolve():
    rng = np.random.default_rng(722)
    check(fir_lowpass, rng.normal(size=200), rtol=1e-3, atol=1e-4)


def test_resample_linear_interp():
    t = np.arange(160) / 8000
    check(resample_linear, np.sin(2 * np.pi * 440 * t) * np.exp(-t * 50))


def test_overlap_add_reconstruction():
    check(overlap_add, np.random.default_rng(723).normal(size=160), rtol=1e-3, atol=1e-4)


def test_mel_filterbank_log_energies():
    check(mel_filterbank, np.random.default_rng(724).normal(size=512), rtol=1e-3, atol=1e-3)


def test_pitch_by_autocorrelation():
    check(pitch_autocorrelation, [110.0, 220.0, 330.0])


def test_dtmf_decoder_tone_bins():
    check(dtmf_tone_bins, [(0, 0), (1, 2), (3, 1), (2, 1)])


def test_chirp_spectrogram_as_text():
    check(chirp_spectrogram_text, rtol=1e-3, atol=1e-2)


def test_legacy_array_module_buffers():
    rng = np.random.default_rng(725)
    pcm = (rng.normal(0, 0.3, 200) * 32767).clip(-32768, 32767).astype("<i2").tobytes()
    check(legacy_buffers, pcm, [0.5, 1.0, 3.3333333333333335])
