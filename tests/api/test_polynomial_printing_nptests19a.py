"""NumPy's ``polynomial/tests/test_printing.py`` and ``test_symbol.py`` ported: kdsl's series print (str in both
styles, line breaking, format, repr, LaTeX, print options) exactly as NumPy's, the ``symbol`` argument is
validated as NumPy's (TypeError for a non-string) and read-only, LaTeX formatting hooks overridden on a series
are used, and a series evaluated at a series composes them (it raised TypeError). Object coefficients (Fraction,
Decimal) are not ported: kdsl has no object dtype."""

import numpy as np
import pytest

import kdsl as kd

P = kd.polynomial
KINDS = ["Polynomial", "Chebyshev", "Legendre", "Hermite", "HermiteE", "Laguerre"]
COEFS = [[1, 2, 3], [-1, 0, 3, -1], list(range(12)), [12345678, 12345678, 12345678, 12345678, 1234],
         [12345678, 12345678, 12345678, 12345678, 1, 12345678], [0.5, 1e-5, -3e8, np.inf, np.nan],
         [1j, 1 + 1j, -2 + 2j, 3 + 0j], [0.0], [1.0, -0.0, 2.5]]


@pytest.fixture(autouse=True)
def restore_printstyle():
    yield
    P.set_default_printstyle("unicode")


def _pair(kind, coef, **kw):
    with np.errstate(all="ignore"):
        return getattr(P, kind)(coef, **kw), getattr(np.polynomial, kind)(coef, **kw)


@pytest.mark.parametrize("style", ["unicode", "ascii"])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("coef", COEFS, ids=range(len(COEFS)))
def test_str_repr_and_format_as_numpy(style, kind, coef):
    P.set_default_printstyle(style)
    for kw in ({}, {"domain": [-2, 0]}, {"domain": [-0.5, 0.5], "symbol": "z"}, {"domain": [-1, 0], "window": [0, 3]}):
        k, n = _pair(kind, coef, **kw)
        assert str(k) == str(n) and repr(k) == repr(n)
        assert format(k, "") == format(n, "") and format(k, "ascii") == format(n, "ascii")
        assert format(k, "unicode") == format(n, "unicode")


@pytest.mark.parametrize("kind", ["Polynomial", "Chebyshev"])
def test_bad_format_spec_is_numpys_error(kind):
    k, n = _pair(kind, [1, 2])
    with pytest.raises(ValueError) as want:
        format(n, ".2f")
    with pytest.raises(ValueError) as got:
        format(k, ".2f")
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("linewidth", [20, 40, 75, 200])
@pytest.mark.parametrize("precision", [2, 4, 8])
@pytest.mark.parametrize("style", ["unicode", "ascii"])
def test_print_options(linewidth, precision, style):
    P.set_default_printstyle(style)
    for coef in ([1 / 3, 1e-3, 1.23456789e-5, 1e10], [0.1, np.inf, -np.inf, np.nan], list(range(30))):
        for kind in ("Polynomial", "Legendre"):
            k, n = _pair(kind, coef)
            with np.printoptions(linewidth=linewidth, precision=precision):
                assert str(k) == str(n)
            with np.printoptions(floatmode="fixed", precision=precision):
                assert str(k) == str(n)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("kw", [{}, {"domain": [-2, 0]}, {"domain": [-0.5, 0.5]}, {"domain": [-1, 0], "symbol": "z"}])
def test_latex_as_numpy(kind, kw):
    k, n = _pair(kind, [1, 2, 0, -3], **kw)
    assert k._repr_latex_() == n._repr_latex_()


def test_latex_scalar_hook_set_on_a_series_is_used():
    """NumPy's TestLatexRepr replaces ``_repr_latex_scalar`` on the series to print plain numbers."""
    for kind, kw, want in [
        ("Polynomial", {}, r"$x \mapsto 1.0 + 2.0\,x + 3.0\,x^{2}$"),
        ("Polynomial", {"domain": [-1, 0], "symbol": "z"},
         r"$z \mapsto 1.0 + 2.0\,\left(1.0 + 2.0z\right) + 3.0\,\left(1.0 + 2.0z\right)^{2}$"),
        ("Chebyshev", {"domain": [-1, 0]},
         r"$x \mapsto 1.0\,{T}_{0}(1.0 + 2.0x) + 2.0\,{T}_{1}(1.0 + 2.0x) + 3.0\,{T}_{2}(1.0 + 2.0x)$"),
        ("HermiteE", {}, r"$x \mapsto 1.0\,{He}_{0}(x) + 2.0\,{He}_{1}(x) + 3.0\,{He}_{2}(x)$"),
    ]:
        k, n = _pair(kind, [1, 2, 3], **kw)
        for s in (k, n):
            s._repr_latex_scalar = lambda x, parens=False: str(x)
        assert k._repr_latex_() == n._repr_latex_() == want
        del k._repr_latex_scalar
        assert k._repr_latex_() == _pair(kind, [1, 2, 3], **kw)[1]._repr_latex_()  # NumPy's \text{1.0} again


@pytest.mark.parametrize("bad, error", [("", ValueError), ("3", ValueError), ("a b", ValueError), (None, TypeError),
                                        (1, TypeError), (b"x", TypeError)])
def test_symbol_bad_input(bad, error):
    with pytest.raises(error) as want:
        np.polynomial.Polynomial([1, 2, 3], symbol=bad)
    with pytest.raises(error) as got:
        P.Polynomial([1, 2, 3], symbol=bad)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("symbol", ["x", "x_1", "A", "xyz", "β"])
def test_symbol_valid_and_read_only(symbol):
    p = P.Chebyshev([1, 2, 3], symbol=symbol)
    assert p.symbol == symbol and str(p) == str(np.polynomial.Chebyshev([1, 2, 3], symbol=symbol))
    with pytest.raises(AttributeError):
        p.symbol = "z"
    assert p.symbol == symbol
    assert P.Chebyshev(p.coef, symbol="t").symbol == "t"
    for derived in (-p, 2 * p, p * 2, p ** 2, p + 1, p - p, p.deriv(), p.integ(), p.copy(), p.trim(),
                    p.truncate(2), p.convert(kind=P.Legendre), divmod(p, p)[0]):
        assert derived.symbol == symbol


def test_symbols_differ_is_numpys_error():
    for op in (lambda a, b: a + b, lambda a, b: a - b, lambda a, b: a * b, divmod):
        with pytest.raises(ValueError, match="Polynomial symbols differ"):
            op(P.Polynomial([1, 2], symbol="x"), P.Polynomial([1, 2], symbol="y"))
    assert P.Polynomial([1, 2], symbol="x") != P.Polynomial([1, 2], symbol="y")


@pytest.mark.parametrize("outer", KINDS)
@pytest.mark.parametrize("inner", ["Polynomial", "Chebyshev", "Laguerre"])
def test_composition(outer, inner):
    """``p(q)``: NumPy's composition (a series of q's kind, domain, window and symbol)."""
    p, pn = _pair(outer, [3, 2, 1, -0.5], domain=[0, 2], symbol="t")
    q, qn = _pair(inner, [5, 1, 0, -1], window=[-2, 2], symbol="λ_1")
    r, rn = p(q), pn(qn)
    assert type(r).__name__ == type(rn).__name__ and r.symbol == rn.symbol == "λ_1"
    assert (r.domain == rn.domain).all() and (r.window == rn.window).all()
    np.testing.assert_allclose(r.coef.numpy(), rn.coef, rtol=1e-12, atol=1e-9)
    x = np.linspace(-1, 1, 7)
    want = pn(qn(x))  # (the values cancel from terms of ~1e6: tolerance relative to the largest)
    np.testing.assert_allclose(r(kd.asarray(x)).numpy(), want, rtol=1e-10, atol=1e-13 * np.abs(want).max())
