"""kd.broadcast's signature and keyword refusal as np.broadcast's (NumPy's test_numeric.py TestBroadcast), and
its shape attributes on several operand kinds."""

import inspect

import numpy as np
import pytest

import kdsl as kd


def test_signature_is_numpys():
    sig = inspect.signature(kd.broadcast)
    assert sig == inspect.signature(np.broadcast)
    assert list(sig.parameters) == ["arrays"]
    assert sig.parameters["arrays"].kind is inspect.Parameter.VAR_POSITIONAL
    reset = inspect.signature(kd.broadcast.reset)
    assert [(p.name, p.kind) for p in reset.parameters.values()] == [("self", inspect.Parameter.POSITIONAL_ONLY)]


@pytest.mark.parametrize("kwargs", [{"x": 1}, {"arrays": [1, 2]}, {"subok": True}])
def test_keywords_are_a_value_error(kwargs):
    with pytest.raises(ValueError, match="keyword arguments not accepted"):
        np.broadcast(1, **kwargs)
    with pytest.raises(ValueError, match="keyword arguments not accepted"):
        kd.broadcast(1, **kwargs)


def test_empty_keywords_change_nothing():
    a = kd.ones((5, 6, 7))
    b, b2 = kd.broadcast(a), kd.broadcast(a, **{})  # noqa: PIE804 - the empty mapping is the test
    assert (b.shape, b.ndim, b.nd, b.numiter) == (b2.shape, b2.ndim, b2.nd, b2.numiter) == ((5, 6, 7), 3, 3, 1)


@pytest.mark.parametrize("shapes", [[(0,), (1,)], [(1,), (3, 1)], [(4, 1), (1, 5), ()], [(2, 0, 3), (3,)]])
@pytest.mark.parametrize("dtype", ["float32", "int16", "bool"])
def test_shapes_as_numpy(shapes, dtype):
    host = [np.zeros(s, dtype) for s in shapes]
    ref, got = np.broadcast(*host), kd.broadcast(*(kd.asarray(h) for h in host))
    assert (got.shape, got.ndim, got.size, got.numiter) == (ref.shape, ref.ndim, ref.size, ref.numiter)


def test_views_and_values():
    a = kd.asarray([[np.nan, 1.0, np.inf], [0.0, -1.0, 2.0]], dtype="float32")
    host = a.numpy()
    ref, got = np.broadcast(host.T, host[0, ::2]), kd.broadcast(a.T, a[0, ::2])
    assert got.shape == ref.shape == (3, 2)
    np.testing.assert_array_equal(np.array(list(got), dtype="float32"), np.array(list(ref), dtype="float32"))


def test_mismatch_is_numpys_error():
    with pytest.raises(ValueError, match=r"arg 0 with shape \(1, 3\) and arg 2 with shape \(2,\)"):
        kd.broadcast([[1, 2, 3]], [[4], [5]], [6, 7])
