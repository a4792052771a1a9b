"""Functions that NumPy answers with a new array even when nothing changes (conj of reals, positive, round of
ints, clip without bounds, pad by nothing): kdsl returned the input itself, so writing to the result changed
the input."""
import numpy as np
import pytest

import kdsl as kd

FUNCS = {
    "conj": lambda m, a: m.conj(a),
    "conjugate": lambda m, a: m.conjugate(a),
    "positive": lambda m, a: m.positive(a),
    "plus": lambda m, a: +a,
    "round": lambda m, a: m.round(a),
    "around": lambda m, a: m.around(a),
    "round_method": lambda m, a: a.round(),
    "clip_none": lambda m, a: m.clip(a, None, None),
    "clip_method": lambda m, a: a.clip(None, None),
    "clip_wide": lambda m, a: m.clip(a, -1000, 1000) if a.dtype == np.int8 else m.clip(a, None, None),
    "pad_zero": lambda m, a: m.pad(a, 0),
    "pad_edge": lambda m, a: m.pad(a, 0, mode="edge"),
    "pad_mean": lambda m, a: m.pad(a, 0, mode="mean"),
    "pad_odd": lambda m, a: m.pad(a, 0, mode="reflect", reflect_type="odd"),
}
INTEGER_ONLY = {"round", "around", "round_method"}  # floats were already new arrays


def _data(dtype, view):
    base = np.arange(24).reshape(4, 6).astype(dtype)
    return base[::2, 1::2] if view else base


@pytest.mark.parametrize("name", sorted(FUNCS))
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.float32])
@pytest.mark.parametrize("view", [False, True])
def test_result_is_a_new_array(name, dtype, view):
    data = _data(dtype, view)
    x = kd.asarray(_data(dtype, False))[::2, 1::2] if view else kd.asarray(data)
    want = FUNCS[name](np, data.copy())
    assert FUNCS[name](np, data) is not data
    y = FUNCS[name](kd, x)
    assert y is not x
    np.testing.assert_array_equal(np.asarray(y), want)
    y[...] = 7  # a write to the result must leave the input alone
    np.testing.assert_array_equal(np.asarray(x), data)


@pytest.mark.parametrize("shape", [(0,), (1,), (3, 1)])
def test_empty_and_size_one(shape):
    data = np.ones(shape, np.float32)
    for name in ("conj", "positive", "clip_none", "pad_zero"):
        y = FUNCS[name](kd, kd.asarray(data))
        np.testing.assert_array_equal(np.asarray(y), FUNCS[name](np, data))


def test_method_conj_of_reals_is_self_as_numpy():
    data = np.array([1.0, np.nan, -np.inf], np.float32)
    assert data.conj() is data
    x = kd.asarray(data)
    assert x.conj() is x and x.conjugate() is x
    z = kd.asarray(np.array([1 + 2j], np.complex64))
    np.testing.assert_array_equal(np.asarray(z.conj()), [1 - 2j])


def test_positive_of_bools_raises_as_numpy():
    for m in (np, kd):
        with pytest.raises(TypeError):
            m.positive(m.asarray([True, False]))
        with pytest.raises(TypeError):
            +m.asarray([True])  # noqa: B018
