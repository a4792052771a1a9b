"""repr of kd.Array laid out as NumPy's (numpy/_core/tests/test_arrayprint.py): the values wrap as in
``np.array_repr``, ``shape=`` where the values do not show it (empty arrays other than 1-d, summarised ones),
and the extras go on a new line when the last line is full. kdsl's own form: ``kd.array(`` and the dtype
always named."""

import numpy as np
import pytest

import kdsl as kd

# NumPy names a subclass's repr after its class: this one's is NumPy's layout with kdsl's prefix. The dtypes
# below are ones NumPy names too, so its repr is exactly kdsl's.
_KD_ARRAY = type("kd.array", (np.ndarray,), {})

CASES = [
    np.arange(7, dtype=np.int32),
    np.array([np.nan, np.inf, -np.inf, -0.0, 1.5], np.float32),
    np.zeros((0, 3), np.float32),
    np.zeros((2, 0, 1), np.int16),
    np.zeros(0, np.uint8),
    np.arange(2000, dtype=np.int32),
    np.arange(1002, dtype=np.float32).reshape(2, 501),
    np.linspace(0, 1, 40, dtype=np.float32)[::3],
    np.arange(24, dtype=np.int8).reshape(2, 3, 4)[:, ::2, 1:],
    np.ones((1, 5, 1), np.float16),
    np.array(3.25, np.float32),
    np.array([1 + 2j, np.nan - 1j], np.complex64),
    np.arange(12, dtype=np.uint32).reshape(3, 4).T,
]


@pytest.fixture(autouse=True)
def _restore():
    old = kd.get_printoptions()
    yield
    kd.set_printoptions(**old)


@pytest.mark.parametrize("linewidth", [75, 30, 17])
@pytest.mark.parametrize("i", range(len(CASES)))
def test_repr_is_numpys_layout(i, linewidth):
    host = CASES[i]
    kd.set_printoptions(linewidth=linewidth)
    with np.printoptions(linewidth=linewidth):
        expected = np.array_repr(host.view(_KD_ARRAY))
    assert repr(kd.asarray(host)) == expected


@pytest.mark.parametrize("i", range(len(CASES)))
def test_array_repr_arguments_and_threshold(i):
    host = CASES[i]
    kd.set_printoptions(threshold=4, edgeitems=1)
    with np.printoptions(threshold=4, edgeitems=1):
        expected = np.array_repr(host.view(_KD_ARRAY), max_line_width=25, precision=2)
    assert kd.array_repr(kd.asarray(host), max_line_width=25, precision=2) == expected


def test_examples():
    assert repr(kd.zeros((0, 3))) == "kd.array([], shape=(0, 3), dtype=float32)"
    assert repr(kd.zeros(0, kd.float64)) == "kd.array([], dtype=float64)"
    assert repr(kd.arange(2000, dtype=kd.int64)).endswith("1999],\n         shape=(2000,), dtype=int64)")
    with kd.printoptions(linewidth=17):
        assert repr(kd.full(7, 2)) == "kd.array([2, 2,\n          2, 2,\n          2, 2,\n          2],\n" \
                                      "         dtype=int32)"
    with kd.printoptions(legacy="2.1"):  # NumPy 2.1 did not name the shape of summarised arrays
        assert "shape=" not in repr(kd.arange(2000))
