"""``kd.lib.array_utils`` (``normalize_axis_index``, ``normalize_axis_tuple``, ``byte_bounds``) and
``kd.lib.NumpyVersion`` against NumPy 2's ``np.lib``."""

import numpy as np
import pytest
from kdsl.lib import array_utils as kd_utils
from numpy.lib import array_utils as np_utils

import kdsl as kd


def _outcome(f, *args, **kwargs):
    try:
        return f(*args, **kwargs)
    except (TypeError, ValueError) as e:
        return type(e), str(e)


@pytest.mark.parametrize("args", [(0, 3), (2, 3), (-1, 3), (-3, 3), (3, 3), (-4, 3), (0, 0), (0, 1), (True, 3),
                                  (np.int64(-2), 3), (np.uint8(1), 2), (1.5, 3), (np.float64(1.0), 3), ("1", 3),
                                  (np.float32(1), 3), (1j, 3), (np.array(1.0), 3), (np.array(2), 3),
                                  (None, 3), (1, np.int32(2))])
@pytest.mark.parametrize("prefix", [None, "axes"])
def test_normalize_axis_index(args, prefix):
    want = _outcome(np_utils.normalize_axis_index, *args, msg_prefix=prefix)
    got = _outcome(kd_utils.normalize_axis_index, *args, msg_prefix=prefix)
    assert got == want
    if isinstance(want, tuple):  # an error: NumPy's class (AxisError is a ValueError and an IndexError)
        with pytest.raises(want[0]):
            kd_utils.normalize_axis_index(*args, msg_prefix=prefix)


def test_normalize_axis_index_takes_kdsl_integers():
    assert kd_utils.normalize_axis_index(kd.asarray(-1), 4) == 3
    with pytest.raises(np.exceptions.AxisError, match="axis 5 is out of bounds for array of dimension 4"):
        kd_utils.normalize_axis_index(kd.asarray(5), 4)


@pytest.mark.parametrize("axis", [0, -1, (0, 1), [1, -1], (0, 0), (-2, 0), (), [], range(2), np.array([0, 1]),
                                  (0, 5), 5, 1.5, "a", None, (0.0,), np.int8(1)])
@pytest.mark.parametrize("kwargs", [{}, {"argname": "axes"}, {"allow_duplicate": True}])
def test_normalize_axis_tuple(axis, kwargs):
    want = _outcome(np_utils.normalize_axis_tuple, axis, 2, **kwargs)
    got = _outcome(kd_utils.normalize_axis_tuple, axis, 2, **kwargs)
    assert got == want


def _relative(bounds, origin):
    return bounds[0] - origin, bounds[1] - origin


MAKERS = {
    "zeros": lambda m: m.zeros((3, 4), dtype=m.float32),
    "computed": lambda m: m.arange(12, dtype=m.int64).reshape(3, 4),
    "uploaded": lambda m: m.asarray(np.ones((3, 4), np.float32)),
    "written": lambda m: _written(m),
}


def _written(m):
    a = m.zeros((3, 4), dtype=m.int32)
    a[1, 2] = 5
    return a


VIEWS = {
    "itself": lambda a: a, "T": lambda a: a.T, "[1:, ::2]": lambda a: a[1:, ::2], "[:, ::-1]": lambda a: a[:, ::-1],
    "[::-1, ::-1]": lambda a: a[::-1, ::-1], "[1, 1:2]": lambda a: a[1, 1:2], "[0:0]": lambda a: a[0:0],
    "[2:, 3:]": lambda a: a[2:, 3:], "reshape(2, 6)[1]": lambda a: a.reshape(2, 6)[1],
    "T[::2]": lambda a: a.T[::2], "[None, 1]": lambda a: a[None, 1], "ravel()": lambda a: a.ravel(),
}


@pytest.mark.parametrize("maker", list(MAKERS))
@pytest.mark.parametrize("view", list(VIEWS))
def test_byte_bounds_of_views_match_numpy(maker, view):
    a, n = MAKERS[maker](kd), MAKERS[maker](np)
    got = _relative(kd_utils.byte_bounds(VIEWS[view](a)), kd_utils.byte_bounds(a)[0])
    want = _relative(np_utils.byte_bounds(VIEWS[view](n)), np_utils.byte_bounds(n)[0])
    assert got == want


@pytest.mark.parametrize("view", [lambda c: c.real, lambda c: c.imag, lambda c: c[::2].imag, lambda c: c[1:].real,
                                  lambda c: c.reshape(2, 2).T.imag])
def test_byte_bounds_of_complex_parts_match_numpy(view):
    data = np.array([1 + 2j, 3 + 4j, 5 + 6j, 7 + 8j], np.complex64)
    c, n = kd.asarray(data), data.copy()
    got = _relative(kd_utils.byte_bounds(view(c)), kd_utils.byte_bounds(c)[0])
    assert got == _relative(np_utils.byte_bounds(view(n)), np_utils.byte_bounds(n)[0])


def test_byte_bounds_of_distinct_arrays_do_not_overlap():
    arrays = [kd.zeros((3, 4)), kd.ones(5000), kd.arange(7), kd.zeros((3, 4)).T.reshape(-1), kd.asarray([1.0])]
    bounds = sorted(kd_utils.byte_bounds(a) for a in arrays)
    assert all(high <= low for (_, high), (low, _) in zip(bounds, bounds[1:], strict=False))
    a = arrays[0]
    assert kd_utils.byte_bounds(a) == kd_utils.byte_bounds(a)  # stable while the array lives


def test_byte_bounds_of_numpy_arrays_is_numpys():
    x = np.arange(10.0)[::3]
    assert kd_utils.byte_bounds(x) == np_utils.byte_bounds(x)


@pytest.mark.parametrize("version, other", [("2.0.0", "1.26.4"), ("1.8.0rc1", "1.8.0"), ("1.9.0.dev-Unknown", "1.9.0"),
                                            ("2.1.0b1", "2.1.0a2"), ("1.10.0", "1.9.9"), ("2.0.0", "2.0.0")])
def test_numpy_version(version, other):
    for op in ("__lt__", "__le__", "__eq__", "__ge__", "__gt__", "__ne__"):
        assert getattr(kd.lib.NumpyVersion(version), op)(other) == getattr(np.lib.NumpyVersion(version), op)(other)
    assert kd.lib.NumpyVersion(np.__version__) >= "2.0.0"
    with pytest.raises(ValueError, match="Not a valid numpy version string"):
        kd.lib.NumpyVersion("banana")


def test_importable_as_numpys():
    from kdsl.lib.array_utils import byte_bounds, normalize_axis_index, normalize_axis_tuple

    assert kd.lib.array_utils.byte_bounds is byte_bounds
    assert normalize_axis_index(-1, 2) == 1 and normalize_axis_tuple(1, 2) == (1,)
    assert set(kd.lib.array_utils.__all__) == set(np_utils.__all__)
