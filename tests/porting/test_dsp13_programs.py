"""Audio DSP by hand as DSP course notebooks write it (no SciPy): a biquad low-pass from the RBJ cookbook run
sample by sample in a Python loop and checked against its frequency response (`np.polyval` on the unit circle,
poles by `np.roots`), a windowed-sinc FIR by `np.sinc` * `np.kaiser` applied with `np.convolve(mode="same")`, an
STFT through `as_strided` frames with `np.fft.rfft(norm="ortho")` and its inverse by overlap-add (`np.add.at` on
frame positions), pitch by the YIN difference function (cumulative mean normalisation, the first dip under a
threshold by `np.argmax` of a mask, parabolic interpolation), a phase vocoder's instantaneous frequency with
`np.angle`/`np.unwrap`, a 16-bit PCM round trip through bytes (`np.frombuffer('<i2')`, `np.clip` then
`astype`, `view`), and an octave-band analyser with `np.geomspace` edges, `np.digitize` of bin frequencies and
`np.bincount` weights printed with `np.set_printoptions` (tests/porting)."""

import numpy as np
from harness import check


def biquad_lowpass(np, x, fs, f0, Q):
    w0 = 2 * np.pi * f0 / fs
    alpha = np.sin(w0) / (2 * Q)
    cw = np.cos(w0)
    b = np.array([(1 - cw) / 2, 1 - cw, (1 - cw) / 2])
    a = np.array([1 + alpha, -2 * cw, 1 - alpha])
    b, a = b / a[0], a / a[0]
    y = np.zeros_like(x)
    x1 = x2 = y1 = y2 = 0.0
    for n in range(len(x)):
        y[n] = b[0] * x[n] + b[1] * x1 + b[2] * x2 - a[1] * y1 - a[2] * y2
        x2, x1 = x1, x[n]
        y2, y1 = y1, y[n]
    freqs = np.array([50.0, 500.0, 1000.0, 3000.0])
    z = np.exp(-1j * 2 * np.pi * freqs / fs)
    H = np.polyval(b[::-1], z) / np.polyval(a[::-1], z)
    poles = np.roots(a)
    return {"y": y[::16], "gain_db": 20 * np.log10(np.abs(H)), "pole_radius": np.sort(np.abs(poles)),
            "stable": bool(np.all(np.abs(poles) < 1)), "b": b, "a": a}


def windowed_sinc(np, x, fc, taps, beta):
    n = np.arange(taps) - (taps - 1) / 2
    h = 2 * fc * np.sinc(2 * fc * n) * np.kaiser(taps, beta)
    h /= h.sum()
    y = np.convolve(x, h, mode="same")
    H = np.abs(np.fft.rfft(h, 512))
    f = np.fft.rfftfreq(512)
    stop = H[f > fc + 0.05]
    cutoff_bin = np.argmax(H < np.sqrt(0.5))
    return {"h": h, "y": y[::8], "stop_db": 20 * np.log10(stop.max()), "cutoff": f[cutoff_bin],
            "symmetric": bool(np.allclose(h, h[::-1]))}


def stft_roundtrip(np, x, n_fft, hop):
    x = np.ascontiguousarray(x)
    n_frames = 1 + (len(x) - n_fft) // hop
    frames = np.lib.stride_tricks.as_strided(x, shape=(n_frames, n_fft),
                                             strides=(x.strides[0] * hop, x.strides[0]), writeable=False)
    win = np.hanning(n_fft + 1)[:-1]
    spec = np.fft.rfft(frames * win, axis=1, norm="ortho")
    back = np.fft.irfft(spec, n=n_fft, axis=1, norm="ortho") * win
    out = np.zeros(len(x))
    norm = np.zeros(len(x))
    idx = np.arange(n_fft)[None, :] + hop * np.arange(n_frames)[:, None]
    np.add.at(out, idx, back)
    np.add.at(norm, idx, np.broadcast_to(win ** 2, back.shape))
    ok = norm > 1e-3
    rec = np.zeros_like(out)
    rec[ok] = out[ok] / norm[ok]
    mag_db = 10 * np.log10(np.abs(spec) ** 2 + 1e-12)
    return {"mag_db": mag_db[:, :20], "peak_bins": np.argmax(np.abs(spec), axis=1),
            "rec_err": np.abs(rec - x)[ok].max(), "covered": int(ok.sum())}


def yin_pitch(np, x, fs, tau_max, threshold):
    W = len(x) - tau_max
    d = np.array([np.sum((x[:W] - x[tau:tau + W]) ** 2) for tau in range(tau_max)])
    cmnd = np.ones_like(d)
    cmnd[1:] = d[1:] * np.arange(1, tau_max) / np.cumsum(d[1:])
    below = cmnd < threshold
    below[:2] = False
    tau = int(np.argmax(below))
    while tau + 1 < tau_max and cmnd[tau + 1] < cmnd[tau]:
        tau += 1
    s0, s1, s2 = cmnd[tau - 1], cmnd[tau], cmnd[tau + 1]
    shift = (s2 - s0) / (2 * (2 * s1 - s2 - s0))
    return {"tau": tau, "f0": fs / (tau + shift), "cmnd": cmnd[::8], "aperiodicity": s1}


def phase_vocoder_freq(np, x, fs, n_fft, hop):
    frames = np.lib.stride_tricks.sliding_window_view(x, n_fft)[::hop]
    spec = np.fft.rfft(frames * np.hamming(n_fft), axis=1)
    phase = np.angle(spec)
    k = np.argmax(np.abs(spec).mean(axis=0))
    unwrapped = np.unwrap(phase[:, k])
    expected = 2 * np.pi * k * hop / n_fft
    dev = np.diff(unwrapped) - expected
    dev = np.mod(dev + np.pi, 2 * np.pi) - np.pi
    inst = (k + dev * n_fft / (2 * np.pi * hop)) * fs / n_fft
    return {"bin": int(k), "inst": inst, "mean_freq": inst.mean(), "deg": np.angle(spec[:3, k], deg=True)}


def pcm_roundtrip(np, raw, gain):
    pcm = np.frombuffer(raw, dtype="<i2")
    x = pcm.astype(np.float32) / 32768
    louder = x * gain
    clipped = int(np.count_nonzero(np.abs(louder) > 1))
    out = np.clip(np.round(louder * 32767), -32768, 32767).astype(np.int16)
    wrapped = (pcm.astype(np.int32) * 3).astype(np.int16)
    as_bytes = out.tobytes()
    u16 = out.view(np.uint16)
    rms_dbfs = 20 * np.log10(np.sqrt(np.mean(x.astype(np.float64) ** 2)))
    return {"out": out, "clipped": clipped, "wrapped": wrapped[:20], "n_bytes": len(as_bytes),
            "u16": u16[:10], "rms": rms_dbfs, "peak": int(np.abs(out.astype(np.int32)).max())}


def octave_bands(np, x, fs, n_fft):
    spec = np.abs(np.fft.rfft(x[:n_fft] * np.blackman(n_fft))) ** 2
    freqs = np.fft.rfftfreq(n_fft, d=1 / fs)
    centres = 1000 * 2.0 ** np.arange(-4, 4)
    edges = np.concatenate([centres / np.sqrt(2), centres[-1:] * np.sqrt(2)])
    band = np.digitize(freqs, edges) - 1
    valid = (band >= 0) & (band < len(centres))
    energy = np.bincount(band[valid], weights=spec[valid], minlength=len(centres))
    level = 10 * np.log10(energy / energy.max() + 1e-20)
    geom = np.geomspace(edges[0], edges[-1], 9)
    with np.printoptions(precision=1, suppress=True, floatmode="fixed"):
        text = str(level)
    return {"energy_rel": energy / energy.sum(), "level": level, "text": text, "geom": geom,
            "loudest": int(np.argmax(energy))}


def _tone(fs, n, freqs, rng):
    t = np.arange(n) / fs
    return sum(np.sin(2 * np.pi * f * t) for f in freqs) + 0.05 * rng.standard_normal(n)


def test_biquad_lowpass_sample_loop():
    rng = np.random.default_rng(1331)
    check(biquad_lowpass, _tone(8000, 400, [200, 2500], rng), 8000.0, 800.0, 0.707, rtol=1e-3, atol=1e-4)


def test_windowed_sinc_fir():
    rng = np.random.default_rng(1332)
    check(windowed_sinc, _tone(8000, 512, [300, 3000], rng), 0.1, 63, 6.0, rtol=1e-3, atol=1e-4)


def test_stft_overlap_add_roundtrip():
    rng = np.random.default_rng(1333)
    check(stft_roundtrip, _tone(8000, 1024, [440, 1250], rng), 128, 32, rtol=2e-3, atol=2e-4)


def test_yin_pitch_detection():
    rng = np.random.default_rng(1334)
    t = np.arange(1200) / 16000
    x = np.sin(2 * np.pi * 220 * t) + 0.4 * np.sin(2 * np.pi * 440 * t) + 0.02 * rng.standard_normal(1200)
    check(yin_pitch, x, 16000, 200, 0.15, rtol=1e-3, atol=1e-4)


def test_phase_vocoder_instantaneous_frequency():
    t = np.arange(2048) / 8000
    check(phase_vocoder_freq, np.sin(2 * np.pi * 1010.0 * t), 8000, 256, 64, rtol=1e-3, atol=1e-2)


def test_pcm16_bytes_roundtrip():
    rng = np.random.default_rng(1336)
    pcm = (rng.standard_normal(300) * 8000).clip(-32768, 32767).astype("<i2")
    check(pcm_roundtrip, pcm.tobytes(), 3.5, rtol=1e-3)


def test_octave_band_analyser_printed():
    rng = np.random.default_rng(1337)
    check(octave_bands, _tone(44100, 4096, [125, 1000, 6000], rng), 44100, 4096, rtol=1e-3, atol=1e-5)
