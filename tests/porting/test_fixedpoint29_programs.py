"""Fixed-point and mixed-precision code in plain NumPy, where dtypes decide the results: Q15 filters on `int16`
samples (products widened to `int32`, rounded by `+ (1 << 14) >> 15`, saturated by `np.clip` and cast back),
wrapping `uint16` frame counters and `int8` deltas, 12-bit ADC codes unpacked from `uint8` bytes with shifts and
masks, `astype(..., casting=...)` accepting and refusing casts, NumPy scalars (`np.float64(2.0)`, `np.float32`,
`np.int64`) mixed with `float32` arrays under NEP 50, `np.iinfo`/`np.finfo` limits, a float32 Kahan sum against
`np.sum`, `np.errstate(over=...)` around float16 overflow, and a quantiser dispatching on
`issubclass(dtype, np.integer)` (tests/porting)."""

import numpy as np
from harness import check


def q15_fir(np, samples, taps):
    x = np.asarray(samples, dtype=np.int16)
    h = np.round(np.asarray(taps) * 32767).astype(np.int16)
    acc = np.zeros(len(x), dtype=np.int32)
    for k in range(len(h)):
        shifted = np.zeros(len(x), dtype=np.int16)
        shifted[k:] = x[: len(x) - k]
        acc += shifted.astype(np.int32) * h[k]
    y = (acc + (1 << 14)) >> 15
    sat = np.clip(y, np.iinfo(np.int16).min, np.iinfo(np.int16).max).astype(np.int16)
    wrapped = y.astype(np.int16)  # what forgetting to saturate does
    ref = np.convolve(x.astype(np.float64), h / 32768.0)[: len(x)]
    return {"sat": sat, "wrapped": wrapped, "n_clipped": int(np.sum(sat != wrapped)), "acc_dtype": acc.dtype.name,
            "err": np.abs(sat - np.clip(ref, -32768, 32767)).max(), "h": h}


def frame_counters(np, counters, deltas):
    c = np.asarray(counters, dtype=np.uint16)
    d = np.asarray(deltas, dtype=np.int8)
    step = np.diff(c)  # uint16: wraps at rollover
    signed = step.astype(np.int16)
    lost = np.flatnonzero(step != 1)
    rebuilt = np.cumsum(np.concatenate([[0], step.astype(np.int64)]))
    d_acc = np.cumsum(d, dtype=np.int8)  # wraps
    d_wide = np.cumsum(d.astype(np.int32))
    bumped = c + np.uint16(1)
    return {"step": step, "signed": signed, "lost": lost, "rebuilt": rebuilt, "d_acc": d_acc, "d_wide": d_wide,
            "bumped": bumped, "dtypes": [step.dtype.name, d_acc.dtype.name, bumped.dtype.name]}


def unpack_adc12(np, raw):
    b = np.asarray(raw, dtype=np.uint8).reshape(-1, 3).astype(np.uint16)
    first = (b[:, 0] << 4) | (b[:, 1] >> 4)
    second = ((b[:, 1] & 0x0F) << 8) | b[:, 2]
    codes = np.stack([first, second], axis=1).ravel()
    volts = codes.astype(np.float32) * np.float32(3.3 / 4095)
    signed = codes.astype(np.int16) - 2048
    repacked = np.empty(len(codes) // 2 * 3, dtype=np.uint8)
    repacked[0::3] = (codes[0::2] >> 4).astype(np.uint8)
    repacked[1::3] = (((codes[0::2] & 0xF) << 4) | (codes[1::2] >> 8)).astype(np.uint8)
    repacked[2::3] = (codes[1::2] & 0xFF).astype(np.uint8)
    return {"codes": codes, "volts": volts, "signed": signed, "roundtrip": np.array_equal(repacked, raw),
            "max_code": codes.max(), "bits": np.bitwise_count(codes).sum()}


def casting_rules(np, x):
    x = np.asarray(x, dtype=np.float32)
    results = {}
    for name, target, casting in [("to_f64_safe", np.float64, "safe"), ("to_i32_same_kind", np.int32, "same_kind"),
                                  ("to_i32_unsafe", np.int32, "unsafe"), ("to_f16_same_kind", np.float16, "same_kind"),
                                  ("to_u8_unsafe", np.uint8, "unsafe")]:
        try:
            results[name] = x.astype(target, casting=casting)
        except TypeError:
            results[name] = "refused"
    ints = np.arange(-3, 4, dtype=np.int16)
    try:
        results["i16_to_u16_safe"] = ints.astype(np.uint16, casting="safe")
    except TypeError:
        results["i16_to_u16_safe"] = "refused"
    results["i16_to_u16_unsafe"] = ints.astype(np.uint16)
    results["i16_to_i64_safe"] = ints.astype(np.int64, casting="safe")
    return results


def nep50_scalars(np, x):
    x = np.asarray(x, dtype=np.float32)
    a = x * np.float64(2.0)
    b = x * 2.0
    c = x + np.float32(1e-8)
    d = np.float64(1e-8) + x
    i8 = np.arange(-4, 4, dtype=np.int8)
    e = i8 * np.int64(40)
    f = i8 * 40  # Python int: stays int8 and wraps
    g = i8 + np.float32(0.5)
    return {"a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g,
            "kinds": [v.dtype.kind for v in (a, b, c, d, e, f, g)],
            "f64": [v.dtype == np.float64 for v in (a, d)], "small": [f.dtype.itemsize, e.dtype.itemsize]}


def kahan_float32(np, values):
    v = np.asarray(values, dtype=np.float32)
    s = np.float32(0.0)
    comp = np.float32(0.0)
    naive = np.float32(0.0)
    for val in v:
        y = val - comp
        t = s + y
        comp = (t - s) - y
        s = t
        naive = naive + val
    exact = np.sum(v.astype(np.float64))
    return {"kahan": s, "naive": naive, "np_sum": np.sum(v), "exact": exact,
            "kahan_err": abs(float(s) - exact), "naive_worse": bool(abs(float(naive) - exact) >= abs(float(s) - exact))}


def half_precision(np, x):
    h = np.asarray(x, dtype=np.float16)
    with np.errstate(over="ignore"):
        big = h * np.float16(1000)
    fin = np.isfinite(big)
    lim = np.finfo(np.float16)
    scaled = (h.astype(np.float32) * 1000).clip(-float(lim.max), float(lim.max)).astype(np.float16)
    return {"big": big, "n_inf": int((~fin).sum()), "scaled": scaled, "eps": float(lim.eps),
            "max": float(lim.max), "dtype": big.dtype.name, "sum32": h.sum(dtype=np.float32)}


def quantise(np, x, dtypes):
    x = np.asarray(x)
    out = {}
    for dtype in dtypes:
        if issubclass(dtype, np.integer):
            info = np.iinfo(dtype)
            scale = info.max if issubclass(dtype, np.signedinteger) else info.max / 2
            offset = 0 if issubclass(dtype, np.signedinteger) else info.max / 2
            q = np.clip(np.rint(x * scale + offset), info.min, info.max).astype(dtype)
            back = (q.astype(np.float64) - offset) / scale
        elif issubclass(dtype, np.floating):
            q = x.astype(dtype)
            back = q.astype(np.float64)
        else:
            raise TypeError(dtype)
        out[str(np.dtype(dtype))] = [q, float(np.abs(back - x).max()), q.dtype.itemsize]
    return out


def test_q15_fir():
    rng = np.random.default_rng(2996)
    x = np.clip(rng.normal(0, 12000, 64), -32768, 32767).astype(np.int16)
    x[10:14] = 32767
    check(q15_fir, x, np.array([0.25, 0.5, 0.5, 0.25, -0.1]))


def test_quantise():
    # the dtypes are the program's own arguments: NumPy's scalar types for NumPy, kdsl's dtypes for kdsl
    x = np.linspace(-1, 1, 11) ** 3

    def run(xp, x):
        return quantise(xp, x, [xp.int8, xp.uint8, xp.int16, xp.float16, xp.float32])

    check(run, x, rtol=1e-3, atol=1e-6)


def test_frame_counters():
    c = (np.arange(65530, 65530 + 12) % 65536).astype(np.uint16)
    c = np.delete(c, [4, 8])
    check(frame_counters, c, np.array([100, 50, -20, 90, -128, 127, 5, 60], dtype=np.int8))


def test_unpack_adc12():
    codes = np.random.default_rng(2997).integers(0, 4096, 20)
    raw = np.empty(30, dtype=np.uint8)
    raw[0::3] = codes[0::2] >> 4
    raw[1::3] = ((codes[0::2] & 0xF) << 4) | (codes[1::2] >> 8)
    raw[2::3] = codes[1::2] & 0xFF
    check(unpack_adc12, raw)


def test_casting_rules():
    check(casting_rules, np.array([-1.5, 0.25, 3.75, 200.5, 1e5]))


def test_nep50_scalars():
    check(nep50_scalars, np.array([1.0, 0.1, -3.3, 1e6]))


def test_kahan_float32():
    rng = np.random.default_rng(2998)
    vals = np.concatenate([[1e4], rng.uniform(0, 1e-3, 300)]).astype(np.float32)
    check(kahan_float32, vals, rtol=1e-6, atol=1e-6)


def test_half_precision():
    check(half_precision, np.array([0.5, 70.0, -80.0, 3.0, 65.0]), rtol=1e-3, atol=1e-3)
