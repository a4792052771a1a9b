"""kd.cov checks kdsl-array ``fweights``/``aweights`` as NumPy checks any weights: non-integral frequency weights
(NaN included) raise TypeError, negative weights ValueError, wrong shapes RuntimeError, weights summing to zero
ZeroDivisionError, in NumPy's order (only host weights were checked before, and not for a zero sum; kdsl arrays
gave -inf/inf or fractional "frequencies" silently, a zero sum NaN)."""

import warnings

import numpy as np
import pytest

import kdsl as kd

X = np.array([[0.0, 2.0, 1.0, 4.0], [1.0, 1.0, 3.0, 0.5], [2.0, 0.0, -1.0, 2.5]]).T


def _outcome(f):
    """The result as a NumPy array, or the exception's type and message."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return np.asarray(f())
    except (TypeError, ValueError, RuntimeError, ZeroDivisionError) as e:
        return type(e), str(e)


def _same(want, got):
    if isinstance(want, tuple):
        assert got == want
    else:
        np.testing.assert_allclose(got, want, rtol=1e-6)


BAD_FWEIGHTS = [[1.5, 2.0, 1.0], [1, -1, 2], [np.nan, 1.0, 1.0], [1.0, -np.inf, 1.0], [[1, 1, 1]], [1, 1],
                [0.5, 1], [-1, -1]]


def _whole(fw) -> bool:
    host = np.asarray(fw, np.float64)
    return bool(np.all(np.isfinite(host) & (host == np.round(host))))


# int64 weights only for the bad weights an integer can hold (fractions and NaN have no int64 form)
@pytest.mark.parametrize("fw, wdtype", [(fw, d) for fw in BAD_FWEIGHTS for d in (np.float64, np.float32, np.int64)
                                        if d is not np.int64 or _whole(fw)], ids=str)
def test_fweights_checked(fw, wdtype):
    w = np.asarray(fw, np.float64).astype(wdtype)
    want = _outcome(lambda: np.cov(X, fweights=w))
    assert isinstance(want, tuple)
    _same(want, _outcome(lambda: kd.cov(kd.asarray(X), fweights=kd.asarray(w))))
    _same(want, _outcome(lambda: kd.cov(kd.asarray(X), fweights=w)))


@pytest.mark.parametrize("aw", [[-1.0, 1.0, 1.0], [1.0, 2.0], [[1.0, 2.0, 3.0]], [-0.5, 1]], ids=str)
@pytest.mark.parametrize("wdtype", [np.float64, np.float32])
def test_aweights_checked(aw, wdtype):
    w = np.asarray(aw, wdtype)
    want = _outcome(lambda: np.cov(X, aweights=w))
    assert isinstance(want, tuple)
    _same(want, _outcome(lambda: kd.cov(kd.asarray(X), aweights=kd.asarray(w))))


@pytest.mark.parametrize("xdtype", [np.float32, np.float64])
@pytest.mark.parametrize("fdtype", [np.int32, np.int64, np.float64, np.uint8, np.bool_])
def test_valid_weights_unchanged(xdtype, fdtype):
    x = X.astype(xdtype)
    fw = np.array([1, 3, 2]).astype(fdtype)
    aw = np.array([0.5, 0.0, 2.0])
    want = np.cov(x, fweights=fw.copy(), aweights=aw)  # NumPy 2.4 multiplies float64 fweights in place
    got = kd.cov(kd.asarray(x), fweights=kd.asarray(fw), aweights=kd.asarray(aw))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5)


def test_non_contiguous_and_size_one_weights():
    w = np.array([[2.0, 9.0], [1.5, 9.0], [1.0, 9.0]])
    want = _outcome(lambda: np.cov(X, fweights=w[:, 0]))
    _same(want, _outcome(lambda: kd.cov(kd.asarray(X), fweights=kd.asarray(w)[:, 0])))
    one = np.array([[1.0, 2.0]])
    for fw in ([1.5], [-2], [2]):
        want = _outcome(lambda fw=fw: np.cov(one, fweights=fw))
        _same(want, _outcome(lambda fw=fw: kd.cov(kd.asarray(one), fweights=kd.asarray(np.array(fw)))))


def test_empty_weights():
    empty = np.zeros((2, 0))
    for kw in ({"fweights": np.zeros(0, np.int64)}, {"fweights": np.zeros(0)}):
        want = _outcome(lambda kw=kw: np.cov(empty, **kw))
        got = _outcome(lambda kw=kw: kd.cov(kd.asarray(empty), **{k: kd.asarray(v) for k, v in kw.items()}))
        assert got == want
    for fw in (np.zeros((0, 2)), np.full((1, 2), 0.5)):  # fractional first, then the shape
        want = _outcome(lambda fw=fw: np.cov(empty, fweights=fw))
        assert _outcome(lambda fw=fw: kd.cov(kd.asarray(empty), fweights=kd.asarray(fw))) == want


@pytest.mark.parametrize(("fw", "aw"), [(None, [0.0, 0.0, 0.0]), ([0, 0, 0], None), ([1, 0, 2], [0.0, 1.0, 0.0]),
                                      ([0, 2, 0], [-0.0, 0.0, 1.0]), (None, [np.nan, 1.0, 1.0])])
@pytest.mark.parametrize("on_device", [True, False])
def test_zero_sum(fw, aw, on_device):
    conv = kd.asarray if on_device else list
    want = _outcome(lambda: np.cov(X, fweights=fw, aweights=aw))
    got = _outcome(lambda: kd.cov(kd.asarray(X), fweights=None if fw is None else conv(np.array(fw)),
                                  aweights=None if aw is None else conv(np.array(aw))))
    _same(want, got)
