"""Lengths, counts and axes computed from data: ``k = y.max() + 1`` is a 0-d kdsl array where NumPy has a
scalar, and NumPy takes both (and ``np.int64``) wherever an int goes (``__index__``). kdsl must too: shapes,
``eye``/``tri`` sizes, ``tile``/``split`` counts, histogram bin counts, ``choice(k)``, fft lengths, matrix
powers and axes; floats and bools stay refused."""

import numpy as np
import pytest

import kdsl as kd

CASES = {
    "zeros": lambda m, k: m.zeros(k), "ones2": lambda m, k: m.ones((2, k)), "full": lambda m, k: m.full((k,), 1),
    "reshape": lambda m, k: m.zeros(8).reshape(k, -1), "eye": lambda m, k: m.eye(k),
    "eye_nm": lambda m, k: m.eye(3, k), "identity": lambda m, k: m.identity(k), "tri": lambda m, k: m.tri(k, 2),
    "tile": lambda m, k: m.tile(m.arange(2), k), "split": lambda m, k: m.split(m.arange(8), k),
    "array_split": lambda m, k: m.array_split(m.arange(7), k), "histogram": lambda m, k: m.histogram(
        m.arange(9.0), bins=k), "bin_edges": lambda m, k: m.histogram_bin_edges(m.arange(9.0), bins=k),
    "fft_n": lambda m, k: m.fft.fft(m.arange(6.0), n=k), "rfft_n": lambda m, k: m.fft.rfft(m.arange(3.0), n=k),
    "matrix_power": lambda m, k: m.linalg.matrix_power(m.asarray([[1.0, 1.0], [0.0, 1.0]]), k),
    "sum_axis": lambda m, k: m.ones((3, 4, 5)).sum(axis=k - 3), "moveaxis": lambda m, k: m.moveaxis(
        m.ones((2, 3, 4)), k - 4, 0), "expand_dims": lambda m, k: m.expand_dims(m.ones(2), k - 4),
    "argmax_axis": lambda m, k: m.argmax(m.arange(12).reshape(3, 4), axis=k - 3),
    "arange": lambda m, k: m.arange(k), "linspace": lambda m, k: m.linspace(0, 1, k),
}


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("kind", ["kdsl_0d", "np_int64", "np_int32_0d"])
def test_data_dependent_lengths(name, kind):
    labels = np.array([1, 3, 0, 2])
    k_np = labels.max() + 1  # NumPy: an np.int64 scalar, 4
    k = {"kdsl_0d": kd.asarray(labels).max() + 1, "np_int64": np.int64(4), "np_int32_0d": np.array(4, np.int32)}[kind]
    want = CASES[name](np, k_np)
    got = CASES[name](kd, k)
    for g, w in zip(got if isinstance(got, (list, tuple)) else [got], want if isinstance(want, (list, tuple))
                    else [want], strict=True):
        g = g.numpy() if isinstance(g, kd.Array) else g
        assert np.shape(g) == np.shape(w)
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def test_choice_of_a_0d_count():
    k = kd.asarray([1, 3, 0, 2]).max() + 1
    draws = kd.random.default_rng(0).choice(k, size=50)
    assert draws.shape == (50,) and 0 <= int(draws.min()) and int(draws.max()) < 4


@pytest.mark.parametrize("call", [lambda: kd.zeros(kd.asarray(2.0)), lambda: kd.eye(kd.asarray([2])),
                                  lambda: kd.ones(3).sum(axis=True), lambda: kd.ones(3).sum(axis=0.0),
                                  lambda: kd.linalg.matrix_power(kd.eye(2), 2.0),
                                  lambda: kd.tri(kd.asarray(2.5))])
def test_non_integers_stay_refused(call):
    with pytest.raises(TypeError):
        call()


def test_non_integer_fft_length_is_refused():
    with pytest.raises(ValueError, match="n must be a positive int"):
        kd.fft.fft(kd.ones(4), n=2.5)
