"""kd.set_printoptions / get_printoptions / printoptions / array2string / array_repr / array_str, and the
repr/str of kd.Array following them; NumPy's formatter is the oracle."""

import re

import numpy as np
import pytest

import kdsl as kd

# NumPy names a subclass's repr after its class: this one's repr is NumPy's layout with kdsl's prefix.
_KD_ARRAY = type("kd.array", (np.ndarray,), {})


def assert_numpy_layout(text, host, **kwargs):
    """``text`` is NumPy's repr of ``host`` as kdsl writes it: ``kd.array(`` and the dtype always named (NumPy
    omits float64's, int64's, bool's and complex128's; there the rest is compared without it)."""
    expected = np.array_repr(host.view(_KD_ARRAY), **kwargs)
    if "dtype=" in expected:
        assert text == expected
    else:
        assert text.endswith(f"dtype={host.dtype.name})")
        without = re.sub(r",?\s*dtype=\w+\)$", ")", text)
        assert without.split() == expected.split()

DATA = [np.array([1.0, 2.0 / 3.0, -0.0, np.nan, np.inf], np.float32), np.arange(2000, dtype=np.int32),
        np.linspace(0, 1, 12).reshape(3, 4)[:, ::2], np.zeros((0, 3), np.float32), np.array(3.25),
        np.array([[True, False]]), np.array([1e-9, 1.0]), np.array([1 + 2j, -0.5j], np.complex64)]
OPTS = [{}, {"precision": 3}, {"threshold": 5, "edgeitems": 1}, {"suppress": True}, {"linewidth": 20},
        {"sign": "+", "floatmode": "fixed", "precision": 2}, {"nanstr": "NaN", "infstr": "Inf"},
        {"formatter": {"float_kind": lambda x: f"<{x:.1f}>"}}]


@pytest.fixture(autouse=True)
def _restore():
    old = kd.get_printoptions()
    yield
    kd.set_printoptions(**old)


def test_defaults_are_numpys():
    with np.printoptions():
        np.set_printoptions(precision=8, threshold=1000, edgeitems=3, linewidth=75, suppress=False, nanstr="nan",
                            infstr="inf", sign="-", floatmode="maxprec", legacy=False)
        assert kd.get_printoptions() == np.get_printoptions()


@pytest.mark.parametrize("opts", OPTS)
@pytest.mark.parametrize("i", range(len(DATA)))
def test_str_and_array2string_follow_the_options(opts, i):
    host = DATA[i]
    a = kd.asarray(host)
    kd.set_printoptions(**opts)
    with np.printoptions(**opts):
        assert str(a) == str(host)
        assert kd.array_str(a) == np.array_str(host)
        assert kd.array2string(a, separator=", ") == np.array2string(host, separator=", ")
        assert_numpy_layout(repr(a), host)
    assert np.array2string(a) == kd.array2string(a)  # NumPy's function dispatches to kdsl's


def test_set_printoptions_changes_only_kdsl():
    np_before = np.get_printoptions()
    kd.set_printoptions(precision=2)
    assert np.get_printoptions() == np_before
    assert str(kd.asarray([1 / 3])) == "[0.33]"
    assert kd.get_printoptions()["precision"] == 2


def test_printoptions_context_restores():
    before = kd.get_printoptions()
    with kd.printoptions(precision=1, threshold=4) as opts:
        assert opts["precision"] == 1 and kd.get_printoptions()["threshold"] == 4
        assert str(kd.asarray([0.25, 0.75])) == "[0.2 0.8]"
    assert kd.get_printoptions() == before
    with pytest.raises(RuntimeError), kd.printoptions(precision=3):
        raise RuntimeError
    assert kd.get_printoptions() == before


@pytest.mark.parametrize("bad,exc", [({"precision": "x"}, TypeError), ({"sign": "?"}, ValueError),
                                     ({"floatmode": "nope"}, ValueError), ({"threshold": "big"}, TypeError)])
def test_bad_options_raise_numpys_errors(bad, exc):
    before = kd.get_printoptions()
    with pytest.raises(exc):
        np.set_printoptions(**bad)
    with pytest.raises(exc):
        kd.set_printoptions(**bad)
    assert kd.get_printoptions() == before


@pytest.mark.parametrize("kwargs", [{}, {"precision": 2}, {"max_line_width": 10}, {"suppress_small": True}])
def test_array_repr_and_str_arguments(kwargs):
    host = np.array([1e-7, 0.123456, 10.5], np.float32)
    a = kd.asarray(host)
    assert kd.array_str(a, **kwargs) == np.array_str(host, **kwargs)
    assert_numpy_layout(kd.array_repr(a, **kwargs), host, **kwargs)
    assert kd.array_repr(host, **kwargs) == np.array_repr(host, **kwargs)


def test_override_repr_and_views():
    a = kd.arange(12, dtype=kd.float64).reshape(3, 4)
    host = np.arange(12.0).reshape(3, 4)
    assert str(a.T) == str(host.T) and str(a[::2, 1:]) == str(host[::2, 1:])
    kd.set_printoptions(override_repr=lambda x: f"<{x.shape}>")
    assert repr(a) == "<(3, 4)>"
    kd.set_printoptions(override_repr=None)
    assert repr(a).startswith("kd.array([[ 0.,  1.")


@pytest.mark.parametrize("host", [np.float32(0.1), np.float64(2 / 3), np.int32(-7), np.bool_(True),
                                  np.complex64(1 - 2j)], ids=repr)
@pytest.mark.parametrize("spec", ["", ".3f", ">10", "e"])
def test_format_of_0d_arrays(host, spec):
    a = kd.asarray(np.asarray(host))
    try:
        want = format(np.asarray(host), spec)
    except (TypeError, ValueError) as err:
        with pytest.raises(type(err)):
            format(a, spec)
        return
    assert format(a, spec) == want


def test_format_of_arrays():
    host = np.array([1.5, 2.0], np.float32)
    assert f"{kd.asarray(host)}" == f"{host}"
    with pytest.raises(TypeError):
        f"{host:.2f}"
    with pytest.raises(TypeError, match="format"):
        f"{kd.asarray(host):.2f}"


def test_infinite_threshold_prints_everything():
    # numpy-100 #49: np.set_printoptions(threshold=float("inf")) (an OverflowError before: int(inf))
    host = np.zeros((40, 40), np.float32)
    with kd.printoptions(threshold=float("inf")), np.printoptions(threshold=float("inf")):
        assert str(kd.asarray(host)) == str(host)
        assert "..." not in repr(kd.arange(1200))
    assert kd.array2string(kd.arange(1200), threshold=float("inf")) == np.array2string(np.arange(1200),
                                                                                        threshold=float("inf"))
