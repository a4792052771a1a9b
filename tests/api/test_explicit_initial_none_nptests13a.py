"""``initial=None`` given explicitly to ``sum``/``prod``/``nansum``/``nanprod``/``add.reduce``/``multiply.reduce``
means "no identity", as NumPy's (whose default is ``np._NoValue``): an empty reduced axis or a ``where=`` mask is
NumPy's ValueError and the fold starts from the first element (all ``-0.0`` stays ``-0.0``); kdsl treated it as
left out. ``ufunc.reduce`` also takes NumPy's ``initial`` and ``where`` positionally."""

import numpy as np
import pytest

import kdsl as kd


def _outcome(fn, *args, **kwargs):
    try:
        return np.asarray(fn(*args, **kwargs))
    except ValueError as err:
        return str(err)


@pytest.mark.parametrize("name", ["sum", "prod", "nansum", "nanprod", "add.reduce", "multiply.reduce"])
@pytest.mark.parametrize("shape, axis", [((0,), None), ((2, 0), 1), ((2, 0), 0), ((0, 3), 0), ((1, 3), 1),
                                         ((3,), 0), ((2, 3), None)], ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float64])
def test_no_identity(name, shape, axis, dtype):
    host = (np.arange(int(np.prod(shape))).reshape(shape) - 1.5).astype(dtype)
    if "reduce" in name and axis is None and len(shape) > 1:
        axis = (0, 1)

    def fn(lib):
        obj = lib
        for part in name.split("."):
            obj = getattr(obj, part)
        return obj

    want = _outcome(fn(np), host, axis=axis, initial=None)
    got = _outcome(fn(kd), kd.asarray(host), axis=axis, initial=None)
    if isinstance(want, str):
        assert got == want
    else:
        np.testing.assert_allclose(got, want, rtol=1e-6)
        assert got.dtype == want.dtype


def test_sign_of_zero_views_masks_methods():
    host = np.array([[-0.0, -0.0, 1.0], [-0.0, -0.0, -0.0]])
    x = kd.asarray(host)
    for got, want in [(kd.sum(x[:, :2], axis=1, initial=None), np.sum(host[:, :2], axis=1, initial=None)),
                      (kd.add.reduce(x[1], initial=None), np.add.reduce(host[1], initial=None)),
                      (x[:, ::2].sum(axis=1, initial=None), host[:, ::2].sum(axis=1, initial=None)),
                      (kd.sum(x[:, :2], axis=1), np.sum(host[:, :2], axis=1))]:
        np.testing.assert_array_equal(np.signbit(got.numpy()), np.signbit(want))
    with pytest.raises(ValueError, match="to use a where mask one has to specify 'initial'"):
        kd.sum(x, where=kd.asarray([True, False, True]), initial=None)
    with pytest.raises(ValueError, match="no identity"):
        x[:, :0].prod(axis=1, initial=None)
    np.testing.assert_array_equal(kd.nansum(kd.asarray([np.nan, 2.0]), initial=None).numpy(), 2.0)
    np.testing.assert_array_equal(kd.sum(x[:0], axis=1, initial=None).numpy(), np.zeros(0))


def test_reduce_positional_initial_and_where():
    host = np.arange(6.0).reshape(2, 3)
    mask = np.array([True, False, True])
    want = np.add.reduce(host, 1, None, None, True, 5.0, mask)
    np.testing.assert_array_equal(kd.add.reduce(kd.asarray(host), 1, None, None, True, 5.0, mask).numpy(), want)
    np.testing.assert_array_equal(np.add.reduce(kd.asarray(host), 1, None, None, True, 5.0, mask).numpy(), want)
    np.testing.assert_array_equal(kd.maximum.reduce(kd.asarray(host), 0, None, None, False, -1.0).numpy(),
                                  np.maximum.reduce(host, 0, None, None, False, -1.0))
