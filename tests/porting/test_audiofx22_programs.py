"""Audio effects in plain NumPy: a convolution reverb by `np.convolve` in its three modes, ADSR envelopes by
`np.interp`, 16-bit quantisation with `np.rint`/`np.round`, `clip` and a triangular dither, a feedback echo on
slices, mu-law companding by `log1p`/`expm1`, a feed-forward compressor in decibels, equal-power crossfades,
resampling by fractional indices, a uint8 bit crusher, stereo panning by `einsum` and `moveaxis`, RMS meters on
framed audio, zero crossings by `signbit`, and a ring modulator by complex phasors (tests/porting)."""

import numpy as np
from harness import check


def reverb(np, dry, ir):
    dry, ir = np.asarray(dry), np.asarray(ir)
    wet = np.convolve(dry, ir)  # mode='full': len(dry) + len(ir) - 1 samples
    same = np.convolve(dry, ir, mode="same")
    valid = np.convolve(ir, dry[:4], mode="valid")
    mix = 0.7 * dry + 0.3 * wet[: len(dry)]
    peak = np.abs(mix).max()
    return {"wet": wet, "same": same, "valid": valid, "mix": mix / peak, "tail": len(wet) - len(dry),
            "energy": float(np.sum(wet ** 2))}


def adsr(np, n, a, d, s, r):
    t = np.arange(n)
    knots = [0, a, a + d, n - r, n - 1]
    env = np.interp(t, knots, [0.0, 1.0, s, s, 0.0])
    beyond = np.interp([-5, n + 5], knots, [0.0, 1.0, s, s, 0.0], left=-1.0, right=2.0)
    tone = np.sin(2 * np.pi * 5 * t / n) * env
    return {"env": env, "beyond": beyond, "tone": tone, "sustain": np.count_nonzero(env == s),
            "peak_at": int(np.argmax(env))}


def quantise16(np, x, u1, u2):
    x = np.asarray(x)
    scale = 32767
    plain = np.clip(np.rint(x * scale), -32768, 32767).astype(np.int16)
    tpdf = (np.asarray(u1) - np.asarray(u2))  # triangular dither of one LSB
    dithered = np.clip(np.round(x * scale + tpdf), -32768, 32767).astype(np.int16)
    halves = np.round(np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5]))
    back = plain / scale
    return {"plain": plain, "dithered": dithered, "halves": halves, "err": np.max(np.abs(back - x)),
            "clipped": int(np.sum(np.abs(x) > 1.0))}


def echo(np, x, delay, feedback, repeats):
    x = np.asarray(x)
    y = np.zeros(len(x) + delay * repeats)
    y[: len(x)] = x
    for k in range(1, repeats + 1):
        y[k * delay: k * delay + len(x)] += feedback ** k * x
    tail = np.trim_zeros(np.where(np.abs(y) < 1e-3, 0, y), "b")
    return {"y": y, "len_tail": len(tail), "peaks": np.argsort(-np.abs(y), kind="stable")[:3]}


def mulaw(np, x):
    mu = 255.0
    x = np.asarray(x)
    y = np.sign(x) * np.log1p(mu * np.abs(x)) / np.log1p(mu)
    codes = np.round((y + 1) / 2 * 255).astype(np.uint8)
    yq = codes.astype(float) / 255 * 2 - 1
    xr = np.sign(yq) * np.expm1(np.abs(yq) * np.log1p(mu)) / mu
    return {"y": y, "codes": codes, "xr": xr, "snr": 10 * np.log10(np.sum(x ** 2) / np.sum((x - xr) ** 2))}


def compressor(np, x, threshold_db, ratio):
    x = np.asarray(x)
    level = 20 * np.log10(np.maximum(np.abs(x), 1e-6))
    over = np.maximum(level - threshold_db, 0.0)
    gain_db = -over * (1 - 1 / ratio)
    smooth = np.minimum.accumulate(gain_db)  # a gain that only ever falls (infinite release)
    y = x * 10 ** (gain_db / 20)
    return {"level": level, "gain_db": gain_db, "smooth": smooth, "y": y,
            "reduced": np.flatnonzero(gain_db < 0)}


def crossfade(np, a, b, n):
    a, b = np.asarray(a), np.asarray(b)
    t = np.linspace(0, 1, n)
    fade_out, fade_in = np.cos(t * np.pi / 2), np.sin(t * np.pi / 2)
    joined = np.concatenate([a[:-n], a[-n:] * fade_out + b[:n] * fade_in, b[n:]])
    power = fade_out ** 2 + fade_in ** 2
    return {"joined": joined, "power": power, "flat": bool(np.allclose(power, 1.0)), "len": joined.size}


def resample(np, x, ratio):
    x = np.asarray(x)
    pos = np.arange(0, len(x) - 1, ratio)
    i = pos.astype(int)
    frac = pos - i
    lin = x[i] * (1 - frac) + x[i + 1] * frac
    via_interp = np.interp(pos, np.arange(len(x)), x)
    return {"pos": pos, "lin": lin, "same": bool(np.allclose(lin, via_interp)), "n": len(pos)}


def bitcrush(np, samples, bits):
    s = np.asarray(samples).astype(np.uint8)
    shift = 8 - bits
    crushed = (s >> shift) << shift
    wrapped = s + np.uint8(200)  # uint8 arithmetic wraps around
    folded = np.floor_divide(s.astype(np.int16) - 128, 1 << shift)
    return {"crushed": crushed, "wrapped": wrapped, "folded": folded, "levels": np.unique(crushed).size,
            "dtype": str(crushed.dtype)}


def pan(np, mono, positions):
    mono = np.asarray(mono)
    theta = (np.asarray(positions) + 1) * np.pi / 4  # -1 left .. 1 right
    gains = np.stack([np.cos(theta), np.sin(theta)], axis=-1)  # (tracks, 2)
    stereo = np.einsum("tn,tc->nc", mono, gains)
    chans_first = np.moveaxis(stereo, -1, 0)
    balance = np.sum(chans_first ** 2, axis=1)
    return {"stereo": stereo, "chans": chans_first, "balance": balance, "interleaved": stereo.ravel()[:6]}


def rms_meter(np, x, frame, hop):
    x = np.asarray(x)
    frames = np.lib.stride_tricks.sliding_window_view(x, frame)[::hop]
    rms = np.sqrt(np.mean(frames ** 2, axis=1))
    db = 20 * np.log10(rms + 1e-12)
    blocks = x[: len(x) // frame * frame].reshape(-1, frame)
    return {"rms": rms, "db": db, "block_peak": np.abs(blocks).max(axis=1), "loudest": int(np.argmax(rms))}


def zero_crossings(np, x):
    x = np.asarray(x)
    neg = np.signbit(x)
    zc = np.flatnonzero(np.diff(neg.astype(np.int8)) != 0)
    rate = np.count_nonzero(np.diff(np.sign(x))) / len(x)
    return {"neg": neg, "zc": zc, "rate": rate, "first_neg": int(np.argmax(neg))}


def ring_mod(np, x, f, fs):
    x = np.asarray(x)
    t = np.arange(len(x)) / fs
    carrier = np.exp(2j * np.pi * f * t)
    analytic = x * carrier
    return {"real": analytic.real, "imag": analytic.imag, "mag": np.abs(analytic),
            "phase": np.unwrap(np.angle(carrier)), "am": x * np.cos(2 * np.pi * f * t)}


def test_reverb():
    rng = np.random.default_rng(2201)
    ir = np.exp(-np.arange(12) / 3.0) * rng.standard_normal(12)
    check(reverb, rng.standard_normal(40), ir)


def test_adsr():
    check(adsr, 50, 5, 10, 0.6, 15)


def test_quantise16():
    rng = np.random.default_rng(2202)
    x = np.concatenate([rng.uniform(-1.2, 1.2, 30), [0.0, -0.0, 1.0, -1.0]])
    check(quantise16, x, rng.random(34), rng.random(34), atol=2e-5)


def test_echo():
    rng = np.random.default_rng(2203)
    check(echo, rng.standard_normal(20), 7, 0.5, 4)


def test_mulaw():
    check(mulaw, np.sin(np.linspace(0, 6, 40)) * np.linspace(0, 1, 40), rtol=2e-3, atol=2e-4)


def test_compressor():
    rng = np.random.default_rng(2204)
    check(compressor, rng.standard_normal(30) * 0.5, -12.0, 4.0, atol=1e-4)


def test_crossfade():
    check(crossfade, np.ones(20), -np.ones(16), 8)


def test_resample():
    check(resample, np.sin(np.arange(30) / 3.0), 0.75)


def test_bitcrush():
    check(bitcrush, np.arange(0, 256, 9), 3)


def test_pan():
    rng = np.random.default_rng(2205)
    check(pan, rng.standard_normal((3, 10)), np.array([-1.0, 0.0, 0.5]))


def test_rms_meter():
    rng = np.random.default_rng(2206)
    check(rms_meter, rng.standard_normal(64) * np.linspace(0.1, 1, 64), 16, 8)


def test_zero_crossings():
    check(zero_crossings, np.array([0.5, -0.0, 0.0, -1.0, 2.0, np.nan, -3.0, 0.25, -0.25, 1.0]))


def test_ring_mod():
    check(ring_mod, np.sin(np.arange(32) / 2.0), 440.0, 8000.0, atol=1e-4)
