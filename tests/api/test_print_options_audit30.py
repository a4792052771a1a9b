"""kdsl's print options against NumPy's text for the same data: ``str``, ``array2string``, ``format`` and ``repr``
under each option (precision, threshold, edgeitems, suppress, linewidth, sign, floatmode, formatter, nanstr,
infstr, legacy). A kdsl repr is NumPy's layout with the prefix ``kd.array(`` and the dtype always named, so the
oracle is NumPy's repr of a subclass named ``kd.array`` (NumPy prints its class name) where NumPy names the dtype.
Before: under ``legacy="1.13"`` a long repr put ``dtype=`` on a line of its own (NumPy 1.13 keeps it on the last)."""

import numpy as np
import pytest

import kdsl as kd

KD_ARRAY = type("kd.array", (np.ndarray,), {})

DATA = {
    "float32 specials": np.array([1.5, -2.25, 1e-5, 3.0, np.nan, np.inf, -0.0], np.float32),
    "float64": np.array([1 / 3, 2e10, -1e-12, 0.0]),
    "summarised": np.random.default_rng(0).standard_normal((40, 40)).astype(np.float32),
    "long int32": np.arange(-5, 2000, 3, dtype=np.int32),
    "2-d": np.arange(12, dtype=np.float32).reshape(3, 4) / 7,
    "transposed 3-d": np.arange(60, dtype=np.int16).reshape(3, 4, 5).transpose(2, 0, 1),
    "complex64": np.array([1 + 2j, -3.5j, np.nan + 1j], np.complex64),
    "bool": np.array([[True, False], [False, True]]),
    "empty": np.zeros((0, 3), np.float32),
    "0-d": np.array(3.25, np.float32),
    "uint8": np.array([0, 255, 7], np.uint8),
    "float16": np.array([0.1, 65504, -1e-4], np.float16),
    "linspace": np.linspace(0, 1, 30, dtype=np.float32),
}
OPTIONS = [{}, {"precision": 3}, {"threshold": 5}, {"threshold": 5, "edgeitems": 1}, {"suppress": True},
           {"linewidth": 30}, {"sign": "+"}, {"sign": " "}, {"floatmode": "fixed"}, {"floatmode": "unique"},
           {"floatmode": "maxprec_equal", "precision": 2}, {"formatter": {"float": lambda v: f"<{v:.1f}>"}},
           {"formatter": {"all": lambda v: "x"}}, {"formatter": {"int": lambda v: hex(int(v))}},
           {"nanstr": "NaN", "infstr": "Inf"}, {"precision": 0}, {"threshold": 0},
           {"linewidth": 200, "edgeitems": 5, "threshold": 10}, {"legacy": "1.13"}, {"legacy": "1.13", "threshold": 5},
           {"legacy": "1.21"}, {"legacy": "1.25"}, {"legacy": "2.1"}, {"legacy": "2.2", "threshold": 5}]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()
                                                                    if k != "formatter") or "defaults")
@pytest.mark.parametrize("name", list(DATA))
def test_text_is_numpys(name, options):
    host = DATA[name]
    a = kd.asarray(host)
    with np.printoptions(**options):
        want_str, want_a2s, want_repr = str(host), np.array2string(host), repr(host.view(KD_ARRAY))
        want_format = format(host)
    with kd.printoptions(**options):
        assert str(a) == want_str
        assert kd.array2string(a) == want_a2s
        assert format(a) == want_format
        if "dtype=" in want_repr or host.ndim == 0:  # NumPy leaves out float64's and int64's: kdsl names them
            assert repr(a) == want_repr


@pytest.mark.parametrize("keywords", [{}, {"max_line_width": 20}, {"precision": 1}, {"suppress_small": True}])
def test_array_str_and_array_repr_keywords(keywords):
    for host in (np.array([1.5, 2.25e-9], np.float32), np.array(2.5, np.float32), np.arange(2000, dtype=np.int32)):
        a = kd.asarray(host)
        assert kd.array_str(a, **keywords) == np.array_str(host, **keywords)
        assert kd.array_repr(a, **keywords) == np.array_repr(host.view(KD_ARRAY), **keywords)


def test_scalars_print_as_numpys():
    for value in (kd.float32(1.5), kd.float64(2), kd.int8(3), kd.complex64(1j), kd.bool_(True)):
        host = np.asarray(value)[()]
        assert str(value) == str(host) and repr(value) == repr(host) and format(value, "") == format(host, "")
    assert format(kd.float32(1.5), ".3f") == "1.500"


def test_format_spec_of_an_array_is_numpys_type_error():
    with pytest.raises(TypeError, match="unsupported format string"):
        format(np.array([1.5, 2.0]), ".2f")
    with pytest.raises(TypeError, match="unsupported format string"):
        format(kd.asarray([1.5, 2.0]), ".2f")
    assert format(kd.asarray(np.array(2.5, np.float32)), ".2f") == format(np.array(2.5, np.float32), ".2f")
