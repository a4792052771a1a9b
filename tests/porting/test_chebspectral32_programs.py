"""Chebyshev spectral methods as numerical analysts prototype them with `np.polynomial`: a smooth function
interpolated at Chebyshev points with 60-100 terms (`Chebyshev.fit`, `chebinterpolate`), its derivatives and
antiderivative (`deriv`, `integ`, `chebder`, `chebint` with `lbnd` and `k`), Clenshaw-Curtis-like quadrature from
`chebint`, products of fitted series (`p * q`, `p ** 2`), the spectral differentiation matrix as `chebder` of the
identity along an axis, and a boundary-value problem solved with it by `np.linalg.solve` (tests/porting)."""

from harness import check


def interpolate_and_differentiate(np, n):
    C = np.polynomial.chebyshev
    x = np.cos(np.pi * (np.arange(400, dtype=np.float64) + 0.5) / 400)  # float64: kdsl's default is float32
    f = np.exp(np.sin(2 * x)) / (1 + x * x)
    p = np.polynomial.Chebyshev.fit(x, f, n)
    c = p.convert().coef
    d1, d2 = C.chebder(c), C.chebder(c, 2)
    tail = np.abs(c[-10:]).max()
    return {"c": c[:12], "tail_small": bool(tail < 1e-10), "d1": C.chebval(x[::40], d1), "d2": C.chebval(x[::40], d2),
            "deriv": p.deriv()(x[::40]), "n_coef": len(c), "max_d2": np.abs(d2).max()}


def antiderivatives(np, n):
    C = np.polynomial.chebyshev
    c = C.chebinterpolate(lambda t: np.cos(3 * t) * np.exp(t), n)
    F = C.chebint(c, lbnd=-1)
    G = C.chebint(c, m=2, k=[1.0, -0.5], lbnd=0.0, scl=0.5)
    x = np.linspace(-1, 1, 9, dtype=np.float64)
    total = C.chebval(1.0, F)
    back = C.chebder(F)[:len(c)]
    return {"F": C.chebval(x, F), "G": C.chebval(x, G), "total": total, "back": back, "c_len": len(c),
            "G_at_0": C.chebval(0.0, G)}


def clenshaw_curtis(np, n):
    C = np.polynomial.chebyshev
    nodes = np.cos(np.pi * np.arange(n + 1, dtype=np.float64) / n)
    results = []
    for f in (lambda t: np.exp(t), lambda t: 1 / (1 + 16 * t * t), lambda t: np.abs(t) ** 3):
        c = C.chebfit(nodes, f(nodes), n)
        F = C.chebint(c)
        results.append(C.chebval(1.0, F) - C.chebval(-1.0, F))
    weights = C.chebint(np.eye(n + 1, dtype=np.float64), axis=0)
    w = C.chebval(1.0, weights) - C.chebval(-1.0, weights)
    return {"integrals": np.array(results), "w": w, "w_sum": w.sum(), "exact_exp": np.e - 1 / np.e}


def series_products(np, n):
    C = np.polynomial.chebyshev
    x = np.linspace(-1, 1, 300, dtype=np.float64)
    p = np.polynomial.Chebyshev.fit(x, np.sin(4 * x), n)
    q = np.polynomial.Chebyshev.fit(x, np.cos(3 * x) + x, n)
    pq = p * q
    sq = p ** 2
    direct = C.chebmul(p.coef, q.coef)
    err = np.abs(pq(x) - p(x) * q(x)).max()
    return {"pq": pq.coef[:10], "sq": sq.coef[:10], "direct": direct[:10], "err_small": bool(err < 1e-9),
            "len": len(pq.coef), "identity": np.abs((sq - p * p).coef).max() < 1e-12, "pow3": C.chebpow(p.coef[:8], 3)}


def differentiation_matrix(np, n):
    C = np.polynomial.chebyshev
    D = C.chebder(np.eye(n + 1, dtype=np.float64), axis=0)
    x = np.cos(np.pi * np.arange(n + 1, dtype=np.float64) / n)
    V = C.chebvander(x, n)
    Dx = V[:, :n] @ D @ np.linalg.inv(V)
    f = np.sin(np.pi * x)
    err = np.abs(Dx @ f - np.pi * np.cos(np.pi * x)).max()
    return {"D": D[:6, :8], "D_nnz": int(np.count_nonzero(D)), "Dx_row": Dx[3, :6], "err_small": bool(err < 1e-8),
            "rowsum": np.abs(Dx.sum(axis=1)).max() < 1e-8}


def boundary_value(np, n):
    C = np.polynomial.chebyshev
    x = np.cos(np.pi * np.arange(n + 1, dtype=np.float64) / n)
    V = C.chebvander(x, n)
    D2 = C.chebder(np.eye(n + 1, dtype=np.float64), 2, axis=0)
    A = V[:, :n - 1] @ D2
    A[0], A[-1] = V[0], V[-1]
    rhs = np.exp(4 * x)
    rhs[0] = rhs[-1] = 0.0
    coef = np.linalg.solve(A, rhs)
    u = C.chebval(x, coef)
    four = np.float64(4)  # kd.sinh(4) of a Python number is float32 (kdsl's default float)
    exact = (np.exp(4 * x) - np.sinh(four) * x - np.cosh(four)) / 16
    return {"u": u[::4], "err_small": bool(np.abs(u - exact).max() < 1e-8),
            "coef_tail": bool(np.abs(coef[-5:]).max() < 1e-8), "mid": C.chebval(0.0, coef)}


def test_interpolate_and_differentiate():
    check(interpolate_and_differentiate, 60, rtol=1e-6, atol=1e-8)


def test_antiderivatives():
    check(antiderivatives, 80, rtol=1e-9, atol=1e-12)


def test_clenshaw_curtis():
    check(clenshaw_curtis, 64, rtol=1e-8, atol=1e-12)


def test_series_products():
    check(series_products, 40, rtol=1e-8, atol=1e-10)


def test_differentiation_matrix():
    check(differentiation_matrix, 24, rtol=1e-7, atol=1e-7)


def test_boundary_value():
    check(boundary_value, 40, rtol=1e-7, atol=1e-9)
