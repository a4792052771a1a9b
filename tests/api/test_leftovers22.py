"""Small correctness gaps, each against NumPy 2 (the oracle): warnings of NaN-aware reductions on all-NaN
slices (given when the lazy result is read back), vectorize on size-0 input, ..."""

import importlib
import warnings

import numpy as np
import pytest

import kdsl as kd

NAN_ROWS = np.array([[np.nan, np.nan, np.nan], [1.0, 2.0, np.nan]], np.float32)


def _messages(call):
    """The value ``call()`` gives (read back) and the RuntimeWarnings it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = np.asarray(call())
    return value, sorted({str(w.message) for w in caught if w.category is RuntimeWarning})


@pytest.mark.parametrize("name,kwargs", [
    ("nanmean", {"axis": 1}), ("nanvar", {"axis": 1, "keepdims": True}), ("nanstd", {"axis": 1}),
    ("nanmin", {"axis": 1}), ("nanmax", {"axis": (1,)}), ("nanmedian", {"axis": 1, "keepdims": True}),
    ("nanquantile", {"q": 0.5, "axis": 1}), ("nanpercentile", {"q": [10, 90], "axis": 1}),
    ("nanmean", {"axis": 0}), ("nanmax", {}),
])
def test_nan_reductions_warn_as_numpy(name, kwargs):
    want, want_warn = _messages(lambda: getattr(np, name)(NAN_ROWS, **kwargs))
    got, got_warn = _messages(lambda: getattr(kd, name)(kd.asarray(NAN_ROWS), **kwargs))
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert got_warn == [m for m in want_warn if not m.startswith("invalid value")]


def test_all_nan_warning_comes_once_when_read_and_not_after_a_write():
    r = kd.nanmin(kd.asarray(NAN_ROWS), axis=1)  # lazy: nothing warns before it is read
    assert _messages(lambda: r)[1] == ["All-NaN slice encountered"]
    assert _messages(lambda: r)[1] == []  # NumPy warns once, at its one call
    w = kd.nanmax(kd.asarray(NAN_ROWS), axis=1)
    w[0] = 5.0  # the values that warranted the warning are gone
    assert _messages(lambda: w) == (pytest.approx(np.array([5.0, 2.0])), [])
    out = kd.zeros(2, dtype=kd.float32)
    kd.nanmedian(kd.asarray(NAN_ROWS), axis=1, out=out)
    assert _messages(lambda: out)[1] == ["All-NaN slice encountered"]


def test_complex_and_weighted_nan_quantiles_warn():
    c = NAN_ROWS.astype(np.complex64) + 1j
    c[0] = np.nan
    assert _messages(lambda: kd.nanmedian(kd.asarray(c), axis=1))[1] == ["All-NaN slice encountered"]
    w = np.ones_like(NAN_ROWS)
    want = np.nanquantile(NAN_ROWS, 0.5, axis=1, weights=w, method="inverted_cdf")
    got, warned = _messages(lambda: kd.nanquantile(kd.asarray(NAN_ROWS), 0.5, axis=1, weights=kd.asarray(w),
                                                    method="inverted_cdf"))
    np.testing.assert_array_equal(got, want)
    assert warned == ["All-NaN slice encountered"]


@pytest.mark.parametrize("name", ["nanargmin", "nanargmax"])
def test_nanarg_all_nan_raises(name):
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        getattr(kd, name)(kd.asarray(NAN_ROWS), axis=1)


def test_empty_and_ddof_warnings():
    empty = np.zeros((2, 0), np.float32)
    for name in ("mean", "var", "median", "nanmean"):
        want, want_warn = _messages(lambda n=name: getattr(np, n)(empty, axis=1))
        got, got_warn = _messages(lambda n=name: getattr(kd, n)(kd.asarray(empty), axis=1))
        np.testing.assert_array_equal(got, want)
        assert got_warn == [m for m in want_warn if not m.startswith("invalid value")], name
    for name in ("var", "std"):
        got, got_warn = _messages(lambda n=name: getattr(kd, n)(kd.asarray([1.0, 2.0]), ddof=2))
        assert np.isinf(got) and got_warn == ["Degrees of freedom <= 0 for slice"]
    with pytest.raises(ValueError, match="reduction operation fmin which has no identity"):
        kd.nanmin(kd.zeros(0))


@pytest.mark.parametrize("call", [
    lambda m: m.vectorize(lambda x: x + 1)(m.zeros(0)),
    lambda m: m.vectorize(lambda x, y: x + y)(m.zeros((2, 0)), 1.0),
])
def test_vectorize_size_zero_needs_otypes(call):
    with pytest.raises(ValueError, match="cannot call `vectorize` on size 0 inputs unless `otypes` is set"):
        call(np)
    with pytest.raises(ValueError, match="cannot call `vectorize` on size 0 inputs unless `otypes` is set"):
        call(kd)


def test_vectorize_size_zero_with_otypes_excluded_and_cache():
    got = kd.vectorize(lambda x: x + 1, otypes=[np.float32])(kd.zeros(0))
    assert got.shape == (0,) and got.dtype == kd.float32
    got = kd.vectorize(lambda x, n: x * n, excluded={"n"}, cache=True)(kd.asarray([1, 2]), n=3)
    assert got.tolist() == [3, 6]
    frompy = kd.frompyfunc(lambda x: x, 1, 1)(kd.zeros(0))  # NumPy's frompyfunc needs no otypes
    assert frompy.shape == (0,)


PLAIN = [[1.0, 2.0], [3.0, 4.0]]


def _mask_of(mod, r):
    """"nomask", or the mask's values, of a numpy.ma / kd.ma result."""
    m = mod.ma.getmask(r)
    return "nomask" if m is mod.ma.nomask else np.asarray(m).tolist()


@pytest.mark.parametrize("call", [
    lambda m: m.ma.masked_where(m.asarray([False, False]), m.asarray([1.0, 2.0])),
    lambda m: m.ma.masked_where(m.asarray([False, False]), m.ma.array([1.0, 2.0]), copy=False),
    lambda m: m.ma.masked_where(m.asarray([False, False]), m.ma.array([1.0, 2.0], mask=[0, 0], shrink=False)),
    lambda m: m.ma.masked_where(m.asarray([True, False]), m.asarray([1.0, 2.0]), copy=False),
    lambda m: m.ma.masked_equal(m.asarray([1.0, 2.0]), 5.0),
    lambda m: m.ma.masked_invalid(m.asarray([1.0, 2.0])),
    lambda m: m.ma.power(m.asarray([1.0, 2.0]), 2),
    lambda m: m.ma.power(m.ma.array([1.0, 2.0], mask=[0, 0], shrink=False), 2),
    lambda m: m.ma.power(m.ma.array([-1.0, 2.0]), 0.5),
    lambda m: m.ma.dot(m.asarray(PLAIN), m.asarray(PLAIN)),
    lambda m: m.ma.var(m.asarray(PLAIN), axis=0),
    lambda m: m.ma.var(m.ma.array(PLAIN, mask=[[1, 0], [0, 0]]), axis=0),
    lambda m: m.ma.var(m.ma.array(PLAIN, mask=[[1, 0], [1, 0]]), axis=0),
    lambda m: m.ma.std(m.asarray(PLAIN), axis=0),
    lambda m: m.ma.std(m.ma.array(PLAIN, mask=[[1, 0], [0, 0]]), axis=0),
    lambda m: m.ma.median(m.asarray(PLAIN), axis=0),
    lambda m: m.ma.sort(m.ma.array([3.0, 1.0])),
    lambda m: -m.ma.array([1.0, 2.0]),  # NumPy's operators: an all-False mask array; np.ma.negative: nomask
    lambda m: abs(m.ma.array([1.0, -2.0])),
    lambda m: ~m.ma.array([1, 2]),
    lambda m: m.ma.negative(m.ma.array([1.0, 2.0])),
])
def test_ma_nomask_or_mask_array_as_numpy(call):
    assert _mask_of(kd, call(kd)) == _mask_of(np, call(np))


@pytest.mark.parametrize("value", [0.5, 3, True, 1 + 2j, np.float64(0.25), np.int8(-3), 2**40])
def test_append_scalar_is_a_constant_of_asarray_dtype(value):
    base = kd.asarray([1, 2])
    before = kd.stats()["uploads"]
    got = kd.append(base, value)
    assert kd.stats()["uploads"] == before  # a push constant, not a one-element buffer
    assert got.dtype == kd.append(base, kd.asarray(value)).dtype
    assert got.tolist() == np.append(np.asarray([1, 2]), value).tolist()


def test_append_loop_uploads_nothing_per_step():
    a = kd.asarray(np.zeros(0, np.float32))
    before = kd.stats()["uploads"]
    for i in range(5):
        a = kd.append(a, i * 0.5)
    assert a.tolist() == [0.0, 0.5, 1.0, 1.5, 2.0] and kd.stats()["uploads"] == before


def test_ihfft_is_one_program_and_replays_without_stale_programs():
    from kdsl.fft import replay
    rng = np.random.default_rng(0)
    z = rng.standard_normal((3, 8)).astype(np.float32)
    x = kd.asarray(z)
    fresh = kd.fft.ihfft(x)
    assert isinstance(replay._calls[replay._key("ihfft", x, (), {})], replay._Replay)
    np.testing.assert_array_equal(kd.fft.ihfft(x).numpy(), fresh.numpy())  # the replay: a fresh call's values
    for _ in range(2):  # each changed argument its own program, replayed the second time round
        for arg, kwargs in [(z, {"norm": "ortho"}), (z, {"n": 5}), (z, {"axis": 0}), (z[:, :6], {}),
                            (z.astype(np.float64), {"norm": "forward"})]:
            got = kd.fft.ihfft(kd.asarray(arg), **kwargs).numpy()
            want = np.fft.ihfft(arg, **kwargs)
            assert got.dtype == want.dtype
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    g = kd.grad(lambda v: kd.real(kd.fft.ihfft(v)).sum())(kd.asarray(z[0].astype(np.float64)))
    want = np.cos(2 * np.pi * np.outer(np.arange(8), np.arange(5)) / 8).sum(axis=1) / 8  # d/dx_j sum_k Re
    np.testing.assert_allclose(g.numpy(), want, rtol=1e-6, atol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_tall_narrow_q_svd_pinv_by_array_operations(dtype):
    # 70 000 rows pass the one-workgroup orgqr kernel's loop budget: Q is formed by qr.narrow_q (the blocked
    # gemms took 1.7 s for 150 000 x 2 on lavapipe); values within docs/linalg.md's float32 tolerances
    qr_module = importlib.import_module("kdsl.linalg.qr")  # (kdsl.linalg.qr is also the function)
    rng = np.random.default_rng(3)
    a = rng.standard_normal((70000, 2)) + (1j * rng.standard_normal((70000, 2)) if dtype is np.complex64 else 0)
    a = a.astype(dtype)
    assert qr_module._narrow(70000, 2, 2)
    q, r = kd.linalg.qr(kd.asarray(a))
    want_q, want_r = np.linalg.qr(a)
    np.testing.assert_allclose(q.numpy(), want_q, atol=2e-4)
    np.testing.assert_allclose(r.numpy(), want_r, rtol=2e-4, atol=2e-4 * np.abs(want_r).max())
    u, s, vh = (t.numpy() for t in kd.linalg.svd(kd.asarray(a), full_matrices=False))
    np.testing.assert_allclose((u * s) @ vh, a, atol=2e-4 * np.abs(a).max())
    np.testing.assert_allclose(np.conj(u.T) @ u, np.eye(2), atol=2e-4)
    np.testing.assert_allclose(kd.linalg.pinv(kd.asarray(a)).numpy(), np.linalg.pinv(a), atol=2e-4 * 1e-2)


def _error(call):
    """(class, message) of the exception ``call()`` raises."""
    with pytest.raises(Exception) as info:
        call()
    return type(info.value), str(info.value)


@pytest.mark.parametrize("call", [
    lambda m: m.polynomial.polynomial.polyvander(m.asarray([1.0]), 2.0),
    lambda m: m.polynomial.hermite.hermvander(m.asarray([1.0]), 1.5),
    lambda m: m.polynomial.polynomial.polyvander2d(m.asarray([1.0]), m.asarray([1.0]), [1.5, 1]),
    lambda m: m.polynomial.polynomial.polyder(m.asarray([1.0, 2.0]), 1.5),
    lambda m: m.polynomial.chebyshev.chebint(m.asarray([1.0, 2.0]), 1.5),
    lambda m: m.polynomial.polynomial.polyder(m.asarray([1.0, 2.0]), 1, axis=1.0),
    lambda m: m.polynomial.chebyshev.chebder(m.asarray([1.0, 2.0]), 1, axis=0.0),
])
def test_polynomial_integer_arguments_raise_numpys_type_error(call):
    want = _error(lambda: call(np))
    assert want[0] is TypeError and _error(lambda: call(kd)) == want


@pytest.mark.parametrize("name", ["diagonal", "trace"])
def test_linalg_diagonal_trace_of_1d_raise_numpys_value_error(name):
    with pytest.raises(ValueError, match="diag requires an array of at least two dimensions") as info:
        getattr(kd.linalg, name)(kd.asarray([1.0, 2.0]))
    assert not isinstance(info.value, np.linalg.LinAlgError)  # NumPy's is np.diagonal's ValueError


@pytest.mark.parametrize("call", [
    lambda m: m.sum(m.ones((2, 2)), axis=(0, 0)), lambda m: m.max(m.ones((2, 2)), axis=(0, -2)),
    lambda m: m.mean(m.ones((2, 2)), axis=(1, 1)), lambda m: m.var(m.ones((2, 2)), axis=(0, 0)),
    lambda m: m.count_nonzero(m.ones((2, 2)), axis=(0, 0)), lambda m: m.squeeze(m.ones((1, 1)), axis=(0, 0)),
])
def test_duplicate_reduction_axes_give_numpys_message(call):
    want = _error(lambda: call(np))
    assert want == (ValueError, "duplicate value in 'axis'") and _error(lambda: call(kd)) == want


@pytest.mark.parametrize("name,dtype", [("fft", np.complex64), ("rfft", np.float32), ("ifft", np.float64),
                                        ("ihfft", np.float32)])
def test_n_that_cuts_or_pads_the_last_axis_is_one_program_and_replays(name, dtype):
    from kdsl.fft import replay
    z = np.random.default_rng(4).standard_normal((3, 12)).astype(dtype)
    x = kd.asarray(z)
    for _ in range(2):  # the second round replays; every n its own program
        for n in (5, 12, 20, 37):  # cut, whole, padded, padded to a Bluestein length
            got = getattr(kd.fft, name)(x, n=n)
            want = getattr(np.fft, name)(z, n=n)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-4 * np.abs(want).max())
    assert isinstance(replay._calls[replay._key(name, x, (), {"n": 20})], replay._Replay)


@pytest.mark.parametrize("name,kwargs", [("mean", {}), ("var", {}), ("std", {"ddof": 1}), ("var", {"ddof": 1})])
def test_device_where_masks_warn_when_read(name, kwargs):
    x = np.array([[1.0, 2.0], [3.0, 4.0]])
    mask = np.array([[False, False], [True, False]])
    want, want_warn = _messages(lambda: getattr(np, name)(x, axis=1, where=mask, **kwargs))
    got, got_warn = _messages(lambda: getattr(kd, name)(kd.asarray(x), axis=1, where=kd.asarray(mask), **kwargs))
    np.testing.assert_allclose(got, want)
    assert got_warn == [m for m in want_warn if not m.startswith("invalid value")]


def test_printoptions_legacy_reaches_kdsls_numpy_scalars():
    numpy_legacy = np.get_printoptions()["legacy"]
    with np.printoptions(legacy="1.25"):
        want = repr(np.float64(1.5))
    with kd.printoptions(legacy="1.25"):
        assert repr(kd.float64(1.5)) == want == "1.5"
    assert np.get_printoptions()["legacy"] == numpy_legacy  # restored with kdsl's own
    assert repr(kd.float64(1.5)) == repr(np.float64(1.5))


@pytest.mark.parametrize("name", ["hstack", "vstack", "column_stack", "dstack", "concatenate"])
def test_joins_keep_a_float_list_at_float64_and_upload_no_one_number_list(name):
    a = kd.zeros(1, dtype=kd.float64)
    got = getattr(kd, name)((a, [0.1]))  # NumPy converts [0.1] at float64: kdsl did at float32 for the stacks
    want = getattr(np, name)((np.zeros(1), [0.1]))
    assert got.dtype == want.dtype and got.numpy().ravel()[-1] == want.ravel()[-1] == 0.1
    before = kd.stats()["uploads"]
    joined = getattr(kd, name)((kd.zeros(1, dtype=kd.float32), [2.5]))
    assert kd.stats()["uploads"] == before and joined.numpy().ravel().tolist() == [0.0, 2.5]


def test_isclose_takes_a_python_number_at_the_comparisons_precision():
    x = np.array([0.1, 2.0])
    assert kd.isclose(kd.asarray(x), 0.1, rtol=0, atol=0).tolist() == [True, False]  # was 0.1's float32
    assert kd.isclose(0.1, kd.asarray(x), rtol=0, atol=0).tolist() == [True, False]
    assert kd.isclose(kd.asarray(x), 10**30).tolist() == np.isclose(x, 10**30).tolist()  # was an OverflowError
    f32 = np.float32([0.1])
    assert kd.isclose(kd.asarray(f32), 0.1, rtol=0, atol=0).tolist() == np.isclose(f32, 0.1, rtol=0, atol=0).tolist()


@pytest.mark.parametrize("call", [
    lambda m, a: m.isin(a, 0.1), lambda m, a: m.dot(a, 0.1), lambda m, a: m.outer(a, [0.1]),
    lambda m, a: m.convolve(a, [0.1]), lambda m, a: m.correlate(a, [0.1]), lambda m, a: m.cross(a, [0.1, 0.0, 0.0]),
    lambda m, a: m.vdot(a, [0.1, 0.1, 0.1]), lambda m, a: m.interp(0.1, a, a), lambda m, a: m.diff(a, prepend=0.1),
    lambda m, a: m.average(a, weights=[0.1, 1.0, 1.0]), lambda m, a: m.cov(a, aweights=[0.1, 1.0, 1.0]),
    lambda m, a: m.histogram(a, bins=2, weights=[0.1, 0.1, 0.1])[0], lambda m, a: m.append(a, 0.1),
    lambda m, a: m.searchsorted(a, [0.1, 0.2]), lambda m, a: m.setdiff1d(a, [0.1]),
    lambda m, a: m.intersect1d(a, [0.1]), lambda m, a: m.union1d(a, [0.1]), lambda m, a: m.hypot(a, 0.1),
    lambda m, a: m.select([a > 0.15], [a], [0.1, 0.1, 0.1]), lambda m, a: m.choose([0, 1, 0], [a, [0.1] * 3]),
    lambda m, a: m.trapezoid(a, x=[0.1, 0.2, 0.3]), lambda m, a: m.einsum("i,i->i", a, [0.1, 0.1, 0.1]),
    lambda m, a: m.interp(a, [0.1, 0.3], [0.1, 0.2]), lambda m, a: m.cov(a, [0.1, 0.3, 0.2]),
    lambda m, a: m.ma.average(a, weights=[0.1, 1.0, 1.0]),
    lambda m, a: m.linalg.solve(m.stack([a[:2], a[1:]]), [0.1, 0.2]),
])
def test_host_floats_beside_float64_arrays_keep_float64(call):
    # each converted 0.1 to kdsl's float32 default first: a silently rounded result (isin: a wrong one)
    x = np.array([0.1, 0.2, 0.3])
    want = np.asarray(call(np, x))
    got = call(kd, kd.asarray(x)).numpy()
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-14, atol=0)  # float32 rounding is 1e-8 off; hypot's an ulp
