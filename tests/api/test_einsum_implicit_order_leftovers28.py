"""``einsum`` without ``->`` orders its output labels as NumPy: by character code for a subscripts string,
so upper case comes before lower case (``'iA'`` gives ``'Ai'``: **kdsl put lower case first, a silently
transposed result**), and by the integers' order for the sublist form."""

import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(28)


def _data(shape, dtype=np.float64):
    return RNG.standard_normal(shape).astype(dtype)


CASES = [
    ("iA", [(2, 3)]),
    ("Ai", [(2, 3)]),
    ("aB", [(3, 4)]),
    ("zZ", [(2, 5)]),
    ("Zz", [(2, 5)]),
    ("bAc", [(2, 3, 4)]),
    ("iB,Bj", [(2, 3), (3, 4)]),
    ("Ji,iK", [(2, 3), (3, 4)]),
    ("ab,Ab", [(2, 3), (4, 3)]),
    ("...A", [(2, 3, 4)]),
    ("A...b", [(2, 3, 4)]),
    ("Xy,yZ,Zw", [(2, 3), (3, 4), (4, 5)]),
    ("aA", [(1, 3)]),
    ("qQ", [(0, 3)]),
    ("Aii", [(3, 2, 2)]),
]


@pytest.mark.parametrize(("spec", "shapes"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("optimize", [True, False, "optimal"])
def test_implicit_output_order_is_numpys(spec, shapes, optimize):
    ops = [_data(s) for s in shapes]
    expected = np.einsum(spec, *ops)
    got = kd.einsum(spec, *[kd.asarray(o) for o in ops], optimize=optimize)
    assert got.shape == expected.shape
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("sublist", [[0, 30], [30, 0], [51, 25], [2, 1], [27, 26]], ids=str)
def test_sublist_implicit_output_is_in_integer_order(sublist):
    x = _data((2, 3), np.float32)
    expected = np.einsum(x, sublist)
    got = kd.einsum(kd.asarray(x), sublist)
    assert got.shape == expected.shape
    np.testing.assert_array_equal(np.asarray(got), expected)


def test_mixed_case_implicit_output_of_a_strided_int_operand():
    x = np.arange(60).reshape(3, 4, 5)[::-1, 1:, ::2]
    expected = np.einsum("kJi", x)
    got = kd.einsum("kJi", kd.asarray(x))
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(np.asarray(got), expected)
