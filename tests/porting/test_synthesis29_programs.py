"""Audio synthesis in plain NumPy: ADSR envelopes by `np.piecewise` and by `np.interp` over breakpoints, FM and
additive synthesis of `float32` buffers with phase accumulation by `cumsum` (a vibrato) and `np.mod`, a
band-limited sawtooth from harmonics summed by `np.sin(np.outer(...))` with a Nyquist mask, 16-bit PCM conversion
with `np.clip`/`astype(np.int16)` and stereo interleaving by `np.column_stack(...).ravel()`, an FFT brick-wall and
a Gaussian-shaped filter by `rfft`/`irfft` with `n=` and `rfftfreq`, spectral peaks by `argpartition`, a simple
delay/echo by slicing with `np.add` into an `out=` view, and polyphony by `np.add.at` of notes into a mix bus
(tests/porting)."""

import numpy as np
from harness import check

SR = 8000


def adsr(np, n, attack, decay, sustain, release, gate):
    t = np.arange(n) / SR
    a, d, r = attack, attack + decay, gate + release
    env = np.piecewise(t, [t < a, (t >= a) & (t < d), (t >= d) & (t < gate), (t >= gate) & (t < r)],
                       [lambda s: s / a, lambda s: 1 - (1 - sustain) * (s - a) / decay, sustain,
                        lambda s: sustain * (1 - (s - gate) / release), 0.0])
    env2 = np.interp(t, [0, a, d, gate, r], [0, 1, sustain, sustain, 0], right=0.0)
    peaks = np.flatnonzero(np.diff(np.sign(np.diff(env))) < 0) + 1
    return {"env": env[::50], "same": np.allclose(env, env2, atol=1e-6), "peak": peaks,
            "area": np.trapezoid(env, dx=1 / SR), "nonzero": np.count_nonzero(env)}


def fm_tone(np, n, fc, fm, index, vib_rate, vib_depth):
    t = np.arange(n, dtype=np.float32) / np.float32(SR)
    inst_f = fc * (1 + vib_depth * np.sin(2 * np.pi * vib_rate * t))
    phase = 2 * np.pi * np.cumsum(inst_f) / SR
    mod = index * np.sin(2 * np.pi * fm * t)
    y = np.sin(phase + mod).astype(np.float32)
    wrapped = np.mod(phase, 2 * np.pi)
    zc = np.count_nonzero(np.diff(np.signbit(y)))
    return {"y": y[:64], "rms": np.sqrt(np.mean(y**2)), "zc": zc, "wrapped_max": wrapped.max() < 2 * np.pi,
            "dtype": y.dtype.name, "phase_end": phase[-1] % (2 * np.pi)}


def bandlimited_saw(np, n, f0, n_harm):
    t = np.arange(n) / SR
    k = np.arange(1, n_harm + 1)
    keep = k * f0 < SR / 2
    amps = np.where(keep, (-1.0) ** (k + 1) / k, 0.0)
    y = (2 / np.pi) * (np.sin(2 * np.pi * f0 * np.outer(t, k)) @ amps)
    pcm = np.clip(np.round(y * 32767), -32768, 32767).astype(np.int16)
    stereo = np.column_stack([pcm, (pcm // 2).astype(np.int16)]).ravel()
    return {"kept": int(keep.sum()), "y": y[:40], "pcm": pcm[:40], "stereo": stereo[:20],
            "peak": np.abs(pcm).max(), "dtype": stereo.dtype.name, "bytes": stereo.nbytes}


def fft_filters(np, x, cutoff, centre, width):
    x = np.asarray(x)
    n = len(x)
    X = np.fft.rfft(x)
    f = np.fft.rfftfreq(n, d=1 / SR)
    low = np.fft.irfft(np.where(f <= cutoff, X, 0), n=n)
    gauss = np.exp(-0.5 * ((f - centre) / width) ** 2)
    band = np.fft.irfft(X * gauss, n=n)
    padded = np.fft.irfft(np.fft.rfft(x, n=2 * n), n=2 * n)[:n]
    power = np.abs(X) ** 2 / n
    top = np.argpartition(power, -3)[-3:]
    return {"low": low[:50], "band": band[:50], "padded_ok": np.allclose(padded, x, atol=1e-4),
            "peaks": np.sort(f[top]), "energy": [float(np.sum(low**2)), float(np.sum(band**2))]}


def echo(np, x, delay_s, gain, repeats):
    x = np.asarray(x, dtype=np.float32)
    d = int(delay_s * SR)
    y = np.zeros(len(x) + repeats * d, dtype=np.float32)
    y[: len(x)] = x
    for k in range(1, repeats + 1):
        seg = y[k * d: k * d + len(x)]
        np.add(seg, gain**k * x, out=seg)
    peak = np.max(np.abs(y))
    if peak > 1:
        y /= peak
    tail = y[len(x):]
    return {"y": y[::40], "peak": peak, "tail_rms": np.sqrt(np.mean(tail**2)), "len": len(y),
            "dtype": y.dtype.name}


def polyphony(np, starts, pitches, dur, n):
    bus = np.zeros(n)
    L = int(dur * SR)
    env = np.hanning(L)
    t = np.arange(L) / SR
    for s, p in zip(starts, pitches, strict=True):
        f = 440.0 * 2 ** ((p - 69) / 12)
        idx = np.arange(s, s + L)
        ok = idx < n
        np.add.at(bus, idx[ok], (env * np.sin(2 * np.pi * f * t))[ok])
    voices = np.zeros(n, dtype=np.int64)
    for s in starts:
        voices[s: s + L] += 1
    norm = bus / np.maximum(voices, 1)
    return {"bus": bus[::64], "voices_max": voices.max(), "norm": norm[::64], "clip": np.mean(np.abs(bus) > 1),
            "freqs": 440.0 * 2 ** ((np.asarray(pitches) - 69) / 12)}


def test_adsr():
    check(adsr, 4000, 0.05, 0.1, 0.6, 0.2, 0.35)


def test_fm_tone():
    check(fm_tone, 2048, 440.0, 110.0, 2.0, 5.0, 0.01, rtol=2e-3, atol=2e-3)


def test_bandlimited_saw():
    r = check(bandlimited_saw, 512, 440.0, 12, atol=1.01)  # int16 rounding: one LSB apart at most
    assert r["dtype"] == "int16"


def test_fft_filters():
    rng = np.random.default_rng(2990)
    t = np.arange(1000) / SR
    x = np.sin(2 * np.pi * 300 * t) + 0.5 * np.sin(2 * np.pi * 1200 * t) + 0.2 * rng.normal(size=1000)
    check(fft_filters, x, 600.0, 1200.0, 100.0, rtol=1e-3, atol=1e-4)


def test_echo():
    t = np.arange(800) / SR
    check(echo, np.sin(2 * np.pi * 220 * t) * np.exp(-20 * t), 0.03, 0.6, 3)


def test_polyphony():
    check(polyphony, [0, 300, 300, 1500], [60, 64, 67, 72], 0.2, 2400)
