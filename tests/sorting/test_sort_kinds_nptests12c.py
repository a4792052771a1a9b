"""sort/argsort/partition ``kind=`` and ``stable=`` checks: the values and errors NumPy gives."""
import numpy as np
import pytest

import kdsl as kd

DATA = np.array([[3.0, np.nan, 1.0, -np.inf], [2.0, 2.0, 0.0, np.inf]], dtype=np.float32)


@pytest.mark.parametrize("kind", [None, "quicksort", "mergesort", "heapsort", "stable", "q", "M", "h", "St",
                                  "quick sort", b"q", b"stable"])
@pytest.mark.parametrize("fn", ["sort", "argsort"])
def test_sort_kinds_numpy_accepts(kind, fn):
    want = getattr(np, fn)(DATA, kind=kind)
    got = getattr(kd, fn)(kd.asarray(DATA), kind=kind)
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("kind, error", [("x", ValueError), ("", ValueError), ("bogus", ValueError),
                                         (1, TypeError), (2.5, TypeError)])
@pytest.mark.parametrize("fn", ["sort", "argsort"])
def test_sort_kinds_numpy_rejects(kind, error, fn):
    with pytest.raises(error):
        getattr(np, fn)(DATA, kind=kind)
    with pytest.raises(error):
        getattr(kd, fn)(kd.asarray(DATA), kind=kind)


def test_sort_kind_with_stable_raises():
    for m in (np, kd):
        with pytest.raises(ValueError):
            m.sort(m.asarray([3, 1]), kind="stable", stable=True)
    np.testing.assert_array_equal(np.asarray(kd.sort(kd.asarray([3, 1]), stable=True)), [1, 3])


def test_method_sort_kind_checked():
    a = kd.asarray(DATA)
    with pytest.raises(ValueError):
        a.sort(kind="x")
    a.sort(kind="h")
    np.testing.assert_array_equal(np.asarray(a), np.sort(DATA, kind="h"))


@pytest.mark.parametrize("kind", ["introselect", b"introselect"])
@pytest.mark.parametrize("fn", ["partition", "argpartition"])
def test_partition_kind_accepted(kind, fn):
    got = np.asarray(getattr(kd, fn)(kd.asarray(DATA[0, ::2]), 0, kind=kind))
    want = getattr(np, fn)(DATA[0, ::2], 0, kind=kind)
    assert got[0] == want[0]


@pytest.mark.parametrize("kind, error", [("quicksort", ValueError), ("stable", ValueError), ("i", ValueError),
                                         ("Introselect", ValueError), (None, TypeError)])
@pytest.mark.parametrize("fn", ["partition", "argpartition"])
def test_partition_kind_rejected(kind, error, fn):
    with pytest.raises(error):
        getattr(np, fn)(np.arange(4.0), 1, kind=kind)
    with pytest.raises(error):
        getattr(kd, fn)(kd.arange(4.0), 1, kind=kind)
    with pytest.raises(error):
        getattr(kd.arange(4.0), fn)(1, kind=kind)
