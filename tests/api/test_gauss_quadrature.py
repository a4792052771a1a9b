"""kd.polynomial's Gauss quadratures (leggauss chebgauss hermgauss hermegauss laggauss), weight functions and
Chebyshev points against np.polynomial: nodes, weights (relative accuracy, tiny ones too), exactness on
polynomials, and NumPy's argument errors."""

import numpy as np
import pytest

import kdsl as kd

KP, NP = kd.polynomial, np.polynomial
GAUSS = [("legendre", "leggauss"), ("chebyshev", "chebgauss"), ("hermite", "hermgauss"),
         ("hermite_e", "hermegauss"), ("laguerre", "laggauss")]


@pytest.mark.parametrize("module,name", GAUSS)
@pytest.mark.parametrize("deg", [1, 2, 3, 7, 16, 40, np.int64(5)])
def test_nodes_and_weights(module, name, deg):
    x, w = getattr(getattr(KP, module), name)(deg)
    ex, ew = getattr(getattr(NP, module), name)(deg)
    assert x.dtype is kd.float64 and w.dtype is kd.float64 and x.shape == ex.shape == w.shape
    scale = max(1.0, float(np.abs(ex).max()))
    np.testing.assert_allclose(x.numpy(), ex, rtol=0, atol=1e-13 * scale)
    np.testing.assert_allclose(w.numpy(), ew, rtol=1e-10, atol=0)  # relative: the tiny weights too


@pytest.mark.parametrize("module,name,weight", [("legendre", "leggauss", "legweight"),
                                                ("hermite", "hermgauss", "hermweight"),
                                                ("hermite_e", "hermegauss", "hermeweight"),
                                                ("laguerre", "laggauss", "lagweight")])
def test_exact_on_polynomials(module, name, weight):
    """sum(w x^k) is the moment of the weight function for k < 2 deg (compared with NumPy's quadrature)."""
    x, w = getattr(getattr(KP, module), name)(6)
    ex, ew = getattr(getattr(NP, module), name)(6)
    for k in range(12):
        np.testing.assert_allclose(float((w * x**k).sum()), (ew * ex**k).sum(), rtol=1e-11, atol=1e-13)
    pts = np.array([-0.5, 0.0, 0.25, 0.9])
    np.testing.assert_allclose(getattr(getattr(KP, module), weight)(kd.asarray(pts)).numpy(),
                               getattr(getattr(NP, module), weight)(pts), rtol=1e-6)


def test_chebyshev_weight_and_points():
    pts = np.array([-0.9, 0.0, 0.5])
    np.testing.assert_allclose(KP.chebyshev.chebweight(kd.asarray(pts)).numpy(), NP.chebyshev.chebweight(pts),
                               rtol=1e-6)
    for n in (1, 2, 5, 12):
        np.testing.assert_allclose(KP.chebyshev.chebpts1(n).numpy(), NP.chebyshev.chebpts1(n), atol=1e-15)
        if n >= 2:
            np.testing.assert_allclose(KP.chebyshev.chebpts2(n).numpy(), NP.chebyshev.chebpts2(n), atol=1e-15)
    np.testing.assert_array_equal(KP.legendre.legweight(kd.asarray([[1, 2]])).numpy(),
                                  NP.legendre.legweight(np.array([[1, 2]])))


@pytest.mark.parametrize("module,name", GAUSS)
def test_errors(module, name):
    fn = getattr(getattr(KP, module), name)
    with pytest.raises(ValueError, match="positive"):
        fn(0)
    with pytest.raises(TypeError, match="integer"):
        fn(2.5)
    with pytest.raises(ValueError, match="npts"):
        KP.chebyshev.chebpts2(1)
