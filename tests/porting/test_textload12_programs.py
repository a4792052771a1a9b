"""Lab and field data read from text the way analysis scripts do it, through io.StringIO: a weather-station CSV
with empty fields read as a masked array (`np.genfromtxt(usemask=True)`), summarised per column and printed under
`np.set_printoptions(threshold=...)`, fixed-width records (`delimiter=[widths]`), a file with `%` and `//`
comments, ragged lines skipped by `invalid_raise=False`, per-column missing codes and fills given as dicts,
converters for units and dates, `loadtxt` of a list of lines with `usecols=range(...)`, quoted fields, and results
written back with `savetxt` (headers, `fmt` per column, `newline`) and read again (tests/porting)."""

import io
import warnings

import numpy as np
from harness import check

STATION = """# station log, daily
# day,tmin,tmax,rain_mm,wind
1,3.5,11.2,0.0,12
2,,9.8,4.2,20
3,1.0,,12.5,
4,-2.5,6.1,,8
5,0.5,7.7,0.4,15
6,2.0,10.0,0.0,
"""


def masked_station(np, text):
    data = np.genfromtxt(io.StringIO(text), delimiter=",", usemask=True, skip_header=2)
    day, obs = data[:, 0], data[:, 1:]
    means = obs.mean(axis=0)
    counts = obs.count(axis=0)
    complete = ~np.ma.getmaskarray(obs).any(axis=1)
    trange = obs[:, 1] - obs[:, 0]
    filled = obs.filled(-999.0)
    clean = np.ma.masked_invalid(obs.filled(0.0)).shrink_mask()
    first_days = np.ma.array([obs[0], obs[1]])  # rows joined again: their masks kept
    old = np.get_printoptions()
    np.set_printoptions(threshold=6, edgeitems=1)
    try:
        summary = str(obs)
    finally:
        np.set_printoptions(**old)
    return {"means": means.filled(np.nan), "counts": counts, "complete_days": np.ma.getdata(day)[complete],
            "trange": trange.filled(np.nan), "filled": filled, "shown": str(obs[:2]), "summary": summary,
            "clean_has_mask": clean.mask is not np.ma.nomask, "first_days": str(first_days),
            "first_days_mean": first_days.mean(axis=0).filled(np.nan),
            "wettest": int(np.ma.getdata(day)[np.ma.argmax(obs[:, 2], fill_value=-1)])}


def fixed_width(np):
    text = "  1 20.50 A7\n 12  3.25 B1\n123 -0.75 C9\n  4 10.00 A2\n"
    # (dtype=None would read a structured int/float array: kdsl holds numbers only, docs/numpy-api.md)
    ids = np.genfromtxt(io.StringIO(text), delimiter=[3, 6, 3], dtype=np.int64, usecols=0)
    vals = np.genfromtxt(io.StringIO(text), delimiter=[3, 6, 3], usecols=1)
    codes = np.genfromtxt(io.StringIO(text), delimiter=[3, 6, 1, 2], usecols=3, dtype=int)
    nums = np.genfromtxt(io.StringIO(text), delimiter=[3, 6], usecols=(0, 1))
    order = np.argsort(vals)
    return {"ids": ids, "vals": vals, "nums": nums, "sorted_ids": ids[order], "total": vals.sum(),
            "neg": int((nums[:, 1] < 0).sum()),
            "codes": codes, "code_of_max": int(codes[np.argmax(vals)])}


def comments_and_ragged(np):
    text = "% instrument A\n1 2 3\n4 5 6 // repeated\n% gap\n7 8 9\n"
    a = np.loadtxt(io.StringIO(text), comments=["%", "//"])
    ragged = "1,2,3\n4,5\n6,7,8\n9,10,11,12\n13,14,15\n"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        b = np.genfromtxt(io.StringIO(ragged), delimiter=",", invalid_raise=False)
    pct = np.loadtxt(io.StringIO("# header\n1\t2.5\n3\t4.5\n"), delimiter="\t", comments="#")
    return {"a": a, "col_sums": a.sum(axis=0), "b": b, "rows_kept": b.shape[0], "pct": pct,
            "diff": np.diff(b[:, 0])}


def missing_codes(np):
    text = "id,qty,price,grade\n1,5,2.50,A\n2,-99,3.10,B\n3,7,NA,A\n4,-99,NA,C\n5,2,1.75,\n"
    grade = {"A": 3.0, "B": 2.0, "C": 1.0, "": np.nan}
    table = np.genfromtxt(io.StringIO(text), delimiter=",", skip_header=1, encoding="utf-8",
                          missing_values={1: "-99", 2: "NA"}, filling_values={1: 0, 2: np.nan},
                          converters={3: lambda s: grade[s.strip()]})
    qty, price, g = table[:, 1], table[:, 2], table[:, 3]
    revenue = np.nansum(qty * price)
    price_filled = np.where(np.isnan(price), np.nanmedian(price), price)
    by_grade = {int(k): float(np.nansum(qty[g == k])) for k in np.unique(g[~np.isnan(g)])}
    return {"table": table, "revenue": revenue, "price_filled": price_filled, "by_grade": by_grade,
            "missing_per_col": np.isnan(table).sum(axis=0)}


def converters_units(np):
    text = "2024-03-01 12.5kg 180cm\n2024-03-15 80.0kg 175cm\n2024-04-02 64.3kg 168cm\n2024-04-20 71.9kg 181cm\n"

    def day_of_year(s):
        y, m, d = (int(p) for p in s.split("-"))
        return float(sum([31, 29, 31, 30][:m - 1]) + d)

    data = np.loadtxt(io.StringIO(text), converters={0: day_of_year, 1: lambda s: float(s[:-2]),
                                                     2: lambda s: float(s[:-2]) / 100})
    day, mass, height = data.T
    bmi = mass / height ** 2
    gaps = np.diff(day)
    hexes = np.loadtxt(["ff 10", "0a 7f"], converters=lambda s: int(s, 16), dtype=np.int64)
    return {"day": day, "bmi": np.round(bmi, 2), "gaps": gaps, "under": np.flatnonzero(bmi < 18.5),
            "hexes": hexes, "hex_sum": hexes.sum(axis=1)}


def lines_and_quotes(np):
    lines = ["name x y z", "p1 1.0 2.0 3.0", "p2 4.0 5.0 6.5", "p3 -1.0 0.5 2.0"]
    xyz = np.loadtxt(lines, skiprows=1, usecols=range(1, 4))
    quoted = '"1.5",2,"3"\n"4.5",5,"6"\n'
    q = np.loadtxt(io.StringIO(quoted), delimiter=",", quotechar='"')
    centroid = xyz.mean(axis=0)
    d = np.linalg.norm(xyz - centroid, axis=1)
    first_two = np.loadtxt(lines, skiprows=1, usecols=(1, 2), max_rows=2)
    return {"xyz": xyz, "q": q, "centroid": centroid, "d": d, "far": int(np.argmax(d)), "first_two": first_two}


def savetxt_round_trip(np, values):
    table = np.column_stack([np.arange(1, len(values) + 1), values, values ** 2])
    buf = io.StringIO()
    np.savetxt(buf, table, fmt=["%d", "%.3f", "%.2e"], delimiter=",", header="i,x,x2", comments="")
    text = buf.getvalue()
    back = np.loadtxt(io.StringIO(text), delimiter=",", skiprows=1)
    buf2 = io.StringIO()
    np.savetxt(buf2, values[:4], fmt="%.1f", newline=";", footer="end")
    buf3 = io.StringIO()
    np.savetxt(buf3, table[:2].astype(int), fmt="%d", delimiter="\t")
    err = np.abs(back - table).max(axis=0)
    return {"text": text, "back": back, "err_ok": bool((err <= np.array([0, 5e-4, 0.01 * np.abs(table[:, 2]).max()]))
                                                       .all()), "semi": buf2.getvalue(), "tabs": buf3.getvalue()}


def test_station_csv_masked_means():
    check(masked_station, STATION)


def test_fixed_width_records():
    check(fixed_width)


def test_comment_markers_and_ragged_lines():
    check(comments_and_ragged)


def test_missing_codes_filling_dicts_converters():
    check(missing_codes)


def test_unit_and_date_converters():
    check(converters_units)


def test_list_of_lines_and_quoted_fields():
    check(lines_and_quotes)


def test_savetxt_formats_read_back():
    check(savetxt_round_trip, np.random.default_rng(1221).normal(size=6).round(4))
