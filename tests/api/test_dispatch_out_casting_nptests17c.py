"""NumPy functions and ufuncs dispatched to kdsl with ``out=`` a kdsl array check the cast into ``out`` as NumPy
does (``np.clip(a, 0, 1, out=int_out)`` raises without ``casting=``): kdsl's own function takes ``out``, so
NumPy's casting rule (same_kind for ufuncs and concatenate) and its shape checks apply. Functions NumPy casts
into ``out`` unsafely (sum, mean, cumsum) still do."""

import numpy as np
import pytest

import kdsl as kd


def _inputs(kind):
    """NumPy or kdsl inputs: both dispatch to kdsl once ``out`` is a kdsl array."""
    return (lambda x: np.asarray(x)) if kind == "numpy" else (lambda x: kd.asarray(np.asarray(x)))


CALLS = {  # name: (call(inputs, out), result shape)
    "clip": (lambda a, out: np.clip(a([1.5, np.nan, -np.inf]), 0, 1, out=out), (3,)),
    "clip_2d": (lambda a, out: np.clip(a([[1.5, 2.5]]), 0, 2, out=out), (1, 2)),
    "add": (lambda a, out: np.add(a([1.5, 2.5]), 1, out=out), (2,)),
    "sqrt": (lambda a, out: np.sqrt(a(np.ones((2, 1))), out=out), (2, 1)),
    "matmul": (lambda a, out: np.matmul(a(np.ones((2, 2))), a(np.ones((2, 2))), out=out), (2, 2)),
    "concatenate": (lambda a, out: np.concatenate([a([1.5]), a([0.5])], out=out), (2,)),
    "around": (lambda a, out: np.around(a([1.5, 2.5]), out=out), (2,)),
}


@pytest.mark.parametrize("kind", ["numpy", "kdsl"])
@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("out_dtype", [np.int32, np.uint8, np.bool_])
def test_float_into_int_out_raises_as_numpy(kind, name, out_dtype):
    call, shape = CALLS[name]
    with pytest.raises(TypeError):
        call(_inputs("numpy"), np.zeros(shape, out_dtype))  # NumPy's own rule
    out = kd.zeros(shape, dtype=out_dtype)
    with pytest.raises(TypeError):
        call(_inputs(kind), out)
    assert not np.asarray(out).any()  # nothing written


@pytest.mark.parametrize("kind", ["numpy", "kdsl"])
@pytest.mark.parametrize("name", sorted(CALLS))
def test_same_kind_out_is_written(kind, name):
    """float64 results into a float32 out (same kind) are written, as NumPy's, views included."""
    call, shape = CALLS[name]
    expected = np.zeros(shape, np.float32)
    call(_inputs("numpy"), expected)
    base = kd.zeros((2,) + shape, dtype=kd.float32)
    out = base[1]
    result = call(_inputs(kind), out)
    assert result is out
    np.testing.assert_array_equal(np.asarray(base[1]), expected)
    np.testing.assert_array_equal(np.asarray(base[0]), np.zeros(shape, np.float32))


def test_unsafe_casting_and_numpy_unsafe_functions():
    out = kd.zeros(3, dtype=kd.int32)
    np.clip(np.array([1.5, 2.5, 9.0]), 2, 3, out=out, casting="unsafe")
    assert np.asarray(out).tolist() == [2, 2, 3]
    total = kd.zeros((), dtype=kd.int32)
    np.sum(np.array([1.5, 2.0]), out=total)  # reductions cast into out unsafely in NumPy too
    assert int(total) == int(np.sum(np.array([1.5, 2.0]), out=np.zeros((), np.int32)))
    csum = kd.zeros(2, dtype=kd.int32)
    np.cumsum(kd.asarray([1.5, 2.0]), out=csum)
    assert np.asarray(csum).tolist() == np.cumsum([1.5, 2.0], out=np.zeros(2, np.int32)).tolist()


def test_out_shape_mismatch_raises():
    with pytest.raises(ValueError):
        np.add(np.ones(2), 1, out=kd.zeros(3, dtype=kd.float32))
    with pytest.raises(ValueError):
        np.clip(np.ones((0, 2)), 0, 1, out=kd.zeros((2, 0), dtype=kd.float32))
    empty = kd.zeros((0, 2), dtype=kd.float32)
    assert np.clip(np.ones((0, 2)), 0, 1, out=empty).shape == (0, 2)
