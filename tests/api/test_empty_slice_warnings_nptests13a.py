"""``mean``/``var``/``std``/``nanmean``/``nanvar``/``nanstd`` warn as NumPy's ("Mean of empty slice", "Degrees of
freedom <= 0 for slice", with the NaN-functions' period) where a host ``where=`` mask leaves a slice with too
few elements, and give NumPy's NaN (kdsl warned only for ``where=True``, and without NumPy's exact message; a
kdsl array mask still does not warn: its counts are on the device)."""

import warnings

import numpy as np
import pytest

import kdsl as kd

# kdsl's errstate is 'ignore': NumPy's floating-point warnings are not compared
FP_ERRORS = ("invalid value encountered", "divide by zero encountered", "overflow encountered")


def _messages(fn, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(*args, **kwargs)
    texts = [str(w.message) for w in caught if w.category is RuntimeWarning]
    return result, [t for t in texts if not t.startswith(FP_ERRORS)]


NAMES = ["mean", "var", "std", "nanmean", "nanvar", "nanstd"]
MASKS = [
    np.array([[True, False, True], [False, False, False]]),  # an empty row
    np.array([[True, False, False], [False, True, True]]),  # one element: var with ddof=1 has no freedom
    np.array([True, True, False]),  # broadcast, nothing empty
    [[False, False, False]],  # a list, broadcast: every row empty
    False,
]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("mask", MASKS, ids=lambda m: str(np.asarray(m).astype(int).tolist()))
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
@pytest.mark.parametrize("ddof", [0, 1])
def test_host_masks(name, mask, dtype, ddof):
    host = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, -np.inf]]).astype(dtype) if dtype != np.int32 else \
        np.array([[1, 2, 3], [4, 5, 6]], dtype)
    kwargs = {"axis": 1, "where": mask} | ({} if name.endswith("mean") else {"ddof": ddof})
    want, _ = _messages(getattr(np, name), host, **kwargs)
    # the warnings the mask decides: NaNs that empty a slice for the NaN-functions are data (not read back)
    no_nans = np.nan_to_num(host, nan=0.5, posinf=np.inf, neginf=-np.inf)
    _, want_messages = _messages(getattr(np, name), no_nans, **kwargs)
    got, got_messages = _messages(getattr(kd, name), kd.asarray(host), **kwargs)
    assert got_messages == want_messages
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


@pytest.mark.parametrize("name", NAMES)
def test_shapes_views_and_where_true(name):
    host = np.arange(12.0).reshape(3, 4)
    for data, kwargs in [(host[:, :0], {"axis": 1}), (host[:0], {"axis": 0}), (host[:0], {"axis": 1}),
                         (host[:, ::3], {"axis": 1, "where": [[True, False]]}),
                         (host.T, {"axis": 0, "where": np.eye(4, 3, dtype=bool)}),
                         (host[:1], {"axis": 1, "ddof": 4}), (host[:1], {"axis": (0, 1), "ddof": 5}),
                         (host[:0], {"axis": 1, "where": np.ones((0, 4), bool)})]:
        if name.endswith("mean"):
            kwargs = {k: v for k, v in kwargs.items() if k != "ddof"}
        want, want_messages = _messages(getattr(np, name), data, **kwargs)
        got, got_messages = _messages(getattr(kd, name), kd.asarray(data), **kwargs)
        assert got_messages == want_messages, kwargs
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


def test_device_mask_stays_lazy():
    """A kdsl array mask: the same NaN results, and no warning (reading its counts back would end the laziness)."""
    host = np.array([[1.0, 2.0], [3.0, 4.0]])
    mask = np.array([[True, False], [False, False]])
    for name in NAMES:
        got, messages = _messages(getattr(kd, name), kd.asarray(host), axis=1, where=kd.asarray(mask))
        assert messages == []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            np.testing.assert_allclose(got.numpy(), getattr(np, name)(host, axis=1, where=mask))
