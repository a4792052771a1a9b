"""``var``/``std`` with an integer or bool ``dtype=`` follow NumPy's steps: the mean summed in that dtype and
truncated back into it, the squared deviations summed in it, the quotient truncated; ``std`` of a 0-d result
truncates its root, of an n-d one is NumPy's UFuncTypeError. kdsl used to give a float64 result."""

import warnings

import numpy as np
import pytest

import kdsl as kd

DATA = {
    "floats": np.array([0.5, 1.5, 2.7, -3.2, np.nan, 4.0])[:5],
    "ints": np.array([1, 2, 4, 9], np.int8),
    "bools": np.array([True, False, True]),
    "strided": (np.arange(12.0).reshape(3, 4) * 1.7)[:, ::2],
    "size1": np.array([[7.5]]),
    "empty": np.zeros((0, 3)),
    "complex": np.array([1 + 2j, 3 - 1j, -2 + 0.5j]),
}
KEYWORDS = [{}, {"axis": 0}, {"axis": -1, "ddof": 1}, {"keepdims": True}, {"axis": 0, "ddof": 5}]


def _call(mod, fn, x, dtype, kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # degrees of freedom, empty slices, complex parts dropped
        try:
            r = getattr(mod, fn)(x if mod is np else kd.asarray(x), dtype=dtype, **kw)
        except (TypeError, ValueError) as e:
            return type(e).__name__, str(e).split(";")[0]
    r = np.asarray(r)
    return r.dtype, r.tolist()


@pytest.mark.parametrize("name", DATA)
@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.int64, np.bool_])
@pytest.mark.parametrize("fn", ["var", "std"])
def test_integer_dtype_moments_match_numpy(name, dtype, fn):
    x = DATA[name]
    for kw in KEYWORDS:
        if x.ndim == 1 and kw.get("axis") == -1:
            kw = {"ddof": 1}
        assert _call(kd, fn, x, dtype, kw) == _call(np, fn, x, dtype, kw), kw


def test_std_of_n_d_integer_result_is_numpys_ufunc_error():
    x = np.arange(6.0).reshape(2, 3)
    with pytest.raises(np._core._exceptions._UFuncOutputCastingError, match="Cannot cast ufunc 'sqrt' output"):
        kd.std(kd.asarray(x), axis=1, dtype=kd.int32)
    assert kd.std(kd.asarray(x), dtype=kd.int32).item() == np.std(x, dtype=np.int32)


def test_integer_dtype_variance_with_where():
    x = np.array([[1.5, 2.0, 8.0], [3.0, -1.0, 4.5]])
    w = x > 1.8
    for fn in ("var", "std"):
        for axis in (None, 0):
            try:
                want = getattr(np, fn)(x, axis=axis, dtype=np.int16, where=w)
            except TypeError:
                with pytest.raises(TypeError):
                    getattr(kd, fn)(kd.asarray(x), axis=axis, dtype=kd.int16, where=kd.asarray(w))
                continue
            got = getattr(kd, fn)(kd.asarray(x), axis=axis, dtype=kd.int16, where=kd.asarray(w))
            assert got.dtype == kd.int16
            np.testing.assert_array_equal(got.numpy(), want)
