"""``kd.gradient`` with evenly spaced coordinates in a kdsl array uses NumPy's even-spacing formula (found by
differential fuzzing): it always took the uneven weights, whose middle weight is zero for even steps, so an inf
in ``f`` made **the next point inside NaN** (``0 * inf``) where NumPy's central difference is finite. kdsl
now computes both formulas and selects on the device (nothing read back). Boolean ``f`` raised its TypeError
before NumPy's check of each axis's length (ValueError for an axis too short)."""

import warnings

import numpy as np
import pytest

import kdsl as kd

F = np.array([[-0.9, -1.8, -3.1], [-0.3, 0.2, -4.4], [-0.0, -0.1, np.inf], [4.4, 1.9, 5.6], [1.0, np.nan, 2.0]])
COORDS = [np.array([0, 2, 4, 6, 8]), np.array([0.0, 2.0, 4.0, 7.0, 8.0]), np.array([-1.0, -0.5, 0.0, 0.5, 1.0]),
          np.array([0, 3, 6, 9, 12], np.int8), np.array([0.0, np.nan, 2.0, 3.0, 4.0])]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int16])
@pytest.mark.parametrize("coords", COORDS, ids=lambda c: f"{c.dtype}{c.tolist()}")
@pytest.mark.parametrize("edge_order", [1, 2])
def test_device_coordinates(dtype, coords, edge_order):
    f = np.nan_to_num(F, nan=3.0, posinf=100.0) if np.dtype(dtype).kind == "i" else F
    f = f.astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy's invalid-value warnings of inf - inf
        want = np.gradient(f, coords, 0.5, edge_order=edge_order)
        got = kd.gradient(kd.asarray(f), kd.asarray(coords), 0.5, edge_order=edge_order)
    for w, g in zip(want, got, strict=True):
        g = g.numpy()
        assert (g.shape, g.dtype) == (w.shape, w.dtype)
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
        np.testing.assert_allclose(g, w, rtol=1e-6 if w.dtype.itemsize == 4 else 1e-12)


def test_inf_does_not_leak_into_the_next_point():
    f = np.array([0.0, 1.0, np.inf, 3.0, 4.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = kd.gradient(kd.asarray(f), kd.asarray([0.0, 1.0, 2.0, 3.0, 4.0])).numpy()
        want = np.gradient(f, [0.0, 1.0, 2.0, 3.0, 4.0])
    assert got[2] == want[2] == 1.0  # (f[3] - f[1]) / 2: the inf between them has weight 0, not 0 * inf
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(("shape", "kw", "error"), [((2,), {"edge_order": 2}, ValueError),
                                                    ((2, 1, 1), {"axis": (2, 1)}, ValueError),
                                                    ((3, 1), {}, TypeError), ((1, 4), {"axis": 1}, TypeError)])
def test_boolean_f_checks_the_axis_length_first(shape, kw, error):
    f = np.ones(shape, bool)
    with pytest.raises(error):
        np.gradient(f, **kw)
    with pytest.raises(error):
        kd.gradient(kd.asarray(f), **kw)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128, np.float32])
@pytest.mark.parametrize("spacing", [2.0, 3, np.array([0.0, 0.5, 1.0, 1.5, 2.0])])
def test_second_order_edges_weight_as_numpy(dtype, spacing):
    """NumPy's even-spacing edges of order 2 are ``(c / h) * f`` sums: an inf among complex values gives its
    ``-inf + nanj`` (kdsl's ``(... ) / h`` gave ``nan + nanj``)."""
    f = np.array([1 + 2j, 3 - 1j, 4 + 1j, 2 + 0j, np.inf + 5j]).astype(dtype) if np.dtype(dtype).kind == "c" else \
        np.array([1.0, 3.0, 4.0, 2.0, np.inf], dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.gradient(f, spacing, edge_order=2)
        got = kd.gradient(kd.asarray(f), spacing, edge_order=2).numpy()
    assert got.dtype == want.dtype
    for part in (np.real, np.imag):
        np.testing.assert_array_equal(np.isnan(part(got)), np.isnan(part(want)))
        np.testing.assert_array_equal(np.isinf(part(got)), np.isinf(part(want)))
    np.testing.assert_allclose(got, want, rtol=1e-6)
