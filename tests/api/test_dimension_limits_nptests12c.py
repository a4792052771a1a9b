"""NumPy's 64-dimension limit: arrays past it are a ValueError, keys whose result would pass it (or with more
than 64 scalar booleans) an IndexError; keys within it work as before."""
import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("make", [lambda m: m.ones((1,) * 65), lambda m: m.zeros((0,) * 65),
                                  lambda m: m.ones(1).reshape((1,) * 65),
                                  lambda m: m.expand_dims(m.ones(1), tuple(range(64))),
                                  lambda m: m.broadcast_to(m.asarray(1.0), (1,) * 65)])
def test_arrays_past_64_dimensions_raise(make):
    with pytest.raises(ValueError, match="maximum supported dimension"):
        make(np)
    with pytest.raises(ValueError, match="maximum supported dimension"):
        make(kd)


KEYS_RAISING = [(None,) * 65, (None,) * 64, (Ellipsis,) + (None,) * 64, (True,) * 65, (0,) + (None,) * 64 + (True,)]


@pytest.mark.parametrize("key", KEYS_RAISING, ids=range(len(KEYS_RAISING)))
@pytest.mark.parametrize("shape", [(3,), (2, 3)])
def test_keys_past_the_limit_raise_index_error(key, shape):
    for m in (np, kd):
        a = m.asarray(np.arange(np.prod(shape), dtype=np.float32).reshape(shape))
        with pytest.raises(IndexError):
            a[key]
        with pytest.raises(IndexError):
            a[key] = 1.0


def test_sixty_four_dimensional_array_keys():
    data = np.arange(2.0).reshape((2,) + (1,) * 63)
    x = kd.asarray(data)
    for key in [True, None]:
        with pytest.raises(IndexError):
            data[key]
        with pytest.raises(IndexError):
            x[key]
    for key in [(0, None), (0,) * 64, (slice(None, None, -1),) + (0,) * 63, (1, Ellipsis, None)]:
        np.testing.assert_array_equal(np.asarray(x[key]), data[key])


@pytest.mark.parametrize("key", [(None,) * 63, (True,) * 64, (Ellipsis,) + (None,) * 63, (0,) + (None,) * 64,
                                 (slice(None, None, 2),) + (None,) * 63, ([0, 2],) + (None,) * 10])
def test_keys_within_the_limit_work(key):
    data = np.array([1.0, np.nan, -np.inf], np.float32)
    np.testing.assert_array_equal(np.asarray(kd.asarray(data)[key]), data[key])
