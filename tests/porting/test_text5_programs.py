"""Text output programs: ASCII histograms and bar charts built from np.histogram, sparklines from np.digitize,
reports through np.array2string / np.set_printoptions / np.printoptions, np.savetxt and np.loadtxt through
io.StringIO (delimiters, headers, fmt, usecols, skiprows, unpack), np.genfromtxt with missing values, CSV tables
written with f-strings of array items (tests/porting)."""

import io

import numpy as np
from harness import check


def ascii_histogram(np, x_host):
    x = np.asarray(x_host)
    counts, edges = np.histogram(x, bins=8)
    width = 30
    bars = (counts * width // counts.max()).astype(int)
    lines = []
    for c, b, lo, hi in zip(counts, bars, edges[:-1], edges[1:], strict=True):
        lines.append(f"{lo:6.2f} .. {hi:6.2f} | {'#' * int(b):<{width}} {int(c)}")
    text = "\n".join(lines)
    return {"text": text, "counts": counts, "n_lines": len(lines), "widest": int(bars.max())}


def vertical_bars(np, values_host):
    v = np.asarray(values_host)
    height = 6
    levels = np.arange(height, 0, -1)[:, None]
    scaled = np.round(v / v.max() * height).astype(int)
    canvas = scaled[None, :] >= levels
    rows = ["".join("#" if c else " " for c in r) for r in canvas]
    return {"rows": rows, "scaled": scaled}


def sparkline(np, series_host):
    s = np.asarray(series_host)
    ticks = "▁▂▃▄▅▆▇█"
    edges = np.linspace(s.min(), s.max(), len(ticks) + 1)[1:-1]
    level = np.digitize(s, edges)
    line = "".join(ticks[i] for i in level)
    up = np.diff(s) > 0
    arrows = "".join("+" if u else "-" for u in up)
    return {"line": line, "arrows": arrows, "level": level}


def array_to_string(np, m_host):
    m = np.asarray(m_host)
    a = np.array2string(m, precision=2, separator=", ", suppress_small=True)
    b = np.array2string(m[:2], formatter={"float_kind": lambda v: f"{v:+.1f}"})
    ints = np.arange(12).reshape(3, 4)
    c = np.array2string(ints, separator=",")
    d = np.array2string(np.array([1.5, 2.0, 3.25]), precision=3)
    e = np.array2string(np.arange(6) * 10, max_line_width=12)
    return {"a": a, "b": b, "c": c, "d": d, "e": e}


def printoptions_report(np, m_host):
    m = np.asarray(m_host)
    with np.printoptions(precision=3, suppress=True):
        first = str(m)
    with np.printoptions(formatter={"float": "{:8.2f}".format}):
        second = str(m[0])
    big = np.arange(2000)
    with np.printoptions(threshold=10, edgeitems=2):
        short = str(big)
    opts = np.get_printoptions()
    return {"first": first, "second": second, "short": short, "precision": opts["precision"],
            "threshold": opts["threshold"]}


def savetxt_roundtrip(np, table_host):
    t = np.asarray(table_host)
    buf = io.StringIO()
    np.savetxt(buf, t, fmt="%.4f", delimiter=",", header="a,b,c", comments="# ")
    text = buf.getvalue()
    back = np.loadtxt(io.StringIO(text), delimiter=",")
    col_b, col_c = np.loadtxt(io.StringIO(text), delimiter=",", usecols=(1, 2), unpack=True)
    ints = np.arange(6).reshape(2, 3)
    ibuf = io.StringIO()
    np.savetxt(ibuf, ints, fmt="%d")
    itext = ibuf.getvalue()
    i_back = np.loadtxt(io.StringIO(itext), dtype=int)
    return {"text": text, "back": back, "b": col_b, "c": col_c, "itext": itext, "i_back": i_back}


def loadtxt_forms(np):
    raw = "# temperatures\nday,min,max\n1,3.5,11.0\n2,-1.0,7.5\n3,0.5,9.0\n4,2.0,12.5\n"
    data = np.loadtxt(io.StringIO(raw), delimiter=",", skiprows=2)
    days = np.loadtxt(io.StringIO(raw), delimiter=",", skiprows=2, usecols=0, dtype=int)
    spread = data[:, 2] - data[:, 1]
    lines = ["3 4 5", "6 7 8"]
    from_list = np.loadtxt(lines)
    hot = days[spread > 8]
    summary = f"mean spread {spread.mean():.2f}, hottest day {int(days[np.argmax(data[:, 2])])}"
    return {"data": data, "days": days, "spread": spread, "from_list": from_list, "hot": hot, "summary": summary}


def genfromtxt_missing(np):
    raw = "x,y,z\n1,2,3\n4,,6\n7,8,\n10,11,12\n"
    d = np.genfromtxt(io.StringIO(raw), delimiter=",", skip_header=1)
    col_means = np.nanmean(d, axis=0)
    rows, cols = np.nonzero(np.isnan(d))
    filled = d.copy()
    filled[rows, cols] = col_means[cols]
    f2 = np.genfromtxt(io.StringIO(raw), delimiter=",", skip_header=1, filling_values=-1)
    return {"d": d, "means": col_means, "filled": filled, "f2": f2}


def csv_report(np, scores_host):
    s = np.asarray(scores_host)
    mean = s.mean(axis=0)
    best = s.argmax(axis=0)
    lines = ["student," + ",".join(f"q{j + 1}" for j in range(s.shape[1]))]
    for i, row in enumerate(s):
        lines.append(f"s{i}," + ",".join(f"{v:.1f}" for v in row))
    lines.append("mean," + ",".join(f"{v:.2f}" for v in mean))
    top = [f"q{j + 1}: s{int(b)} ({s[b, j]:.1f})" for j, b in enumerate(best)]
    ranking = np.argsort(-s.sum(axis=1), kind="stable")
    return {"csv": "\n".join(lines), "top": top, "ranking": ranking, "repr": repr(np.round(mean, 1).tolist())}


def test_ascii_histogram_from_np_histogram():
    check(ascii_histogram, np.random.default_rng(501).normal(size=200).round(3))


def test_vertical_bar_chart_from_a_bool_canvas():
    check(vertical_bars, np.array([3.0, 7.0, 1.0, 9.0, 4.0, 6.0]))


def test_sparkline_digitize_levels():
    check(sparkline, np.random.default_rng(502).normal(size=24).cumsum().round(3))


def test_array2string_precision_separator_formatter():
    check(array_to_string, np.array([[1.0, 0.000001, 2.5], [-3.14159, 10.0, 0.5], [7.0, 8.0, 9.0]]))


def test_printoptions_context_threshold_formatter():
    check(printoptions_report, np.array([[1.123456, 0.0000012, 250.5], [-3.0, 4.25, 1e-8]]))


def test_savetxt_loadtxt_string_io_roundtrip():
    check(savetxt_roundtrip, np.random.default_rng(503).normal(size=(5, 3)).round(4))


def test_loadtxt_skiprows_usecols_dtype_lines():
    check(loadtxt_forms)


def test_genfromtxt_missing_values_filled_by_means():
    check(genfromtxt_missing)


def test_csv_report_with_fstrings_of_items():
    check(csv_report, np.random.default_rng(504).integers(40, 100, (5, 3)).astype(float))
