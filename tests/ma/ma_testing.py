"""tests/ma's helpers: the same masked data on both sides (a NumPy masked array and a kd.ma one, plain or as a
non-contiguous view) and the comparison of a kd.ma result with numpy.ma's."""

import numpy as np

import kdsl as kd

DTYPES = [np.float32, np.float64, np.int32, np.bool_]
SHAPES = [(0,), (1,), (7,), (3, 4), (2, 3, 5), (4, 0)]
MASKS = ["none", "some", "all", "nomask"]
LAYOUTS = ["contiguous", "transposed", "strided"]


def host_data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-9, 10, shape).astype(dtype)
    return (rng.standard_normal(shape) * 3).astype(dtype)


def host_mask(shape, kind, seed=1):
    if kind == "nomask":
        return np.ma.nomask
    if kind == "none":
        return np.zeros(shape, bool)
    if kind == "all":
        return np.ones(shape, bool)
    return np.random.default_rng(seed).random(shape) < 0.35


def pair(shape, dtype, kind, layout="contiguous", seed=0):
    """(numpy.ma array, kd.ma array) of the same data and mask, viewed by ``layout``."""
    data, mask = host_data(shape, dtype, seed), host_mask(shape, kind, seed + 1)
    n = np.ma.array(data, mask=mask)
    k = kd.ma.array(kd.asarray(data), mask=mask if mask is np.ma.nomask else kd.asarray(mask))
    if layout == "transposed":
        return n.T, k.T
    if layout == "strided" and len(shape) >= 1:
        index = (slice(None, None, 2),) + (slice(None, None, -1),) * (len(shape) - 1)
        return n[index], k[index]
    return n, k


def assert_same(got, expected, rtol=2e-6, atol=1e-6, check_data=True, check_dtype=True, masked_data=False):
    """``got`` (kd.ma) equals ``expected`` (numpy.ma): masked constants, scalars, or data/mask/filled()."""
    if expected is np.ma.masked:
        assert got is kd.ma.masked, f"expected masked, got {got!r}"
        return
    if isinstance(expected, np.ma.MaskedArray):
        assert isinstance(got, kd.ma.MaskedArray), f"expected a masked array, got {type(got)}"
        assert got.shape == expected.shape
        if check_dtype:
            assert np.dtype(got.dtype.np) == expected.dtype, (got.dtype, expected.dtype)
        gmask = np.ma.getmaskarray(got.to_numpy())
        np.testing.assert_array_equal(gmask, np.ma.getmaskarray(expected))
        keep = ~gmask
        gdata, edata = np.asarray(got.data.numpy()), np.asarray(expected.data)
        if check_data:
            where = slice(None) if masked_data else keep  # masked_data: the data under the mask too
            np.testing.assert_allclose(gdata[where], edata[where], rtol=rtol, atol=atol, equal_nan=True)
            np.testing.assert_allclose(got.filled().numpy(), expected.filled(), rtol=rtol, atol=atol,
                                       equal_nan=True)
        return
    assert got is not kd.ma.masked, f"expected {expected!r}, got masked"
    value = got.numpy() if isinstance(got, kd.Array) else np.asarray(got)
    if check_dtype and isinstance(got, kd.Array):
        assert np.dtype(got.dtype.np) == np.asarray(expected).dtype, (got.dtype, np.asarray(expected).dtype)
    np.testing.assert_allclose(value, np.asarray(expected), rtol=rtol, atol=atol, equal_nan=True)
