"""Text choices in ``where``/``select``/``choose`` (``np.select(conds, ["urgent", "stale"], "normal")``, a
common way to label rows): kdsl arrays hold no text (docs/numpy-api.md, "Not there yet"), so these raise NumPy's
error class with the kdsl way in the message (integer codes, labels picked in Python), where the message said
only "use numbers or booleans" or "convert the string first (float(s), int(s))"."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("call", [
    lambda c: kd.where(c, "yes", "no"),
    lambda c: kd.select([c], ["urgent"], default="normal"),
    lambda c: kd.choose(c.astype(kd.int32), ["a", "b"]),
    lambda c: kd.asarray(["x", "y"]),
])
def test_text_choices_name_the_codes_recipe(call):
    with pytest.raises(TypeError, match=r"integer codes.*labels\[i\] for i in codes.tolist\(\)"):
        call(kd.asarray([True, False]))


def test_the_recipe_matches_numpys_labels():
    x = np.array([0.5, 3.0, 7.0])
    names = ["low", "mid", "high"]
    expected = np.select([x < 1, x < 5], ["low", "mid"], default="high").tolist()
    xk = kd.asarray(x)
    codes = kd.select([xk < 1, xk < 5], [0, 1], 2)
    assert [names[i] for i in codes.tolist()] == expected


def test_a_number_in_a_string_still_names_float():
    with pytest.raises(TypeError, match=r"float\(s\)"):
        kd.asarray([1.0]) + "1"


def test_vectorize_returning_text_names_the_codes_recipe():
    label = kd.vectorize(lambda v: "hi" if v > 0 else "lo")
    with pytest.warns(kd.PerformanceWarning), pytest.raises(TypeError, match=r"returns text.*integer codes"):
        label(kd.asarray([1.0, -1.0]))
    code = kd.vectorize(lambda v: 1 if v > 0 else 0)
    with pytest.warns(kd.PerformanceWarning):
        codes = code(kd.asarray([1.0, -1.0]))
    assert [["lo", "hi"][i] for i in codes.tolist()] == ["hi", "lo"]
