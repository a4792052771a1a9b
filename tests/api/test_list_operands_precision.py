"""Lists, tuples and ranges of Python numbers meeting float64/complex128 arrays convert at that precision (NumPy
converts them to float64 arrays); next to float32 arrays they keep kdsl's float32 default (docs/numpy-api.md)."""

import numpy as np
import pytest

import kdsl as kd

VALUES = [0.1, 0.2, 1 / 3, -0.0, 1e-300, float("inf"), float("nan")]
H64 = np.array([0.1, 0.25, 1 / 3, 0.0, 1e-300, float("inf"), float("nan")])


@pytest.mark.parametrize("op", ["eq", "ne", "lt", "add", "sub", "mul", "truediv", "maximum", "fmin", "hypot"])
@pytest.mark.parametrize("seq", [list, tuple])
def test_float64_array_and_python_floats(op, seq):
    fn = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
          "add": lambda a, b: a + b, "sub": lambda a, b: b - a, "mul": lambda a, b: a * b,
          "truediv": lambda a, b: a / b}.get(op)
    with np.errstate(all="ignore"):
        if fn is None:
            got, want = getattr(kd, op)(kd.asarray(H64), seq(VALUES)), getattr(np, op)(H64, seq(VALUES))
        else:
            got, want = fn(kd.asarray(H64), seq(VALUES)), fn(H64, seq(VALUES))
    assert got.dtype == want.dtype
    if op == "hypot":  # kdsl's hypot (scaled, overflow-free) is within an ulp of NumPy's
        np.testing.assert_allclose(got.numpy(), want, rtol=4e-16)
    else:
        np.testing.assert_array_equal(got.numpy(), want)


def test_complex128_array_and_python_complex_numbers():
    h = np.array([1.5 + 0.1j, -0.2j])
    for other in ([0.1 + 0.1j, 0.3], (1 / 3, 0.2j)):
        got, want = kd.asarray(h) + other, h + np.asarray(other)
        assert got.dtype == kd.complex128
        np.testing.assert_array_equal(got.numpy(), want)
    np.testing.assert_array_equal((kd.asarray(h) == [1.5 + 0.1j, -0.2j]).numpy(), [True, True])


def test_float32_arrays_keep_the_float32_default():
    got = kd.ones(3) + [0.1, 0.2, 0.3]
    assert got.dtype == kd.float32
    np.testing.assert_array_equal(got.numpy(), np.float32(1) + np.array([0.1, 0.2, 0.3], np.float32))
    assert (kd.ones(2, dtype=kd.complex64) + [0.1j, 0.2]).dtype == kd.complex64


def test_ints_and_ranges_with_float64():
    got = kd.asarray(H64[:3]) * range(3)
    assert got.dtype == kd.float64
    np.testing.assert_array_equal(got.numpy(), H64[:3] * np.arange(3))
    np.testing.assert_array_equal((kd.asarray(H64[:2]) + [[1, 2], [2**40, 3]]).numpy(), H64[:2] + [[1, 2], [2**40, 3]])


def test_comparisons_and_predicates():
    a = kd.asarray(np.array([0.1, 0.2]))
    assert bool(kd.array_equal(a, [0.1, 0.2])) and bool(kd.array_equiv(a, [[0.1, 0.2]]))
    assert bool(kd.allclose(a, [0.1, 0.2], rtol=0, atol=0))
    np.testing.assert_array_equal(kd.isclose([0.1, 0.2], a, rtol=0, atol=0).numpy(), [True, True])
    assert not bool(kd.array_equal(a, [0.1, 0.2000001]))


def test_where_joins_and_products():
    h = np.array([0.1, 0.2])
    a = kd.asarray(h)
    np.testing.assert_array_equal(kd.where(a > 0.15, a, [0.3, 0.7]).numpy(), np.where(h > 0.15, h, [0.3, 0.7]))
    np.testing.assert_array_equal(kd.where(a > 0.15, [0.3, 0.7], a).numpy(), np.where(h > 0.15, [0.3, 0.7], h))
    for join in (kd.concatenate, kd.stack):
        got = join([a, [0.3, 1 / 3]])
        want = getattr(np, join.__name__)([h, [0.3, 1 / 3]])
        assert got.dtype == kd.float64
        np.testing.assert_array_equal(got.numpy(), want)
    # (to an ulp: the products' sum may round otherwise; float32's rounding of 1/3 would be ~1e-9 off)
    np.testing.assert_allclose(kd.dot(a, [0.1, 1 / 3]).item(), np.dot(h, [0.1, 1 / 3]), rtol=3e-16)
    np.testing.assert_allclose((a @ [0.1, 1 / 3]).item(), h @ [0.1, 1 / 3], rtol=3e-16)
    assert kd.concatenate([kd.zeros(1), [0.1]]).dtype == kd.float32
