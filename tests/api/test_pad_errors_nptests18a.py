"""``kd.pad``'s errors carry NumPy's messages (NumPy's own tests match them): a non-integral ``pad_width``
("`pad_width` must be of integral type."), a misshaped one (NumPy's broadcast error), an unknown mode
("mode '1' is not supported"); an empty axis extended by a non-constant mode is NumPy's ValueError, for
``kd.ndarray(0)`` too."""

import numpy as np
import pytest

import kdsl as kd

MODES = ["constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum", "reflect", "symmetric", "wrap",
         "empty"]


def _raised(fn):
    with pytest.raises((TypeError, ValueError)) as info:
        fn()
    return info.value


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("width", [3.4, "3", None, complex(1, -1), ((-2.1, 3), (3, 2)), [[1.5, 2], [0, 1]]],
                         ids=repr)
def test_non_integral_widths(mode, width):
    arr = np.arange(30).reshape(6, 5)
    want = _raised(lambda: np.pad(arr, width, mode))
    got = _raised(lambda: kd.pad(kd.asarray(arr), width, mode))
    assert type(got) is type(want) is TypeError and str(got).startswith(str(want))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("width", [(4, 5, 6, 7), ((1,), (2,), (3,)), ((1, 2), (3, 4), (5, 6)),
                                   ((3, 4, 5), (0, 1, 2)), (((3,), (4,), (5,)), ((0,), (1,), (2,)))], ids=repr)
def test_misshaped_widths(mode, width):
    arr = np.arange(30).reshape(6, 5)
    want = _raised(lambda: np.pad(arr, width, mode))
    got = _raised(lambda: kd.pad(kd.asarray(arr)[:, ::-1], width, mode))
    assert type(got) is type(want) is ValueError and str(got).startswith(str(want))


@pytest.mark.parametrize("mode", [1, "const", None, True, False, "Edge"], ids=repr)
def test_unknown_modes(mode):
    want = _raised(lambda: np.pad([1, 2, 3], 4, mode=mode))
    got = _raised(lambda: kd.pad(kd.asarray([1, 2, 3]), 4, mode=mode))
    assert type(got) is type(want) is ValueError and str(got).startswith(str(want))


EMPTY = [(lambda m: m.ndarray(0), 4), (lambda m: m.zeros((0, 3)), ((1,), (0,))),
         (lambda m: m.zeros((2, 0)), ((0, 0), (2, 1)))]


@pytest.mark.parametrize("mode", sorted(set(MODES) - {"constant", "empty"}))
@pytest.mark.parametrize("case", range(len(EMPTY)))
def test_empty_axes_need_constant_modes(mode, case):
    make, width = EMPTY[case]
    want = _raised(lambda: np.pad(make(np), width, mode=mode))
    got = _raised(lambda: kd.pad(make(kd), width, mode=mode))
    assert type(got) is type(want) and str(got) == str(want)
    got = kd.pad(kd.ones((2, 0, 2)), ((3,), (0,), (1,)), mode=mode)
    assert got.shape == np.pad(np.ones((2, 0, 2)), ((3,), (0,), (1,)), mode=mode).shape
