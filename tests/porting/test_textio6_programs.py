"""Structured text read and written through io.StringIO as NumPy programs do: loadtxt with comments, converters,
unpack, ndmin, max_rows and negative usecols; genfromtxt with skip_header/skip_footer, missing and filling
values, usecols and invalid_raise; np.fromstring with sep; savetxt with fmt lists, headers, footers and
delimiters read back; CSV cleaning with np.char-free string handling; and a log file parsed line by line into
arrays (tests/porting)."""

import io

import numpy as np
from harness import check

SENSOR_CSV = """# station readings
# id,temp,humidity,pressure
1,21.5,40,1012.1
2,22.1,38,1011.8
3,19.8,55,1013.0  # recalibrated
4,20.4,47,1012.6
5,23.0,35,1010.9
"""


def loadtxt_forms(np, text):
    data = np.loadtxt(io.StringIO(text), delimiter=",")
    ids, temp = np.loadtxt(io.StringIO(text), delimiter=",", usecols=(0, 1), unpack=True)
    last = np.loadtxt(io.StringIO(text), delimiter=",", usecols=-1)
    first3 = np.loadtxt(io.StringIO(text), delimiter=",", skiprows=2, max_rows=3, dtype=np.float64)
    as_int = np.loadtxt(io.StringIO(text), delimiter=",", usecols=[0, 2], dtype=int)
    one = np.loadtxt(io.StringIO("1.5,2.5,3.5\n"), delimiter=",", ndmin=2)
    col = np.loadtxt(io.StringIO("1\n2\n3\n"), ndmin=2)
    return {"data": data, "ids": ids, "temp": temp, "last": last, "first3": first3, "as_int": as_int,
            "one": one, "col": col, "shapes": [data.shape, one.shape, col.shape], "mean_temp": float(temp.mean())}


def loadtxt_converters(np):
    text = "2024-01-05;12,5;yes\n2024-02-10;7,25;no\n2024-02-28;-3,0;yes\n2024-03-01;0,5;no\n"
    conv = {0: lambda s: int(s.replace("-", "")), 1: lambda s: float(s.replace(",", ".")),
            2: lambda s: 1.0 if s.strip() == "yes" else 0.0}
    table = np.loadtxt(io.StringIO(text), delimiter=";", converters=conv, dtype=np.float64)
    day = table[:, 0].astype(np.int64)
    month = day // 100 % 100
    value, flag = table[:, 1], table[:, 2].astype(bool)
    per_month = np.bincount(month, weights=value, minlength=4)[1:]
    hex_col = np.loadtxt(io.StringIO("0x1f\n0xff\n0x10\n"), converters=lambda s: int(s, 16), dtype=np.int64)
    return {"table": table, "month": month, "per_month": per_month, "flagged": value[flag], "hex": hex_col}


def genfromtxt_missing(np):
    text = "a,b,c\n1,2,3\n4,,6\n7,8,N/A\n,11,12\n13,14,15\nTOTAL,,\n"
    raw = np.genfromtxt(io.StringIO(text), delimiter=",", skip_header=1, skip_footer=1,
                        missing_values="N/A", dtype=np.float64)
    filled = np.genfromtxt(io.StringIO(text), delimiter=",", skip_header=1, skip_footer=1,
                           missing_values="N/A", filling_values=-1, dtype=np.float64)
    cols = np.genfromtxt(io.StringIO(text), delimiter=",", skip_header=1, skip_footer=1, usecols=(0, 2),
                         dtype=np.float64)
    col_means = np.nanmean(raw, axis=0)
    rows, cols_nan = np.where(np.isnan(raw))
    imputed = raw.copy()
    imputed[rows, cols_nan] = np.take(col_means, cols_nan)
    complete = raw[~np.isnan(raw).any(axis=1)]
    return {"raw": raw, "filled": filled, "cols": cols, "means": col_means, "imputed": imputed,
            "complete": complete, "n_missing": int(np.isnan(raw).sum())}


def fromstring_and_split(np):
    line = "3.5, 1.25, -2, 8, 0.125"
    v = np.fromstring(line, sep=",", dtype=np.float64)
    ints = np.fromstring("1 2 3 4 5 6", sep=" ", dtype=np.int64).reshape(2, 3)
    tokens = "10|20|30|40".split("|")
    arr = np.array(tokens, dtype=np.float64)
    fields = [np.array(part.split(), dtype=np.int64) for part in "1 2 3; 4 5; 6".split(";")]
    lengths = np.array([len(f) for f in fields])
    flat = np.concatenate(fields)
    return {"v": v, "ints": ints, "arr": arr, "lengths": lengths, "flat": flat,
            "offsets": np.cumsum(lengths) - lengths, "total": float(v.sum() + arr.sum())}


def savetxt_roundtrip(np, m_host):
    m = np.asarray(m_host)
    buf = io.StringIO()
    np.savetxt(buf, m, fmt=["%d", "%.3f", "%.2e"], delimiter=",", header="n,x,y", footer="end", comments="# ")
    text = buf.getvalue()
    back = np.loadtxt(io.StringIO(text), delimiter=",")
    buf2 = io.StringIO()
    np.savetxt(buf2, m[:, 1], fmt="%8.4f")
    buf3 = io.StringIO()
    np.savetxt(buf3, m[:2], fmt="%.1f", delimiter="\t", newline=";\n")
    buf4 = io.StringIO()
    np.savetxt(buf4, m.astype(np.int64), fmt="%5d")
    return {"text": text, "back": back, "col": buf2.getvalue(), "tabs": buf3.getvalue(), "ints": buf4.getvalue(),
            "err": float(np.abs(back - m).max())}


def log_parsing(np):
    log = """\
2024-05-01 12:00:01 GET /index 200 0.012
2024-05-01 12:00:02 GET /api/users 200 0.120
2024-05-01 12:00:02 POST /api/users 201 0.300
2024-05-01 12:00:05 GET /missing 404 0.003
2024-05-01 12:00:07 GET /api/users 500 1.250
2024-05-01 12:00:09 GET /index 200 0.010
"""
    rows = [line.split() for line in log.splitlines()]
    seconds = np.array([sum(int(p) * k for p, k in zip(r[1].split(":"), (3600, 60, 1), strict=True))
                        for r in rows])
    status = np.array([int(r[4]) for r in rows])
    latency = np.array([float(r[5]) for r in rows])
    paths = [r[3] for r in rows]
    uniq = sorted(set(paths))
    path_id = np.array([uniq.index(p) for p in paths])
    per_path = np.bincount(path_id, weights=latency) / np.bincount(path_id)
    errors = status >= 400
    gaps = np.diff(seconds)
    return {"per_path": per_path, "paths": uniq, "error_rate": float(errors.mean()),
            "p90": float(np.percentile(latency, 90)), "gaps": gaps, "classes": np.bincount(status // 100)[2:],
            "slowest": paths[int(np.argmax(latency))]}


def whitespace_table(np):
    text = """\
  x      y     z
  1.0   2.0   3.0
  4.0   5.0   6.0

  7.0   8.0   9.0
"""
    t = np.loadtxt(io.StringIO(text), skiprows=1)
    header = text.splitlines()[0].split()
    col = {name: t[:, i] for i, name in enumerate(header)}
    lines = [" ".join(f"{v:5.1f}" for v in row) for row in t / t.sum(axis=0)]
    g = np.genfromtxt(io.StringIO(text), names=None, skip_header=1)
    return {"t": t, "z": col["z"], "lines": lines, "g": g, "norm": float(np.linalg.norm(col["x"] - col["y"]))}


def test_loadtxt_comments_usecols_unpack_ndmin():
    check(loadtxt_forms, SENSOR_CSV)


def test_loadtxt_converters_decimal_comma_hex():
    check(loadtxt_converters)


def test_genfromtxt_skip_footer_missing_filling():
    check(genfromtxt_missing)


def test_fromstring_sep_and_ragged_fields():
    check(fromstring_and_split)


def test_savetxt_fmt_list_header_footer_roundtrip():
    rng = np.random.default_rng(675)
    m = np.column_stack([np.arange(5), rng.normal(size=5), rng.normal(size=5) * 1e4])
    check(savetxt_roundtrip, m, rtol=1e-3)


def test_log_lines_parsed_into_arrays():
    check(log_parsing)


def test_whitespace_table_blank_lines():
    check(whitespace_table)
