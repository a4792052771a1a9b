"""kd.testing: NumPy's assertions applied to host copies of kdsl arrays - they pass and fail exactly where
NumPy's do on the same values."""

import warnings

import numpy as np
import pytest

import kdsl as kd

X = np.array([[1.0, 2.0, np.nan], [-0.0, np.inf, 3.0]], np.float32)
CASES = [  # (name, actual, desired, kwargs)
    ("assert_allclose", X, X, {}),
    ("assert_allclose", X, X + 1e-3, {"rtol": 1e-2}),
    ("assert_allclose", X, X + 1e-3, {}),
    ("assert_allclose", X, X, {"equal_nan": False}),
    ("assert_allclose", X[:, :2], np.float32(1), {}),
    ("assert_array_equal", X, X, {}),
    ("assert_array_equal", X, X * 2, {}),
    ("assert_array_equal", np.arange(3), np.arange(3).astype(np.int32), {"strict": True}),
    ("assert_array_equal", np.zeros((0, 2)), np.zeros((0, 2)), {}),
    ("assert_array_almost_equal", X, X + 1e-7, {}),
    ("assert_array_almost_equal", X, X + 1e-2, {"decimal": 3}),
    ("assert_almost_equal", np.float64(1.0), 1.0 + 1e-9, {}),
    ("assert_almost_equal", np.array([1.0, 2.0]), [1.0, 2.1], {}),
    ("assert_equal", np.arange(4), np.arange(4), {}),
    ("assert_equal", np.arange(4), np.arange(1, 5), {}),
    ("assert_array_less", np.arange(3.0), np.arange(1.0, 4.0), {}),
    ("assert_array_less", np.arange(3.0), np.arange(3.0), {}),
    ("assert_array_max_ulp", np.float32([1, 2]), np.nextafter(np.float32([1, 2]), np.float32(3)), {}),
    ("assert_array_max_ulp", np.float32([1]), np.float32([1.001]), {"maxulp": 2}),
]


def _outcome(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except AssertionError:
        return "fail"
    return "pass"


@pytest.mark.parametrize("name,actual,desired,kwargs", CASES)
@pytest.mark.parametrize("convert", ["actual", "both"])
def test_same_verdict_as_numpy(name, actual, desired, kwargs, convert):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = _outcome(getattr(np.testing, name), actual, desired, **kwargs)
        a = kd.asarray(actual)
        d = kd.asarray(desired) if convert == "both" and isinstance(desired, np.ndarray) else desired
        assert _outcome(getattr(kd.testing, name), a, d, **kwargs) == want


def test_views_and_nested_containers():
    a = kd.arange(12).reshape(3, 4)
    host = np.arange(12, dtype=np.int32).reshape(3, 4)
    kd.testing.assert_array_equal(a.T, host.T)
    kd.testing.assert_array_equal(a[::2, ::-1], host[::2, ::-1])
    kd.testing.assert_equal([a[0], (a[1], {"k": a[2]})], [host[0], (host[1], {"k": host[2]})])
    with pytest.raises(AssertionError):
        kd.testing.assert_equal({"k": a[0]}, {"k": host[1]})


def test_failure_message_is_numpys():
    with pytest.raises(AssertionError, match="Mismatched elements: 1 / 3") as got:
        kd.testing.assert_allclose(kd.asarray([1.0, 2.0, 3.0]), [1.0, 2.0, 4.0], err_msg="ctx")
    assert "ctx" in str(got.value)


def test_non_array_helpers_are_numpys():
    with kd.testing.assert_raises(ZeroDivisionError):
        1 / 0  # noqa: B018
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # NumPy 2.4 deprecates assert_warns itself
        with kd.testing.assert_warns(UserWarning):
            warnings.warn("w", UserWarning, stacklevel=1)
    kd.testing.assert_(kd.asarray(1) == 1)
    with pytest.raises(AssertionError, match="msg"):
        kd.testing.assert_(False, "msg")
    with kd.testing.assert_raises_regex(ValueError, "bad"):
        raise ValueError("bad thing")


def test_module_is_importable_both_ways():
    import kdsl.testing as t
    assert t is kd.testing and "assert_allclose" in t.__all__


def test_compare_and_print_helpers_read_kdsl_arrays():
    a = kd.arange(3.0)
    kd.testing.assert_array_compare(np.less_equal, a, np.arange(3.0))
    with pytest.raises(AssertionError):
        kd.testing.assert_array_compare(np.less, a, np.arange(3.0))
    kd.testing.print_assert_equal("same", {"a": a[1]}, {"a": 1.0})
    with pytest.raises(AssertionError, match="differ"):
        kd.testing.print_assert_equal("differ", [a[0]], [np.float64(1.0)])


def test_every_numpy_helper_without_arrays_is_numpys_own():
    import numpy.testing as npt
    for name in ("assert_no_warnings", "assert_string_equal", "suppress_warnings", "clear_and_catch_warnings",
                 "tempdir", "temppath", "SkipTest", "IS_PYPY", "HAS_REFCOUNT"):
        assert getattr(kd.testing, name) is getattr(npt, name) and name in kd.testing.__all__
    assert kd.testing.assert_no_warnings(lambda x: x + 1, kd.asarray(1.0)).item() == 2.0
    with kd.testing.suppress_warnings() as sup:
        sup.filter(RuntimeWarning)
        warnings.warn("hidden", RuntimeWarning, stacklevel=1)
    with pytest.raises(AssertionError):
        kd.testing.assert_string_equal("a", "b")
