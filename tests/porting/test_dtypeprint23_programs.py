"""Dtype edges, printing and structured loops ported from NumPy scripts: uint8/int8/int16/uint16 mixes with Python
ints under NEP 50, `np.iinfo`/`np.finfo` fields, `np.can_cast`/`np.result_type`/`np.promote_types`,
`np.astype(casting=)`, tables printed by `np.set_printoptions`/`np.printoptions`/`np.array2string(separator=)`,
reprs of 0-d, empty, bool and complex arrays, `np.format_float_scientific`/`positional`, and loops by
`np.ndindex`/`np.ndenumerate`, `np.apply_along_axis` returning arrays and `np.vectorize(signature=)`
(tests/porting)."""

import numpy as np
from harness import check


def sensor_bytes(np, raw):
    raw = np.asarray(raw, dtype=np.uint8)
    gain = raw * 2  # wraps in uint8 (NEP 50: the Python int takes the array's dtype)
    wide = raw.astype(np.uint16) * 2
    centred = raw.astype(np.int16) - 128
    sat = np.clip(raw.astype(np.int16) + 100, 0, 255).astype(np.uint8)
    s8 = raw.view(np.int8)
    mix = s8 + np.uint8(1)  # int8 + uint8 -> int16
    return {"gain": gain, "wide": wide, "centred": centred, "sat": sat, "s8": s8, "mix": mix,
            "mix_dtype": str(mix.dtype), "gain_dtype": str(gain.dtype), "sum_dtype": str(raw.sum().dtype),
            "u16": np.array([65535], dtype=np.uint16) + 1, "neg": -raw[:3], "shift": raw >> 4}


def limits_table(np):
    rows = []
    for t in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.int64, np.uint64):
        info = np.iinfo(t)
        rows.append((info.bits, info.min, info.max, info.kind, str(info.dtype)))
    f = np.finfo(np.float32)
    h = np.finfo(np.float16)
    return {"rows": rows, "f32": [float(f.eps), float(f.tiny), float(f.max), f.precision, f.bits, float(f.resolution)],
            "f16": [float(h.eps), float(h.max), float(h.smallest_subnormal)], "f64_eps": float(np.finfo(float).eps)}


def casting_rules(np):
    pairs = [(np.int8, np.uint8), (np.int16, np.uint16), (np.uint8, np.float16), (np.int32, np.float32),
             (np.uint64, np.int64), (np.bool_, np.int8), (np.float16, np.int16)]
    promo = [str(np.promote_types(a, b)) for a, b in pairs]
    safe = [np.can_cast(a, b) for a, b in pairs]
    kind = [np.can_cast(b, a, casting="same_kind") for a, b in pairs]
    rt = [str(np.result_type(np.array([1], dtype=np.uint8), 300)), str(np.result_type(np.int8, np.uint16)),
          str(np.result_type(np.int16, np.uint8, np.bool_))]
    vals = np.array([1.7, -1.2, 300.0, 255.9])
    return {"promo": promo, "safe": safe, "kind": kind, "rt": rt,
            "u8": vals.astype(np.uint8, casting="unsafe")[[0, 3]], "i16": np.astype(vals, np.int16),
            "same": np.array([1, 2], dtype=np.int8).astype(np.int32, casting="safe")}


def refuse_unsafe(np):
    out = []
    for call in (lambda: np.array([1.5]).astype(np.int32, casting="safe"),
                 lambda: np.array([1], dtype=np.uint8) + 300,
                 lambda: np.add(np.array([1], dtype=np.uint8), 1.5, out=np.zeros(1, dtype=np.uint8)),
                 lambda: np.iinfo(np.float32)):
        try:
            call()
            out.append("ok")
        except OverflowError:
            out.append("OverflowError")
        except ValueError:  # first: kdsl's iinfo error is both (NumPy's ValueError, kdsl's old TypeError)
            out.append("ValueError")
        except TypeError:
            out.append("TypeError")
    return {"errors": out}


def report_printing(np, values):
    v = np.asarray(values)
    with np.printoptions(precision=2, suppress=True):
        a = str(v)
    with np.printoptions(floatmode="fixed", precision=3):
        b = str(v[:3])
    c = np.array2string(v[:4], separator=", ", precision=1)
    d = np.array2string(v.reshape(2, -1)[:, :3], separator=";", formatter={"float_kind": lambda x: f"{x:6.1f}"})
    e = np.array2string(np.array([True, False]), separator="|")
    f = [np.format_float_scientific(x, precision=3) for x in (1234.5678, -0.000123, 0.0)]
    g = [np.format_float_positional(x, precision=2, trim="-") for x in (1.0, 2.345, 100.0)]
    h = str(np.zeros((0, 3))) + "|" + str(np.array(2.5)) + "|" + str(np.array([1 + 2j, -1.5j]))
    return {"a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g, "h": h, "i": str(np.arange(3, dtype=np.int8))}


def ledger_lines(np, amounts):
    amounts = np.asarray(amounts)
    lines = []
    for (i,), x in np.ndenumerate(amounts):
        lines.append(f"{i:02d} {x:10.2f} {'DR' if x < 0 else 'CR'}")
    for idx in np.ndindex(2, 2):
        lines.append(str(idx) + "=" + str(round(float(amounts.reshape(2, -1)[idx]), 1)))
    total = amounts.sum()
    lines.append(f"total {total:.2f} max@{int(np.argmax(amounts))}")
    return {"lines": lines}


def row_features(np, X):
    X = np.asarray(X)
    def feats(r):
        return np.array([r.min(), r.max(), r.mean(), np.median(r)])
    F = np.apply_along_axis(feats, 1, X)
    Z = np.apply_along_axis(lambda c: (c - c.mean()) / c.std(), 0, X)
    P = np.apply_along_axis(lambda r: np.outer(r[:2], r[:2]), 1, X)
    rank = np.apply_along_axis(lambda r: np.argsort(np.argsort(r)), 1, X)
    return {"F": F, "Z": Z, "P": P, "rank": rank}


def gufunc_vectorize(np, A, b):
    A, b = np.asarray(A), np.asarray(b)
    solve = np.vectorize(lambda m, v: np.linalg.solve(m, v), signature="(n,n),(n)->(n)")
    norm = np.vectorize(lambda v: np.sqrt(v @ v), signature="(n)->()")
    span = np.vectorize(lambda v: (v.min(), v.max()), signature="(n)->(),()")
    lo, hi = span(b)
    return {"x": solve(A, b), "norm": norm(b), "lo": lo, "hi": hi,
            "scaled": np.vectorize(lambda v, k: v * k, excluded={"k"})(b, k=2.0)}


def test_sensor_bytes():
    rng = np.random.default_rng(2331)
    check(sensor_bytes, rng.integers(0, 256, 12))


def test_limits_table():
    check(limits_table)


def test_casting_rules():
    check(casting_rules)


def test_refuse_unsafe():
    check(refuse_unsafe)


def test_report_printing():
    check(report_printing, np.array([1234.5678, -0.00012, 3.14159, 2.0, 1e-9, 42.0], dtype=np.float32))


def test_ledger_lines():
    check(ledger_lines, np.array([120.5, -33.25, 0.0, 1e3]))


def test_row_features():
    rng = np.random.default_rng(2332)
    check(row_features, rng.normal(0, 1, (4, 5)), atol=1e-4)


def test_gufunc_vectorize():
    rng = np.random.default_rng(2333)
    A = rng.normal(0, 1, (3, 3, 3)) + 3 * np.eye(3)
    check(gufunc_vectorize, A, rng.normal(0, 1, (3, 3)), rtol=1e-3, atol=1e-4)
