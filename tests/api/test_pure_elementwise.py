"""`pure_elementwise.is_pure_elementwise`: which functions kd.piecewise may call once on the whole array (their
call count is unobservable and their values are NumPy's at every selected place); any other function is called as
NumPy calls it."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.frontend.array.pure_elementwise import is_pure_elementwise

K = 3
ARR = np.ones(3)
CALLS: list[int] = []


def _recording(v):
    CALLS.append(1)
    return v * 2


def _two_lines(v):
    w = v * 2
    return w + 1


PURE = [lambda v: v * v, lambda v, k=1: 1 - np.abs(v) * k + np.pi, lambda v: v * K, lambda v: kd.sqrt(v) ** 2,
        lambda v: -v, lambda t: t ** 2, lambda v: v > 0, lambda v: np.add(v, 1), lambda v, w: np.hypot(v, w),
        np.sin, kd.exp, lambda v: ~(v > 1)]
NOT_PURE = [lambda v: v * ARR, lambda v: v - v.mean(), lambda v: np.add(v, 1, v), lambda v: np.add(v, 1, out=v),
            _recording, _two_lines, lambda v: np.cumsum(v), lambda v: v[::-1], lambda v: v if v > 0 else 1,
            lambda v: np.linalg.norm(v), lambda v: v.astype(float), lambda v: kd.where(v > 0, v, 0),
            lambda v: np.float32(2) * v, lambda v: print(v) or v, lambda v: [v][0], lambda v: v.T,
            len, lambda v: (yield v), lambda v: v @ v, lambda v, w: np.matmul(v, w) * 2, kd.vecdot, np.matmul]


@pytest.mark.parametrize("func", PURE)
def test_pure(func):
    assert is_pure_elementwise(func)


@pytest.mark.parametrize("func", NOT_PURE)
def test_not_provably_pure(func):
    assert not is_pure_elementwise(func)


def test_pure_functions_keep_piecewise_lazy_and_match_numpy():
    from kdsl.engine.programs import stats

    host = np.array([-2.0, -0.5, 0.0, 0.5, 3.0], np.float32)
    x = kd.asarray(host)
    before = stats["downloads"]
    got = kd.piecewise(x, [x < 0, x > 1], [lambda v: -v, lambda v, k=1: 1 - np.abs(v) * k, np.sqrt])
    assert stats["downloads"] == before  # no selection size read back
    want = np.piecewise(host, [host < 0, host > 1], [lambda v: -v, lambda v, k=1: 1 - np.abs(v) * k, np.sqrt])
    np.testing.assert_array_equal(got.numpy(), want)
