"""Assignments whose value does not fit raise NumPy's ValueError with NumPy's words and shapes, printed as NumPy
prints them (no spaces: ``(2,5)``), for plain slices, boolean masks (whole-array, leading and inner), ``kd.full``
and kd.ma arrays."""

import numpy as np
import pytest

import kdsl as kd


def _message(mod, make, assign):
    a = make(mod)
    with pytest.raises(ValueError) as err:
        assign(a, mod)
    return str(err.value)


CASES = {
    "slice": (lambda m: m.zeros((3, 4)), lambda a, m: a.__setitem__(slice(None), m.ones((2, 4)))),
    "slice 1-d": (lambda m: m.zeros(3), lambda a, m: a.__setitem__(slice(None), m.ones((2, 3)))),
    "leading mask, rows": (lambda m: m.zeros((3, 4)),
                           lambda a, m: a.__setitem__(m.asarray([True, False, True]), m.ones((2, 5)))),
    "leading mask, one row": (lambda m: m.zeros((3, 4)),
                              lambda a, m: a.__setitem__(m.asarray([True, False, True]), m.ones((1, 5)))),
    "leading mask, extra axis": (lambda m: m.zeros((3, 4)),
                                 lambda a, m: a.__setitem__(m.asarray([True, False, True]), m.ones((3, 2, 4)))),
    "leading mask, wrong count": (lambda m: m.zeros((3, 4)),
                                  lambda a, m: a.__setitem__(m.asarray([True, False, True]), m.ones((3, 4)))),
    "inner mask, extra axis": (lambda m: m.zeros((2, 3, 4)), lambda a, m: a.__setitem__(
        (slice(None), m.asarray([True, False, True])), m.ones((5, 2, 2, 4)))),
    "inner mask, wrong count": (lambda m: m.zeros((2, 3, 4)), lambda a, m: a.__setitem__(
        (slice(None), [True, False, True]), m.ones((3, 2, 4)))),
    "empty mask": (lambda m: m.zeros((3, 4)),
                   lambda a, m: a.__setitem__(m.asarray([False, False, False]), m.ones((2, 5)))),
    "full": (lambda m: m.zeros(1), lambda a, m: m.full((2, 3), m.ones(4))),
    "masked array": (lambda m: m.ma.array(m.zeros(3), mask=[0, 1, 0]),
                     lambda a, m: a.__setitem__(slice(None), m.ones((4, 5)))),
}


@pytest.mark.parametrize("name", CASES)
def test_message_is_numpys(name):
    make, assign = CASES[name]
    assert _message(kd, make, assign) == _message(np, make, assign)
