"""``kd.may_share_memory`` (and ``np.may_share_memory`` on kdsl arrays) against NumPy's answers for the same
views. scikit-learn calls ``np.may_share_memory(converted, original)`` in ``check_array(copy=True)``."""

import numpy as np
import pytest

import kdsl as kd

VIEWS = {
    "self": lambda a: a,
    "row": lambda a: a[1],
    "column": lambda a: a[:, 2],
    "transpose": lambda a: a.T,
    "reshape": lambda a: a.reshape(-1),
    "row_of_transpose": lambda a: a.T[0],
    "step_slice": lambda a: a[::2, ::-1],
    "empty_slice": lambda a: a[:0],
}


@pytest.mark.parametrize("name", sorted(VIEWS))
@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_views_may_share_like_numpy(name, dtype):
    h = np.arange(12, dtype=dtype).reshape(3, 4)
    a = kd.asarray(h)
    view = VIEWS[name]
    want = np.may_share_memory(h, view(h))
    assert kd.may_share_memory(a, view(a)) == want
    assert kd.may_share_memory(view(a), a) == want
    assert np.may_share_memory(a, view(a)) == want  # NumPy's function dispatches to kdsl


PAIRS = [(lambda a: a[0], lambda a: a[1:]), (lambda a: a.T[0], lambda a: a[2]), (lambda a: a[:2], lambda a: a[2:]),
         (lambda a: a[::2], lambda a: a[1::2]), (lambda a: a[:, :2], lambda a: a[:, 2:]),
         (lambda a: a.reshape(-1)[:5], lambda a: a[1, 1:]), (lambda a: a[::-1][:2], lambda a: a[:2]),
         (lambda a: a[3, ::-1], lambda a: a.reshape(-1)[11]), (lambda a: a[1:3, 1:3], lambda a: a.T[3])]


@pytest.mark.parametrize("pair", range(len(PAIRS)))
@pytest.mark.parametrize("make", ["stored", "lazy", "constant"])
def test_two_views_of_one_array_by_extents_as_numpy(pair, make):
    # np.may_share_memory(a[:5], a[5:]) is False: NumPy compares the views' extents (a[0] and a[1:] gave True)
    h = np.arange(16.0).reshape(4, 4)
    a = {"stored": kd.asarray(h), "lazy": kd.arange(16.0).reshape(4, 4), "constant": kd.zeros((4, 4))}[make]
    f, g = PAIRS[pair]
    want = np.may_share_memory(f(h), g(h))
    assert kd.may_share_memory(f(a), g(a)) == want
    assert np.may_share_memory(g(a), f(a)) == want
    assert kd.shares_memory(f(a), g(a)) == np.shares_memory(f(h), g(h))


def test_views_made_before_a_write_into_the_base_may_share():
    a = kd.asarray(np.arange(8.0))
    left = a[:4]
    a[6] = -1.0  # a's data is new; ``left`` still reads and writes a
    assert kd.may_share_memory(a, left) and kd.may_share_memory(left, a[4:]) >= np.may_share_memory(
        np.arange(8.0)[:4], np.arange(8.0)[4:])  # "may": True is allowed where the extents are not known
    left[0] = 9.0
    assert a.tolist()[0] == 9.0 and not kd.shares_memory(left, a[4:])


@pytest.mark.parametrize("make", [lambda a: a + 1, lambda a: a.copy(), lambda a: kd.asarray(a.numpy()),
                                  lambda a: a.flatten(), lambda a: a.astype(kd.float64)])
def test_computed_arrays_and_copies_share_nothing(make):
    a = kd.ones((3, 2), dtype=kd.float32)
    assert not kd.may_share_memory(a, make(a))
    assert not np.may_share_memory(a, make(a))


def test_host_arrays_and_scalars_share_nothing_with_device_arrays():
    h = np.ones((2, 3), np.float32)
    a = kd.asarray(h)
    assert not kd.may_share_memory(a, h) and not kd.may_share_memory(h, a)
    assert not np.may_share_memory(h, a) and not np.may_share_memory(a, np.asarray(a))
    assert not kd.may_share_memory(a, 1.0) and not kd.may_share_memory([1], a)
    assert kd.may_share_memory(a, a, max_work=0)


def test_bad_max_work_names_the_problem():
    a = kd.ones(3)
    with pytest.raises(TypeError, match="max_work must be an int"):
        kd.may_share_memory(a, a, max_work="bounds")
