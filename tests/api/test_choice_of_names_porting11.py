"""``rng.choice(names)`` with a population of strings (labels, words): kdsl arrays hold numbers, so it is a
TypeError that says what to do (draw indices, pick on the host), where it was a bare "cannot make a kdsl array
from data of dtype <U1"; numeric populations are unchanged (kdsl/frontend/array/permutation_sampling._population).
"""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("names", [["a", "b"], ("heads", "tails"), np.array(["x", "yy", "zzz"]), [b"ab", b"c"],
                                   ["a", 1]])
def test_strings_raise_with_the_index_recipe(names):
    for rng in (kd.random.default_rng(3), kd.random.RandomState(3)):
        with pytest.raises(TypeError, match=r"rng.choice\(len\(names\), size\)"):
            rng.choice(names, size=2)
    with pytest.raises(TypeError, match="draw indices"):
        kd.random.choice(names)


def test_the_recipe_works_and_numbers_are_unchanged():
    names = ["rock", "paper", "scissors"]
    rng = kd.random.default_rng(5)
    picks = [names[i] for i in rng.choice(len(names), 20).tolist()]
    assert len(picks) == 20 and set(picks) <= set(names)
    for pop in ([3.5, 7.25], (1, 2, 3), np.array([[1, 2], [3, 4], [5, 6]]), [True, False]):
        got = kd.random.default_rng(1).choice(pop, size=4).numpy()
        assert got.shape[0] == 4
        assert np.isin(got, np.asarray(pop)).all()
    empty = kd.random.default_rng(1).choice(np.zeros(0), size=0)
    assert empty.shape == (0,)
