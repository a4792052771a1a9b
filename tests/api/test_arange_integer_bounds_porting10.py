"""``arange`` of an integer dtype against NumPy: its first two values (``start``, ``start + step``) outside the
dtype's range are NumPy's OverflowError; later values wrap as NumPy's do; values the range never holds are not
checked (kdsl/frontend/array/arange_integers.py)."""

import numpy as np
import pytest

import kdsl as kd

DTYPES = [np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32, np.int64]

CASES = [
    (-3, 3), (-1, 3), (255, 258), (127, 130), (250, 270, 10), (0, 300, 256), (250, 260), (0, 300), (300,),
    (3, -1, -1), (-3, -5), (-3, -2), (0, 10, 300), (-0.5, 3), (-1.5, 3), (0.5, 3), (0, 2.5, 0.5),
    (np.int64(-1), 3), (np.float64(-1.5), 3), (40000, 40003), (-40000, -39998), (2**31 - 2, 2**31 + 1),
    (-(2**31) - 1, -(2**31) + 1), (65534, 65538), (0,), (1,),
]


def _outcome(xp, args, dtype):
    try:
        return np.asarray(xp.arange(*args, dtype=dtype)).tolist(), None
    except OverflowError as e:
        return None, str(e)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize("args", CASES, ids=repr)
def test_matches_numpy(args, dtype):
    expected, expected_error = _outcome(np, args, dtype)
    got, error = _outcome(kd, args, dtype)
    assert error == expected_error
    assert got == expected
    if got is not None:
        assert kd.arange(*args, dtype=dtype).dtype == dtype


def test_names_the_bad_value_and_dtype():
    with pytest.raises(OverflowError, match=r"Python integer -3 out of bounds for uint8"):
        kd.arange(-3, 3, dtype=kd.uint8)
    with pytest.raises(OverflowError, match=r"Python integer 256 out of bounds for uint8"):
        kd.arange(255, 258, dtype="uint8")  # the second value


def test_keyword_forms_and_a_view_of_the_result():
    a = kd.arange(start=250, stop=260, dtype=kd.uint8)
    np.testing.assert_array_equal(a[::-2].numpy(), np.arange(start=250, stop=260, dtype=np.uint8)[::-2])
    with pytest.raises(OverflowError):
        kd.arange(start=-2, stop=2, step=1, dtype=kd.uint16)


def test_bool_and_float_dtypes_are_not_range_checked():
    np.testing.assert_array_equal(kd.arange(2, dtype=bool).numpy(), np.arange(2, dtype=bool))
    np.testing.assert_array_equal(kd.arange(-3, 3, dtype=kd.float32).numpy(), np.arange(-3, 3, dtype=np.float32))
