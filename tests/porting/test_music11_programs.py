"""Music theory and audio synthesis as tutorials write them: equal-temperament frequencies and MIDI numbers with
note names from a Python list, chords and scales as pitch-class sets (mod 12, bit masks, np.isin), additive synthesis
of a chord with an ADSR envelope converted to int16 PCM (clip, astype, `.tobytes()` length), pitch detection by the
FFT peak with parabolic interpolation, a step sequencer (a uint8 pattern, np.flatnonzero, np.add.at into a mix),
per-frame gain written through np.lib.stride_tricks.as_strided frames, a 24-bit PCM decoder that catches
OverflowError storing np.int64 words into int16, and a tuning table printed with f-strings and np.array2string
(tests/porting)."""

import numpy as np
from harness import check

NAMES = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]


def note_table(np, freqs):
    midi = 69 + 12 * np.log2(np.asarray(freqs) / 440.0)
    nearest = np.round(midi).astype(int)
    cents = np.round(100 * (midi - nearest)).astype(int)
    names = [f"{NAMES[m % 12]}{m // 12 - 1}" for m in nearest.tolist()]
    equal = 440.0 * 2.0 ** ((np.arange(21, 109) - 69) / 12)
    octave_ratio = equal[12:] / equal[:-12]
    try:
        np.log2(np.asarray(freqs)).reshape(5, 5)
        bad = False
    except ValueError:
        bad = True
    lines = [f"{n:>4} {f:8.2f} Hz {c:+3d}c"
             for n, f, c in zip(names, np.asarray(freqs).tolist(), cents.tolist(), strict=True)]
    return {"midi": nearest, "cents": cents, "names": names, "piano": equal[[0, 39, 48, 87]],
            "octaves": bool(np.allclose(octave_ratio, 2.0)), "bad_reshape": bad, "lines": lines}


def chord_sets(np, chords):
    major_scale = np.array([0, 2, 4, 5, 7, 9, 11])
    scales = (major_scale[None, :] + np.arange(12)[:, None]) % 12
    out = []
    for chord in chords:
        pcs = np.unique(np.asarray(chord) % 12)
        mask = np.bitwise_or.reduce(np.left_shift(1, pcs))
        fits = np.flatnonzero(np.isin(scales, pcs).sum(axis=1) == len(pcs))
        root_pos = [int(np.sum(np.isin((pcs - r) % 12, [0, 4, 7]))) for r in pcs.tolist()]
        out.append((int(mask), [NAMES[k] for k in fits.tolist()], pcs.tolist(), max(root_pos)))
    inversions = np.array([np.roll(np.array([60, 64, 67]), -k) + 12 * (np.arange(3) < k) for k in range(3)])
    return {"sets": out, "inversions": inversions, "transposed": (np.array(chords[0]) + 5) % 12}


def adsr_pcm(np, sr, dur, notes):
    t = np.arange(int(sr * dur)) / sr
    n = len(t)
    a, d, r = int(0.1 * n), int(0.2 * n), int(0.3 * n)
    s = n - a - d - r
    env = np.concatenate([np.linspace(0, 1, a, endpoint=False), np.linspace(1, 0.6, d, endpoint=False),
                          np.full(s, 0.6), np.linspace(0.6, 0, r)])
    freqs = 440.0 * 2.0 ** ((np.asarray(notes) - 69) / 12)
    partials = np.arange(1, 4)
    wave = (np.sin(2 * np.pi * freqs[:, None, None] * partials[None, :, None] * t) / partials[None, :, None]).sum(
        axis=(0, 1))
    wave *= env
    peak = np.abs(wave).max()
    pcm = np.clip(wave / peak * 1.1, -1.0, 1.0)
    pcm16 = np.rint(pcm * 32767).astype(np.int16)
    clipped = int(np.count_nonzero(np.abs(pcm16) == 32767))
    stereo = np.column_stack([pcm16, pcm16 // 2])
    rms_db = 20 * np.log10(np.sqrt(np.mean((pcm16 / 32768.0) ** 2)))
    return {"env": env, "pcm": pcm16, "clipped": clipped, "bytes": len(stereo.tobytes()), "rms_db": rms_db,
            "stereo_head": stereo[:4].tolist()}


def pitch_detect(np, sr, f0, noise):
    n = 2048
    t = np.arange(n) / sr
    x = np.sin(2 * np.pi * f0 * t) + 0.3 * np.sin(2 * np.pi * 2 * f0 * t) + noise
    win = np.hanning(n)
    mag = np.abs(np.fft.rfft(x * win))
    k = int(np.argmax(mag[1:])) + 1
    a, b, c = np.log(mag[k - 1:k + 2])
    p = 0.5 * (a - c) / (a - 2 * b + c)
    est = (k + p) * sr / n
    peaks = np.flatnonzero((mag[1:-1] > mag[:-2]) & (mag[1:-1] > mag[2:]) & (mag[1:-1] > 0.1 * mag.max())) + 1
    midi = 69 + 12 * np.log2(est / 440)
    return {"k": k, "est": round(float(est), 1), "peaks": peaks, "note": NAMES[int(round(midi)) % 12],
            "freqs": np.fft.rfftfreq(n, 1 / sr)[peaks]}


def step_sequencer(np, pattern, samples, steps_len):
    pattern = np.asarray(pattern, dtype=np.uint8)
    n_tracks, n_steps = pattern.shape
    tail = max(len(s) for s in samples)
    mix = np.zeros(n_steps * steps_len + tail, dtype=np.float32)  # room for the last hit's ring-out
    hits = []
    for tr in range(n_tracks):
        on = np.flatnonzero(pattern[tr])
        hits.append(on.tolist())
        starts = on * steps_len
        idx = starts[:, None] + np.arange(len(samples[tr]))[None, :]
        # flat indices and tiled values: NumPy 2.4's add.at of float32 values broadcast over a 2-d index
        # writes garbage (kdsl's is right)
        np.add.at(mix, idx.ravel(), np.tile(samples[tr], len(on)))
    mix = mix[: n_steps * steps_len]
    velocity = pattern * np.uint8(100)  # wraps past 255 where a step holds 3
    per_step = pattern.sum(axis=0)
    busiest = int(np.argmax(per_step))
    return {"mix": mix, "hits": hits, "vel": velocity, "per_step": per_step, "busiest": busiest,
            "peak": float(np.max(np.abs(mix)))}


def tuning_table(np, ratios_just):
    ratios_just = np.asarray(ratios_just, dtype=np.float64)
    steps = np.array([0, 2, 4, 5, 7, 9, 11, 12])
    equal = 2.0 ** (steps / 12)
    cents_diff = 1200 * np.log2(ratios_just / equal)
    with np.printoptions(precision=3, suppress=True):
        shown = str(cents_diff)
    rows = [f"{s:2d} {e:.5f} {j:.5f} {c:+6.2f}"
            for s, e, j, c in zip(steps.tolist(), equal.tolist(), ratios_just.tolist(), cents_diff.tolist(),
                                  strict=True)]
    worst = steps[np.argmax(np.abs(cents_diff))].item()
    return {"cents": cents_diff, "shown": shown, "rows": rows, "worst": worst,
            "beats": np.round(np.abs(ratios_just - equal) * 261.63, 2)}


def pcm_decoder(np, words, bits):
    # 24-bit words read as int64 go into an int16 buffer: the ones that do not fit are caught and clipped
    out = np.zeros(len(words), dtype=np.int16)
    clipped = []
    for i, w in enumerate(words):
        v = w >> (24 - bits)
        try:
            out[i] = v
        except OverflowError:
            out[i] = np.iinfo(np.int16).max if v > 0 else np.iinfo(np.int16).min
            clipped.append(i)
    as_float = out / 32768.0
    peak_db = 20 * np.log10(np.max(np.abs(as_float)))
    return {"out": out, "clipped": clipped, "peak_db": round(float(peak_db), 3),
            "bytes": list(out.tobytes()[:6]), "lo": out.min().item()}


def frame_gain(np, x, hop, target_db):
    from_strides = np.lib.stride_tricks.as_strided
    sig = np.array(x, dtype=np.float32)
    n = len(sig) // hop
    # overlapping analysis windows (read-only use) and non-overlapping frames written in place
    win = from_strides(sig, shape=(n - 1, 2 * hop), strides=(hop * sig.itemsize, sig.itemsize))
    rms_db = 10 * np.log10(np.mean(win ** 2, axis=1) + 1e-12)
    frames = from_strides(sig, shape=(n, hop), strides=(hop * sig.itemsize, sig.itemsize))
    gain_db = np.clip(target_db - np.r_[rms_db, rms_db[-1]], -12, 12)
    frames *= (10 ** (gain_db / 20)).astype(np.float32)[:, None]
    loud = np.flatnonzero(gain_db < 0)
    return {"sig": sig, "rms_db": rms_db, "gain_db": gain_db, "loud": loud, "peak": float(np.abs(sig).max())}


def test_note_names_and_cents():
    check(note_table, [440.0, 261.63, 329.0, 1000.0, 27.5, 4186.0, 98.0, 123.47, 466.16, 55.5])


def test_chords_and_scales_as_pitch_class_sets():
    check(chord_sets, [[60, 64, 67], [62, 65, 69, 72], [59, 62, 65], [60, 63, 66, 69], [61, 65, 68]])


def test_adsr_chord_to_int16_pcm():
    check(adsr_pcm, 4000, 0.25, [60, 64, 67], rtol=1e-3, atol=2.0)


def test_fft_pitch_detection():
    rng = np.random.default_rng(1121)
    check(pitch_detect, 8000, 293.7, 0.05 * rng.normal(size=2048), rtol=1e-3, atol=1e-3)


def test_step_sequencer_mix():
    rng = np.random.default_rng(1123)
    pattern = [[1, 0, 0, 1, 1, 0, 1, 0], [0, 0, 1, 0, 0, 3, 0, 1], [1, 1, 1, 1, 0, 0, 0, 0]]
    samples = [rng.normal(size=6).astype(np.float32), rng.normal(size=5).astype(np.float32),
               rng.normal(size=4).astype(np.float32)]
    check(step_sequencer, pattern, samples, 4)


def test_just_vs_equal_tuning_table():
    check(tuning_table, [1, 9 / 8, 5 / 4, 4 / 3, 3 / 2, 5 / 3, 15 / 8, 2])


def test_pcm_decoder_catches_overflow():
    rng = np.random.default_rng(1124)
    words = list(rng.integers(-2 ** 23, 2 ** 23, 12, dtype=np.int64))
    words[3], words[7] = np.int64(2 ** 23 - 1), np.int64(-2 ** 23)
    check(pcm_decoder, words, 17)


def test_frame_gain_through_strided_views():
    rng = np.random.default_rng(1125)
    x = rng.normal(0, 1, 96) * np.repeat([0.1, 1.0, 0.3, 2.0, 0.05, 0.5], 16)
    check(frame_gain, x, 8, -6.0, rtol=1e-3, atol=1e-4)
