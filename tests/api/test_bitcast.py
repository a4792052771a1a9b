"""Array.view (bit-cast) against NumPy: every pair of equal-size dtypes on every bit pattern class (NaN payloads,
-0.0, inf, subnormals), strided inputs, itemsize changes and NumPy's errors; signbit, copysign and nextafter,
which read and step the bits, bit-exact against NumPy; complex64 views."""

import numpy as np
import pytest

import kdsl as kd

BY_SIZE = {1: ["bool", "int8", "uint8"], 2: ["int16", "uint16", "float16"], 4: ["int32", "uint32", "float32"],
           8: ["int64", "uint64", "float64"]}
PAIRS = [(a, b) for names in BY_SIZE.values() for a in names for b in names]
FLOATS = ["float16", "float32", "float64"]


def _patterns(dtype: str, n: int = 40, seed: int = 0) -> np.ndarray:
    """``n`` values of ``dtype`` whose bits cover the awkward classes: for floats NaNs with payloads (quiet and
    signalling, both signs), +-0.0, +-inf, the extreme subnormals and normals; then random bits."""
    d = np.dtype(dtype)
    if d == np.bool_:
        return np.random.default_rng(seed).integers(0, 2, n).astype(bool)
    u = np.dtype(f"u{d.itemsize}")
    bits = np.random.default_rng(seed).integers(0, np.iinfo(u).max, n, dtype=u, endpoint=True)
    if d.kind == "f":
        f = np.finfo(d)
        nm, top = f.nmant, 8 * d.itemsize - 1
        exp = ((1 << (top - nm)) - 1) << nm
        sign = 1 << top
        special = [exp | (1 << (nm - 1)) | 5, exp | 3, sign | exp | 1, sign | exp | (1 << (nm - 1)), 0, sign, exp,
                   sign | exp, 1, sign | 1, (1 << nm) - 1, sign | ((1 << nm) - 1), 1 << nm, exp - 1]
        k = min(n, len(special))
        bits[:k] = special[:k]
    return bits.view(d)


def _same_bits(got: np.ndarray, expected: np.ndarray, nan_payload: bool = True) -> None:
    """Equal dtype, shape and bytes; with ``nan_payload=False``, NaNs must only be NaNs of the same sign."""
    assert got.dtype == expected.dtype and got.shape == expected.shape
    if expected.dtype == np.bool_:  # kdsl stores bools as 0/1: compare truth values
        np.testing.assert_array_equal(got, expected.view(np.uint8) != 0)
        return
    u = f"u{expected.dtype.itemsize}"
    g, e = got.view(u), expected.view(u)
    if not nan_payload and expected.dtype.kind == "f":
        nan = np.isnan(expected)
        assert (np.isnan(got) == nan).all()
        np.testing.assert_array_equal(np.signbit(got[nan]), np.signbit(expected[nan]))
        g, e = g[~nan], e[~nan]
    np.testing.assert_array_equal(g, e)


def _keeps_payload(src: str, dst: str) -> bool:
    """Whether NaN payloads must survive ``src -> dst``: not where a float16 is loaded or stored (the device's
    half <-> float conversions may quiet a signalling NaN or canonicalise it; lavapipe's stores do)."""
    return "float16" not in (src, dst)


@pytest.mark.parametrize(("src", "dst"), PAIRS)
def test_view_of_every_equal_size_pair_keeps_the_bits(src, dst):
    host = _patterns(src)
    if dst == "bool":
        host = (host.view(np.uint8) & 1).view(src)  # NumPy's bools may hold any byte; kdsl's hold 0 or 1
    got = kd.asarray(host).view(dst).numpy()
    expected = host.view(dst)
    if src == "float16":  # a loaded half NaN may be quieted: compare the NaN's class, the rest exactly
        nan = np.isnan(host)
        host_clean = host.copy()
        host_clean[nan] = np.float16(1.0)
        _same_bits(kd.asarray(host_clean).view(dst).numpy(), host_clean.view(dst))
        g = got.view("u2")[nan] | 0x200
        np.testing.assert_array_equal(g, host.view("u2")[nan] | 0x200)
        return
    _same_bits(got, expected, nan_payload=_keeps_payload(src, dst))


@pytest.mark.parametrize("dtype", FLOATS)
def test_view_round_trip_through_integers_keeps_every_bit(dtype):
    host = _patterns(dtype, 64)
    u = f"u{np.dtype(dtype).itemsize}"
    bits = kd.asarray(host.view(u))
    back = (bits.view(dtype).view(u) ^ 0).numpy()  # float and back inside one kernel
    np.testing.assert_array_equal(back, host.view(u))


@pytest.mark.parametrize(("src", "dst"), [("float32", "uint32"), ("uint32", "float32"), ("float64", "int64"),
                                          ("int8", "uint8"), ("float16", "int16"), ("int16", "float16")])
@pytest.mark.parametrize("case", ["strided", "transposed", "empty", "size1", "0d"])
def test_view_of_views_and_odd_shapes(src, dst, case):
    data = _patterns(src, 60, seed=1)
    if src == "float16":
        data[np.isnan(data)] = 2.0
    host = {"strided": data.reshape(6, 10)[1::2, ::3], "transposed": data[:24].reshape(4, 6).T,
            "empty": data[:0].reshape(0, 3), "size1": data[:1].reshape(1, 1), "0d": data[3].reshape(())}[case]
    a = kd.asarray(data.reshape(6, 10))[1::2, ::3] if case == "strided" else \
        kd.asarray(data[:24].reshape(4, 6)).T if case == "transposed" else kd.asarray(host)
    _same_bits(a.view(dst).numpy(), host.view(dst), nan_payload=_keeps_payload(src, dst))


@pytest.mark.parametrize(("src", "dst"), [("uint8", "float32"), ("bool", "uint16"), ("float16", "float64"),
                                          ("float32", "int64"), ("float32", "float16"), ("float64", "uint8"),
                                          ("int64", "float32"), ("uint16", "int8"), ("float64", "float16"),
                                          ("int32", "bool")])
@pytest.mark.parametrize("shape", [(3, 8), (8,), (2, 0, 8), (4, 2, 16)])
def test_view_to_another_itemsize_scales_the_last_axis(src, dst, shape):
    host = _patterns(src, int(np.prod(shape)), seed=2).reshape(shape)
    if src == "float16":  # a loaded half NaN may be quieted (see test_view_of_every_equal_size_pair...)
        host[np.isnan(host)] = 0.0
    if dst == "bool":
        host = (host.view(np.uint8) & 1).view(src)
    got = kd.asarray(host).view(dst).numpy()
    _same_bits(got, host.view(dst), nan_payload=dst != "float16")


def test_itemsize_change_on_views_follows_numpy_rules():
    host = np.arange(24, dtype=np.float32).reshape(4, 6)
    a = kd.asarray(host)
    _same_bits(a[::2].view(np.float64).numpy(), host[::2].view(np.float64))  # rows strided: fine
    _same_bits(a[:, :1].view(np.float16).numpy(), host[:, :1].view(np.float16))  # size-1 last axis
    _same_bits(kd.zeros((2, 4)).view(np.float64).numpy(), np.zeros((2, 4), np.float32).view(np.float64))
    for bad in (lambda x: x.T, lambda x: x[:, ::2], lambda x: x[0, 0]):
        with pytest.raises(ValueError) as expected:
            bad(host).view(np.float64)
        with pytest.raises(ValueError, match=str(expected.value).split(";")[0][:30]):
            bad(a).view(np.float64)
    with pytest.raises(ValueError, match="larger dtype"):
        a[:, :3].view(np.float64)  # 12 bytes are no whole float64s (NumPy raises too)
    with pytest.raises(ValueError):
        host[:, :3].view(np.float64)


def test_view_fuses_with_the_elementwise_work_around_it():
    a = kd.asarray(np.linspace(-2, 2, 16, dtype=np.float32))
    out = ((a * 2).view(np.uint32) & 0x7FFFFFFF).view(np.float32) + 1
    assert kd.explain(out).count("kernel ") == 1
    np.testing.assert_array_equal(out.numpy(), np.abs(np.linspace(-2, 2, 16, dtype=np.float32) * 2) + 1)


def test_view_without_a_dtype_and_writes_through_views():
    host = np.arange(8, dtype=np.float32)
    a = kd.asarray(host)
    same = a.view()
    assert same is not a and same.dtype == a.dtype
    same[0] = 9.0
    v = a.view(np.int32)
    v[1] = -1
    w = a.reshape(4, 2)[::2].view(np.uint16)  # rows strided, the last axis contiguous
    w[1, 1] = 0x4000  # the high half of a[4]
    expected = host.copy()
    expected[0] = 9.0
    expected.view(np.int32)[1] = -1
    expected.reshape(4, 2)[::2].view(np.uint16)[1, 1] = 0x4000
    _same_bits(a.numpy(), expected)


def test_view_rejects_what_numpy_rejects_or_kdsl_lacks():
    a = kd.asarray(np.ones(4, np.float32))
    with pytest.raises(TypeError, match="subclasses"):
        a.view(type=np.ndarray)
    with pytest.raises(TypeError, match="subclasses"):
        a.view(np.matrix)
    with pytest.raises(TypeError, match="complex128"):
        a.view("complex128")


@pytest.mark.parametrize("dst", ["uint64", "int64", "float64", "float32", "uint8", "int16"])
def test_complex64_views_carry_both_words(dst):
    c = np.array([1 + 2j, complex(-0.0, -np.inf), complex(np.nan, -0.0), 3e-45j, 0j, -1e38 + 1e-40j], np.complex64)
    _same_bits(kd.asarray(c).view(dst).numpy(), c.view(dst))
    back = kd.asarray(c.view(dst)).view(np.complex64).numpy()
    _same_bits(back, c)
    strided = np.repeat(c, 2)[::2]
    if np.dtype(dst).itemsize == 8:  # element by element: strided views work
        _same_bits(kd.asarray(np.repeat(c, 2))[::2].view(dst).numpy(), strided.view(dst))


def test_bool_views_read_0_or_1():
    a = kd.asarray(np.array([0, 1, 2, 255], np.uint8))
    assert a.view(bool).tolist() == [False, True, True, True]  # NumPy: the same truth values
    assert a.view(bool).view(np.uint8).tolist() == [0, 1, 1, 1]  # NumPy keeps 2 and 255 (documented)


# ----- the IEEE functions on the bits


def _nan_signs(dtype: str) -> np.ndarray:
    x = _patterns(dtype, 48, seed=4)
    return np.concatenate([x, -x])


@pytest.mark.parametrize("dtype", FLOATS)
def test_signbit_reads_the_bit_nan_included(dtype):
    host = _nan_signs(dtype)
    np.testing.assert_array_equal(kd.signbit(kd.asarray(host)).numpy(), np.signbit(host))
    strided = np.repeat(host, 2)[::2]
    np.testing.assert_array_equal(kd.signbit(kd.asarray(np.repeat(host, 2))[::2]).numpy(), np.signbit(strided))


@pytest.mark.parametrize("dtype", FLOATS)
def test_copysign_copies_the_bit_exactly(dtype):
    x = _nan_signs(dtype)
    y = np.roll(x, 7)
    for a, b in ((x, y), (y, x)):
        got = kd.copysign(kd.asarray(a), kd.asarray(b)).numpy()
        _same_bits(got, np.copysign(a, b), nan_payload=dtype != "float16")
    got = kd.copysign(kd.asarray(x), -0.0).numpy()  # a weak scalar
    _same_bits(got, np.copysign(x, np.array(-0.0, dtype)), nan_payload=dtype != "float16")
    got = kd.copysign(2.0, kd.asarray(x)).numpy()
    _same_bits(got, np.copysign(np.array(2.0, dtype), x))


def _np_nextafter(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """NumPy's nextafter as of NumPy 2.5, whatever NumPy runs the tests: equal operands give ``y`` for float16
    too (before 2.5 its float16 loop gave ``x``, so ``nextafter(0.0, -0.0)`` was ``0.0``; numpy/numpy#31475)."""
    x, y = np.broadcast_arrays(np.asarray(x), np.asarray(y, x.dtype))
    with np.errstate(all="ignore"):
        out = np.nextafter(x, y)
    return np.where((x == y) & ~np.isnan(x), y, out).astype(x.dtype)


def _subnormal_grid(dtype: str) -> np.ndarray:
    f = np.finfo(dtype)
    u = np.dtype(f"u{np.dtype(dtype).itemsize}")
    k = np.arange(0, 12, dtype=u)
    edges = np.concatenate([k, (1 << f.nmant) - 6 + k, (1 << f.nmant) * 2 - 6 + k]).astype(u)
    sub = edges.view(dtype)
    return np.concatenate([sub, -sub])


@pytest.mark.parametrize("dtype", FLOATS)
def test_nextafter_steps_the_bits_of_subnormals_and_specials(dtype):
    x = np.concatenate([_subnormal_grid(dtype), _nan_signs(dtype)])
    f = np.finfo(dtype)
    targets = [np.zeros_like(x), -np.zeros_like(x), np.full_like(x, np.inf), np.full_like(x, -np.inf),
               np.full_like(x, f.smallest_normal), np.roll(x, 3), x]
    for y in targets:
        expected = _np_nextafter(x, y)
        got = kd.nextafter(kd.asarray(x), kd.asarray(y)).numpy()
        _same_bits(got, expected, nan_payload=dtype != "float16")


@pytest.mark.parametrize("dtype", FLOATS)
def test_nextafter_of_signed_zeros_and_scalars(dtype):
    z = np.array([0.0, -0.0, 0.0, -0.0], dtype)
    w = np.array([-0.0, 0.0, 0.0, -0.0], dtype)
    _same_bits(kd.nextafter(kd.asarray(z), kd.asarray(w)).numpy(), _np_nextafter(z, w))
    x = _subnormal_grid(dtype)
    for s in (0.0, -0.0, 1.0, float("-inf")):
        _same_bits(kd.nextafter(kd.asarray(x), s).numpy(), _np_nextafter(x, np.array(s, dtype)))
    a = kd.asarray(np.repeat(x, 2))[::2]
    _same_bits(kd.nextafter(a, 1.0).numpy(), np.nextafter(x, np.array(1.0, dtype)))
