"""kd.histogram against NumPy on inputs NumPy's own tests check: complex weights (their real and imaginary parts
summed apart, not the imaginary part dropped), boolean samples (converted to uint8 with NumPy's warning) and
kd.bincount's refusal of complex weights."""

import numpy as np
import pytest

import kdsl as kd

VALUES = np.array([1.3, 2.5, 2.3, 0.1, -4.0, 2.0])
WEIGHTS = np.array([1, -1, 2, 0.5, 3, 4]) + 1j * np.array([2, 1, 2, -1.5, 7, 0.25])


@pytest.mark.parametrize("wdtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("bins", [[0, 2, 3], [-5, 0, 1, 2.5], 3])
@pytest.mark.parametrize("density", [False, True])
def test_complex_weights(wdtype, bins, density):
    w = WEIGHTS.astype(wdtype)
    want = np.histogram(VALUES, bins=bins, weights=w, density=density)
    got = kd.histogram(kd.asarray(VALUES), bins=bins, weights=kd.asarray(w), density=density)
    assert got[0].dtype.np == want[0].dtype
    np.testing.assert_allclose(got[0].numpy(), want[0], rtol=1e-5)
    np.testing.assert_allclose(got[1].numpy(), want[1], rtol=1e-6)


@pytest.mark.parametrize("sample", [[True, True, False], [[False], [False]], [True]])
@pytest.mark.parametrize("bins", [10, 2, [0, 0.5, 1]])
def test_boolean_samples(sample, bins):
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        want = np.histogram(sample, bins=bins)
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        got = kd.histogram(kd.asarray(sample), bins=bins)
    np.testing.assert_array_equal(got[0].numpy(), want[0])
    np.testing.assert_allclose(got[1].numpy(), want[1])


def test_boolean_bin_edges():
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        got = kd.histogram_bin_edges(kd.asarray([True, False, True]), bins=4)
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        want = np.histogram_bin_edges(np.array([True, False, True]), bins=4)
    np.testing.assert_allclose(got.numpy(), want)


def test_bincount_refuses_complex_weights():
    with pytest.raises(TypeError, match="complex128.*kd.real"):
        kd.bincount(kd.asarray([0, 1, 1]), weights=kd.asarray(WEIGHTS[:3]))
