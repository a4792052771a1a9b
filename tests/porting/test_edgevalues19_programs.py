"""Edge values as defensive NumPy code meets them: NaN, infinities and signed zeros through `sort`/`argsort`/
`unique`/`min`/`max`/`argmax`/`nan*`/`fmax`, empty arrays and size-1 axes through reductions and joins (with NumPy's
errors caught), NEP 50 promotion of Python scalars against typed arrays (and the OverflowError of an out-of-range
Python int), fixed-width integer wrap-around, writes through non-contiguous views (transposes, negative strides,
`flat` steps), integer image arithmetic with clipping and lookup tables (and thresholds past uint8's range),
rounding and truncation of negatives, a uint16 logger's sentinel masked by `np.ma` (a fill value that does not fit
falls back to int32), and `isclose`/`array_equal` with NaN and inf (tests/porting)."""

import numpy as np
from harness import check


def nan_inf_order(np, x):
    x = np.asarray(x)
    s = np.sort(x)
    order = np.argsort(x, kind="stable")
    u, counts = np.unique(x, return_counts=True)
    finite = x[np.isfinite(x)]
    return {"sorted": s, "order": order, "unique": u, "counts": counts, "max": np.max(x), "min": x.min(),
            "nanmax": np.nanmax(x), "nanmin": np.nanmin(x), "argmax": int(np.argmax(x)),
            "nanargmin": int(np.nanargmin(x)), "fmax": np.fmax(x, 0.0), "maximum": np.maximum(x, 0.0),
            "finite_mean": finite.mean(), "n_nan": int(np.isnan(x).sum()), "sorted_desc": np.sort(x)[::-1],
            "searched": np.searchsorted(s, [-np.inf, 0.0, np.inf, np.nan])}


def signed_zeros(np, x):
    x = np.asarray(x)
    neg = np.signbit(x)
    inv = np.divide(1.0, x, out=np.full_like(x, np.nan), where=x != 0)
    with np.errstate(divide="ignore"):
        recip = 1.0 / x
    s = np.sort(x, kind="stable")
    return {"signbit": neg, "inv": inv, "recip_sign": np.sign(recip), "copysign": np.copysign(1.0, x),
            "abs_bits": np.signbit(np.abs(x)), "neg_zero": np.signbit(-np.zeros(3)), "sorted_eq": s == 0,
            "n_unique": len(np.unique(x)), "max_is_zero": float(np.max(x[x == 0])) == 0.0,
            "sum_zero_sign": bool(np.signbit(np.sum(np.array([-0.0, -0.0]))))}


def empty_arrays(np, rows):
    E = np.zeros((0, 3))
    e = np.array([], dtype=float)
    results = {"sum0": E.sum(axis=0), "sum1": E.sum(axis=1), "prod": np.prod(e), "cumsum": np.cumsum(e),
               "concat": np.concatenate([E, np.asarray(rows)]), "any": bool(np.any(e)), "all": bool(np.all(e)),
               "norm": float(np.linalg.norm(e)), "unique": np.unique(e), "vstack": np.vstack([E, E]).shape,
               "nonzero": np.nonzero(e)[0], "where": np.where(e > 0)[0], "sorted": np.sort(e),
               "hist": np.histogram(e, bins=3, range=(0, 1))[0], "dot": float(np.dot(e, e)),
               "reshape": E.reshape(-1).shape, "T": E.T.shape, "mean_axis1": E.mean(axis=1)}
    errors = []
    for f in (lambda: e.max(), lambda: np.argmax(e), lambda: E.min(axis=0), lambda: E.reshape(-1, 0)):
        try:
            f()
            errors.append("none")
        except ValueError as err:
            errors.append(type(err).__name__)
    results["errors"] = errors
    results["max_initial"] = float(e.max(initial=-1.0))
    return results


def size_one_axes(np, a):
    a = np.asarray(a)
    col = a[:, :1]
    row = a[:1]
    centred = a - a.mean(axis=0, keepdims=True)
    scaled = a / np.linalg.norm(a, axis=1, keepdims=True)
    outer = col @ row
    return {"col": col.shape, "row": row.shape, "squeeze": col.squeeze().shape, "centred": centred,
            "scaled": scaled, "outer": outer, "expand": np.expand_dims(a[0], 0).shape,
            "bcast": np.broadcast_to(row, (3,) + a.shape[1:]), "atleast": np.atleast_2d(a[0, 0]).shape,
            "keep": a.sum(axis=(0, 1), keepdims=True), "one": np.ones((1, 1, 1)).sum(axis=1),
            "swap": np.swapaxes(a[None], 0, 2).shape, "squeezed_axis": np.squeeze(a[None, :, None], axis=(0, 2))}


def nep50_promotion(np, f32, i8, u8, f64):
    f32, i8, u8, f64 = np.asarray(f32), np.asarray(i8), np.asarray(u8), np.asarray(f64)
    cases = {"f32*2.5": f32 * 2.5, "i8+1": i8 + 1, "u8*2": u8 * 2, "i8*1.5": i8 * 1.5, "f32+f64": f32 + f64,
             "u8+i8": u8 + i8, "f32+1j": f32 + 1j, "i8//2": i8 // 2, "u8-1": u8 - 1, "f32**2": f32 ** 2,
             "f32+np.float64": f32 + np.float64(1.0), "i8 > 1000": i8 > 1000}
    # int8 * 1.5 is the default float: float64 in NumPy, float32 in kdsl (docs/numpy-api.md, "Deliberate
    # differences"); the harness compares its kind
    dtypes = {k: str(v.dtype) for k, v in cases.items() if k != "i8*1.5"}
    errors = []
    for f in (lambda: u8 + 300, lambda: i8 * -129, lambda: np.full(2, 1000, dtype=np.int8)):
        try:
            f()
            errors.append("none")
        except OverflowError:
            errors.append("OverflowError")
    return {"dtypes": dtypes, "values": cases, "errors": errors}


def wraparound(np, i8, u8, i32):
    i8, u8, i32 = np.asarray(i8), np.asarray(u8), np.asarray(i32)
    u16 = u8.astype(np.uint16)
    return {"i8_add": i8 + np.int8(100), "u8_sub": u8 - np.uint8(200), "i32_mul": i32 * i32,
            "neg_min": -np.array([-128, 127], dtype=np.int8), "abs_min": np.abs(np.array([-128], dtype=np.int8)),
            "u16_cumsum": np.cumsum(u16 * 300, dtype=np.uint16), "u8_sum": int(u8.sum()),
            "shift": np.left_shift(u8, 3), "rshift_neg": np.right_shift(i8, 2), "floordiv": i8 // -3,
            "mod": i8 % -3, "fmod": np.fmod(i8, 3), "invert": ~u8, "xor": np.bitwise_xor(i8, -1),
            "u64": np.array([2**64 - 1], dtype=np.uint64) + np.uint64(2),
            "cast_wrap": i32.astype(np.int8), "u8_mean": u8.mean()}


def strided_writes(np, a):
    a = np.asarray(a).copy()
    b = a.copy()
    a.T[0] = -1  # first column
    a[::-1, ::-2] += 100  # every other column, from the right, rows reversed
    flat = b.reshape(-1)
    flat[::b.shape[1] + 1] = 0  # the diagonal through a flat view
    v = b[::-1]
    v[0] = 7  # the last row of b
    c = np.flip(b, axis=1)
    prod = a.T @ a[::-1]
    d = np.arange(12).reshape(3, 4)
    d[:, 1::2], d[:, ::2] = d[:, ::2].copy(), d[:, 1::2].copy()
    return {"a": a, "b": b, "c": c, "prod": prod, "contig": bool(np.ascontiguousarray(a.T).flags["C_CONTIGUOUS"]),
            "shares": bool(np.shares_memory(b, v)), "d": d, "rev_cumsum": np.cumsum(a[::-1, 0])[::-1]}


def uint8_imaging(np, img, other):
    img, other = np.asarray(img), np.asarray(other)
    brighter = np.clip(img.astype(np.int16) + 70, 0, 255).astype(np.uint8)
    wrapped = img + np.uint8(70)
    lut = np.round(255 * (np.arange(256) / 255) ** 0.5).astype(np.uint8)
    gamma = lut[img]
    alpha = 0.3
    blend = np.round(alpha * img + (1 - alpha) * other).astype(np.uint8)
    lo, hi = np.percentile(img, [5, 95])
    stretched = np.clip((img.astype(float) - lo) * 255 / (hi - lo), 0, 255).astype(np.uint8)
    diff = np.abs(img.astype(np.int16) - other.astype(np.int16)).astype(np.uint8)
    thresh = np.where(img > img.mean(), 255, 0).astype(np.uint8)
    avg = ((img.astype(np.uint16) + other) // 2).astype(np.uint8)
    inverted = 255 - img
    return {"brighter": brighter, "wrapped": wrapped, "gamma": gamma, "blend": blend, "stretched": stretched,
            "diff": diff, "thresh": thresh, "avg": avg, "inverted": inverted, "hist": np.bincount(img.ravel(),
            minlength=256)[::32], "dtype": str(inverted.dtype)}


def byte_thresholds(np, img):
    img = np.asarray(img)
    levels = np.sort(img.ravel())
    # thresholds a uint8 image cannot hold are counted as NumPy counts them (nothing above 256, all above -1)
    above = len(levels) - np.searchsorted(levels, [128, 255, 256, 1000], side="right")
    below = np.searchsorted(levels, -1)
    classes = np.piecewise(img, [img < 85, img >= 170], [0, 255, 128])
    return {"above": above, "below": int(below), "above_300": int(len(levels) - np.searchsorted(levels, 300)),
            "classes": classes, "dtype": str(classes.dtype)}


def masked_sensor(np, raw):
    raw = np.asarray(raw)
    m = np.ma.masked_equal(raw, 65535)  # the logger's "no reading"
    try:
        marked = m.filled(-1)  # -1 does not fit uint16: NumPy refuses it
    except TypeError:
        marked = m.astype(np.int32).filled(-1)
    hourly = m.reshape(-1, 4)
    return {"marked": marked, "mean": float(m.mean()), "valid": int(m.count()), "hourly": hourly.mean(axis=1).filled(0),
            "max_gap": int(np.diff(np.flatnonzero(~np.ma.getmaskarray(m))).max()), "zero_filled": m.filled(0)}


def rounding_negatives(np, x):
    x = np.asarray(x)
    return {"round": np.round(x), "round1": np.round(x, 1), "round_neg": np.round(x * 100, -1),
            "floor": np.floor(x), "ceil": np.ceil(x), "trunc": np.trunc(x), "rint": np.rint(x), "fix": np.fix(x),
            "astype": x.astype(int), "halves": np.round(np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5])),
            "divmod_q": np.divmod(x, 0.75)[0], "divmod_r": np.divmod(x, 0.75)[1], "modf": np.modf(x)[0]}


def closeness(np, a, b):
    a, b = np.asarray(a), np.asarray(b)
    special = np.array([np.nan, np.inf, -np.inf, 0.0])
    return {"isclose": np.isclose(a, b), "isclose_nan": np.isclose(special, special, equal_nan=True),
            "isclose_plain": np.isclose(special, special), "allclose": bool(np.allclose(a, b, atol=1e-3)),
            "array_equal": bool(np.array_equal(special, special)),
            "array_equal_nan": bool(np.array_equal(special, special, equal_nan=True)),
            "equal_inf": np.inf == np.asarray([np.inf, 1.0]), "nan_ne": special != special,
            "count_close": int(np.count_nonzero(np.isclose(a, b, rtol=0, atol=0.05)))}


def test_nan_inf_order():
    x = np.array([3.0, np.nan, -np.inf, 1.0, np.inf, -2.0, np.nan, 0.0, -0.0, 1.0])
    check(nan_inf_order, x)


def test_signed_zeros():
    check(signed_zeros, np.array([0.0, -0.0, 2.0, -3.0, -0.0]))


def test_empty_arrays():
    check(empty_arrays, np.arange(6.0).reshape(2, 3))


def test_size_one_axes():
    rng = np.random.default_rng(1921)
    check(size_one_axes, rng.normal(size=(4, 3)))


def test_nep50_promotion():
    check(nep50_promotion, np.array([1.5, -2.25], np.float32), np.array([100, -7], np.int8),
          np.array([250, 3], np.uint8), np.array([0.1, 0.2]))


def test_integer_wraparound():
    rng = np.random.default_rng(1923)
    check(wraparound, rng.integers(-128, 128, 12).astype(np.int8), rng.integers(0, 256, 12).astype(np.uint8),
          rng.integers(-2**31, 2**31, 12).astype(np.int32))


def test_strided_writes():
    check(strided_writes, np.arange(20.0).reshape(4, 5))


def test_uint8_imaging():
    rng = np.random.default_rng(1925)
    check(uint8_imaging, rng.integers(0, 256, (12, 10)).astype(np.uint8),
          rng.integers(0, 256, (12, 10)).astype(np.uint8))


def test_byte_thresholds():
    rng = np.random.default_rng(1926)
    check(byte_thresholds, rng.integers(0, 256, (6, 7)).astype(np.uint8))


def test_masked_sensor():
    raw = np.array([512, 520, 65535, 530, 65535, 65535, 498, 505, 65535, 515, 522, 519], np.uint16)
    check(masked_sensor, raw)


def test_rounding_negatives():
    check(rounding_negatives, np.array([-2.5, -1.75, -0.5, -0.25, 0.25, 0.5, 1.5, 2.675, -3.14159, 7.0]))


def test_closeness():
    rng = np.random.default_rng(1927)
    a = rng.normal(size=20)
    check(closeness, a, a + rng.normal(scale=0.05, size=20))
