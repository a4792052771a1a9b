"""kd.info against NumPy's np.info: an array's layout summary (same labels and values as NumPy's for the same
array, less NumPy's memory-only lines), help text of functions and classes, name search, output=, signature."""

import inspect
import io

import numpy as np
import pytest

import kdsl as kd


def printed(module, obj, **kwargs):
    buf = io.StringIO()
    module.info(obj, output=buf, **kwargs)
    return buf.getvalue()


def fields(text):
    return {k.strip(): v.strip() for k, v in (line.split(":", 1) for line in text.splitlines() if ":" in line)}


@pytest.mark.parametrize("make", [lambda m: m.arange(6, dtype=m.int64).reshape(2, 3),
                                  lambda m: m.arange(6, dtype=m.int64).reshape(2, 3).T,
                                  lambda m: m.arange(10, dtype=m.float32)[::2],
                                  lambda m: m.ones((1, 3), dtype=m.float64)])
def test_array_summary_matches_numpy(make):
    got, want = fields(printed(kd, make(kd))), fields(printed(np, make(np)))
    assert got["class"] == "Array" and want["class"] == "ndarray"
    for key in ("shape", "strides", "itemsize", "type"):
        assert got[key] == want[key], key


def test_function_help_and_name_search():
    text = printed(kd, kd.linalg.solve)
    assert "solve(a, b)" in text and kd.linalg.solve.__doc__.split()[0] in text
    assert "Found in kdsl.linalg" in printed(kd, "cholesky")
    assert printed(kd, "no_such_name_here") == printed(np, "no_such_name_here") == \
        "Help for no_such_name_here not found.\n"
    assert printed(kd, "inv").count("*** Found in kdsl.linalg ***") == 1


def test_stdout_default_and_signature(capsys):
    kd.info(kd.arange(3))
    assert "shape:  (3,)" in capsys.readouterr().out
    kd.info()
    assert "info" in capsys.readouterr().out
    assert list(inspect.signature(kd.info).parameters) == list(inspect.signature(np.info).parameters)
