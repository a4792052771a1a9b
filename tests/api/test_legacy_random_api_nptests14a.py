"""The legacy kd.random API against NumPy's: RandomState.choice / kd.random.choice take an int or a 1-d array
(no axis=), RandomState.multinomial one 1-d pvals, and the module's kd.random.uniform raises NumPy's legacy
OverflowError for a range that is not finite (it drew NaN)."""

import numpy as np
import pytest

import kdsl as kd


def _outcome(call):
    """('raise', type) or ('ok', shape, dtype kind) of a call."""
    try:
        r = call()
    except (ValueError, TypeError, OverflowError) as e:
        return ("raise", type(e))
    return ("ok", np.shape(r), np.asarray(r).dtype.kind)


LEGACY = [
    lambda r: r.choice(np.zeros((2, 2)), 3), lambda r: r.choice([[1, 2], [3, 4]]), lambda r: r.choice(5, 3, axis=0),
    lambda r: r.choice(np.arange(6.0)[::2], (2, 2)), lambda r: r.choice(5, 0), lambda r: r.choice(4, 4, replace=False),
    lambda r: r.choice(5, 6, replace=False), lambda r: r.choice(3, p=[0.2, 0.3, 0.5]),
    lambda r: r.multinomial(10, [[0.5, 0.5]]), lambda r: r.multinomial(10, 5),
    lambda r: r.multinomial(10, [0.5, 0.5], 3),
    lambda r: r.multinomial(10, np.array([0.2, 0.0, 0.8])[::-1], (2, 1)), lambda r: r.multinomial(0, [1.0]),
    lambda r: r.uniform(-np.inf, 0), lambda r: r.uniform(0, np.nan, 3), lambda r: r.uniform(2, 1, (2, 0)),
    lambda r: r.uniform(-1e308, 1e308),
]


@pytest.mark.parametrize("call", LEGACY)
@pytest.mark.parametrize("module", [False, True])
def test_legacy_calls_as_numpy(call, module):
    """RandomState methods and the module functions (the global RandomState) give NumPy's outcome."""
    want = _outcome(lambda: call(np.random if module else np.random.RandomState(1)))
    got = _outcome(lambda: call(kd.random if module else kd.random.RandomState(1)))
    assert got == want


def test_generator_choice_keeps_rows():
    """The Generator's choice still samples rows of a 2-d array (axis=0), as NumPy's Generator."""
    x = kd.random.default_rng(0).choice(np.array([[1, 2], [3, 4]]), 5)
    assert x.shape == (5, 2) and set(map(tuple, x.numpy().tolist())) <= {(1, 2), (3, 4)}


def test_legacy_reversed_uniform_module_function():
    x = kd.random.uniform(3.0, 1.0, size=500).numpy()
    assert (x > 1.0).all() and (x <= 3.0).all()
