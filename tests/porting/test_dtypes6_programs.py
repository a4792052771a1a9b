"""Dtype edge cases as NumPy programs meet them: uint8 pixel arithmetic that wraps and the widening that avoids
it, int8/int16 overflow on purpose, FNV-1a and xorshift hashes in uint32/uint64, an LCG with explicit masks,
iinfo/finfo limits driving clipping and saturating casts, float32 versus float64 accumulation and promotion,
and bool arithmetic (tests/porting)."""

import numpy as np
from harness import check


def uint8_pixels(np, img_host):
    img = np.asarray(img_host).astype(np.uint8)
    wrapped = img + np.uint8(100)
    widened = img.astype(np.int16) + 100
    saturated = np.clip(widened, 0, 255).astype(np.uint8)
    diff_wrapped = img[:, 1:] - img[:, :-1]
    diff = np.abs(img[:, 1:].astype(np.int16) - img[:, :-1])
    inverted = 255 - img
    halved = img // 2 + img // 2
    mean_u8 = img.mean(dtype=np.float64)
    blend = ((img.astype(np.uint16) * 3 + inverted) // 4).astype(np.uint8)
    return {"wrapped": wrapped, "saturated": saturated, "diff_wrapped": diff_wrapped, "diff": diff,
            "inverted": inverted, "halved": halved, "mean": float(mean_u8), "blend": blend,
            "dtypes": [str(wrapped.dtype), str(widened.dtype), str(diff.dtype), str(inverted.dtype)]}


def small_int_overflow(np):
    a = np.arange(120, 136, dtype=np.int8)
    counter = np.zeros(4, dtype=np.int16)
    for _ in range(70):
        counter += np.array([500, 1000, -700, 3], dtype=np.int16)
    i32 = np.array([2**31 - 1, -(2**31)], dtype=np.int32)
    u16 = np.array([0, 1, 65535], dtype=np.uint16)
    return {"a": a, "a_plus": a + np.int8(10), "neg": -a, "abs": np.abs(a), "counter": counter,
            "i32_next": i32 + np.int32(1), "i32_neg": -i32, "u16_dec": u16 - np.uint16(1),
            "u16_mul": u16 * np.uint16(3), "sum_int8": int(a.sum()), "sum_dtype": str(a.sum().dtype),
            "cumsum_i8": np.cumsum(a, dtype=np.int8)}


def fnv1a_hashes(np, words):
    width = max(len(w) for w in words)
    codes = np.zeros((len(words), width), dtype=np.uint32)
    lengths = np.array([len(w) for w in words])
    for i, w in enumerate(words):
        codes[i, : len(w)] = np.frombuffer(w.encode(), dtype=np.uint8)
    h = np.full(len(words), 2166136261, dtype=np.uint32)
    for j in range(width):
        live = j < lengths
        step = (h ^ codes[:, j]) * np.uint32(16777619)
        h = np.where(live, step, h)
    buckets = h % np.uint32(16)
    return {"hash": h, "buckets": buckets, "hex": [f"{int(x):08x}" for x in h[:4]],
            "collisions": int(len(buckets) - len(np.unique(buckets)))}


def xorshift_streams(np, seeds_host, steps=20):
    x = np.asarray(seeds_host).astype(np.uint64)
    out = np.empty((steps, len(x)), dtype=np.uint64)
    for t in range(steps):
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
        out[t] = x
    uniform = (out >> np.uint64(11)).astype(np.float64) / float(2**53)
    top_bits = (out >> np.uint64(60)).astype(np.int64)
    return {"out": out, "uniform": uniform, "mean": float(uniform.mean()),
            "hist": np.bincount(top_bits.ravel(), minlength=16)}


def lcg_masked(np, seeds_host, steps=30):
    a, c, mask = 1103515245, 12345, (1 << 31) - 1
    state = np.asarray(seeds_host).astype(np.int64)
    draws = []
    for _ in range(steps):
        state = (a * state + c) & mask
        draws.append(state >> 16)
    draws = np.array(draws)
    dice = draws % 6 + 1
    u32 = np.asarray(seeds_host).astype(np.uint32)
    u32 = u32 * np.uint32(1664525) + np.uint32(1013904223)
    return {"draws": draws, "dice_counts": np.bincount(dice.ravel(), minlength=7)[1:], "u32": u32,
            "last": state}


def limits_and_saturation(np, values_host):
    info8 = np.iinfo(np.int8)
    infou8 = np.iinfo(np.uint8)
    info32 = np.iinfo(np.int32)
    f32 = np.finfo(np.float32)
    f64 = np.finfo(np.float64)
    v = np.asarray(values_host)
    sat8 = np.clip(np.round(v), info8.min, info8.max).astype(np.int8)
    satu8 = np.clip(np.round(v), infou8.min, infou8.max).astype(np.uint8)
    tiny_ratio = f32.eps / f64.eps
    near_one = np.float32(1) + np.float32(f32.eps) > np.float32(1)
    below = np.float32(1) + np.float32(f32.eps / 4) == np.float32(1)
    with np.errstate(over="ignore"):
        overflow = np.isinf(np.float32(f32.max) * np.float32(2))
    return {"ranges": [int(info8.min), int(info8.max), int(infou8.max), int(info32.max), info32.bits],
            "sat8": sat8, "satu8": satu8, "eps32": float(f32.eps), "max32": float(f32.max),
            "tiny_ratio": float(tiny_ratio), "near_one": bool(near_one), "below": bool(below),
            "overflow32": bool(overflow)}


def float_precision(np, x_host):
    x64 = np.asarray(x_host).astype(np.float64)
    x32 = x64.astype(np.float32)
    s32 = np.float32(0)
    for v in x32[:200]:
        s32 = np.float32(s32 + v)
    pairwise32 = x32.sum()
    exact = x64.sum()
    promoted = x32 + x64
    mixed_scalar = x32 * 2.5
    big = np.float32(16777216)
    return {"loop32": float(s32), "pairwise32": float(pairwise32), "exact": float(exact),
            "promoted": str(promoted.dtype), "mixed_scalar": str(mixed_scalar.dtype),
            "gap": float(big + np.float32(1) - big), "rounded": x32[:5].astype(np.float64),
            "err32": float(np.abs(x32.astype(np.float64) - x64).max())}


def bool_arithmetic(np, a_host, b_host):
    a = np.asarray(a_host) > 0.5
    b = np.asarray(b_host) > 0.3
    count = a.sum()
    both = (a & b).sum()
    as_int = a.astype(np.int8) - b.astype(np.int8)
    score = a * 2 + b
    mean = a.mean()
    cum = np.cumsum(a)
    return {"count": int(count), "count_dtype": np.asarray(count).dtype.kind, "both": int(both),
            "as_int": as_int, "score": score, "mean": float(mean), "cum": cum, "xor": a ^ b, "not": ~a,
            "or_sum": (a | b).sum(axis=0), "max": bool(a.max()), "prod": bool(np.prod(a))}


def test_uint8_pixel_wraparound_and_widening():
    check(uint8_pixels, np.random.default_rng(611).integers(0, 256, (6, 8)))


def test_int8_int16_int32_uint16_overflow():
    check(small_int_overflow)


def test_fnv1a_uint32_hash_multiply_wraps():
    check(fnv1a_hashes, ["numpy", "kdsl", "vulkan", "shader", "array", "lazy", "fuse", "a", "", "lavapipe"])


def test_xorshift64_uint64_shifts():
    check(xorshift_streams, np.array([1, 88172645463325252, 2463534242, 123456789, 987654321987]))


def test_lcg_masked_int64_and_uint32_wrap():
    check(lcg_masked, np.array([1, 42, 2024, 99991, 123456]))


def test_iinfo_finfo_saturating_casts():
    check(limits_and_saturation, np.array([-300.4, -128.5, -3.5, 0.49, 2.5, 127.6, 254.5, 1000.0]))


def test_float32_loop_vs_pairwise_and_promotion():
    check(float_precision, np.random.default_rng(617).random(1000) * 1000, rtol=1e-6)


def test_bool_arithmetic_sum_mean_cumsum():
    rng = np.random.default_rng(618)
    check(bool_arithmetic, rng.random((5, 7)), rng.random((5, 7)))
