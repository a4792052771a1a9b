"""What differential fuzzing of printing and scalars against NumPy found (session fuzzprint31): 0-d results stand
for NumPy's scalars, so they print, round and convert as those scalars do.

* ``str(a[0])`` under ``legacy="1.13"`` printed Python's ``str`` of the item (``0.10000000149011612`` for a
  float32 0.1, ``5e-324``'s 17 digits), as NumPy prints a 0-d *array*; NumPy's scalar prints ``0.1``.
* ``round(z[0], 2)`` of a complex result returned a value (NumPy's complex scalars, and Python's complex, have no
  ``__round__``: TypeError); ``round()`` of a bool result raised a casting error instead of NumPy's TypeError.
* ``float(z[0])``, ``int(z.sum())``, ``math.isnan(z[0])`` of complex results raised TypeError where NumPy's
  complex scalar converts its real part with a ComplexWarning.
"""

import math
import warnings

import numpy as np
import pytest

import kdsl as kd

LEGACY = ["1.13", "1.21", "1.25", "2.1", False]


def _results(host):
    """The 0-d kdsl results of an element read, a reduction and a reversed read, with NumPy's scalars."""
    a = kd.asarray(host)
    return [(a[0], host[0]), (a[1:].max(), host[1:].max()), (a[::-1][0], host[::-1][0])]


@pytest.mark.parametrize("legacy", LEGACY)
@pytest.mark.parametrize("host", [np.array([0.1, -0.0, 1 / 3], np.float32), np.array([5e-324, np.nan, 2.0 / 3]),
                                  np.array([0.1 + 2j, np.nan + 0j, -1e-5j], np.complex64),
                                  np.array([1.5, np.inf, -2.25], np.float16), np.array([7, -3, 2], np.int8),
                                  np.array([True, False, True])], ids=lambda h: str(h.dtype))
def test_str_of_a_result_is_the_numpy_scalars(host, legacy):
    with kd.printoptions(legacy=legacy), np.printoptions(legacy=legacy):
        for got, want in _results(host):
            assert str(got) == str(want)
            assert f"{got}" == f"{want}"
            assert format(got, "") == format(want, "")


@pytest.mark.parametrize("legacy", LEGACY)
def test_str_of_a_0d_array_made_as_an_array_is_the_numpy_arrays(legacy):
    for host in (np.array(0.1, np.float32), np.array(5e-324), np.array(1 / 3 + 0.1j, np.complex64)):
        with kd.printoptions(legacy=legacy), np.printoptions(legacy=legacy):
            assert str(kd.array(host)) == str(host)
            assert str(kd.zeros((), host.dtype)) == str(np.zeros((), host.dtype))


@pytest.mark.parametrize("legacy", LEGACY)
def test_str_of_0d_views_is_the_numpy_arrays_and_of_parts_the_scalars(legacy):
    host = np.array([[0.1, 2 / 3], [1e-5, 5.0]], np.float32)
    a, z = kd.asarray(host), kd.asarray(host.astype(np.complex64) * (1 + 1j))
    zh = host.astype(np.complex64) * (1 + 1j)
    with kd.printoptions(legacy=legacy), np.printoptions(legacy=legacy):
        for got, want in ((a[0, 1, ...], host[0, 1, ...]), (a[0, :1][0:1].reshape(()), host[0, :1].reshape(())),
                          (a[1, 1:].squeeze(), host[1, 1:].squeeze()), (a[...][0, 0], host[...][0, 0]),
                          (z[0, 1].real, zh[0, 1].real), (z.sum().imag, zh.sum().imag)):
            assert str(got) == str(want)


@pytest.mark.parametrize("host", [np.array([1.5 - 2j, 0.25j, 3 + 0j], np.complex64),
                                  np.array([2.675 + 1j, -0.5 + 0j, 1e300 + 1e300j]), np.array([True, False])],
                         ids=lambda h: str(h.dtype))
@pytest.mark.parametrize("ndigits", [None, 0, 2, -1])
def test_round_of_complex_and_bool_results_is_numpys_type_error(host, ndigits):
    for got, want in _results(host):
        args = () if ndigits is None else (ndigits,)
        with pytest.raises(TypeError, match="doesn't define __round__"):
            round(want, *args)
        with pytest.raises(TypeError, match="doesn't define __round__ method for 0-d"):
            round(got, *args)


@pytest.mark.parametrize("name", ["float16", "float32", "float64", "int8", "uint64"])
@pytest.mark.parametrize("ndigits", [None, 0, 1, -1])
def test_round_of_real_results_still_works(name, ndigits):
    host = np.array([2.5, 126.75, 3.0], name) if name.startswith("float") else np.array([125, 3, 17], name)
    for got, want in _results(host):
        args = () if ndigits is None else (ndigits,)
        r, w = round(got, *args), round(want, *args)
        if ndigits is None:
            assert type(r) is int and r == w
        else:
            assert (r.shape, r.dtype, r.item()) == ((), w.dtype, w.item())


CONVERSIONS = [float, int, math.isnan, math.isinf, math.floor, math.ceil, lambda v: float(v).hex()]


@pytest.mark.parametrize("host", [np.array([1.5 - 2j, -2.75 + 0.5j, -0.0 + 1j], np.complex64),
                                  np.array([1e300 + 1j, 3.0 - 0j, -7.5 - 7.5j]), np.array([np.nan + 0j, 1j, 2]),
                                  np.array([np.inf + 0j, 1j, 2])], ids=lambda h: str(h))
@pytest.mark.parametrize("convert", CONVERSIONS)
def test_complex_results_convert_their_real_part_with_a_warning(host, convert):
    for got, want in _results(host):
        try:
            with pytest.warns(np.exceptions.ComplexWarning):
                expected = convert(want)
        except (ValueError, OverflowError) as err:  # int(nan), int(inf): Python's errors of the real part
            with pytest.raises(type(err)), warnings.catch_warnings():
                warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
                convert(got)
            continue
        with pytest.warns(np.exceptions.ComplexWarning, match="discards the imaginary part"):
            value = convert(got)
        assert type(value) is type(expected)
        assert value == expected or (value != value and expected != expected)
        if isinstance(value, float):  # -0.0 keeps its sign
            assert math.copysign(1, value) == math.copysign(1, expected)


def test_complex_0d_arrays_made_as_arrays_keep_numpys_type_error():
    host = np.array(1.5 + 2j)
    z = kd.asarray([1.5 + 2j, 1j])
    for convert in (float, int):
        with pytest.raises(TypeError):
            convert(host)
        with pytest.raises(TypeError):
            convert(np.asarray([1.5 + 2j, 1j])[0, ...])
        for made in (kd.array(host), kd.zeros((), kd.complex64), z[0, ...], z[:1].reshape(())):
            with pytest.raises(TypeError, match="complex"):
                convert(made)
    assert complex(kd.asarray([1.5 + 2j])[0]) == 1.5 + 2j  # complex() needs no conversion


def test_real_results_convert_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert float(kd.asarray([1.5, 2.0])[0]) == 1.5 and int(kd.asarray([7, 8]).sum()) == 15
        assert math.isnan(kd.asarray([np.nan], dtype=kd.float32)[0])


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", ["max", "min"])
def test_complex_max_and_min_are_new_values_not_views(name, dtype):
    # The complex extremes were views of an internal temporary: `m = z.max(); y = m; m += 1` changed y too
    # (a NumPy scalar's += makes a new value), and the results' base/owndata were a view's.
    host = np.array([[1 + 1j, 2 - 3j, np.nan + 0j], [3 + 0j, 0.5j, -1 + 0j]], dtype)
    z = kd.asarray(host)
    m, want = getattr(z[:, :2], name)(), getattr(host[:, :2], name)()
    y, kept = m, [m]
    m += 1
    assert y.item() == kept[0].item() == want and m.item() == want + 1
    assert (m.shape, str(m)) == ((), str(want + 1))
    for axis, keepdims in ((0, False), (1, False), ((0, 1), False)):
        got, expected = getattr(z, name)(axis=axis, keepdims=keepdims), getattr(host, name)(axis=axis)
        np.testing.assert_array_equal(got.numpy(), expected)
        assert got.base is None and got.flags.owndata
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        assert float(getattr(z[:, :2], name)()) == float(want.real)  # a result, not a view: NumPy's scalar rule
