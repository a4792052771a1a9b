"""kd.vectorize with a kdsl array among the ``excluded`` arguments, against np.vectorize: NumPy passes it whole to
each per-element call, so a function that reads it element by element (``x + a``) gets an array per call and
NumPy raises ValueError; kdsl's whole-array call broadcast ``a`` against ``x`` instead and returned a silently
different array where the shapes broadcast. Functions that reduce it, index one element of it or look values up
in it keep the one whole-array call."""

import warnings

import numpy as np
import pytest

import kdsl as kd

ELEMENTWISE_READS = [lambda x, a: x + a, lambda x, a: x * a[::-1], lambda x, a: np.sqrt(np.abs(a)) - x,
                     lambda x, a: np.where(x > 0, a, 0.0)]
WHOLE_READS = [lambda x, a: x + a.sum(), lambda x, a: x * a[0], lambda x, a: x * np.max(a) + np.min(a),
               lambda x, a: x - a.mean()]
EXCLUDED = [np.array([1.0, -2.0]), np.array([3.5]), np.array([[1.0, 2.0], [3.0, 4.0]])[:, 0],
            np.arange(6, dtype=np.float32).reshape(3, 2)[::2, 1]]


def _outcome(lib, func, x, a, by_name):
    vec = lib.vectorize(func, excluded={"a"} if by_name else {1})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # kdsl's PerformanceWarning (NumPy's loop on the host)
        try:
            out = vec(x, a=a) if by_name else vec(x, a)
        except ValueError as err:
            return ValueError, str(err)
    return np.asarray(out)


@pytest.mark.parametrize("by_name", [False, True])
@pytest.mark.parametrize("j", range(len(EXCLUDED)))
@pytest.mark.parametrize("f", ELEMENTWISE_READS + WHOLE_READS)
@pytest.mark.parametrize("x", [np.array([0.5, -1.0]), np.array(2.0), np.arange(4.0).reshape(2, 2)[:, ::-1]])
def test_excluded_array_is_passed_whole(x, f, j, by_name):
    a = EXCLUDED[j]
    want = _outcome(np, f, x, a, by_name)
    got = _outcome(kd, f, kd.asarray(x), kd.asarray(a), by_name)
    if isinstance(want, tuple):
        assert got == want
    else:
        assert not isinstance(got, tuple), got
        np.testing.assert_allclose(got, want, rtol=1e-6)
        assert got.shape == want.shape


def test_whole_reads_stay_lazy():
    from kdsl.engine.programs import stats

    a, x = kd.asarray([1.0, 2.0]), kd.asarray([3.0, 4.0])
    before = stats["downloads"]
    out = kd.vectorize(lambda v, w: v * w.sum(), excluded={1})(x, a)
    assert stats["downloads"] == before
    np.testing.assert_array_equal(out.numpy(), [9.0, 12.0])
