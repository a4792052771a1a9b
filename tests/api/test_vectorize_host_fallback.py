"""kd.vectorize / kd.frompyfunc of a function that does Python control flow on an element: NumPy's own loop on the
host (values, dtypes, shapes as np.vectorize), one kd.PerformanceWarning per vectorized function, the function's
own errors propagating, and traceable functions kept lazy and silent."""

import math
import warnings

import numpy as np
import pytest

import kdsl as kd

X = np.array([[1.5, -2.0, 0.0], [3.0, -0.0, 7.25]], np.float32)
I = np.arange(6, dtype=np.int64).reshape(2, 3)
TABLE = {0: 10, 1: 20, 2: 30, 3: 40, 4: 50, 5: 60}


def sign_word(x):
    if x > 0:
        return 1.0
    elif x < 0:
        return -1.0
    return 0.0


def _kd(a):
    return kd.asarray(a) if isinstance(a, np.ndarray) else a


def _host(func, args, **options):
    """np.vectorize's result and kdsl's (its PerformanceWarning checked), for the same arguments."""
    want = np.vectorize(func, **options)(*args)
    with pytest.warns(kd.PerformanceWarning, match="host"):
        got = kd.vectorize(func, **options)(*[_kd(a) for a in args])
    return want, got


def _same(got, want):
    assert isinstance(got, kd.Array) and got.shape == want.shape
    assert got.numpy().dtype == want.dtype
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("func,args", [
    (sign_word, (X,)),
    (sign_word, (X.T,)),
    (lambda x: math.sin(x) if x > 0 else math.cos(x), (X[:, ::2],)),
    (lambda x: math.floor(x), (X,)),
    (lambda x: TABLE[x], (I,)),
    (TABLE.get, (I[::-1, 1:],)),
    (lambda x: int(x) * 2, (X,)),
    (lambda x: float(x) / 3, (I,)),
    (lambda x, y: x if x > y else y * 2, (X, X[0])),          # broadcasting of two inputs
    (lambda x, y, z: x + y if z else x - y, (I, np.arange(3), np.array([[True], [False]]))),
])
def test_control_flow_matches_np_vectorize(func, args):
    want, got = _host(func, args)
    _same(got, want)


@pytest.mark.parametrize("func,args", [
    (lambda x: 1 if x else 0, (np.array(2.5, np.float32),)),
    (lambda x: math.sin(x) if x > 0 else -1.0, (np.array(-2.0),)),
    (lambda x: TABLE[x], (np.array(4),)),
    (lambda x: 1 if x else 0, (3,)),  # a Python scalar
    (lambda x, y: x if x > y else y, (np.array(1.5), np.array([[1.0], [2.0]]))),  # 0-d with 2-D: the fallback
])
def test_0d_inputs_match_np_vectorize(func, args):
    # a single element is concrete (Python reads a 0-d kdsl array's value), so it needs no fallback
    want = np.vectorize(func)(*args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kd.PerformanceWarning)
        _same(kd.vectorize(func)(*[_kd(a) for a in args]), want)


@pytest.mark.parametrize("otypes", [[np.float32], "d", [np.int32], [kd.float32]])
def test_otypes(otypes):
    np_otypes = [np.float32] if otypes == [kd.float32] else otypes
    want = np.vectorize(sign_word, otypes=np_otypes)(X)
    with pytest.warns(kd.PerformanceWarning):
        got = kd.vectorize(sign_word, otypes=otypes)(kd.asarray(X))
    _same(got, want)


@pytest.mark.parametrize("shape", [(0,), (0, 3), (2, 0)])
def test_empty_inputs(shape):
    data = np.zeros(shape, np.float32)
    want, got = _host(sign_word, (data,), otypes=[np.float64])
    _same(got, want)
    # without otypes NumPy refuses size-0 inputs (it cannot call the function to learn the dtype), as kdsl does
    with pytest.raises(ValueError, match="otypes"):
        np.vectorize(sign_word)(data)
    with pytest.raises(ValueError, match="otypes"), warnings.catch_warnings():
        warnings.simplefilter("ignore", kd.PerformanceWarning)
        kd.vectorize(sign_word)(kd.asarray(data))


def test_several_outputs_are_a_tuple():
    func = lambda x: (x, -x) if x > 0 else (0.0, 1)  # noqa: E731
    want, got = _host(func, (X,))
    assert isinstance(got, tuple) and len(got) == len(want) == 2
    for g, w in zip(got, want, strict=True):
        _same(g, w)
    want, got = _host(func, (X,), otypes=[np.float64, np.int64])
    for g, w in zip(got, want, strict=True):
        _same(g, w)


@pytest.mark.parametrize("excluded,call", [
    ({1}, lambda f, x: f(x, {0: 1.0, 1: 2.0})),
    ({"table"}, lambda f, x: f(x, table={0: 1.0, 1: 2.0})),
])
def test_excluded_arguments_are_passed_unchanged(excluded, call):
    def lookup(x, table):
        return table.get(int(x) % 2, -1.0)
    want = call(np.vectorize(lookup, excluded=excluded), I)
    with pytest.warns(kd.PerformanceWarning):
        got = call(kd.vectorize(lookup, excluded=excluded), kd.asarray(I))
    _same(got, want)


def test_keyword_inputs_and_cache():
    func = lambda x, y=0: x if x > y else y  # noqa: E731
    want = np.vectorize(func, cache=True)(I, y=np.array([2, 0, 4]))
    with pytest.warns(kd.PerformanceWarning):
        got = kd.vectorize(func, cache=True)(kd.asarray(I), y=kd.asarray(np.array([2, 0, 4])))
    _same(got, want)


def test_the_warning_comes_once_per_vectorized_function():
    f = kd.vectorize(sign_word)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            f(kd.asarray(X))
        kd.vectorize(sign_word)(kd.asarray(X))  # a new vectorized function warns again
    assert [w.category for w in caught] == [kd.PerformanceWarning] * 2
    message = str(caught[0].message)
    assert "element by element on the host" in message
    assert all(name in message for name in ("kd.where", "kd.select", "kd.searchsorted"))
    assert caught[0].filename == __file__  # it points at the user's call
    assert issubclass(kd.PerformanceWarning, RuntimeWarning)


def test_the_warning_can_be_an_error():
    with warnings.catch_warnings():
        warnings.simplefilter("error", kd.PerformanceWarning)
        with pytest.raises(kd.PerformanceWarning):
            kd.vectorize(sign_word)(kd.asarray(X))


def checked_sqrt(x):
    if x < 0:
        raise ValueError(f"negative input {x}")
    return math.sqrt(x)


@pytest.mark.parametrize("func,args,error,match", [
    (checked_sqrt, (X,), ValueError, "negative input -2.0"),
    (lambda x: 1 / int(x), (I,), ZeroDivisionError, "division"),
    (lambda x: TABLE[x + 100], (I,), KeyError, "100"),
    (lambda x: 1 // 0, (I,), ZeroDivisionError, "division"),       # fails while tracing: no fallback
    (lambda x, y: x + y, (I,), TypeError, "argument"),              # a wrong argument count: no fallback
])
def test_the_functions_own_errors_propagate_as_numpys(func, args, error, match):
    with pytest.raises(error, match=match):
        np.vectorize(func)(*args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kd.PerformanceWarning)
        with pytest.raises(error, match=match):
            kd.vectorize(func)(*[_kd(a) for a in args])


def test_traced_functions_stay_lazy_and_silent(monkeypatch):
    from kdsl.engine.programs import stats

    def no_host(self):
        raise AssertionError("a traceable function was computed on the host")

    a = kd.asarray(X)
    before = stats["downloads"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        monkeypatch.setattr(kd.Array, "numpy", no_host)
        out = [kd.vectorize(lambda x, y: kd.where(x > y, x, y * 2))(a, a[0]),
               kd.vectorize(lambda x: (x * 2, x > 0))(a)[0],
               kd.frompyfunc(lambda x: kd.sin(x) + 1, 1, 1)(a)]
        monkeypatch.undo()
    assert stats["downloads"] == before
    np.testing.assert_array_equal(out[0].numpy(), np.where(X > X[0], X, X[0] * 2))
    np.testing.assert_allclose(out[2].numpy(), np.sin(X) + 1, rtol=1e-6)


@pytest.mark.parametrize("func,nin,nout,args", [
    (lambda a: a if a else -1, 1, 1, (I,)),
    (lambda a, b: math.hypot(a, b), 2, 1, (X, X[1])),
    (lambda a: (a, -a) if a > 0 else (0, 0), 1, 2, (I.T,)),
    (lambda a, b: TABLE[a] if b else 0, 2, 1, (np.array(3), np.array([True, False]))),
])
def test_frompyfunc_falls_back_with_numeric_results(func, nin, nout, args):
    want = np.frompyfunc(func, nin, nout)(*args)
    with pytest.warns(kd.PerformanceWarning, match="frompyfunc"):
        got = kd.frompyfunc(func, nin, nout)(*[_kd(a) for a in args])
    wants, gots = (want, got) if nout > 1 else ((want,), (got,))
    assert len(gots) == nout
    for g, w in zip(gots, wants, strict=True):
        w = np.array(np.asarray(w).tolist())
        assert g.shape == w.shape and g.numpy().dtype == w.dtype
        np.testing.assert_array_equal(g.numpy(), w)


def test_text_inputs_run_numpys_loop_and_upload_numbers():
    # porting19: np.vectorize(codes.get, otypes=[int])(labels) raised "dtype <U1 is not supported by kdsl"
    codes = {"a": 1, "b": 2}
    got = kd.vectorize(lambda s: codes.get(s, 0), otypes=[int])(["a", "b", "z"])
    assert isinstance(got, kd.Array) and got.tolist() == [1, 2, 0]
    assert kd.vectorize(len)(np.array(["ab", "c"])).tolist() == [2, 1]
    assert kd.frompyfunc(lambda s, k: s.count(k), 2, 1)(["aab", "b"], "a").tolist() == [2, 0]
    with pytest.raises(TypeError, match="return integer codes"):  # text results stay NumPy's: the way out named
        kd.vectorize(str.upper)(["a", "b"])
