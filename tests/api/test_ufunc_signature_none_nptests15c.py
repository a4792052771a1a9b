"""``signature=``/``sig=`` of only None entries is no constraint (NumPy's usual loop; kdsl raised TypeError),
and a DType class (``type(np.dtype(np.float64))``) in ``dtype=`` or ``signature=`` names that dtype, as NumPy's
(kdsl read it as object and found no loop)."""

import numpy as np
import pytest

import kdsl as kd

F64 = type(np.dtype(np.float64))
I16 = type(np.dtype(np.int16))
F32 = type(np.dtype(np.float32))


def _host(values, dtype):
    return np.asarray(values, dtype)


CALLS = [
    ("add", {"signature": (None, None, None)}),
    ("add", {"sig": (None, None, None)}),
    ("multiply", {"signature": (F64, F64, None)}),
    ("add", {"dtype": F64}),
    ("add", {"dtype": I16}),
    ("subtract", {"signature": (None, None, F32)}),
    ("sqrt", {"signature": (None, None)}),
    ("negative", {"dtype": F32}),
    ("less", {"signature": (None, None, None)}),
]


@pytest.mark.parametrize("dtype", ["int8", "float32", "float64"])
@pytest.mark.parametrize("values", [[[1, 2], [3, 4]], [], 5, [-1, 2, 4]])
@pytest.mark.parametrize("call", range(len(CALLS)))
def test_as_numpy(call, values, dtype):
    name, keywords = CALLS[call]
    host = _host(values, dtype)
    if host.ndim == 2:
        host = host[:, ::-1]
    device = kd.asarray(_host(values, dtype))
    if device.ndim == 2:
        device = device[:, ::-1]
    args_np = (host,) * getattr(np, name).nin
    args_kd = (device,) * getattr(np, name).nin
    try:
        with np.errstate(invalid="ignore"):
            want = getattr(np, name)(*args_np, **keywords)
    except TypeError as err:
        with pytest.raises(TypeError) as got:
            getattr(kd, name)(*args_kd, **keywords)
        assert str(got.value).startswith(str(err))  # (kdsl adds how to cast)
        return
    got = getattr(kd, name)(*args_kd, **keywords)
    assert got.dtype.name == np.asarray(want).dtype.name
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, equal_nan=True)


def test_nan_and_inf():
    x = np.array([np.nan, np.inf, -1.0], np.float32)
    got = kd.add(kd.asarray(x), kd.asarray(x), signature=(None, None, None))
    np.testing.assert_array_equal(got.numpy(), np.add(x, x, signature=(None, None, None)))
