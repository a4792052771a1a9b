"""kd.nanmean / kd.nanvar / kd.nanstd refuse an integer or bool ``dtype`` or ``out`` for float and complex
data, as NumPy's do (the count divides: an integer result would truncate); float ones still work."""

import numpy as np
import pytest

import kdsl as kd

DATA = np.array([[1.5, np.nan, 2.0], [2.5, 3.5, np.nan]], np.float32)


@pytest.mark.parametrize("name", ["nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("data", [DATA, DATA.astype(np.complex64)])
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.bool_, np.uint8])
def test_integer_dtype_refused(name, data, dtype):
    with pytest.raises(TypeError):
        getattr(np, name)(data, axis=1, dtype=dtype)
    with pytest.raises(TypeError, match="dtype must be inexact"):
        getattr(kd, name)(kd.asarray(data), axis=1, dtype=dtype)


@pytest.mark.parametrize("name", ["nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("dtype", [np.int32, np.bool_])
def test_integer_out_refused(name, dtype):
    with pytest.raises(TypeError):
        getattr(np, name)(DATA, axis=1, out=np.empty(2, dtype))
    with pytest.raises(TypeError, match="out must be inexact"):
        getattr(kd, name)(kd.asarray(DATA), axis=1, out=kd.empty(2, dtype=dtype))


@pytest.mark.parametrize("name", ["nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_dtype_and_out_accepted(name, dtype):
    want = getattr(np, name)(DATA, axis=1, dtype=dtype)
    np.testing.assert_allclose(getattr(kd, name)(kd.asarray(DATA), axis=1, dtype=dtype).numpy(), want, rtol=1e-6)
    out = kd.empty(2, dtype=dtype)
    getattr(kd, name)(kd.asarray(DATA), axis=1, out=out)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-6)
