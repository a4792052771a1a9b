"""``isclose``/``allclose`` with a NaN or infinite ``rtol``/``atol`` warn as NumPy's ("One of rtol or atol is
not valid, atol: ..., rtol: ...", a RuntimeWarning under ``errstate(invalid='warn')``, the default; nothing
under ``'ignore'``); kdsl was silent. The results stay NumPy's."""

import warnings

import numpy as np
import pytest

import kdsl as kd


def _messages(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [str(w.message) for w in caught if w.category is RuntimeWarning]


TOLERANCES = [(1e-5, 1e-8), (np.inf, 1e-8), (1e-5, np.nan), (np.nan, np.inf), (np.float32(np.inf), 0.0),
              ([1e-5, np.nan, 0.0, 1.0], 0.0), (1e-5, np.array([0.0, -np.inf, 1.0, 0.0])), (0, 0)]


@pytest.mark.parametrize("tol", range(len(TOLERANCES)))
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_warns_and_compares_as_numpy(tol, dtype):
    rtol, atol = TOLERANCES[tol]
    a = np.array([1.0, np.nan, np.inf, -2.0]).astype(dtype) if dtype != "int32" else np.array([1, 2, 3, -2], dtype)
    b = np.array([1.0, np.nan, 1.0, -2.5], np.float32)
    want, want_messages = _messages(lambda: np.isclose(a, b, rtol=rtol, atol=atol))
    got, got_messages = _messages(lambda: kd.isclose(kd.asarray(a), kd.asarray(b), rtol=rtol, atol=atol))
    assert got_messages == want_messages
    np.testing.assert_array_equal(got.numpy(), want)


def test_allclose_and_views_and_empty():
    a = np.arange(6.0).reshape(2, 3)[:, ::2]
    _, want = _messages(lambda: np.allclose(a, a, atol=np.inf))
    got, messages = _messages(lambda: kd.allclose(kd.asarray(np.arange(6.0).reshape(2, 3))[:, ::2], a, atol=np.inf))
    assert messages == want and bool(got)
    _, messages = _messages(lambda: kd.isclose(kd.zeros((0, 1)), 1.0, rtol=np.nan))
    assert len(messages) == 1


def test_errstate_ignore_is_silent():
    with kd.errstate(invalid="ignore"):
        _, messages = _messages(lambda: kd.isclose(kd.ones(2), 1.0, atol=np.inf))
    assert messages == []


def test_print_mode(capsys):
    with kd.errstate(invalid="print"):
        kd.isclose(kd.ones(2), 1.0, rtol=np.nan)
    assert "One of rtol or atol is not valid, atol: 1e-08, rtol: nan" in capsys.readouterr().out
