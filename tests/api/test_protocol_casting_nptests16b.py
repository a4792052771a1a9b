"""NumPy's ufunc keywords through the dispatch protocols: ``ndarray.clip(..., out=kd_array, casting=...)`` and
``np.add(kd_array, ..., casting=, order=, subok=, signature=)`` reach kdsl's ufunc (they raised "does not take
['casting']"), and ``np.clip(..., out=, casting=)`` checks the cast into ``out`` under that rule as NumPy does
(NumPy's test_numeric.py TestClip: test_simple_int32_out, test_clip_with_out_array_int32)."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd


def _outcome(call):
    try:
        return call()
    except TypeError as e:  # UFuncTypeError is a TypeError
        return TypeError if "cast" in str(e) else e


@pytest.mark.parametrize("casting", ["unsafe", "same_kind", "safe"])
@pytest.mark.parametrize("out_dtype", ["int32", "int64", "float32", "float64"])
@pytest.mark.parametrize("shape", [(5, 3), (0,), (1, 4)])
def test_clip_into_out_under_casting(casting, out_dtype, shape):
    a = np.linspace(-2.0, 3.0, int(np.prod(shape))).reshape(shape)
    want = _outcome(lambda: np.clip(a, -1.0, 2.0, out=np.zeros(shape, out_dtype), casting=casting))
    for call in (lambda o: np.clip(a, -1.0, 2.0, out=o, casting=casting),
                 lambda o: a.clip(-1.0, 2.0, out=o, casting=casting)):
        out = kd.zeros(shape, dtype=out_dtype)
        got = _outcome(lambda: call(out))  # noqa: B023 - called at once
        if want is TypeError:
            assert got is TypeError
        else:
            assert got is out
            np.testing.assert_array_equal(out.numpy(), want)


def test_clip_of_a_strided_kdsl_array_with_nan():
    a = np.array([[np.nan, -5.0, 1.5], [np.inf, 0.5, -np.inf]])
    k = kd.asarray(a)[:, ::2]
    out = kd.zeros((2, 2), dtype="float32")
    np.clip(k, -1.0, 1.0, out=out, casting="same_kind")
    np.testing.assert_array_equal(out.numpy(), np.clip(a[:, ::2], -1.0, 1.0).astype(np.float32))


@pytest.mark.parametrize("kw", [dict(casting="unsafe"), dict(order="C"), dict(subok=True), dict(casting="same_kind")])
def test_ufunc_rule_keywords_pass_through(kw):
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    want = np.add(x, 3, **kw)
    got = np.add(kd.asarray(x), 3, **kw)
    assert isinstance(got, kd.Array)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.numpy(), want)


def test_ufunc_out_cast_under_casting():
    x = np.arange(4, dtype=np.int32)
    out = kd.zeros(4, dtype="int32")
    want = np.add(x, 1.5, out=np.zeros(4, np.int32), casting="unsafe")
    got = np.add(kd.asarray(x), 1.5, out=out, casting="unsafe")
    assert got is out
    np.testing.assert_array_equal(out.numpy(), want)
    with pytest.raises(TypeError):
        np.add(x, 1.5, out=np.zeros(4, np.int32), casting="same_kind")
    with pytest.raises(TypeError):
        np.add(kd.asarray(x), 1.5, out=out, casting="same_kind")
