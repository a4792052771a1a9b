"""A boolean mask with ``...``, ``None``, or after ints and slices (``X[..., keep]``, ``a[None, mask]``,
``a[0, :, mask]``), read and written, against NumPy."""

import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(12)
M3 = np.array([True, False, True])
M4 = np.array([False, True, True, False])
M45 = RNG.random((4, 5)) < 0.5


def _key(key: tuple, as_kdsl: bool) -> tuple:
    return tuple(kd.asarray(k) if as_kdsl and isinstance(k, np.ndarray) else k for k in key)


KEYS = [
    ((3, 4), (Ellipsis, M4)),                    # X[..., keep]: the mask on the last axis
    ((3, 4), (M3, Ellipsis)),
    ((2, 4, 5), (Ellipsis, M45)),                # a 2-d mask after ...
    ((2, 4, 5), (Ellipsis, M4, slice(1, 4))),
    ((2, 4, 5), (0, Ellipsis, M45[1])),
    ((3, 4), (None, M3)),                        # None: a new axis first
    ((3, 4), (M3, None)),
    ((3, 4), (slice(None), None, M4)),
    ((3, 4), (Ellipsis, None, M4)),
    ((2, 4, 5), (0, slice(None), M45[2])),       # ints and slices before the mask: its nonzero indices
    ((2, 4, 5), (slice(None), 1, M45[0])),
    ((2, 4, 5), (1, slice(1, None), M45[3])),
]


@pytest.mark.parametrize("as_kdsl", [False, True])
@pytest.mark.parametrize(("shape", "key"), KEYS)
def test_read_matches_numpy(shape, key, as_kdsl):
    host = RNG.standard_normal(shape).astype(np.float32)
    want = host[key]
    got = kd.asarray(host)[_key(key, as_kdsl)]
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("as_kdsl", [False, True])
@pytest.mark.parametrize(("shape", "key"), [k for k in KEYS if not any(i is None for i in k[1])])
def test_assign_and_augment_match_numpy(shape, key, as_kdsl):
    host = RNG.integers(-9, 9, shape).astype(np.int32)
    want = host.copy()
    want[key] = -1
    want[key] += np.arange(want[key].shape[-1], dtype=np.int32)
    got = kd.asarray(host)
    got[_key(key, as_kdsl)] = -1
    got[_key(key, as_kdsl)] += kd.arange(want[key].shape[-1], dtype=kd.int32)
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("key", [(Ellipsis, M4, Ellipsis), (Ellipsis, M45), (Ellipsis, np.ones(5, bool))])
def test_bad_keys_raise_index_error(key):
    host = np.zeros((3, 4))
    with pytest.raises(IndexError):
        host[key]
    with pytest.raises(IndexError):
        kd.asarray(host)[key]
