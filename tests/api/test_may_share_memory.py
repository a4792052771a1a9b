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


def test_two_views_of_one_array():
    a = kd.zeros((4, 4))
    assert kd.may_share_memory(a[0], a[1:])  # coarser than NumPy's extents check (allowed: "may")
    assert kd.may_share_memory(a.T[0], a[2])


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
