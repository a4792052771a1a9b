"""``concatenate``/``stack``/``vstack``/``hstack`` check ``casting`` up front, as NumPy's: an unknown rule is
NumPy's ValueError even when the inputs need no cast (it was silently accepted)."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("name", ["concatenate", "stack", "vstack", "hstack"])
@pytest.mark.parametrize("casting", ["bogus", "same_value", "Safe"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_unknown_casting_is_a_value_error(name, casting, dtype):
    parts = [np.arange(3, dtype=dtype), np.arange(3, dtype=dtype)]
    with pytest.raises(ValueError, match="^casting must be one of"):
        getattr(np, name)(parts, casting=casting)
    with pytest.raises(ValueError, match="^casting must be one of"):
        getattr(kd, name)([kd.asarray(p) for p in parts], casting=casting)


@pytest.mark.parametrize("name", ["concatenate", "stack"])
@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
def test_known_castings_still_join(name, casting):
    parts = [np.arange(3, dtype=np.float32), np.ones(3, np.float32)]
    got = getattr(kd, name)([kd.asarray(p) for p in parts], casting=casting)
    np.testing.assert_array_equal(got.numpy(), getattr(np, name)(parts, casting=casting))
