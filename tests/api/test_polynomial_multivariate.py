"""kd.polynomial's *val2d/3d, *grid2d/3d, *vander2d/3d of every basis and polyvalfromroots, against NumPy's:
point and grid shapes (scalars, 1-D, 2-D, non-contiguous views, host lists), coefficient arrays with trailing
axes, the fit identity vander2d @ c.ravel() == val2d, and NumPy's errors."""

import numpy as np
import pytest

import kdsl as kd

FAMILIES = ["polynomial", "chebyshev", "legendre", "hermite", "hermite_e", "laguerre"]
PREFIX = {"polynomial": "poly", "chebyshev": "cheb", "legendre": "leg", "hermite": "herm", "hermite_e": "herme",
          "laguerre": "lag"}
RNG = np.random.default_rng(570)
X = RNG.uniform(-1, 1, (3, 4))
Y = RNG.uniform(-1, 1, (3, 4))
Z = RNG.uniform(-1, 1, (3, 4))
C2 = RNG.normal(size=(3, 2))
C3 = RNG.normal(size=(2, 3, 2))


def fn(module, family, name):
    return getattr(getattr(module.polynomial, family), PREFIX[family] + name)


def dev(a):
    return kd.asarray(a) if isinstance(a, np.ndarray) else a


def same(got, want, rtol=1e-9):
    assert isinstance(got, kd.Array)
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got.numpy(), want, rtol=rtol, atol=1e-9)


POINTS = [(X, Y), (X[:, ::2], Y[:, 1::2]), (X.T, Y.T), (X[0], Y[1]), (0.5, -0.25), ([0.1, 0.2], [0.3, 0.4])]


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("xy", POINTS, ids=range(len(POINTS)))
@pytest.mark.parametrize("c", [C2, C2[:, :1], RNG.normal(size=(2, 2, 3))], ids=["c2", "col", "trailing"])
def test_val2d_and_grid2d(family, xy, c):
    x, y = xy
    same(fn(kd, family, "val2d")(dev(x), dev(y), kd.asarray(c)), fn(np, family, "val2d")(x, y, c))
    same(fn(kd, family, "grid2d")(dev(x), dev(y), kd.asarray(c)), fn(np, family, "grid2d")(x, y, c))


@pytest.mark.parametrize("family", FAMILIES)
def test_val3d_and_grid3d(family):
    same(fn(kd, family, "val3d")(kd.asarray(X), kd.asarray(Y), kd.asarray(Z), kd.asarray(C3)),
         fn(np, family, "val3d")(X, Y, Z, C3))
    same(fn(kd, family, "grid3d")(kd.asarray(X[0]), kd.asarray(Y[1, :2]), kd.asarray(Z[:, 0]), kd.asarray(C3)),
         fn(np, family, "grid3d")(X[0], Y[1, :2], Z[:, 0], C3))
    same(fn(kd, family, "val3d")(0.5, 0.25, -0.5, C3.tolist()), fn(np, family, "val3d")(0.5, 0.25, -0.5, C3))


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("deg", [[2, 1], [0, 3], [1, 0]])
def test_vander2d_matches_numpy_and_fits_val2d(family, deg):
    for x, y in [(X, Y), (X[:, ::2], Y[:, ::2]), (X[0], Y[0]), (0.3, 0.7)]:
        same(fn(kd, family, "vander2d")(dev(x), dev(y), deg), fn(np, family, "vander2d")(x, y, deg))
    c = RNG.normal(size=(deg[0] + 1, deg[1] + 1))
    V = fn(kd, family, "vander2d")(kd.asarray(X[0]), kd.asarray(Y[0]), deg)
    same(V @ kd.asarray(c.ravel()), fn(np, family, "val2d")(X[0], Y[0], c))


@pytest.mark.parametrize("family", FAMILIES)
def test_vander3d(family):
    same(fn(kd, family, "vander3d")(kd.asarray(X), kd.asarray(Y), kd.asarray(Z), [1, 2, 1]),
         fn(np, family, "vander3d")(X, Y, Z, [1, 2, 1]))


def test_float32_points_stay_float32_and_empty_points():
    x, y = kd.asarray(X.astype(np.float32)), kd.asarray(Y.astype(np.float32))
    got = kd.polynomial.polynomial.polyvander2d(x, y, [1, 1])
    assert got.dtype == kd.float32
    same(got, np.polynomial.polynomial.polyvander2d(X.astype(np.float32), Y.astype(np.float32), [1, 1]), 1e-6)
    empty = np.zeros(0)
    same(kd.polynomial.chebyshev.chebval2d(kd.asarray(empty), kd.asarray(empty), kd.asarray(C2)),
         np.polynomial.chebyshev.chebval2d(empty, empty, C2))
    # NumPy's reshape to (0, -1) fails here (ValueError); kdsl gives the empty matrix with its 6 columns
    same(kd.polynomial.polynomial.polyvander2d(kd.asarray(empty), kd.asarray(empty), [1, 2]), np.zeros((0, 6)))


@pytest.mark.parametrize("call", [
    lambda m: m.polynomial.polynomial.polyval2d(m.asarray(X), m.asarray(Y[0]), m.asarray(C2)),
    lambda m: m.polynomial.legendre.legval3d(m.asarray(X), m.asarray(Y), m.asarray(Z[0]), m.asarray(C3)),
    lambda m: m.polynomial.chebyshev.chebvander2d(m.asarray(X), m.asarray(Y), [1]),
    lambda m: m.polynomial.hermite.hermvander3d(m.asarray(X), m.asarray(Y), m.asarray(Z), [1, 1]),
    lambda m: m.polynomial.polynomial.polyvander2d(m.asarray(X), m.asarray(Y), [1, -1]),
])
def test_errors_as_numpy(call):
    with pytest.raises(ValueError):
        call(np)
    with pytest.raises(ValueError):
        call(kd)


def test_vander2d_degree_must_be_an_integer():
    with pytest.raises(TypeError):
        np.polynomial.polynomial.polyvander2d(X, Y, [1.5, 1])
    with pytest.raises(TypeError):
        kd.polynomial.polynomial.polyvander2d(kd.asarray(X), kd.asarray(Y), [1.5, 1])


R = np.array([[1.0, -2.0], [0.5, 3.0], [2.0, 0.0]])


@pytest.mark.parametrize("x", [X, X[:, ::2], X[0], 0.7, [0.0, 1.0, 2.5]], ids=range(5))
@pytest.mark.parametrize("r", [R[:, 0], R, R.T[:, ::-1], np.array([2.0]), np.array([1, 2, 3])], ids=range(5))
def test_polyvalfromroots(x, r):
    want = np.polynomial.polynomial.polyvalfromroots(x, r)
    same(kd.polynomial.polynomial.polyvalfromroots(dev(x), kd.asarray(r)), want)


def test_polyvalfromroots_without_tensor():
    x = X[0, :2]
    same(kd.polynomial.polynomial.polyvalfromroots(kd.asarray(x), kd.asarray(R), tensor=False),
         np.polynomial.polynomial.polyvalfromroots(x, R, tensor=False))
    with pytest.raises(ValueError, match="x.ndim must be < r.ndim"):
        np.polynomial.polynomial.polyvalfromroots(X, R, tensor=False)
    with pytest.raises(ValueError, match="x.ndim must be < r.ndim"):
        kd.polynomial.polynomial.polyvalfromroots(kd.asarray(X), kd.asarray(R), tensor=False)
