"""Arrays turned into text the ways NumPy programs do it: str (print) of every common dtype and shape, 0-d and
empty arrays, summarised long arrays with threshold/edgeitems, np.set_printoptions(precision, suppress,
linewidth, sign, floatmode) and the printoptions context, array2string with a formatter, separator, prefix and
max_line_width, array_str, format_float_positional/scientific tables, base_repr/binary_repr, and
tolist/f-string reports (tests/porting). kdsl's repr names its dtype (`kd.array([1.], dtype=float32)`,
printing.py), so the programs print with str()."""

import sys

import numpy as np
from harness import check


def reprs_by_dtype(np, x_host):
    x = np.asarray(x_host)
    ints = np.arange(-3, 9).reshape(3, 4)
    out = {
        "f64": str(x), "f64_str": str(x),
        "f32": str(x.astype(np.float32)),
        "i64": str(ints.astype(np.int64)), "i8": str(ints.astype(np.int8)), "u8": str(ints.astype(np.uint8)),
        "bool": str(x > 0), "bool_str": str(x > 0),
        "c": str(x[:3].astype(np.complex128) * 1j + 1),
        "neg0": str(np.array([0.0, -0.0, 1.5])),
        "special": str(np.array([np.nan, np.inf, -np.inf, 1.0])),
        "i16_3d": str(np.arange(12, dtype=np.int16).reshape(2, 3, 2)),
    }
    return out


def zero_d_and_empty(np):
    return {
        "scalar_f": str(np.array(3.25)), "scalar_i": str(np.array(7, dtype=np.int64)),
        "scalar_b": str(np.array(True)), "str0": str(np.array(2.5)),
        "empty": str(np.array([], dtype=np.float64)), "empty_i": str(np.zeros((0, 3), dtype=np.int64)),
        "empty_str": str(np.zeros((2, 0))), "one": str(np.ones((1, 1, 1))),
        "big": str(np.array([1e20, 1.0])), "small": str(np.array([1e-8, 1.0])),
        "mixed": str(np.array([123456.789, 0.001], dtype=np.float64)),
        "int_big": str(np.array([10**12, -5], dtype=np.int64)),
    }


def summarised(np, n=2000):
    a = np.arange(n, dtype=np.int64)
    m = np.arange(40 * 30, dtype=np.float64).reshape(40, 30) / 7
    out = {"long": str(a), "long_str": str(a), "matrix": str(m)}
    with np.printoptions(threshold=10, edgeitems=2):
        out["edge2"] = str(np.arange(20, dtype=np.int64))
        out["edge2_2d"] = str(np.arange(36, dtype=np.int64).reshape(6, 6))
    with np.printoptions(threshold=sys.maxsize):
        out["full"] = str(np.arange(1200, dtype=np.int64))
    return out


def print_options(np, x_host):
    x = np.asarray(x_host)
    out = {}
    old = np.get_printoptions()
    np.set_printoptions(precision=3, suppress=True)
    out["p3"] = str(x)
    np.set_printoptions(precision=2, suppress=False)
    out["p2"] = str(x * 1e-6)
    np.set_printoptions(linewidth=40)
    out["narrow"] = str(np.linspace(0, 1, 14))
    np.set_printoptions(sign="+")
    out["plus"] = str(np.array([-1.5, 0.0, 2.25]))
    np.set_printoptions(**old)
    with np.printoptions(floatmode="fixed", precision=4):
        out["fixed"] = str(np.array([1.0, 0.5, 1 / 3]))
    with np.printoptions(floatmode="unique"):
        out["unique"] = str(np.array([0.1, 0.25, 1 / 3], dtype=np.float64))
    with np.printoptions(formatter={"float": lambda v: f"{v:8.2f}"}):
        out["formatter"] = str(x[:4])
    out["restored"] = str(np.array([1 / 3], dtype=np.float64))
    out["same_opts"] = np.get_printoptions()["precision"] == old["precision"]
    return out


def array2string_forms(np, m_host):
    m = np.asarray(m_host)
    return {
        "sep": np.array2string(m[0], separator=", "),
        "prec": np.array2string(m, precision=2, suppress_small=True),
        "prefix": "result = " + np.array2string(m, prefix="result = ", precision=3),
        "width": np.array2string(np.arange(30, dtype=np.int64), max_line_width=30),
        "fmt_int": np.array2string(np.arange(6, dtype=np.int64), formatter={"int": lambda v: f"0x{v:02x}"}),
        "fmt_all": np.array2string(m[:2, :2], formatter={"all": lambda v: f"<{v:.1f}>"}),
        "bools": np.array2string(m > 0, separator=","),
        "floatmode": np.array2string(np.array([1.0, 2.5]), floatmode="maxprec_equal", precision=3),
        "array_repr": np.array_str(m[:2], precision=2), "array_str": np.array_str(m[:, :2], precision=1),
        "sign": np.array2string(np.array([1.0, -2.0]), sign=" "),
    }


def float_tables(np, values_host):
    v = np.asarray(values_host)
    rows = []
    for x in v:
        rows.append([np.format_float_positional(x, precision=4), np.format_float_scientific(x, precision=3),
                     np.format_float_positional(x, precision=3, unique=False, fractional=False),
                     np.format_float_scientific(x, exp_digits=3)])
    pad = np.format_float_positional(np.float64(3.5), pad_right=3, trim="k")
    trims = [np.format_float_positional(np.float64(2.0), trim=t) for t in "k.0-"]
    return {"rows": rows, "pad": pad, "trims": trims}


def base_and_binary(np, values_host):
    v = [int(x) for x in np.asarray(values_host)]
    return {"bin": [np.binary_repr(x) for x in v], "bin10": [np.binary_repr(x, width=10) for x in v],
            "hex": [np.base_repr(x, base=16) for x in v], "b3": [np.base_repr(x, base=3, padding=2) for x in v],
            "b36": np.base_repr(123456789, 36)}


def report_lines(np, table_host):
    t = np.asarray(table_host)
    names = ["alpha", "beta", "gamma", "delta"]
    lines = []
    for name, row in zip(names, t, strict=True):
        lines.append(f"{name:<6}|" + " ".join(f"{v:7.3f}" for v in row) + f" | sum={row.sum():.2f}")
    lines.append(f"{'total':<6}|" + " ".join(f"{v:7.3f}" for v in t.sum(axis=0)))
    as_list = np.round(t, 2).tolist()
    ints = t.astype(np.int64).tolist()
    return {"lines": lines, "list": str(as_list), "ints": str(ints), "argmax": f"{t.argmax()}",
            "mean_str": f"{t.mean():.4e}", "max_repr": f"{t.max()!s}"[:6], "shape": f"{t.shape}"}


def test_repr_str_by_dtype():
    check(reprs_by_dtype, np.array([-1.5, 0.0, 2.25, 100.0, 1e-3, 3.14159]))


def test_zero_d_empty_and_scale_switches():
    check(zero_d_and_empty)


def test_summarised_long_arrays_threshold_edgeitems():
    check(summarised)


def test_set_printoptions_and_printoptions_context():
    check(print_options, np.array([1234.5678, 0.000012, -3.14159, 2.0, 1e5]))


def test_array2string_separator_prefix_formatter():
    check(array2string_forms, np.array([[1.23456, -0.0001, 3.0], [100.5, 2.0, -7.125]]))


def test_format_float_positional_scientific_tables():
    check(float_tables, np.array([0.1, 1 / 3, 12345.678, 1e-7, -2.5, 6.02214076e23]))


def test_binary_repr_base_repr():
    check(base_and_binary, np.array([0, 1, 5, 10, 127, 255, 300]))


def test_fstring_report_lines_tolist():
    check(report_lines, np.random.default_rng(668).normal(size=(4, 5)) * 10)
