"""Dates are NumPy's alone (kdsl arrays hold numbers): a range or array of them raises a TypeError naming the kdsl
way, int64 counts of a unit (numpy-100 #34 gave "give numbers", arrays of dates "use numbers or booleans")."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("call", [
    lambda: kd.arange("2016-07", "2016-08", dtype="datetime64[D]"),  # numpy-100 #34
    lambda: kd.arange(np.datetime64("2016-07-01"), np.datetime64("2016-07-05")),
    lambda: kd.array([np.datetime64("2016-07-01")]),
], ids=["arange-dtype", "arange-bounds", "array"])
def test_dates_name_int64_counts(call):
    with pytest.raises(TypeError, match=r"datetime64\[D\] is not supported by kdsl: store datetimes as int64"):
        call()


def test_durations_and_records_name_their_way():
    with pytest.raises(TypeError, match="durations as int64 counts"):
        kd.arange(3, dtype=np.timedelta64)
    with pytest.raises(TypeError, match="each field of a structured array"):
        kd.asarray(np.zeros(2, [("a", np.int64), ("b", np.float64)]))


def test_numbers_still_range():
    assert kd.arange(3.0, dtype="float32").tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(TypeError, match="give numbers"):
        kd.arange("a")
