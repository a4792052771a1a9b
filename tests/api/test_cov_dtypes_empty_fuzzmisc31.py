"""``kd.cov``/``kd.corrcoef`` where NumPy's result dtype is not the data's (found by differential fuzzing): with no
variables (``m`` of shape (0, n), or (n, 0) with ``rowvar=False``) NumPy returns an empty float64 (0, 0) array
before it looks at ``y``, ``dtype`` or the weights; kdsl gave the data's or ``dtype``'s dtype and raised for empty
weights. With weights and an explicit ``dtype=float16/float32/complex64``, NumPy's float64 weights make the
result float64 (complex128), the centred data rounded to ``dtype`` first; **kdsl kept ``dtype``** (float16
covariances where NumPy's are float64)."""

import warnings

import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(31)
M = RNG.standard_normal((3, 6)).round(2)
FW, AW = np.array([1, 0, 3, 2, 1, 2]), RNG.random(6).round(3)


def _kd(v):
    return kd.asarray(v) if isinstance(v, np.ndarray) else v


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("weights", [{"fweights": FW}, {"aweights": AW}, {"fweights": FW, "aweights": AW}, {}])
def test_weighted_cov_with_an_explicit_dtype(dtype, weights):
    kw = {"dtype": dtype, **weights}
    want = np.cov(M[:, ::-1], **kw)
    got = kd.cov(kd.asarray(M)[:, ::-1], **{k: _kd(v) for k, v in kw.items()}).numpy()
    assert (got.shape, got.dtype) == (want.shape, want.dtype)
    rtol = {2: 2e-3, 4: 1e-6, 8: 1e-12}[np.finfo(want.dtype).bits // 8]
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)


def test_weighted_float16_dtype_rounds_the_centred_data_first():
    m = np.array([[0.1, 0.7, 1.3, 2.9]])
    want = np.cov(m, aweights=[1.0, 2.0, 1.0, 0.5], dtype=np.float16)
    got = kd.cov(kd.asarray(m), aweights=[1.0, 2.0, 1.0, 0.5], dtype=kd.float16).numpy()
    assert got.dtype == want.dtype == np.float64
    np.testing.assert_allclose(got, want, rtol=1e-12)
    exact = np.cov(m, aweights=[1.0, 2.0, 1.0, 0.5])
    assert want != exact  # the float16 rounding of the centred data shows


@pytest.mark.parametrize("func", ["cov", "corrcoef"])
@pytest.mark.parametrize(("shape", "kw"), [((0, 3), {}), ((3, 0), {"rowvar": False}), ((0, 3), {"dtype": np.complex64}),
                                           ((0, 3), {"y": np.ones((5, 5))}), ((0, 4), {"fweights": [1]}),
                                           ((0, 0), {"aweights": []})])
@pytest.mark.parametrize("data_dtype", [np.float32, np.int8, np.complex128])
def test_no_variables_is_an_empty_float64_matrix(func, shape, kw, data_dtype):
    if func == "corrcoef" and {"fweights", "aweights"} & set(kw):
        return
    m = np.ones(shape, data_dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy's empty-slice warnings of a 1-d m with no observations
        try:
            want = getattr(np, func)(m, **kw)
        except Exception as e:  # noqa: BLE001 - the class is compared
            with pytest.raises(type(e)):
                getattr(kd, func)(kd.asarray(m), **{k: _kd(v) for k, v in kw.items()})
            return
        got = getattr(kd, func)(kd.asarray(m), **{k: _kd(v) for k, v in kw.items()}).numpy()
    assert (got.shape, got.dtype) == (want.shape, want.dtype)
    np.testing.assert_array_equal(got, want)


def test_y_of_three_axes_is_refused():
    with pytest.raises(ValueError, match="y has more than 2 dimensions"):
        kd.cov(kd.ones(3), kd.ones((1, 1, 3)))


@pytest.mark.parametrize("func", ["cov", "corrcoef"])
@pytest.mark.parametrize("dtype", [int, np.int32, np.uint8, bool])
@pytest.mark.parametrize("weights", [{}, {"fweights": [1, 2, 1]}, {"aweights": [0.5, 1.0, 2.0]}])
def test_integer_dtype_is_numpys_casting_error(func, dtype, weights):
    """NumPy centres the data in place in ``dtype=``: an integer or bool one cannot take the float mean back
    (kdsl computed on in float64, and a weighted uint8 one wrapped the centred data: 21675 for 2.33)."""
    if func == "corrcoef" and weights:
        return
    m = np.array([[1, 2, 4], [3, 1, 0]])
    with pytest.raises(TypeError) as want:  # numpy's UFuncTypeError
        getattr(np, func)(m, dtype=dtype, **weights)
    with pytest.raises(type(want.value).__mro__[2]) as got:  # kdsl's: also an instance of NumPy's UFuncTypeError
        getattr(kd, func)(kd.asarray(m), dtype=dtype, **weights)
    assert type(want.value).__mro__[2].__name__ == "UFuncTypeError"
    if dtype is int:  # Python's int is kdsl's default int32 (docs/numpy-api.md), NumPy's int64
        assert str(got.value).startswith(str(want.value).replace("int64", "int32"))
    else:
        assert str(got.value).startswith(str(want.value))
