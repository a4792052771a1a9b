"""Printing a summarised kdsl array (more elements than ``threshold``) downloads only its edges, and prints
exactly as NumPy prints the whole array: ``str``, ``repr`` and ``array2string``, under kdsl's print options."""

import numpy as np
import pytest

import kdsl as kd

# NumPy names a subclass's repr after its class: this one's is NumPy's layout with kdsl's prefix (the dtypes below
# are ones NumPy names in its repr too, so its repr is exactly kdsl's).
_KD_ARRAY = type("kd.array", (np.ndarray,), {})

SHAPES = [(2000,), (40, 41), (3, 400, 5), (7, 1, 7, 7), (1, 1500), (0, 2000), (6, 6, 6, 6), (1001,)]
DTYPES = [np.float32, np.int32, np.complex64, np.float16, np.uint8, np.int16]
OPTIONS = [{}, {"threshold": 10, "edgeitems": 1}, {"threshold": 50, "edgeitems": 2, "precision": 2},
           {"threshold": 0, "edgeitems": 0}, {"threshold": 3, "edgeitems": 4, "linewidth": 40, "suppress": True}]


DEFAULTS = {k: v for k, v in kd.get_printoptions().items() if k != "override_repr"}


@pytest.fixture(autouse=True)
def _restore():
    old = kd.get_printoptions()
    yield
    kd.set_printoptions(**old)


def _data(shape, dtype, seed=0):
    """Values of several magnitudes, with NaN/inf in the floats, so the number formats depend on them."""
    rng = np.random.default_rng(seed)
    h = rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)
    if np.issubdtype(dtype, np.complexfloating):
        h = h + 1j * rng.standard_normal(shape)
    if np.issubdtype(dtype, np.integer):
        h = np.clip(h, np.iinfo(dtype).min, np.iinfo(dtype).max)
    h = h.astype(dtype)
    if np.issubdtype(dtype, np.inexact) and h.size:
        h.flat[0], h.flat[-1] = np.nan, -np.inf
    return h


def _check(a, h, **options):
    with kd.printoptions(**DEFAULTS), kd.printoptions(**options), np.printoptions(**options):
        assert str(a) == str(h)
        assert repr(a) == repr(h.view(_KD_ARRAY))
        assert kd.array2string(a, separator=",") == np.array2string(h, separator=",")


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_prints_as_numpy(shape, dtype):
    h = _data(shape, dtype)
    a = kd.asarray(h)
    for options in OPTIONS:
        _check(a, h, **options)


def test_views_and_hidden_values():
    """Non-contiguous views print as NumPy's; a value in the hidden middle does not change the number format."""
    h = _data((50, 60), np.float32)
    h[25, 30] = 1e30
    a = kd.asarray(h)
    for key in [(slice(None, None, 3), slice(None, None, -2)), (slice(None), 7), (Ellipsis, slice(1, 59))]:
        _check(a[key], h[key])
    _check(a.T, h.T, threshold=100, edgeitems=2)


def test_array2string_keywords():
    """array2string's own threshold/edgeitems decide what is summarised, as in NumPy."""
    h = _data((30, 30), np.float32)
    a = kd.asarray(h)
    for threshold, edgeitems in [(4, 2), (900, 3), (899, 1), (10, 20)]:
        got = kd.array2string(a, threshold=threshold, edgeitems=edgeitems)
        assert got == np.array2string(h, threshold=threshold, edgeitems=edgeitems)
    with pytest.raises(ValueError):
        kd.array2string(a, threshold=np.nan)


def test_downloads_only_the_edges(download_sizes):
    """A 2**28-element lazy array prints from its corners: every read back stays small."""
    sizes = download_sizes
    b = kd.broadcast_to(kd.arange(16384, dtype=kd.float32), (16384, 16384)) * 2 + 1
    h = np.broadcast_to(np.arange(16384, dtype=np.float32), (16384, 16384)) * 2 + 1
    assert str(b) == str(h)
    assert repr(b) == repr(h.view(_KD_ARRAY))
    assert sizes and max(sizes) <= 7 * 7
