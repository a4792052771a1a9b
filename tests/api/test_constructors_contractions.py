"""identity/logspace/geomspace/diag/diagonal/trace/tril/triu and tensordot/vecdot/inner/kron/cov/corrcoef
against NumPy (empty, size-1 and strided inputs)."""

import numpy as np
import pytest
from api_testing import numpy_kdsl_allclose, sample

import kdsl as kd


def _view(xp, shape, dtype="float32", seed=0):
    """A non-contiguous (every other column) array of ``shape``."""
    return xp.asarray(np.repeat(sample(shape, dtype, seed=seed), 2, axis=-1))[..., ::2]


@numpy_kdsl_allclose()
@pytest.mark.parametrize("fn,args", [("logspace", (0, 3, 4)), ("logspace", (-1, 1, 5, False, 2.0)),
                                     ("geomspace", (1, 1000, 4)), ("geomspace", (-8, -1, 4)),
                                     ("logspace", (0, 1, 0))])
def test_log_ranges(xp, fn, args):
    return getattr(xp, fn)(*args, dtype=xp.float32), getattr(xp, fn)(*args, dtype=xp.float64)


@pytest.mark.parametrize("case", ["log10_bounds", "geom_bounds", "base", "rows", "axis", "negative"])
def test_log_ranges_of_kdsl_endpoints(case):
    """np.logspace(np.log10(x.min()), np.log10(x.max()), n) of kdsl 0-d results (RecursionError: NumPy's
    logspace dispatched back to kdsl's); float64 endpoints keep float64, as NumPy's."""
    def run(xp):
        x = xp.asarray(np.array([0.5, 20.0, 3.0]))
        return {"log10_bounds": lambda: xp.logspace(xp.log10(x.min()), xp.log10(x.max()), 5),
                "geom_bounds": lambda: xp.geomspace(x.min(), x.max(), 4, endpoint=False),
                "base": lambda: xp.logspace(0, 2, 3, base=x.max()),
                "rows": lambda: xp.geomspace(x[:2], 100, 3),
                "axis": lambda: xp.logspace(x[:2], 2, 3, axis=1),
                "negative": lambda: xp.geomspace(-x.max(), -x.min(), 3)}[case]()

    got, want = run(kd), run(np)
    assert got.dtype == kd.float64
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)


def test_log_ranges_default_float32_and_identity():
    assert kd.logspace(0, 1, 3).dtype is kd.float32 and kd.geomspace(1, 2, 3).dtype is kd.float32
    assert np.array_equal(kd.identity(3, dtype=kd.int8).numpy(), np.identity(3, dtype=np.int8))


@numpy_kdsl_allclose()
@pytest.mark.parametrize("offset", [-3, -1, 0, 2, 9])
@pytest.mark.parametrize("shape,axes", [((3, 4), (0, 1)), ((2, 3, 4), (1, 2)), ((2, 3, 4), (2, 0)),
                                        ((0, 3), (0, 1)), ((1, 1), (0, 1))])
def test_diagonal_and_trace(xp, offset, shape, axes):
    a = _view(xp, shape, "int16")
    return xp.diagonal(a, offset, *axes), xp.trace(a, offset, *axes)


def test_diagonal_is_a_view_of_a_view():
    a = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    x = kd.asarray(a)[:, ::-1, 1:].T
    assert np.array_equal(kd.diagonal(x, 1, 0, 2).numpy(), np.diagonal(a[:, ::-1, 1:].T, 1, 0, 2))
    with pytest.raises(ValueError):
        kd.diagonal(kd.ones(3))
    with pytest.raises(ValueError):
        kd.diagonal(kd.ones((2, 2)), 0, 1, 1)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("k", [-2, 0, 1, 5])
@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 3), (0, 2), (1, 1), (4,), (0,)])  # 1-d: NumPy's (n, n) of rows
@pytest.mark.parametrize("dtype", ["float32", "bool", "uint8"])
def test_tril_triu(xp, k, shape, dtype):
    a = _view(xp, shape, dtype)
    return xp.tril(a, k), xp.triu(a, k=k)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("k", [-2, 0, 1])
def test_diag(xp, k):
    v = _view(xp, (4,), "float32")
    return xp.diag(v, k), xp.diag(xp.diag(v, k), k), xp.diag(_view(xp, (3, 5), "int32"), k), \
        xp.diag(xp.asarray(np.zeros(0, np.float32)), k)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("axes,shape_b", [(0, (2,)), (1, (4, 2)), (2, (3, 4, 5)), (([0, 2], [1, 0]), (4, 2, 3)),
                                          (([1], [2]), (2, 1, 3)), (3, (2, 3, 4))])
def test_tensordot(xp, axes, shape_b):
    a, b = _view(xp, (2, 3, 4), seed=1), xp.asarray(sample(shape_b, "float32", seed=2))
    return xp.tensordot(a, b, axes=axes)


def test_tensordot_errors():
    with pytest.raises(ValueError, match="mismatch"):
        kd.tensordot(kd.ones((2, 3)), kd.ones((2, 3)), axes=1)
    with pytest.raises(ValueError):
        kd.tensordot(kd.ones((2, 3)), kd.ones((3, 2)), axes=([0, 1], [1]))


@numpy_kdsl_allclose()
@pytest.mark.parametrize("dtype", ["float32", "int8", "bool"])
@pytest.mark.parametrize("axis", [-1, -2, 1])
def test_vecdot(xp, dtype, axis):
    a, b = _view(xp, (3, 3), dtype), xp.asarray(sample((2, 3, 3), dtype, seed=3))
    return xp.vecdot(a, b, axis=axis), xp.vecdot(xp.asarray(sample((0, 3), dtype)), a[0])


@numpy_kdsl_allclose()
@pytest.mark.parametrize("shapes", [((3,), (3,)), ((2, 3), (4, 3)), ((), (2, 2)), ((2, 1, 3), (3,))])
def test_inner(xp, shapes):
    return xp.inner(xp.asarray(sample(shapes[0], "float32")), xp.asarray(sample(shapes[1], "float32", seed=1)))


@numpy_kdsl_allclose()
@pytest.mark.parametrize("shapes", [((2,), (3,)), ((2, 2), (3, 1)), ((2, 1, 2), (3,)), ((0, 2), (2, 2))])
def test_kron(xp, shapes):
    return xp.kron(xp.asarray(sample(shapes[0], "int32")), xp.asarray(sample(shapes[1], "int32", seed=1)))


def _ref(fn, *args, **kwargs):
    return getattr(np, fn)(*args, **kwargs).astype(np.float32)  # kdsl keeps float32 (NumPy: float64)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy warns on ddof >= n (kdsl gives the same inf/NaN)
@pytest.mark.parametrize("kwargs", [{}, {"rowvar": False}, {"bias": True}, {"ddof": 0}, {"ddof": 3}])
@pytest.mark.parametrize("shape", [(3, 5), (1, 4), (5,)])
def test_cov(kwargs, shape):
    a = sample(shape, "float32", special=False)
    got = kd.cov(kd.asarray(np.repeat(a, 2, axis=-1))[..., ::2], **kwargs)
    assert got.dtype is kd.float32
    np.testing.assert_allclose(got.numpy(), _ref("cov", a, **kwargs), rtol=1e-5, atol=1e-6)


def test_cov_with_y_and_float64_and_errors():
    a, b = sample((2, 6), "float64", special=False), sample((6,), "float64", special=False, seed=1)
    got = kd.cov(kd.asarray(a), kd.asarray(b))
    assert got.dtype is kd.float64
    np.testing.assert_allclose(got.numpy(), np.cov(a, b), rtol=1e-12)
    with pytest.raises(ValueError, match="dimensions"):
        kd.cov(kd.ones((2, 2, 2)))


F_W, A_W = [1, 2, 0, 3, 1], [0.5, 1.0, 2.0, 0.25, 1.5]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy warns when the weights leave no degrees of freedom
@pytest.mark.parametrize("weights", [{"fweights": F_W}, {"aweights": A_W}, {"fweights": F_W, "aweights": A_W},
                                     {"fweights": [0, 0, 1, 0, 0]}, {"aweights": [0.0, 0, 0, 0, 2.0]}])
@pytest.mark.parametrize("kwargs", [{}, {"bias": True}, {"ddof": 0}, {"ddof": 2}, {"rowvar": False}])
@pytest.mark.parametrize("shape,dtype", [((3, 5), "float32"), ((5,), "float32"), ((2, 5), "int16"),
                                         ((3, 5), "float64")])
@pytest.mark.parametrize("device_weights", [False, True])
def test_cov_weights(weights, kwargs, shape, dtype, device_weights):
    a = sample(shape, dtype, special=False)
    if kwargs.get("rowvar") is False:
        a = a.T
    got = kd.cov(kd.asarray(np.repeat(a, 2, axis=-1))[..., ::2], **kwargs,
                 **{k: kd.asarray(v) if device_weights else v for k, v in weights.items()})
    ref = np.cov(a, **kwargs, **weights)
    assert got.dtype is (kd.float32 if dtype in ("float32", "float16") else kd.float64)  # integers: as kd.mean
    np.testing.assert_allclose(got.numpy(), ref, rtol=1e-5 if dtype != "float64" else 1e-12, atol=1e-6)


def test_cov_weights_errors():
    a = kd.ones((2, 5))
    with pytest.raises(TypeError, match="fweights must be integer"):
        kd.cov(a, fweights=[1, 1.5, 1, 1, 1])
    with pytest.raises(ValueError, match="aweights cannot be negative"):
        kd.cov(a, aweights=[1, -1, 1, 1, 1])
    with pytest.raises(RuntimeError, match="incompatible numbers of samples and fweights"):
        kd.cov(a, fweights=[1, 1])
    with pytest.raises(RuntimeError, match="multidimensional aweights"):
        kd.cov(a, aweights=np.ones((5, 1)))


@pytest.mark.parametrize("rowvar", [True, False])
@pytest.mark.parametrize("shape", [(3, 5), (5,), (2, 2)])
def test_corrcoef(rowvar, shape):
    a = sample(shape, "float32", special=False)
    got = kd.corrcoef(kd.asarray(a), rowvar=rowvar)
    np.testing.assert_allclose(got.numpy(), _ref("corrcoef", a, rowvar=rowvar), rtol=1e-5, atol=1e-6)
    y = sample(shape, "float32", special=False, seed=2)
    np.testing.assert_allclose(kd.corrcoef(kd.asarray(a), kd.asarray(y), rowvar=rowvar).numpy(),
                               _ref("corrcoef", a, y, rowvar=rowvar), rtol=1e-5, atol=1e-6)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy warns on ddof >= n (kdsl gives the same inf/NaN)
@pytest.mark.parametrize("kwargs", [{}, {"rowvar": False}, {"bias": True}, {"ddof": 4}])
@pytest.mark.parametrize("shape", [(3, 5), (1, 4), (5,)])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("fn", ["cov", "corrcoef"])
def test_cov_corrcoef_complex(fn, dtype, shape, kwargs):
    """X @ X^H with the input's complex dtype (NumPy: complex128 always); corrcoef clips each part."""
    if fn == "corrcoef":
        kwargs = {k: v for k, v in kwargs.items() if k == "rowvar"}
    a = sample(shape, dtype, special=False)
    got = getattr(kd, fn)(kd.asarray(np.repeat(a, 2, axis=-1))[..., ::2], **kwargs)  # a strided view
    want = getattr(np, fn)(a, **kwargs)
    assert got.dtype.name == dtype and got.shape == want.shape
    tol = {"rtol": 1e-5, "atol": 1e-5} if dtype == "complex64" else {"rtol": 1e-12, "atol": 1e-12}
    np.testing.assert_allclose(got.numpy(), want.astype(dtype), **tol)  # complex: the modulus of the error


@pytest.mark.parametrize("other", ["float32", "float64", "complex64"])
def test_cov_mixed_real_and_complex(other):
    a, b = sample((2, 6), "complex64", special=False), sample((6,), other, special=False, seed=1)
    got = kd.cov(kd.asarray(a), kd.asarray(b))
    assert got.dtype is (kd.complex128 if other == "float64" else kd.complex64)
    np.testing.assert_allclose(got.numpy(), np.cov(a, b), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(kd.corrcoef(kd.asarray(b), kd.asarray(a)).numpy(), np.corrcoef(b, a),
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("fn,args", [
    ("geomspace", (1j, 1000j, 4)), ("geomspace", (-1 + 0j, 1 + 0j, 5)), ("geomspace", (1 + 1j, 8 + 8j, 4)),
    ("geomspace", (2j, 2j, 1)), ("geomspace", (1j, 10j, 0)), ("logspace", (0, 1j, 3)), ("logspace", (0j, 2, 3)),
])
def test_complex_ranges_stay_complex(fn, args):
    """np.geomspace(1j, 1000j, num=4) is complex (NumPy's docstring example); kdsl's default complex64."""
    want = getattr(np, fn)(*args)
    got = getattr(kd, fn)(*args)
    assert got.dtype == kd.complex64 and got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6)
    explicit = getattr(kd, fn)(*args, dtype=kd.complex128)
    assert explicit.dtype == kd.complex128
    np.testing.assert_allclose(explicit.numpy(), want, rtol=1e-12, atol=1e-12)


def test_real_ranges_stay_float32():
    assert kd.geomspace(1, 1000, 4).dtype == kd.float32 and kd.logspace(0, 3, 4).dtype == kd.float32
