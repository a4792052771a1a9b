"""roots, poly, polydiv and poly1d against NumPy: dtypes, leading/trailing zeros, complex roots, matrices,
views, the printed form and errors. Roots are compared as multisets (their order differs from NumPy's)."""

import numpy as np
import pytest

import kdsl as kd


def _matched(got, want):
    """``got`` reordered to pair each of ``want``'s values with the nearest unused one."""
    got, want = np.asarray(got, complex), np.asarray(want, complex)
    free, out = list(range(len(got))), []
    for value in want:
        j = min(free, key=lambda k: abs(got[k] - value))
        free.remove(j)
        out.append(got[j])
    return np.array(out)


ROOTS_CASES = [[1.0, -3.0, 2.0], [1, 0, -4, 0], [0, 0, 1, 2, 1, 0, 0], [2.0], [0, 0], [1, 0, 1], [1, 2, 3, 4, 5, 6],
               [1j, 2, 3], list(np.poly([1.0, 2.0, 3.0, 4.0, 5.0])), [3, 0, 0], [], [5, -5], [1.0, 0.0, 0.0, -1.0]]


@pytest.mark.parametrize("dtype", [None, "float32"])
@pytest.mark.parametrize("p", ROOTS_CASES, ids=str)
def test_roots_matches_numpy(p, dtype):
    host = np.asarray(p)
    if dtype and host.dtype.kind in "fi":
        host = host.astype(dtype)
    got = kd.roots(kd.asarray(host))
    want = np.roots(host)
    assert got.shape == want.shape and got.dtype.name == want.dtype.name
    r = 1e-3 if host.dtype == np.float32 else 1e-7  # clustered roots (x-1)...(x-5) lose digits in both
    np.testing.assert_allclose(_matched(got.numpy(), want), want, rtol=r, atol=r)


def test_roots_of_a_view_and_list():
    big = np.array([0.0, 1.0, 9.0, -3.0, 5.0, 2.0, 7.0])
    got = kd.roots(kd.asarray(big)[::2])
    np.testing.assert_allclose(_matched(got.numpy(), np.roots(big[::2])), np.roots(big[::2]), atol=1e-10)
    assert sorted(kd.roots([1, -3, 2]).tolist()) == [1.0, 2.0]


def test_roots_errors():
    with pytest.raises(ValueError, match="rank-1"):
        kd.roots(kd.ones((2, 2)))


@pytest.mark.parametrize("z", [[1.0, 2.0], [1j, -1j], [1 + 1j, 2], [], np.arange(5), np.array([1, 2], np.float32),
                               [[1.0, 2.0], [3.0, 4.0]], [[0.0, -1.0], [1.0, 0.0]], [[1, 2j], [3, 4]],
                               [[2.0, 1.0], [1.0, 2.0]], [1 + 2j, 1 - 2j, 5]], ids=str)
def test_poly_matches_numpy(z):
    host = np.asarray(z)
    got = kd.poly(kd.asarray(host))
    want = np.poly(host)
    if isinstance(want, float):
        assert got == want and isinstance(got, float)
        return
    assert got.shape == want.shape and got.dtype.name == want.dtype.name
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5 if want.dtype == np.float32 else 1e-12, atol=1e-12)


def test_poly_of_many_roots_and_errors():
    z = np.linspace(-1, 1, 40)
    np.testing.assert_allclose(kd.poly(kd.asarray(z)).numpy(), np.poly(z), atol=1e-12)
    with pytest.raises(ValueError, match="square"):
        kd.poly(kd.ones((2, 3)))


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex128"])
@pytest.mark.parametrize("u,v", [([1, -3, 2], [1, -1]), ([3, 5, 2], [2, 1]), ([1, 2, 3, 4, 5], [1, 2]), ([1], [2, 3]),
                                 ([2, 4, 6], [2]), (list(range(1, 41)), [1, 0.5, 0.25]), ([0, 0, 1, 2], [1, 1]),
                                 ([4, 0, 0, 1], [2, 0, 1])], ids=str)
def test_polydiv_matches_numpy(u, v, dtype):
    a, b = np.asarray(u).astype(dtype), np.asarray(v).astype(dtype)
    if dtype == "int64":
        b = np.asarray(v)  # NumPy's (and kdsl's) rule: ints divide in float64
        if b.dtype.kind == "f":
            return
    q, r = kd.polydiv(kd.asarray(a), kd.asarray(b))
    qn, rn = np.polydiv(a, b)
    assert q.shape == qn.shape and r.shape == rn.shape
    assert q.dtype.name == qn.dtype.name and r.dtype.name == rn.dtype.name
    tol = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(q.numpy(), qn, rtol=tol, atol=tol)
    np.testing.assert_allclose(r.numpy(), rn, rtol=tol, atol=tol * 100)


def test_polydiv_views_lists_and_errors():
    u = np.array([9.0, 1.0, 7.0, 2.0, 5.0, 3.0])
    q, r = kd.polydiv(kd.asarray(u)[::-2], [1.0, 2.0])
    qn, rn = np.polydiv(u[::-2], [1.0, 2.0])
    np.testing.assert_allclose(q.numpy(), qn)
    np.testing.assert_allclose(r.numpy(), rn)
    with pytest.raises(ValueError, match="1-D"):
        kd.polydiv(kd.ones((2, 2)), kd.ones(2))


POLY1D_CASES = [[1, -2.5, 0, 3], [1j, 2, 1 + 2j, -3 - 1.5j], [0, 0], [1, 2], list(np.arange(1, 30.0)), [0, 0, 3.0, -1],
                [-1.0, 0, 0], [2.5], [1e-5, 123456.0, -0.5]]


@pytest.mark.parametrize("c", POLY1D_CASES, ids=str)
def test_poly1d_printed_form_and_fields(c):
    p, pn = kd.poly1d(np.asarray(c)), np.poly1d(c)
    assert str(p) == str(pn) and repr(p) == repr(pn)
    assert p.order == pn.order == len(p) and p.o == pn.o and p.variable == pn.variable
    np.testing.assert_array_equal(p.coeffs.numpy(), pn.coeffs)
    np.testing.assert_array_equal(np.asarray(p), pn.coeffs)
    for k in (0, 1, 5, -1):
        assert complex(p[k].numpy()) == complex(pn[k])


def test_poly1d_arithmetic_matches_numpy():
    p, q = kd.poly1d(np.array([1.0, -3, 2])), kd.poly1d(np.array([2.0, 1]))
    pn, qn = np.poly1d([1.0, -3, 2]), np.poly1d([2.0, 1])
    cases = [lambda p, q: p + q, lambda p, q: p - q, lambda p, q: p * q, lambda p, q: p * 3, lambda p, q: 3 * p,
             lambda p, q: p ** 3, lambda p, q: (p / q)[0], lambda p, q: (p / q)[1], lambda p, q: p / 2,
             lambda p, q: p(q), lambda p, q: p.deriv(), lambda p, q: p.integ(2, 3), lambda p, q: -p,
             lambda p, q: +p, lambda p, q: 1 - p, lambda p, q: [1, 2] + p, lambda p, q: p.deriv(5),
             lambda p, q: (12 / q), lambda p, q: p - p]
    for f in cases:
        got, want = f(p, q), f(pn, qn)
        np.testing.assert_allclose(np.asarray(got), want.coeffs, rtol=1e-12)
        assert str(got) == str(want)


def test_poly1d_call_roots_equality_and_setitem():
    p, pn = kd.poly1d(np.array([1.0, -3, 2])), np.poly1d([1.0, -3, 2])
    x = np.array([0.0, 1.5, 3.0])
    np.testing.assert_allclose(p(kd.asarray(x)).numpy(), pn(x))
    np.testing.assert_allclose(np.sort(p.roots.numpy()), np.sort(pn.roots))
    from_roots = kd.poly1d(np.array([1.0, -3.0]), r=True)
    np.testing.assert_allclose(from_roots.coeffs.numpy(), np.poly1d([1.0, -3.0], r=True).coeffs)
    assert p == kd.poly1d(np.array([0.0, 1.0, -3, 2])) and p != kd.poly1d(np.array([1.0, -3]))
    assert (p == 3) is False
    p[4] = 5
    pn[4] = 5
    assert str(p) == str(pn)
    p[1] = 7
    pn[1] = 7
    np.testing.assert_array_equal(p.coeffs.numpy(), pn.coeffs)
    assert str(kd.poly1d(np.array([1, 2]), variable="z")) == str(np.poly1d([1, 2], variable="z"))
    assert kd.poly1d(kd.poly1d(np.array([1.0, 2.0])), variable="t").variable == "t"


def test_poly1d_errors():
    with pytest.raises(ValueError, match="1d"):
        kd.poly1d(np.ones((2, 2)))
    with pytest.raises(ValueError, match="non-negative"):
        kd.poly1d(np.array([1.0, 2.0])) ** -1
    with pytest.raises(ValueError, match="negative powers"):
        kd.poly1d(np.array([1.0, 2.0]))[-1] = 3


def test_numpy_functions_dispatch_to_kdsl():
    c = np.array([1.0, -6.0, 11.0, -6.0])
    a = kd.asarray(c)
    for got, want in [(np.roots(a), np.roots(c)), (np.poly(a), np.poly(c)), (np.polydiv(a, a[:2])[0],
                                                                            np.polydiv(c, c[:2])[0])]:
        assert isinstance(got, kd.Array)
        np.testing.assert_allclose(np.sort(got.numpy()), np.sort(want), rtol=1e-10)


_POLY_INPUTS = [[1, 1, 1, 1], [3.0, -2.0, 0.5], [0, 0, 2, 1], [5], [1.5 + 1j, 2.0]]


def _same_poly(got, want):
    assert isinstance(got, kd.poly1d) and isinstance(want, np.poly1d)
    np.testing.assert_allclose(got.coeffs.numpy(), want.coeffs, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("c", _POLY_INPUTS)
@pytest.mark.parametrize("m", [1, 2, 4])
def test_polyder_polyint_of_poly1d_give_poly1d(c, m):
    """np.polyder(poly1d) is a poly1d (NumPy's docstring: p2 = np.polyder(p); p2(2.)), polyint likewise."""
    p, pn = kd.poly1d(np.asarray(c)), np.poly1d(c)
    _same_poly(kd.polyder(p, m), np.polyder(pn, m))
    _same_poly(kd.polyint(p, m), np.polyint(pn, m))
    _same_poly(kd.polyint(p, m, k=[6, 5, 3, 1][:m]), np.polyint(pn, m, k=[6, 5, 3, 1][:m]))
    assert complex(kd.polyder(p, m)(2.0)) == pytest.approx(complex(np.polyder(pn, m)(2.0)), rel=1e-5)
    assert isinstance(kd.polyder(kd.asarray(np.asarray(c)), m), kd.Array)  # arrays stay arrays


@pytest.mark.parametrize("fn", ["polyadd", "polysub", "polymul"])
@pytest.mark.parametrize("which", ["first", "second", "both", "neither"])
def test_poly_arithmetic_returns_poly1d_when_given_one(fn, which):
    a, b = [1.0, -3.0, 2.0], [2.0, 1.0]
    ka = kd.poly1d(a) if which in ("first", "both") else kd.asarray(a)
    kb = kd.poly1d(b) if which in ("second", "both") else kd.asarray(b)
    na = np.poly1d(a) if which in ("first", "both") else np.asarray(a)
    nb = np.poly1d(b) if which in ("second", "both") else np.asarray(b)
    got, want = getattr(kd, fn)(ka, kb), getattr(np, fn)(na, nb)
    if which == "neither":
        assert isinstance(got, kd.Array)
        np.testing.assert_allclose(got.numpy(), want)
    else:
        _same_poly(got, want)
    q, r = kd.polydiv(ka, kb)
    nq, nr = np.polydiv(na, nb)
    for g, w in ((q, nq), (r, nr)):
        if which == "neither":
            np.testing.assert_allclose(g.numpy(), w)
        else:
            _same_poly(g, w)


def test_ufunc_of_poly1d_works_on_its_coefficients():
    p = kd.poly1d([1, 2, 3])
    np.testing.assert_array_equal(kd.square(p).numpy(), np.square(np.poly1d([1, 2, 3])))
    np.testing.assert_array_equal(kd.asarray(p).numpy(), [1, 2, 3])
    assert kd.asarray(p) is p.coeffs  # no copy: the coefficients themselves


@pytest.mark.parametrize("zeros", [[np.nan, 1.0], [np.inf, 1.0], [-np.inf], [2.0, np.nan, -1.0]])
def test_poly_keeps_the_leading_one_for_nan_and_inf_roots(zeros):
    # each factor multiplied a padded 0 by the root: 0 * inf made the leading coefficient NaN (NumPy's is 1)
    z = np.array(zeros)
    np.testing.assert_array_equal(kd.poly(kd.asarray(z)).numpy(), np.poly(z))


WIDE_SCALES = [[1.0, 5.8976393e-02, 3.2250205e-07, -1.7999999e-19],  # a weak acid's charge balance
               [1.0, -1.0001, 1e-4, -1e-12], [1e-6, 1.0, 1e3], [1.0, 0.0, -1e-10], [2.0, 3e5, -4e-3, 1e-9, 5e-20]]


@pytest.mark.parametrize("p", WIDE_SCALES, ids=str)
@pytest.mark.parametrize("dtype", ["float32", "complex64"])
def test_roots_of_float32_far_apart_match_numpy_per_root(p, dtype):
    # NumPy computes float32 roots in double and rounds: each root, even one 1e-12 of the largest, to float32's eps
    host = np.asarray(p, dtype=dtype)
    got, want = kd.roots(kd.asarray(host)), np.roots(host)
    assert got.dtype.name == want.dtype.name
    got = _matched(got.numpy(), want)
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=0)
    assert np.array_equal(np.sign(got.real), np.sign(want.real))


def test_roots_of_a_list_of_python_floats_keeps_tiny_positive_root():
    # a port's np.roots([1.0, b, c, d]): kdsl's float32 list; the positive root is the [H+] the program selects
    coeffs = [1.0, 5.8976393e-02, 3.2250205e-07, -1.7999999e-19]
    r = kd.roots(coeffs)
    sel = r[kd.isreal(r) & (r.real > 0)]
    assert sel.shape == (1,)
    np.testing.assert_allclose(sel.numpy(), [5.5813589e-13], rtol=1e-6)


def test_roots_float64_unchanged_and_float32_view():
    big = np.array([0.0, 1.0, 0.0, -2.0, 0.0, 1e-9], np.float32)
    got = kd.roots(kd.asarray(big)[1::2])
    want = np.roots(big[1::2])
    np.testing.assert_allclose(_matched(got.numpy(), want), want, rtol=2e-6)
    f64 = np.array([1.0, -6.0, 11.0, -6.0])
    np.testing.assert_allclose(np.sort(kd.roots(kd.asarray(f64)).numpy()), [1.0, 2.0, 3.0], rtol=1e-12)
