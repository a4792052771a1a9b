"""0-d arrays (what kdsl's reductions return where NumPy returns scalars) work with ``statistics``, ``fractions``
and ``math`` as NumPy's scalars do: ``as_integer_ratio``, ``is_integer``, ``numerator``/``denominator``, and
``type(x)(value)``, which ``statistics`` calls to convert its exact result back."""

import fractions
import math
import operator
import statistics

import numpy as np
import pytest

import kdsl as kd

DATA = {
    "float32": np.array([1.5, -2.25, 7.0, 0.1], np.float32),
    "float64": np.array([1.5, -2.25, 7.0, 0.1]),
    "float16": np.array([1.5, -2.25, 7.0, 0.5], np.float16),
    "int64": np.array([3, -7, 12, 5], np.int64),
    "int32": np.array([3, -7, 12, 6], np.int32),
    "uint8": np.array([3, 7, 200, 5], np.uint8),
}


def _pair(m, name):
    a = m.asarray(DATA[name])
    return [a.min(), a.max()]


def _value(r):
    return r.item() if hasattr(r, "item") else r


@pytest.mark.parametrize("name", list(DATA))
@pytest.mark.parametrize("fn", [statistics.mean, statistics.median, statistics.fmean, statistics.median_low,
                                statistics.median_high, statistics.pvariance, statistics.variance,
                                statistics.geometric_mean, statistics.mode, statistics.multimode,
                                statistics.stdev, statistics.pstdev])
@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's uint8 numerators overflow in statistics' sums
def test_statistics_of_reductions(name, fn):
    """NumPy's result, value and dtype (an integer mean truncated, as NumPy's integer scalar truncates it), where
    NumPy's scalars succeed; else statistics' exact answer for the same values, rounded to the data's dtype."""
    def data(m):
        values = _pair(m, name) + [m.asarray(DATA[name])[2]]
        return [abs(x) + 1 for x in values] if fn is statistics.geometric_mean else values

    got = fn(data(kd))
    try:
        want = fn(data(np))
    except (TypeError, AttributeError):  # NumPy's scalars fail here (stdev of integers needs int.bit_length)
        want = None
    exact = fn([x.item() for x in data(np)])
    if isinstance(got, list):
        assert [_value(g) for g in got] == [_value(w) for w in want]
    elif isinstance(want, np.generic) and name != "uint8":  # uint8: NumPy's conversion back wraps around
        assert _value(got) == _value(want) and np.dtype(got.dtype.name) == want.dtype
    elif isinstance(got, float):  # fmean, stdev, geometric_mean: Python floats
        assert got == pytest.approx(exact, rel=1e-6)
    else:
        assert _value(got) == pytest.approx(exact, rel=1e-6, abs=1 if name == "uint8" else 0)


def test_statistics_of_python_numbers_is_unchanged_after_arrays():
    statistics.mean([kd.asarray([1.5], dtype=kd.float16)[0]])  # leaves float16 as the last data dtype
    assert statistics.mean([1, 2]) == 1.5 and type(statistics.mean([1.0, 2.0])) is float


@pytest.mark.parametrize("name", ["float32", "float64", "float16"])
def test_as_integer_ratio_is_the_exact_value(name):
    for k, n in zip(_pair(kd, name), _pair(np, name), strict=True):
        assert k.as_integer_ratio() == n.as_integer_ratio()
        assert fractions.Fraction(*k.as_integer_ratio()) == fractions.Fraction(float(n))


@pytest.mark.parametrize("value, error", [(np.inf, OverflowError), (-np.inf, OverflowError), (np.nan, ValueError)])
def test_as_integer_ratio_of_non_finite_raises_as_numpy(value, error):
    with pytest.raises(error):
        np.float32(value).as_integer_ratio()
    with pytest.raises(error):
        kd.asarray(np.array([value], np.float32)).max().as_integer_ratio()


@pytest.mark.parametrize("name", list(DATA) + ["bool", "complex64"])
@pytest.mark.parametrize("attr", ["as_integer_ratio", "is_integer", "numerator", "denominator"])
def test_attributes_exist_where_numpys_scalar_has_them(name, attr):
    data = {"bool": np.array([True, False]), "complex64": np.array([1 + 2j], np.complex64)}.get(name, DATA.get(name))
    n, k = np.asarray(data)[0], kd.asarray(data)[0]
    assert hasattr(k, attr) == hasattr(n, attr)
    assert not hasattr(kd.asarray(data), attr)  # an array that is not 0-d: none of them, as NumPy's ndarray
    if hasattr(n, attr):
        got, want = getattr(k, attr), getattr(n, attr)
        got, want = (got(), want()) if callable(want) else (got, want)
        assert _value(got) == _value(want)


@pytest.mark.parametrize("x", [2.0, 2.5, -0.0, -3.0, 1e30])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_is_integer(x, dtype):
    assert kd.asarray(np.array([x], dtype))[0].is_integer() == dtype(x).is_integer()


@pytest.mark.parametrize("name", list(DATA))
def test_math_and_builtins_match_numpy(name):
    k, n = kd.asarray(DATA[name])[1], DATA[name][1]
    checks = [lambda x: math.isclose(x, 1.5), lambda x: math.floor(x), lambda x: math.ceil(x),
              lambda x: int(x), lambda x: float(x), lambda x: round(x, 2), lambda x: round(x),
              lambda x: divmod(x, 2), lambda x: divmod(9, x), lambda x: math.fsum([x, x]), lambda x: sum([x, x]),
              lambda x: math.isfinite(x), lambda x: f"{x:.3f}", lambda x: hash(x) == hash(float(x))]
    if name.startswith(("int", "uint")):
        checks += [operator.index, lambda x: fractions.Fraction(x.numerator, x.denominator), lambda x: math.gcd(x, 4),
                   lambda x: list(range(300))[x], lambda x: f"{x:d}", hex]
    for check in checks:
        got, want = check(k), check(n)
        if isinstance(want, tuple):
            assert [_value(g) for g in got] == pytest.approx([_value(w) for w in want])
        else:
            assert _value(got) == pytest.approx(_value(want)) if isinstance(_value(want), float) else \
                _value(got) == _value(want)


@pytest.mark.parametrize("value", [fractions.Fraction(3, 2), fractions.Fraction(-4, 1), 2.5, True])
@pytest.mark.parametrize("last", ["float64", "float32", "int64", "int32"])
def test_array_of_a_number_takes_the_last_data_dtype(value, last):
    x = kd.asarray(np.array([3], last))[0]
    x.as_integer_ratio() if last.startswith("float") else x.numerator  # noqa: B018  (what statistics reads)
    a = kd.Array(value)
    want = getattr(np, last)(value)  # NumPy's scalar of that dtype from the same number (truncating)
    assert a.shape == () and a.dtype.name == last and a.item() == want.item()


def test_array_of_something_else_is_refused():
    with pytest.raises(TypeError, match="kd.asarray"):
        kd.Array("3")
