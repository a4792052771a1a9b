"""Array API signatures and rules that the conformance suite checks, against NumPy (array-api-strict's
behaviour is NumPy's with the standard's keywords)."""

import numpy as np
import pytest
from api_testing import sample

import kdsl as kd


def _descending_sort(x, axis):
    return np.flip(np.sort(np.flip(x, axis), axis=axis, stable=True), axis)


def _descending_argsort(x, axis):
    n = x.shape[axis]
    return np.flip(n - 1 - np.argsort(np.flip(x, axis), axis=axis, stable=True), axis)


@pytest.mark.parametrize("name", ["float32", "int16", "uint8"])  # one kernel per dtype and shape: few of each
@pytest.mark.parametrize("shape,axis", [((0,), -1), ((1,), 0), ((4, 5), 0), ((3, 6), -1)])
def test_sort_and_argsort_descending(name, shape, axis):
    host = sample(shape, name)
    if host.size > 2:
        host.reshape(-1)[-2:] = host.reshape(-1)[:2]  # ties: equal values keep their order
    a = kd.asarray(host)
    np.testing.assert_array_equal(kd.sort(a, axis=axis, descending=True).numpy(), _descending_sort(host, axis))
    np.testing.assert_array_equal(kd.argsort(a, axis=axis, descending=True).numpy(), _descending_argsort(host, axis))
    np.testing.assert_array_equal(kd.sort(a, axis=axis, descending=False).numpy(), np.sort(host, axis=axis))


def test_descending_on_a_strided_view_with_nan_and_signed_zeros():
    host = np.array([1.0, np.nan, -0.0, 3.0, 0.0, 1.0, np.inf, -np.inf], np.float32)
    a = kd.asarray(host)[::-1]
    np.testing.assert_array_equal(kd.argsort(a, descending=True).numpy(), _descending_argsort(host[::-1], 0))
    got = kd.sort(a, descending=True).numpy()
    np.testing.assert_array_equal(np.signbit(got), np.signbit(_descending_sort(host[::-1], 0)))


@pytest.mark.parametrize("shape", [(), (1,), (2, 3)])
@pytest.mark.parametrize("flag", [True, False])
@pytest.mark.parametrize("kdsl_mask", [True, False])
def test_zero_dimensional_boolean_mask(shape, flag, kdsl_mask):
    host = sample(shape, "float32")
    mask = kd.asarray(flag) if kdsl_mask else np.asarray(flag)
    got, want = kd.asarray(host)[mask], host[np.asarray(flag)]
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)
    for value in (-0.0, np.full(shape, 2.5, np.float32)):
        a, ref = kd.asarray(host), host.copy()
        a[mask] = value if isinstance(value, float) else kd.asarray(value)
        ref[np.asarray(flag)] = value
        np.testing.assert_array_equal(a.numpy(), ref)
        assert np.array_equal(np.signbit(a.numpy()), np.signbit(ref))


class _Unconvertible:
    """An object whose conversion to a dtype fails with an unusual error (as the suite's stubs do)."""

    def __getattr__(self, name):
        if name.startswith("__numpy") or name == "dtype":  # what np.dtype() looks for
            raise AssertionError(f"no {name}")
        raise AttributeError(name)

    def __repr__(self) -> str:
        return "_Unconvertible()"


@pytest.mark.parametrize("other", [{"a": 1}, _Unconvertible(), "not a dtype", None, 3.5])
def test_dtype_equality_with_anything_is_false(other):
    assert (kd.float32 == other) is False and (kd.float32 != other) is True
    assert kd.float32 == "float32" and kd.int8 == np.int8  # names and NumPy types still compare
