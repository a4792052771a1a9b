"""kd.polynomial (kdsl/polynomial/) against np.polynomial: the power-series functions (lowest degree first) and
the Polynomial class."""

import warnings

import numpy as np
import pytest

import kdsl as kd

KP, NP = kd.polynomial.polynomial, np.polynomial.polynomial
SERIES = [[1.0, 2.0, 3.0], [0.5], [1, -2, 0, 4], [2.0, 0.0, 0.0], [-1.5, 0.25, 3.0, 0.0, 1.0]]


def _same(got, want, rtol=1e-9, atol=1e-9):
    got = got.numpy() if isinstance(got, kd.Array) else np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


@pytest.mark.parametrize("c", SERIES)
@pytest.mark.parametrize("x", [np.linspace(-2, 2, 7), np.array(1.5), np.zeros(0), np.arange(6.0).reshape(2, 3)[:, ::2]])
def test_polyval(c, x):
    _same(KP.polyval(kd.asarray(x), c), NP.polyval(x, c))
    _same(KP.polyval(kd.asarray(x), kd.asarray(np.array(c))), NP.polyval(x, c))


@pytest.mark.parametrize("tensor", [True, False])
def test_polyval_several_series(tensor):
    c = np.arange(6.0).reshape(3, 2)
    x = np.array([0.5, -1.0]) if not tensor else np.array([[0.5, -1.0, 2.0]])
    _same(KP.polyval(kd.asarray(x), kd.asarray(c), tensor=tensor), NP.polyval(x, c, tensor=tensor))


@pytest.mark.parametrize("deg", [0, 1, 4])
@pytest.mark.parametrize("x", [np.array([0.5, -2.0, 3.0]), np.arange(6.0).reshape(2, 3).T, np.array([1, 2, 3])])
def test_polyvander(x, deg):
    _same(KP.polyvander(kd.asarray(x), deg), NP.polyvander(x, deg))


@pytest.mark.parametrize("c1", SERIES)
@pytest.mark.parametrize("c2", [[1.0, 1.0], [0.0, 0.0, 2.0], [-1, 2, 0, -4]])
def test_arithmetic(c1, c2):
    for name in ("polyadd", "polysub", "polymul"):
        _same(getattr(KP, name)(c1, c2), getattr(NP, name)(c1, c2))
    for got, want in zip(KP.polydiv(c1, c2), NP.polydiv(c1, c2), strict=True):
        _same(got, want)
    _same(KP.polymulx(c1), NP.polymulx(c1))


def test_polydiv_errors_and_scalar_divisor():
    with pytest.raises(ZeroDivisionError):
        KP.polydiv([1.0, 2.0], [0.0])
    for got, want in zip(KP.polydiv([1.0, 2.0], [2.0]), NP.polydiv([1.0, 2.0], [2.0]), strict=True):
        _same(got, want)


@pytest.mark.parametrize("power", [0, 1, 3])
def test_polypow(power):
    _same(KP.polypow([1.0, -2.0, 0.5], power), NP.polypow([1.0, -2.0, 0.5], power))
    with pytest.raises(ValueError):  # NumPy's power series have no maxpower by default; a given one holds
        KP.polypow([1.0, 1.0], 17, maxpower=16)


@pytest.mark.parametrize("c", SERIES)
@pytest.mark.parametrize("m", [0, 1, 2, 5])
@pytest.mark.parametrize("scl", [1, -0.5])
def test_polyder(c, m, scl):
    _same(KP.polyder(c, m, scl), NP.polyder(c, m, scl))


def test_polyder_axis_and_errors():
    c = np.arange(12.0).reshape(3, 4)
    _same(KP.polyder(kd.asarray(c), 1, axis=1), NP.polyder(c, 1, axis=1))
    _same(KP.polyder(kd.asarray(c).T, 2, axis=0), NP.polyder(c.T, 2, axis=0))
    with pytest.raises(ValueError):
        KP.polyder([1.0, 2.0], -1)


@pytest.mark.parametrize("c", SERIES + [[0.0]])
@pytest.mark.parametrize(("m", "k", "lbnd", "scl"), [(1, [], 0, 1), (2, [1, 2], 1.5, 1), (3, 2.0, -1, 0.5)])
def test_polyint(c, m, k, lbnd, scl):
    _same(KP.polyint(c, m, k, lbnd, scl), NP.polyint(c, m, k, lbnd, scl))


def test_polyint_errors():
    with pytest.raises(ValueError):
        KP.polyint([1.0], 1, [1, 2])
    with pytest.raises(ValueError):
        KP.polyint([1.0], -1)


def _ordered(r):
    """Roots in an order that rounding cannot change (a conjugate pair's real parts may differ by an ulp)."""
    r = np.asarray(r, dtype=complex)
    return r[np.lexsort((np.round(r.imag, 8), np.round(r.real, 8)))]


@pytest.mark.parametrize("c", [[2.0, -3.0, 1.0], [-6.0, 11.0, -6.0, 1.0], [1.0, 0.0, 1.0], [3.0, 2.0], [5.0],
                               [1.0, 2.0, 3.0, 0.0]])
def test_polyroots_fromroots_companion(c):
    want = NP.polyroots(c)
    if want.dtype.kind == "c" and not np.any(want.imag):  # NumPy 2.4's real roots (2.5, unreleased: complex)
        want = want.real
    got = KP.polyroots(c).numpy()
    assert got.dtype == want.dtype
    np.testing.assert_allclose(_ordered(got), _ordered(want), atol=1e-9)
    _same(KP.polyfromroots(want), NP.polyfromroots(want))
    if len(c) > 1:
        _same(KP.polycompanion(c), NP.polycompanion(c))


@pytest.mark.parametrize("deg", [1, 2, 3, [0, 2]])
@pytest.mark.parametrize("weighted", [False, True])
def test_polyfit(deg, weighted):
    x = np.linspace(-1, 2, 9)
    y = np.stack([x ** 3 - x + 0.1 * np.cos(5 * x), np.sin(x)], axis=1)
    w = np.linspace(1, 2, 9) if weighted else None
    kw = None if w is None else kd.asarray(w)
    _same(KP.polyfit(kd.asarray(x), kd.asarray(y[:, 0]), deg, w=kw), NP.polyfit(x, y[:, 0], deg, w=w), atol=1e-8)
    _same(KP.polyfit(kd.asarray(x), kd.asarray(y), deg, w=kw), NP.polyfit(x, y, deg, w=w), atol=1e-8)
    c, (resid, rank, s, rcond) = KP.polyfit(kd.asarray(x), kd.asarray(y[:, 0]), deg, full=True)
    wc, (wresid, wrank, ws, wrcond) = NP.polyfit(x, y[:, 0], deg, full=True)
    _same(resid, wresid, atol=1e-8)
    assert int(rank) == int(wrank) and rcond == wrcond


def test_polyfit_errors_and_rank_warning():
    with pytest.raises(TypeError, match="same length"):
        KP.polyfit(kd.asarray([1.0, 2.0]), kd.asarray([1.0]), 1)
    with pytest.raises(ValueError):
        KP.polyfit(kd.asarray([1.0, 2.0]), kd.asarray([1.0, 2.0]), -1)
    with pytest.warns(np.exceptions.RankWarning):
        KP.polyfit(kd.asarray([1.0, 1.0, 1.0]), kd.asarray([1.0, 2.0, 3.0]), 2)


def test_series_checks():
    with pytest.raises(ValueError, match="empty"):
        KP.polyadd([], [1.0])
    with pytest.raises(ValueError, match="1-d"):
        KP.polymul([[1.0]], [1.0])
    _same(KP.polytrim([1.0, 1e-3, 1e-9], 1e-6), NP.polytrim([1.0, 1e-3, 1e-9], 1e-6))


# ----- the Polynomial class
PAIRS = [([1.0, 2.0, 3.0], [1.0, 1.0]), ([0.5, -1.0], [2.0, 0.0, 1.0]), ([3.0], [1.0, -1.0, 0.5])]


def _same_series(got, want, atol=1e-9):
    assert type(got).__name__ == type(want).__name__
    _same(got.coef, want.coef, atol=atol)
    np.testing.assert_allclose(got.domain, want.domain)
    np.testing.assert_allclose(got.window, want.window)


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_class_arithmetic(a, b):
    p, q = kd.polynomial.Polynomial(a), kd.polynomial.Polynomial(b)
    hp, hq = np.polynomial.Polynomial(a), np.polynomial.Polynomial(b)
    for op in (lambda u, v: u + v, lambda u, v: u - v, lambda u, v: u * v, lambda u, v: u // v,
               lambda u, v: u % v, lambda u, v: 2 * u - v * 1.5, lambda u, v: -u + 3, lambda u, v: u ** 2,
               lambda u, v: u / 4, lambda u, v: 1 - u):
        _same_series(op(p, q), op(hp, hq))
    assert len(p) == len(hp) and p.degree() == hp.degree()
    assert (p == kd.polynomial.Polynomial(a)) and p != q


@pytest.mark.parametrize("domain", [None, [0.0, 4.0]])
def test_class_call_calculus_roots(domain):
    coef = [-6.0, 11.0, -6.0, 1.0]
    p, hp = kd.polynomial.Polynomial(coef, domain), np.polynomial.Polynomial(coef, domain)
    x = np.linspace(-1, 5, 11)
    _same(p(kd.asarray(x)), hp(x))
    _same(p(kd.asarray(x)[::2]), hp(x[::2]))
    _same_series(p.deriv(), hp.deriv())
    _same_series(p.deriv(2), hp.deriv(2))
    _same_series(p.integ(), hp.integ())
    _same_series(p.integ(2, k=[1.0, -1.0], lbnd=0.5), hp.integ(2, k=[1.0, -1.0], lbnd=0.5))
    np.testing.assert_allclose(np.sort(p.roots().numpy().real), np.sort(hp.roots().real), atol=1e-9)
    for got, want in zip(p.linspace(5), hp.linspace(5), strict=True):
        _same(got, want)
    _same_series(p.convert(), hp.convert())
    _same_series(p.trim(), hp.trim())
    _same_series(p.truncate(2), hp.truncate(2))


@pytest.mark.parametrize("domain", [None, [], [-2.0, 5.0]])
@pytest.mark.parametrize("deg", [1, 3])
def test_class_fit(domain, deg):
    x = np.linspace(0.0, 3.0, 13)
    y = np.exp(-x) + 0.01 * np.sin(7 * x)
    _same_series(kd.polynomial.Polynomial.fit(kd.asarray(x), kd.asarray(y), deg, domain=domain),
                 np.polynomial.Polynomial.fit(x, y, deg, domain=domain), atol=1e-8)
    got = kd.polynomial.Polynomial.fit(kd.asarray(x), kd.asarray(y), deg, domain=domain)
    want = np.polynomial.Polynomial.fit(x, y, deg, domain=domain)
    _same(got(kd.asarray(x)), want(x), atol=1e-8)
    _same_series(got.convert(), want.convert(), atol=1e-7)


def test_class_constructors_and_printing():
    P, H = kd.polynomial.Polynomial, np.polynomial.Polynomial
    _same_series(P.fromroots([1.0, 2.0, -3.0]), H.fromroots([1.0, 2.0, -3.0]))
    _same_series(P.fromroots([1.0, 2.0], domain=None), H.fromroots([1.0, 2.0], domain=None))
    _same_series(P.identity([0.0, 2.0]), H.identity([0.0, 2.0]))
    _same_series(P.basis(3), H.basis(3))
    for coef in ([1.0, -2.0, 0.0, 3.5], [-1.0, 2.0], [0.0]):
        assert repr(P(coef)) == repr(H(coef))
        assert str(P(coef)) == str(H(coef))


def test_class_errors():
    P = kd.polynomial.Polynomial
    with pytest.raises(TypeError, match="Domains differ"):
        P([1.0]) + P([1.0], domain=[0, 1])
    with pytest.raises(TypeError):
        P([1.0]) / P([1.0])
    with pytest.raises(ValueError):
        P([])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        P([1, 2]).coef.numpy()


def test_fit_of_float32_data_is_float64_as_numpys_data_would_be():
    x = np.linspace(0.0, 2.0, 21)
    y = 1.0 + 0.5 * x - 2.0 * x ** 3
    got = kd.polynomial.Polynomial.fit(kd.asarray(x.astype(np.float32)), kd.asarray(y.astype(np.float32)), 3)
    want = np.polynomial.Polynomial.fit(x, y, 3)
    assert got.coef.dtype == kd.float64
    _same(got.convert().coef, want.convert().coef, atol=1e-4)


# ----- Chebyshev and Legendre
BASES = [("cheb", kd.polynomial.chebyshev, np.polynomial.chebyshev),
         ("leg", kd.polynomial.legendre, np.polynomial.legendre),
         ("herm", kd.polynomial.hermite, np.polynomial.hermite),
         ("herme", kd.polynomial.hermite_e, np.polynomial.hermite_e),
         ("lag", kd.polynomial.laguerre, np.polynomial.laguerre)]


@pytest.mark.parametrize(("p", "K", "N"), BASES)
@pytest.mark.parametrize("c", [[1.0, -2.0, 0.5, 3.0], [2.0], [0.0, 1.0, 0.0]])
def test_orthogonal_values_and_vander(p, K, N, c):
    x = np.linspace(-1.5, 1.5, 7)
    _same(getattr(K, p + "val")(kd.asarray(x), c), getattr(N, p + "val")(x, c))
    _same(getattr(K, p + "val")(kd.asarray(x.reshape(7, 1)[::2]), c), getattr(N, p + "val")(x.reshape(7, 1)[::2], c))
    cs = np.arange(6.0).reshape(3, 2)
    _same(getattr(K, p + "val")(kd.asarray(x), cs), getattr(N, p + "val")(x, cs))
    for deg in (0, 1, 5):
        _same(getattr(K, p + "vander")(kd.asarray(x), deg), getattr(N, p + "vander")(x, deg))


@pytest.mark.parametrize(("p", "K", "N"), BASES)
@pytest.mark.parametrize(("c1", "c2"), [([1.0, -2.0, 0.5, 3.0], [0.5, 1.0]), ([1.0, 2.0], [3.0, 0.0, 1.0])])
def test_orthogonal_arithmetic_and_calculus(p, K, N, c1, c2):
    for name in ("add", "sub", "mul"):
        _same(getattr(K, p + name)(c1, c2), getattr(N, p + name)(c1, c2))
    for got, want in zip(getattr(K, p + "div")(c1, c2), getattr(N, p + "div")(c1, c2), strict=True):
        _same(got, want)
    _same(getattr(K, p + "pow")(c2, 3), getattr(N, p + "pow")(c2, 3))
    _same(getattr(K, p + "mulx")(c1), getattr(N, p + "mulx")(c1))
    _same(getattr(K, p + "der")(c1, 2, 0.5), getattr(N, p + "der")(c1, 2, 0.5))
    _same(getattr(K, p + "int")(c1, 2, [1.0, 2.0], 0.5, 2.0), getattr(N, p + "int")(c1, 2, [1.0, 2.0], 0.5, 2.0))
    _same(getattr(K, p + "2poly")(c1), getattr(N, p + "2poly")(c1))
    _same(getattr(K, "poly2" + p)(c1), getattr(N, "poly2" + p)(c1))
    np.testing.assert_allclose(_ordered(getattr(K, p + "roots")(c1).numpy()), _ordered(getattr(N, p + "roots")(c1)),
                               atol=1e-9)
    _same(getattr(K, p + "fromroots")([0.25, -0.5, 1.0]), getattr(N, p + "fromroots")([0.25, -0.5, 1.0]))


@pytest.mark.parametrize(("p", "K", "N"), BASES)
@pytest.mark.parametrize("deg", [2, 4, [0, 1, 3]])
def test_orthogonal_fit(p, K, N, deg):
    x = np.linspace(-1.0, 1.0, 15)
    y = np.stack([np.exp(x), np.cos(3 * x)], axis=1)
    _same(getattr(K, p + "fit")(kd.asarray(x), kd.asarray(y), deg), getattr(N, p + "fit")(x, y, deg), atol=1e-8)


@pytest.mark.parametrize("name", ["Chebyshev", "Legendre", "Hermite", "HermiteE", "Laguerre"])
def test_orthogonal_classes(name):
    K, N = getattr(kd.polynomial, name), getattr(np.polynomial, name)
    x = np.linspace(0.0, 4.0, 11)
    got, want = K.fit(kd.asarray(x), kd.asarray(np.sqrt(x + 1)), 3), N.fit(x, np.sqrt(x + 1), 3)
    _same_series(got, want, atol=1e-8)
    assert repr(got) == repr(want) and str(got) == str(want)
    _same(got(kd.asarray(x)), want(x), atol=1e-8)
    _same_series(got.deriv(), want.deriv(), atol=1e-8)
    _same_series(got.integ(lbnd=1.0), want.integ(lbnd=1.0), atol=1e-8)
    _same_series(got * got - 1, want * want - 1, atol=1e-8)
    _same_series(got.convert(kind=kd.polynomial.Polynomial), want.convert(kind=np.polynomial.Polynomial), atol=1e-8)
    np.testing.assert_allclose(_ordered(got.roots().numpy()), _ordered(want.roots()), atol=1e-7)
    with pytest.raises(TypeError, match="types differ"):
        got + kd.polynomial.Polynomial([1.0], domain=got.domain)


@pytest.mark.parametrize(("p", "K", "N"), BASES)
def test_orthogonal_line_and_constants(p, K, N):
    for off, scl in ((1.0, 2.0), (-0.5, 0.0), (0.0, -3.0)):
        _same(getattr(K, p + "line")(off, scl), getattr(N, p + "line")(off, scl))
    for name in ("domain", "zero", "one", "x"):
        np.testing.assert_array_equal(getattr(K, p + name), getattr(N, p + name))


def test_module_names_and_printstyle():
    assert kd.polynomial.polynomial.Polynomial is kd.polynomial.Polynomial
    kd.polynomial.set_default_printstyle("ascii")
    try:
        assert str(kd.polynomial.Chebyshev([1.0, 2.0])) == str(np.polynomial.Chebyshev([1.0, 2.0]))
        assert "T_1" in str(kd.polynomial.Chebyshev([1.0, 2.0]))
    finally:
        kd.polynomial.set_default_printstyle("unicode")


@pytest.mark.parametrize("module,name", [("chebyshev", "chebline"), ("legendre", "legline"), ("hermite", "hermline"),
                                         ("hermite_e", "hermeline"), ("laguerre", "lagline"),
                                         ("polynomial", "polyline")])
@pytest.mark.parametrize("off,scl", [(3, 2), (3, 0), (3.5, 2), (0, -1.5), (-2, 1)])
def test_line_values_and_kind(module, name, off, scl):
    """chebline(3, 2) is the integer array [3, 2], as NumPy's (its docstring example); floats stay float64."""
    got = getattr(getattr(kd.polynomial, module), name)(off, scl)
    want = getattr(getattr(np.polynomial, module), name)(off, scl)
    assert got.dtype.kind == want.dtype.kind and (want.dtype.kind != "f" or got.dtype == kd.float64)
    np.testing.assert_array_equal(got.numpy(), want)
