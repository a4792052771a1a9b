"""kd.vectorize and kd.frompyfunc: the function runs once on whole arrays; values and dtypes as NumPy's
per-element loop; Python control flow falls back to NumPy's loop on the host (test_vectorize_host_fallback.py)."""

import math

import numpy as np
import pytest

import kdsl as kd

X = np.array([[1.5, -2.0, 0.0], [3.0, -0.0, 7.25]], np.float32)
I = np.arange(6, dtype=np.int32).reshape(2, 3)


@pytest.mark.parametrize("func,args", [
    (lambda x, y: x * 2 + y, (X, 1.0)),
    (lambda x, y: x * 2 + y, (I, I[0])),
    (lambda x: x > 0, (X,)),
    (lambda x: np.sqrt(np.abs(x)), (X,)),
    (lambda x, y: np.maximum(x, y), (X[:, ::2], X[0, ::2])),
    (lambda x: 3, (I,)),
    (lambda x, y: x - y, (I.T, 2)),
    (lambda x: x, (np.zeros((0, 2), np.float32),)),
    (lambda x: round(x, 1) + abs(x), (X,)),
])
def test_vectorize_matches_numpy(func, args):
    # size 0 needs otypes in both (NumPy's ValueError without: test_leftovers22.py)
    otypes = None if all(np.size(a) for a in args if isinstance(a, np.ndarray)) else [np.float32]
    want = np.vectorize(func, otypes=otypes)(*args)
    got = kd.vectorize(func, otypes=otypes)(*[kd.asarray(a) if isinstance(a, np.ndarray) else a for a in args])
    assert isinstance(got, kd.Array) and got.shape == want.shape
    if want.size:
        assert got.numpy().dtype == want.dtype
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


def test_otypes_excluded_multiple_outputs_and_decorator():
    a = kd.asarray(I)
    got = kd.vectorize(lambda x: x / 2, otypes=[np.float64])(a)
    np.testing.assert_array_equal(got.numpy(), np.vectorize(lambda x: x / 2, otypes=[np.float64])(I))
    assert got.dtype is kd.float64
    f = kd.vectorize(lambda x, p: x ** p[0], excluded={1})
    np.testing.assert_array_equal(f(a, [2]).numpy(), I ** 2)
    q, r = kd.vectorize(lambda x: (x // 4, x % 4))(a)
    nq, nr = np.vectorize(lambda x: (x // 4, x % 4))(I)
    np.testing.assert_array_equal(q.numpy(), nq) and np.testing.assert_array_equal(r.numpy(), nr)

    @kd.vectorize
    def double(x):
        """Doubles."""
        return x * 2
    assert double.__doc__ == "Doubles." and double.__name__ == "double"
    np.testing.assert_array_equal(double(a).numpy(), I * 2)
    np.testing.assert_array_equal(kd.vectorize(otypes="d")(lambda x: x + 1)(a).numpy(), (I + 1).astype(np.float64))


@pytest.mark.parametrize("func", [lambda x: 1.0 if x > 0 else 0.0, lambda x: math.sin(x), lambda x: int(x) + 1,
                                  lambda x: x > 0 and x < 2, lambda x: [0, 1, 2][x], {0: 5, 1: 6}.get,
                                  lambda x: {0: 5, 1: 6}[x]])
def test_control_flow_runs_numpys_loop_warning_with_kd_where(func):
    want = np.vectorize(func)(np.array([0, 1]))
    with pytest.warns(kd.PerformanceWarning, match="kd.where"):
        got = kd.vectorize(func)(kd.asarray([0, 1]))
    np.testing.assert_array_equal(got.numpy(), want)


def test_other_errors_pass_through():
    with pytest.raises(ZeroDivisionError):
        kd.vectorize(lambda x: 1 // 0)(kd.asarray([1]))


def test_frompyfunc():
    f = kd.frompyfunc(lambda a, b: a * b + 1, 2, 1)
    want = np.frompyfunc(lambda a, b: a * b + 1, 2, 1)(I, 3).astype(np.int32)
    np.testing.assert_array_equal(f(kd.asarray(I), 3).numpy(), want)
    g = kd.frompyfunc(lambda a: (a, -a), 1, 2)
    p, m = g(kd.asarray(X))
    np.testing.assert_array_equal(m.numpy(), -X)
    with pytest.raises(TypeError, match="takes 2"):
        f(kd.asarray(I))
    with pytest.raises(ValueError, match="nout"):
        kd.frompyfunc(lambda a: a, 1, 2)(kd.asarray(I))
    with pytest.warns(kd.PerformanceWarning, match="kd.where"):
        host = kd.frompyfunc(lambda a: a if a else 0, 1, 1)(kd.asarray(I))
    np.testing.assert_array_equal(host.numpy(), np.frompyfunc(lambda a: a if a else 0, 1, 1)(I).astype(int))


def test_vectorize_and_piecewise_stay_lazy():
    from kdsl.engine.programs import stats

    a = kd.asarray(X)
    before = stats["downloads"]
    out = [kd.vectorize(lambda x: x * 2 + 1)(a), kd.frompyfunc(lambda x, y: x - y, 2, 1)(a, a.T.T),
           kd.piecewise(a, [a < 0, a > 1], [lambda v: -v, 1.0, lambda v: v * 0.5])]
    assert stats["downloads"] == before and all(isinstance(x, kd.Array) for x in out)


@pytest.mark.parametrize("func", [lambda s: len(str(s)), lambda s: (len(repr(s)), s * 2), lambda s: len(f"{s}")])
def test_python_value_of_the_whole_array_runs_numpys_loop(func):
    # str(x) of the whole array is the whole array's text: broadcasting its length was silently wrong
    a = np.array([1, 22, 333])
    want = np.vectorize(func)(a)
    with pytest.warns(kd.PerformanceWarning, match="Python value for whole arrays"):
        got = kd.vectorize(func)(kd.asarray(a))
    for g, w in zip(got if isinstance(got, tuple) else [got], want if isinstance(want, tuple) else [want],
                    strict=True):
        np.testing.assert_array_equal(g.numpy(), w)
