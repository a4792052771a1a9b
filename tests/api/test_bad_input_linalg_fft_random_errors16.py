"""kd.linalg, kd.fft and kd.random.default_rng() given bad input as users give it: kdsl raises NumPy's
exception (class or subclass, a message naming the problem), never an internal error
(tests/api/bad_input_testing.py)."""

import numpy as np
import pytest
from bad_input_testing import A, check_like_numpy

M23 = np.arange(6.0).reshape(2, 3)
SINGULAR = np.ones((2, 2))
SPD = np.array([[2.0, 1.0], [1.0, 3.0]])
V5 = np.array([3.0, 1.0, 4.0, 1.0, 5.0])
E = np.zeros(0)


def _matrix_cases():
    cases = []
    for fn in ["inv", "cholesky", "det", "slogdet", "eigvals", "eig", "eigh", "eigvalsh", "pinv", "matrix_rank",
               "svd", "qr", "matrix_power"]:
        args = (2,) if fn == "matrix_power" else ()
        f = lambda m, x, fn=fn, args=args: getattr(m.linalg, fn)(x, *args)  # noqa: E731
        cases += [(f"{fn}-not-square", lambda m, d, f=f: f(m, A(m, M23, d)), "square"),
                  (f"{fn}-1d", lambda m, d, f=f: f(m, A(m, V5, d)), "dimension"),
                  (f"{fn}-0d", lambda m, d, f=f: f(m, A(m, 1.0, d)), "dimension")]
    return [c for c in cases if not c[0].startswith(("pinv-not", "matrix_rank-not", "svd-not", "qr-not"))]


LINALG = [
    ("inv-singular", lambda m, d: m.linalg.inv(A(m, SINGULAR, d)), "singular"),
    ("solve-singular", lambda m, d: m.linalg.solve(A(m, SINGULAR, d), A(m, [1, 2], d)), "singular"),
    ("solve-not-square", lambda m, d: m.linalg.solve(A(m, M23, d), A(m, [1, 2], d)), "square"),
    ("solve-b-length", lambda m, d: m.linalg.solve(A(m, SPD, d), A(m, [1, 2, 3], d)), "mismatch|shape"),
    ("solve-1d", lambda m, d: m.linalg.solve(A(m, V5, d), A(m, V5, d)), "dimension"),
    ("cholesky-not-positive-definite", lambda m, d: m.linalg.cholesky(A(m, [[1, 2], [2, 1]], d)), "positive"),
    ("matrix_power-float", lambda m, d: m.linalg.matrix_power(A(m, SPD, d), 1.5), "integer"),
    ("matrix_power-singular-inverse", lambda m, d: m.linalg.matrix_power(A(m, SINGULAR, d), -1), "singular"),
    ("norm-unknown-ord", lambda m, d: m.linalg.norm(A(m, M23, d), ord="bad"), "order|ord"),
    ("norm-fro-of-vector", lambda m, d: m.linalg.norm(A(m, V5, d), ord="fro"), "order|ord"),
    ("norm-ord-3-of-matrix", lambda m, d: m.linalg.norm(A(m, M23, d), ord=3), "order|ord"),
    ("norm-axis-1-of-vector", lambda m, d: m.linalg.norm(A(m, V5, d), axis=1), "axis 1"),
    ("norm-three-axes", lambda m, d: m.linalg.norm(A(m, M23, d), axis=(0, 1, 0)), "axis|axes"),
    ("norm-same-axes", lambda m, d: m.linalg.norm(A(m, M23, d), axis=(0, 0)), "duplicate|repeated"),
    ("norm-ord-of-3d", lambda m, d: m.linalg.norm(A(m, np.ones((2, 2, 2)), d), ord=2), "dimension|2-d"),
    ("matrix_norm-1d", lambda m, d: m.linalg.matrix_norm(A(m, V5, d)), "axis -2"),
    ("vector_norm-fro", lambda m, d: m.linalg.vector_norm(A(m, V5, d), ord="fro"), "order|ord"),
    ("lstsq-mismatch", lambda m, d: m.linalg.lstsq(A(m, M23, d), A(m, [1, 2, 3], d)), "incompatible|shape"),
    ("lstsq-1d", lambda m, d: m.linalg.lstsq(A(m, V5, d), A(m, V5, d)), "dimension"),
    ("multi_dot-one-array", lambda m, d: m.linalg.multi_dot([A(m, M23, d)]), "at least two"),
    ("multi_dot-mismatch", lambda m, d: m.linalg.multi_dot([A(m, M23, d)] * 3), "align|shape|mismatch"),
    ("cond-unknown-p", lambda m, d: m.linalg.cond(A(m, SPD, d), p="bad"), "order|ord"),
    ("cond-not-square", lambda m, d: m.linalg.cond(A(m, M23, d), p=1), "square"),
    ("eigh-bad-UPLO", lambda m, d: m.linalg.eigh(A(m, SPD, d), UPLO="X"), "UPLO"),
    ("cross-length-2", lambda m, d: m.linalg.cross(A(m, [1, 2], d), A(m, [1, 2], d)), "3"),
    ("vecdot-mismatch", lambda m, d: m.linalg.vecdot(A(m, V5, d), A(m, [1, 2], d)), "mismatch|broadcast"),
    ("pinv-rcond-outgrows", lambda m, d: m.linalg.pinv(A(m, np.eye(2), d), rcond=A(m, [1, 2, 3], d)), "broadcast"),
    ("pinv-rcond-per-matrix",
     lambda m, d: m.linalg.pinv(A(m, np.ones((4, 2, 2)), d), rcond=A(m, [[1], [2], [3], [1]], d)), None),
]

FFT = [
    ("fft-n-0", lambda m, d: m.fft.fft(A(m, V5, d), n=0), "Invalid number|n"),
    ("fft-n-negative", lambda m, d: m.fft.fft(A(m, V5, d), n=-1), "Invalid number|n"),
    ("fft-n-float", lambda m, d: m.fft.fft(A(m, V5, d), n=2.5), "integer|float"),
    ("fft-axis-1", lambda m, d: m.fft.fft(A(m, V5, d), axis=1), "axis 1"),
    ("fft-bad-norm", lambda m, d: m.fft.fft(A(m, V5, d), norm="bad"), "norm"),
    ("fft-empty", lambda m, d: m.fft.fft(A(m, E, d)), "Invalid number|n"),
    ("fft-0d", lambda m, d: m.fft.fft(A(m, 1.0, d)), "axis|dimension"),
    ("rfft-complex", lambda m, d: m.fft.rfft(A(m, V5 + 1j)), "complex"),
    ("irfft-n-0", lambda m, d: m.fft.irfft(A(m, V5, d), n=0), "Invalid number|n"),
    ("irfft-one-element", lambda m, d: m.fft.irfft(A(m, [1.0], d)), "Invalid number|n"),
    ("fft2-1d", lambda m, d: m.fft.fft2(A(m, V5, d)), "axis|axes"),
    ("fftn-axes-repeated", lambda m, d: m.fft.fftn(A(m, M23, d), axes=(0, 0)), None),
    ("fftn-s-axes-lengths", lambda m, d: m.fft.fftn(A(m, M23, d), s=(2,), axes=(0, 1)), "different lengths"),
    ("fftn-axis-2", lambda m, d: m.fft.fftn(A(m, M23, d), axes=(0, 2)), "axis 2"),
    ("fftfreq-0", lambda m, d: m.fft.fftfreq(0), "n|division"),
    ("fftfreq-float", lambda m, d: m.fft.fftfreq(2.5), "integer|int"),
    ("fftfreq-d-0", lambda m, d: m.fft.fftfreq(4, d=0), "division"),
    ("fftshift-axis-1", lambda m, d: m.fft.fftshift(A(m, V5, d), axes=1), "axis 1"),
    ("fft-out-shape", lambda m, d: m.fft.fft(A(m, V5, d), out=m.zeros(3, np.complex64)), "shape"),
    ("fft-out-float", lambda m, d: m.fft.fft(A(m, V5, d), out=m.zeros(5, np.float32)), "cast"),
]


def _rng(m):
    return m.random.default_rng(0)


RANDOM = [
    ("default_rng-negative-seed", lambda m, d: m.random.default_rng(-1), "negative"),
    ("default_rng-float-seed", lambda m, d: m.random.default_rng(1.5), "int"),
    ("random-negative-size", lambda m, d: _rng(m).random(-1), "negative"),
    ("random-int-dtype", lambda m, d: _rng(m).random(2, dtype=np.int32), "dtype|float"),
    ("normal-negative-scale", lambda m, d: _rng(m).normal(scale=-1), "scale"),
    ("normal-negative-size", lambda m, d: _rng(m).normal(size=(-1,)), "negative"),
    ("normal-unbroadcastable", lambda m, d: _rng(m).normal(A(m, [1, 2], d), A(m, [1, 2, 3], d)), "broadcast"),
    ("normal-size-mismatch", lambda m, d: _rng(m).normal(A(m, [1, 2], d), size=3), "shape|broadcast"),
    ("uniform-nan", lambda m, d: _rng(m).uniform(0, np.nan), "range|nan|finite"),
    ("uniform-inf", lambda m, d: _rng(m).uniform(0, np.inf), "range|finite"),
    ("integers-low-above-high", lambda m, d: _rng(m).integers(5, 1), "low >= high"),
    ("integers-empty-range", lambda m, d: _rng(m).integers(5, 5), "low >= high"),
    ("integers-float-dtype", lambda m, d: _rng(m).integers(5, dtype=np.float32), "dtype"),
    ("integers-beyond-dtype", lambda m, d: _rng(m).integers(0, 300, dtype=np.uint8), "high"),
    ("integers-negative-unsigned", lambda m, d: _rng(m).integers(-1, 3, dtype=np.uint8), "low"),
    ("integers-negative-size", lambda m, d: _rng(m).integers(0, 3, size=-1), "negative"),
    ("choice-empty-array", lambda m, d: _rng(m).choice(A(m, E, d)), "empty"),
    ("choice-zero", lambda m, d: _rng(m).choice(0), "empty|positive"),
    ("choice-negative", lambda m, d: _rng(m).choice(-1), "negative|positive"),
    ("choice-p-length", lambda m, d: _rng(m).choice(3, p=[0.5, 0.5]), "same size|length"),
    ("choice-p-sum", lambda m, d: _rng(m).choice(3, p=[0.5, 0.5, 0.5]), "sum to 1"),
    ("choice-p-negative", lambda m, d: _rng(m).choice(3, p=[1.5, -0.5, 0.0]), "non-negative"),
    ("choice-too-many-without-replace", lambda m, d: _rng(m).choice(3, 5, replace=False), "larger sample"),
    ("choice-2d-p", lambda m, d: _rng(m).choice(3, p=[[1.0, 0.0, 0.0]]), "1-dimensional|1-d"),
    ("choice-axis-1", lambda m, d: _rng(m).choice(A(m, V5, d), axis=1), "axis 1"),
    ("exponential-negative", lambda m, d: _rng(m).exponential(-1.0), "scale"),
    ("poisson-negative", lambda m, d: _rng(m).poisson(-1.0), "lam"),
    ("poisson-huge", lambda m, d: _rng(m).poisson(1e20), "lam"),
    ("binomial-p-above-1", lambda m, d: _rng(m).binomial(10, 1.5), "p"),
    ("binomial-negative-n", lambda m, d: _rng(m).binomial(-1, 0.5), "n"),
    ("binomial-p-nan", lambda m, d: _rng(m).binomial(10, np.nan), "p"),
    ("gamma-negative", lambda m, d: _rng(m).gamma(-1.0), "shape"),
    ("beta-zero", lambda m, d: _rng(m).beta(0.0, 1.0), "a"),
    ("geometric-zero", lambda m, d: _rng(m).geometric(0.0), "p"),
    ("dirichlet-negative", lambda m, d: _rng(m).dirichlet([1.0, -1.0]), "alpha"),
    ("multinomial-p-sum", lambda m, d: _rng(m).multinomial(10, [0.7, 0.5, 0.0]), "pvals"),
    ("multivariate_normal-mismatch", lambda m, d: _rng(m).multivariate_normal([0.0, 0.0], np.eye(3)), "mean|cov"),
    ("hypergeometric-too-many", lambda m, d: _rng(m).hypergeometric(5, 5, 20), "nsample"),
    ("zipf-below-1", lambda m, d: _rng(m).zipf(0.5), "a"),
    ("triangular-left-above-mode", lambda m, d: _rng(m).triangular(2.0, 1.0, 3.0), "left"),
    ("shuffle-0d", lambda m, d: _rng(m).shuffle(A(m, 3.0, d)), "dimension"),
    ("permuted-axis-1", lambda m, d: _rng(m).permuted(A(m, V5, d), axis=1), "axis 1"),
    ("logseries-p-1", lambda m, d: _rng(m).logseries(1.0), "p"),
    ("legacy-randint-low-above-high", lambda m, d: m.random.randint(5, 1), "low >= high"),
    ("legacy-normal-negative-scale", lambda m, d: m.random.normal(0, -1), "scale"),
    ("legacy-choice-empty", lambda m, d: m.random.choice([]), "empty"),
]


@pytest.mark.parametrize("d", [np.float32, np.float64])
@pytest.mark.parametrize(("call", "words"), [pytest.param(c, w, id=i) for i, c, w in _matrix_cases() + LINALG])
def test_linalg_bad_input_raises_numpys_error(call, words, d):
    check_like_numpy(call, words, d)


@pytest.mark.parametrize("d", [np.float32, np.float64])
@pytest.mark.parametrize(("call", "words"), [pytest.param(c, w, id=i) for i, c, w in FFT])
def test_fft_bad_input_raises_numpys_error(call, words, d):
    check_like_numpy(call, words, d)


@pytest.mark.parametrize(("call", "words"), [pytest.param(c, w, id=i) for i, c, w in RANDOM])
def test_random_bad_input_raises_numpys_error(call, words):
    check_like_numpy(call, words, np.float32)
