"""``kd.linalg.multi_dot`` against NumPy for operands that are not matrices: two arrays are ``dot``'s whatever
their dimensions (kdsl raised ValueError for a 3-d one), a chain of three or more refuses an n-d link with
NumPy's ``LinAlgError`` (kdsl: a ValueError that ``except LinAlgError`` missed), and shape mismatches are
``dot``'s ``not aligned`` ValueError."""

import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(28)


def _data(shape):
    return RNG.standard_normal(shape)


TWO = [((3, 4), (2, 4, 5)), ((2, 3, 4), (4,)), ((2, 3, 4), (5, 4, 2)), ((), (3, 3)), ((3,), ()), ((4,), (4,)),
       ((0, 3), (3, 2)), ((1, 1), (1, 1))]


@pytest.mark.parametrize("shapes", TWO, ids=str)
def test_two_arrays_are_dot(shapes):
    arrays = [_data(s) for s in shapes]
    expected = np.linalg.multi_dot(arrays)
    got = kd.linalg.multi_dot([kd.asarray(x) for x in arrays])
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-12, atol=1e-12)


CHAINS = [((3, 3), (2, 3, 3), (3, 3)), ((3,), (3, 3), (2, 3, 3)), ((3, 3), (3,), (3, 3)), ((3, 3), (), (3, 3)),
          ((1, 2, 3), (3, 3), (3, 3))]


@pytest.mark.parametrize("shapes", CHAINS, ids=str)
def test_chains_refuse_non_matrices_with_linalg_error(shapes):
    for m in (np, kd):
        with pytest.raises(np.linalg.LinAlgError, match=r"-dimensional array given\. Array must be two-dimensional"):
            m.linalg.multi_dot([m.asarray(_data(s)) for s in shapes])


@pytest.mark.parametrize("shapes", [((3, 2), (3, 3), (3, 3)), ((3, 3), (2, 3)), ((3, 3), (3, 3), (2, 3))], ids=str)
def test_mismatched_chains_raise_dots_message(shapes):
    with pytest.raises(ValueError) as expected:
        np.linalg.multi_dot([_data(s) for s in shapes])
    with pytest.raises(ValueError) as got:
        kd.linalg.multi_dot([kd.asarray(_data(s)) for s in shapes])
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("shapes", [((4,), (4, 3), (3, 5), (5,)), ((2, 4), (4, 3), (3,)), ((4,), (4, 6), (6, 2))],
                         ids=str)
def test_chains_with_vector_ends_match_numpy(shapes):
    arrays = [_data(s) for s in shapes]
    got = kd.linalg.multi_dot([kd.asarray(x) for x in arrays])
    np.testing.assert_allclose(np.asarray(got), np.linalg.multi_dot(arrays), rtol=1e-12)
