"""``np.set_printoptions(threshold=5, edgeitems=2)`` then ``print(masked)`` in a port (``np`` is kdsl): the
masked array printed in full, because kd.ma read NumPy's own print options while ``kd.set_printoptions`` sets
kdsl's (kept apart from NumPy's). kd.ma arrays now print with kdsl's options, as kdsl's arrays do, and NumPy's
options no longer reach them (kdsl/ma/printing.masked_text)."""

import numpy as np
import pytest

import kdsl as kd

OPTIONS = [{"threshold": 5, "edgeitems": 2}, {"threshold": 10, "edgeitems": 1, "linewidth": 30},
           {"precision": 2, "suppress": True}, {"threshold": 0, "edgeitems": 3},
           {"formatter": {"float_kind": lambda v: f"<{v:.1f}>"}}, {"sign": "+", "floatmode": "fixed", "precision": 3},
           {"threshold": 4, "edgeitems": 1, "nanstr": "NaN"}]
SHAPES = [(20,), (6, 7), (2, 3, 9), (3,), (1, 12)]


def _pair(shape, dtype, masked):
    rng = np.random.default_rng(sum(shape))
    data = (rng.normal(size=shape) * 10).astype(dtype)
    if np.issubdtype(dtype, np.floating):
        data.flat[1] = np.nan
    mask = rng.random(shape) < 0.3 if masked else np.ma.nomask
    return np.ma.array(data, mask=mask), kd.ma.array(kd.asarray(data), mask=mask)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(o))
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
@pytest.mark.parametrize("masked", [True, False])
def test_kd_print_options_reach_masked_arrays(options, shape, dtype, masked):
    want, got = _pair(shape, dtype, masked)
    with np.printoptions(**options):
        want_str, want_repr = str(want), repr(want)
    with kd.printoptions(**options):
        assert str(got) == want_str
        assert repr(got) == want_repr


def test_set_printoptions_as_a_port_writes_it():
    want, got = _pair((20,), np.float64, True)
    old = kd.get_printoptions()
    kd.set_printoptions(threshold=5, edgeitems=2)
    try:
        with np.printoptions(threshold=5, edgeitems=2):
            expected = str(want)
        assert str(got) == expected and "..." in expected
    finally:
        kd.set_printoptions(**old)


def test_numpys_options_do_not_reach_kdsl_masked_arrays():
    want, got = _pair((20,), np.float64, True)
    full = str(want)
    with np.printoptions(threshold=5, edgeitems=2):
        assert str(got) == full  # kdsl's defaults, as print(kd_array) under NumPy's options
        assert "..." in str(want)
