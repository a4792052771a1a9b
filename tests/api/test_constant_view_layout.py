"""Views of a lazy constant never written (``kd.zeros``, ``kd.ones``, ``kd.full``...) have NumPy's layout: a
reshape or ravel that NumPy must copy (``a.T.reshape(-1)``) is a copy (writes reach neither way), one NumPy can do
as a view stays linked both ways, and ``strides``/``flags`` are NumPy's."""

import numpy as np
import pytest

import kdsl as kd

MAKERS = {
    "zeros": lambda m: m.zeros((3, 4), dtype=m.float32),
    "ones int32": lambda m: m.ones((3, 4), dtype=m.int32),
    "full": lambda m: m.full((3, 4), 2.5, dtype=m.float32),
    "zeros 3-d": lambda m: m.zeros((2, 3, 2), dtype=m.float32).reshape(3, 4),
    "zeros_like": lambda m: m.zeros_like(m.asarray(np.ones((3, 4), np.float32))),
    "computed": lambda m: m.arange(12, dtype=m.float32).reshape(3, 4),  # not a constant: the reference case
}

VIEWS = {
    "T.reshape(-1)": lambda a: a.T.reshape(-1),
    "T.reshape(12)": lambda a: a.T.reshape(12),
    "T.ravel()": lambda a: a.T.ravel(),
    "T.ravel('F')": lambda a: a.T.ravel("F"),
    "T.ravel('K')": lambda a: a.T.ravel("K"),
    "T.ravel('A')": lambda a: a.T.ravel("A"),
    "T.reshape(4, 3)": lambda a: a.T.reshape(4, 3),
    "T.reshape(2, 2, 3)": lambda a: a.T.reshape(2, 2, 3),
    "T.reshape(-1, order='F')": lambda a: a.T.reshape(-1, order="F"),
    "T.T.reshape(-1)": lambda a: a.T.T.reshape(-1),
    "T[1].reshape(-1)": lambda a: a.T[1].reshape(-1),
    "[None].T.reshape(-1)": lambda a: a[None].T.reshape(-1),
    "swapaxes.reshape(12)": lambda a: a.swapaxes(0, 1).reshape(12),
    "[::2].reshape(-1)": lambda a: a[::2].reshape(-1),
    "[1:].reshape(-1)": lambda a: a[1:].reshape(-1),
    "[:, 1:3].reshape(-1)": lambda a: a[:, 1:3].reshape(-1),
    "[:, :1].reshape(-1)": lambda a: a[:, :1].reshape(-1),
    "[:, ::2].reshape(6)": lambda a: a[:, ::2].reshape(6),
    "[:, ::2].reshape(3, 1, 2)": lambda a: a[:, ::2].reshape(3, 1, 2),
    "[:, ::-1].ravel()": lambda a: a[:, ::-1].ravel(),
    "[::-1].reshape(-1)": lambda a: a[::-1].reshape(-1),
    "reshape(2, 6).T.reshape(-1)": lambda a: a.reshape(2, 6).T.reshape(-1),
    "reshape(6, 2)[:, 0]": lambda a: a.reshape(6, 2)[:, 0],
    "T.flatten()": lambda a: a.T.flatten(),
    "[1:].ravel()": lambda a: a[1:].ravel(),
}


def _through(m, make, view):
    """(the view after a write into its base, the base after a write into a fresh view) for module ``m``."""
    a = make(m)
    v = view(a)
    a[...] = 7
    after_base_write = np.asarray(v).tolist()
    b = make(m)
    w = view(b)
    w[...] = 9
    return after_base_write, np.asarray(b).tolist()


@pytest.mark.parametrize("maker", list(MAKERS))
@pytest.mark.parametrize("view", list(VIEWS))
def test_write_through_matches_numpy(maker, view):
    assert _through(kd, MAKERS[maker], VIEWS[view]) == _through(np, MAKERS[maker], VIEWS[view])


@pytest.mark.parametrize("maker", list(MAKERS))
@pytest.mark.parametrize("view", [lambda a: a.T, lambda a: a[:, ::2], lambda a: a[::-1, 1:], lambda a: a.T[1],
                                  lambda a: a[1], lambda a: a[:, 2:].T, lambda a: a.reshape(6, 2).T])
def test_strides_and_flags_match_numpy(maker, view):
    got, want = view(MAKERS[maker](kd)), view(MAKERS[maker](np))
    assert got.strides == want.strides
    assert (got.flags.c_contiguous, got.flags.f_contiguous) == (want.flags.c_contiguous, want.flags.f_contiguous)


def test_copy_is_lazy_and_keeps_values():
    a = kd.full((3, 4), 3.0)
    flat = a.T.reshape(-1)
    a[0, 0] = 1.0
    flat[0] = 5.0
    assert flat.tolist() == [5.0] + [3.0] * 11 and a[0].tolist() == [1.0, 3.0, 3.0, 3.0]


def test_shape_assignment_of_a_constant_transpose_refuses_as_numpy():
    for m in (np, kd):
        t = m.zeros((3, 4)).T
        with pytest.raises(AttributeError, match="Incompatible shape"):
            t.shape = (12,)
