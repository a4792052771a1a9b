"""`value in masked_array` as numpy.ma's (`(x == value).any()`): masked entries never match, every shape (a 2-d
kd.ma array raised ValueError: Python's fallback iterated rows and asked a row's truth value; tests/porting)."""

import numpy as np
import pytest

import kdsl as kd


def _pair(data, mask):
    return np.ma.masked_array(data, mask=mask), kd.ma.masked_array(kd.asarray(data), mask=mask)


CASES = [
    (np.arange(6.0).reshape(2, 3), np.arange(6).reshape(2, 3) == 1),
    (np.arange(24, dtype=np.int32).reshape(2, 3, 4), np.arange(24).reshape(2, 3, 4) % 5 == 0),
    (np.array([1.0, np.nan, -0.0, np.inf]), [False, False, True, False]),
    (np.arange(5, dtype=np.uint8), False),
    (np.arange(4.0), True),
    (np.zeros((0, 3)), False),
    (np.array(2.5), False),
    (np.array(2.5), True),
]


@pytest.mark.parametrize("data, mask", CASES, ids=range(len(CASES)))
@pytest.mark.parametrize("value", [0, 1, 1.0, 2.5, 5, 20, -0.0, np.inf, np.nan, np.float32(3.0)])
def test_contains_matches_numpy_ma(data, mask, value):
    ref, got = _pair(data, mask)
    assert (value in got) == (value in ref)


def test_masked_entry_is_not_found_and_mask_changes_answer():
    ref, got = _pair(np.array([[7.0, 8.0], [9.0, 10.0]]), [[False, True], [False, False]])
    assert 8.0 not in got and 9.0 in got
    got[0, 1] = 8.0  # unmasks the entry, as NumPy's item assignment does
    ref[0, 1] = 8.0
    assert (8.0 in got) == (8.0 in ref) is True
    got[1] = kd.ma.masked
    assert 9.0 not in got and 10.0 not in got


def test_view_and_nomask():
    data = np.arange(12.0).reshape(3, 4)
    x = kd.ma.masked_equal(kd.asarray(data), 5.0)
    assert 6.0 in x[:, 1:3] and 5.0 not in x[:, 1:3] and 0.0 not in x[:, 1:3]
    y = kd.ma.masked_array(kd.asarray(data))
    assert 11.0 in y and 12.0 not in y
