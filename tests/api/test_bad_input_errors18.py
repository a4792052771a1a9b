"""Bad input and small correctness gaps held to NumPy (errors18): ``setflags(align=)``, ``astype``'s keywords,
text operands of the logical ufuncs, ``kd.ma`` masks of another size, kdsl array parameters of ``kd.random``
distributions (checked as NumPy checks them), NaN in ``kd.linalg``'s Cholesky and LU, strings stored into arrays,
one-axis and split-count arguments (tests/api/bad_input_testing.py).
"""

import numpy as np
import pytest
from bad_input_testing import A, check_like_numpy

NAN = np.nan
M23 = np.arange(6).reshape(2, 3)


def _flags(m, **kw):
    a = m.arange(3.0)
    a.setflags(**kw)
    return [a.flags.writeable, a.flags.aligned, a.flags.behaved, a[1:].flags.aligned]


def _set_mask(m, data, value, hard=False, mask=False):
    a = m.ma.array(data, mask=mask, hard_mask=hard)
    a.mask = value
    return np.asarray(a.mask)


def _rng(m):
    return m.random.default_rng(0)


def _draw(m, method, *params, **kw):
    """A draw with kdsl (or NumPy) array parameters; its shape (the values differ between the generators)."""
    return getattr(_rng(m), method)(*(A(m, p) for p in params), **kw).shape


FLAGS = [
    ("setflags-align-false", lambda m, d: _flags(m, align=False), None),
    ("setflags-align-true", lambda m, d: _flags(m, align=True), None),
    ("setflags-all-three", lambda m, d: _flags(m, write=False, align=False, uic=False), None),
    ("setflags-uic-true", lambda m, d: _flags(m, uic=True), "WRITEBACKIFCOPY"),
    ("flags-aligned-key", lambda m, d: (lambda a: (a.flags.__setitem__("A", False), a.flags["ALIGNED"]))(
        m.arange(2.0))[1], None),
]

ASTYPE = [
    ("astype-subok", lambda m, d: A(m, [1, 2], d).astype(np.float32, subok=False).tolist(), None),
    ("astype-all-keywords", lambda m, d: A(m, [1, 2], d).astype(np.float32, order="C", casting="unsafe",
                                                                 subok=True, copy=True).tolist(), None),
    ("astype-positional", lambda m, d: A(m, [1, 2], d).astype(np.float32, "K", "unsafe", True, False).tolist(), None),
    ("astype-casting-safe", lambda m, d: A(m, [1.5], np.float32).astype(np.int32, casting="safe"), "safe"),
    ("astype-order-bad", lambda m, d: A(m, [1, 2], d).astype(np.float32, order="X"), "order"),
    ("astype-unknown-keyword", lambda m, d: A(m, [1, 2], d).astype(np.float32, foo=1), "foo"),
]

TEXT = [
    ("logical_and-str", lambda m, d: m.logical_and(A(m, [0, 1, 2], d), "a"), None),
    ("logical_or-empty-str", lambda m, d: m.logical_or(A(m, [0, 1, 2], d), ""), None),
    ("logical_xor-str-first", lambda m, d: m.logical_xor("a", A(m, [0, 1], d)), None),
    ("logical_and-list-of-str", lambda m, d: m.logical_and(A(m, [1, 1], d), ["a", ""]), None),
    ("logical_and-bytes", lambda m, d: m.logical_or(A(m, [0, 0], d), b"x"), None),
    ("logical_not-str", lambda m, d: m.logical_not("a"), None),
    ("add-str", lambda m, d: m.add(A(m, [0, 1], d), "a"), None),
    ("ma-logical_and-str", lambda m, d: m.logical_and(m.ma.array([1, 0, 2], mask=[0, 0, 1]), "a").filled(False),
     None),
    ("ma-logical_or-list-of-str", lambda m, d: m.ma.logical_or(m.ma.array([1, 0]), ["", "b"]).filled(False), None),
    ("maximum-str", lambda m, d: m.maximum(A(m, [0, 1], d), "a"), None),
    ("frexp-str-positional-out", lambda m, d: m.frexp(A(m, [3.0, 1.0], np.float32), "a"), "ArrayType|Array"),
    ("frexp-positional-out-written", lambda m, d: (lambda buf: (m.frexp(A(m, [3.0, 1.0], np.float32), buf), buf)[1])(
        m.zeros(2, dtype=np.float32)), None),
    ("divmod-positional-outs-None", lambda m, d: m.divmod(A(m, [3.0, 1.0], np.float32), 2, None, None), None),
]

MASKS = [
    ("mask-shorter", lambda m, d: _set_mask(m, [1.0, 2, 3], [True, False]), None),
    ("mask-longer", lambda m, d: _set_mask(m, [1.0, 2, 3], [True, False, True, True]), None),
    ("mask-2d-repeated", lambda m, d: _set_mask(m, [[1.0, 2, 3], [4, 5, 6]], [True, False]), None),
    ("mask-empty-keeps", lambda m, d: _set_mask(m, [1.0, 2, 3], [], mask=[0, 1, 0]), None),
    ("mask-hard-gains", lambda m, d: _set_mask(m, [1.0, 2, 3], [True, False, False], True, [0, 1, 0]), None),
    ("mask-hard-bad-shape", lambda m, d: _set_mask(m, [1.0, 2, 3], [True, False], True, [0, 1, 0]), "broadcast"),
    ("ma-array-mask-size", lambda m, d: m.ma.array([1.0, 2, 3], mask=[True, False]), "data size is 3"),
]

RANDOM = [
    ("normal-scale-array-negative", lambda m, d: _draw(m, "normal", [0.0, 1.0], [1.0, -2.0]), "scale < 0"),
    ("normal-arrays-broadcast", lambda m, d: _draw(m, "normal", [0.0, 1.0], [[1.0], [2.0]]), None),
    ("integers-arrays-low-ge-high", lambda m, d: _draw(m, "integers", [0, 10], [5, 10]), "low >= high"),
    ("integers-array-high-negative", lambda m, d: _draw(m, "integers", [5, -2]), "high <= 0"),
    ("integers-arrays-endpoint", lambda m, d: _draw(m, "integers", [0, 10], [5, 10], endpoint=True), None),
    ("binomial-p-above-1", lambda m, d: _draw(m, "binomial", [5, 10], [0.5, 1.2]), "p < 0, p > 1"),
    ("binomial-p-nan", lambda m, d: _draw(m, "binomial", [5], [NAN]), "p < 0, p > 1"),
    ("binomial-n-negative", lambda m, d: _draw(m, "binomial", [-5, 10], [0.5, 0.5]), "n < 0"),
    ("uniform-high-below-low", lambda m, d: _draw(m, "uniform", [0.0, 1.0], [1.0, 0.0]), "high - low"),
    ("poisson-lam-negative", lambda m, d: _draw(m, "poisson", [1.0, -1.0]), "lam < 0"),
    ("gamma-shape-negative", lambda m, d: _draw(m, "gamma", [1.0, -1.0]), "shape < 0"),
    ("beta-a-negative", lambda m, d: _draw(m, "beta", [1.0, -1.0], [1.0, 1.0]), "a <= 0"),
    ("geometric-p-zero", lambda m, d: _draw(m, "geometric", [0.5, 0.0]), "p <= 0"),
    ("triangular-left-above-mode", lambda m, d: _draw(m, "triangular", [0.0, 2.0], [1.0, 1.0], [3.0, 3.0]),
     "left > mode"),
    ("negative_binomial-p-above-1", lambda m, d: _draw(m, "negative_binomial", [5, 5], [0.5, 1.5]), "p <= 0"),
    ("zipf-a-below-1", lambda m, d: _draw(m, "zipf", [2.0, 0.5]), "a <= 1"),
    ("logseries-p-above-1", lambda m, d: _draw(m, "logseries", [0.5, 1.5]), "p < 0"),
    ("laplace-scale-negative", lambda m, d: _draw(m, "laplace", [0.0, 0.0], [1.0, -1.0]), "scale < 0"),
    ("wald-mean-negative", lambda m, d: _draw(m, "wald", [1.0, -1.0], [1.0, 1.0]), "mean <= 0"),
    ("legacy-normal-scale-array-negative", lambda m, d: m.random.normal(0.0, A(m, [1.0, -1.0])), "scale < 0"),
    ("normal-scale-None", lambda m, d: _rng(m).normal(0.0, None), "NoneType"),
    ("poisson-lam-None", lambda m, d: _rng(m).poisson(None), "NoneType"),
    ("uniform-low-None", lambda m, d: m.random.uniform(None, 1.0), "NoneType"),
]

CHOLESKY = [
    ("cholesky-nan-pivot", lambda m, d: m.linalg.cholesky(A(m, [[NAN, 0], [0, 1]], np.float32)), None),
    ("cholesky-nan-off-diagonal", lambda m, d: m.linalg.cholesky(A(m, [[4, NAN], [NAN, 1]], np.float32)), None),
    ("cholesky-nan-in-stack", lambda m, d: m.linalg.cholesky(A(m, [[[NAN, 0], [0, 1]], [[1, 0], [0, 1]]],
                                                               np.float32)), None),
    ("cholesky-negative-before-nan", lambda m, d: m.linalg.cholesky(A(m, [[-1, NAN], [NAN, 1]], np.float32)),
     "positive definite"),
]


LU = [
    ("det-nan", lambda m, d: m.linalg.det(A(m, [[NAN, 0], [0, 1]], np.float32)), None),
    ("inv-nan-first", lambda m, d: m.linalg.inv(A(m, [[NAN, 0], [0, 1]], np.float32))[0], None),
    ("inv-nan-below-zero", lambda m, d: m.linalg.inv(A(m, [[0, 1], [NAN, 1]], np.float32)), "Singular"),
    ("solve-nan", lambda m, d: np.isnan(np.asarray(m.linalg.solve(A(m, [[1, 0], [0, NAN]], np.float32),
                                                                  A(m, [1, 1], np.float32)))).all(), None),
    ("slogdet-nan", lambda m, d: list(m.linalg.slogdet(A(m, [[NAN, 0], [0, 1]], np.float32))), None),
    ("slogdet-singular-odd-swaps", lambda m, d: [str(np.asarray(r)) for r in
                                                 m.linalg.slogdet(A(m, [[1, 2], [2, 4]], np.float32))], None),
    ("slogdet-singular-beside-nan", lambda m, d: list(m.linalg.slogdet(A(m, [[0, NAN], [0, 1]], np.float32))), None),
]


def _stored(m, d, value, fill=False):
    a = m.zeros(2, dtype=d)
    if fill:
        a.fill(value)
    else:
        a[0] = value
    return a


STORES = [
    ("setitem-numeric-str", lambda m, d: _stored(m, d, "5"), None),
    ("setitem-padded-str", lambda m, d: _stored(m, d, " 7 "), None),
    ("setitem-bytes", lambda m, d: _stored(m, d, b"5"), None),
    ("setitem-word-str", lambda m, d: _stored(m, d, "a"), "a"),
    ("setitem-float-str-into-int", lambda m, d: _stored(m, np.int32, "1e3"), "1e3"),
    ("setitem-str-out-of-range", lambda m, d: _stored(m, np.uint8, "300"), "300"),
    ("setitem-str-into-bool", lambda m, d: _stored(m, np.bool_, ""), None),
    ("fill-numeric-str", lambda m, d: _stored(m, d, "1e3", fill=True), None),
]

AXES = [
    ("argmax-axis-tuple", lambda m, d: m.argmax(A(m, [[1, 2], [3, 0]], d), axis=(0, 0)), "integer"),
    ("argmin-axis-1-tuple", lambda m, d: A(m, [[1, 2], [3, 0]], d).argmin(axis=(0,)), "integer"),
    ("argmax-axis-float", lambda m, d: m.argmax(A(m, [[1, 2], [3, 0]], d), axis=1.0), "integer"),
    ("split-float-count", lambda m, d: [p.tolist() for p in m.split(m.arange(4), 2.0)], None),
    ("split-float-count-truncated", lambda m, d: [p.tolist() for p in m.split(m.arange(5), 2.5)], None),
    ("split-float-count-unequal", lambda m, d: m.split(m.arange(5), 1.5), "equal division"),
    ("split-float-zero", lambda m, d: m.split(m.arange(5), 0.0), None),
    ("array_split-float-count", lambda m, d: [p.tolist() for p in m.array_split(m.arange(5), 3.7)], None),
    ("array_split-None", lambda m, d: m.array_split(m.arange(5), None), "NoneType"),
    ("roll-float-axis", lambda m, d: m.roll(A(m, M23, d), 1, axis=1.0), "axis"),
    ("roll-str-axis", lambda m, d: m.roll(A(m, M23, d), 1, axis="1"), "axis"),
    ("roll-float-in-axes", lambda m, d: m.roll(A(m, M23, d), 1, axis=(0, 1.0)), "axis|integer"),
    ("roll-axes-int-tuple", lambda m, d: m.roll(A(m, M23, d), (1, 2), axis=(0, 1)), None),
    ("triu-str-offset", lambda m, d: m.triu(A(m, np.ones((2, 2)), d), k="1"), "str"),
    ("tril-float-offset", lambda m, d: m.tril(A(m, np.ones((2, 2)), d), k=np.float32(1)), None),
    ("polypow-float-power", lambda m, d: m.polynomial.polynomial.polypow([1.0, 2.0], 2.0), None),
    ("chebpow-fraction-power", lambda m, d: m.polynomial.chebyshev.chebpow([1.0, 2.0], 1.5), "non-negative integer"),
    ("polypow-str-power", lambda m, d: m.polynomial.polynomial.polypow([1.0, 2.0], "2"), "non-negative integer"),
]


@pytest.mark.parametrize(("call", "words"), [pytest.param(c, w, id=i) for i, c, w in
                                             FLAGS + ASTYPE + TEXT + MASKS + RANDOM + CHOLESKY + LU + STORES + AXES])
def test_bad_input_like_numpy(call, words):
    check_like_numpy(call, words, np.int32)
