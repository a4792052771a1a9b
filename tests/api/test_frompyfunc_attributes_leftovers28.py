"""``kd.frompyfunc``'s result has NumPy's ufunc attributes for its one object loop (code that inspects ufuncs
reads them): ``nargs`` raised AttributeError, ``__name__`` was the function's own and ``repr`` the class's."""

import numpy as np
import pytest

import kdsl as kd


def add(u, v):
    return u + v


def halves(u):
    return u / 2, u - u / 2


@pytest.mark.parametrize(("func", "nin", "nout", "identity"), [(add, 2, 1, None), (add, 2, 1, 0), (halves, 1, 2, None),
                                                               (lambda u, v, w: u, 3, 1, None)])
def test_ufunc_attributes_match_numpy(func, nin, nout, identity):
    expected = np.frompyfunc(func, nin, nout, identity=identity)
    got = kd.frompyfunc(func, nin, nout, identity=identity)
    for name in ("nin", "nout", "nargs", "ntypes", "types", "identity", "signature", "__name__"):
        assert getattr(got, name) == getattr(expected, name), name
    assert repr(got) == repr(expected) and str(got) == str(expected)


def test_named_frompyfunc_still_computes():
    f = kd.frompyfunc(add, 2, 1)
    np.testing.assert_array_equal(f(kd.asarray(np.arange(4)), 3).numpy(), np.arange(4) + 3)
    assert int(f.reduce(kd.asarray(np.arange(5)))) == 10
