"""mean/var/std of empty slices (or ``n - ddof <= 0``): NumPy's RuntimeWarning and its NaN/inf values."""
import warnings

import numpy as np
import pytest

import kdsl as kd

CASES = [((0,), None), ((0, 3), None), ((0, 3), 0), ((0, 3), 1), ((3, 0), 1), ((3, 0), 0), ((0, 0), 1),
         ((2, 1), 1), ((4, 5), (0, 1))]


def _numpy_warnings(fn, *args, **kwargs):
    """NumPy's result and whether it gave mean/var's own RuntimeWarning (not errstate's divide warnings)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        want = fn(*args, **kwargs)
    own = [w for w in caught if "slice" in str(w.message)]
    return want, bool(own)


@pytest.mark.parametrize("shape, axis", CASES)
@pytest.mark.parametrize("name, kwargs", [("mean", {}), ("var", {}), ("std", {}), ("var", {"ddof": 1}),
                                          ("std", {"ddof": 2}), ("var", {"correction": 1})])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_empty_moments_warn_as_numpy(shape, axis, name, kwargs, dtype):
    data = np.arange(np.prod(shape), dtype=dtype).reshape(shape)
    want, warns = _numpy_warnings(getattr(np, name), data, axis=axis, **kwargs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = getattr(kd, name)(kd.asarray(data), axis=axis, **kwargs)
    assert any(issubclass(w.category, RuntimeWarning) and "slice" in str(w.message) for w in caught) == warns
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)


def test_method_and_view_warn():
    x = kd.asarray(np.ones((4, 6), np.float32))[:, ::2][:0]  # an empty non-contiguous view
    with pytest.warns(RuntimeWarning, match="empty slice"):
        x.mean(axis=0)
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        kd.asarray(np.array([np.inf], np.float32)).std(ddof=1)


def test_nonempty_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kd.mean(kd.asarray([np.nan, 1.0])), kd.var(kd.ones((2, 1)), axis=1), kd.std(kd.ones(3), ddof=2)
        kd.mean(kd.ones(3), where=kd.asarray([False, False, False]))  # a mask's counts stay on the device
