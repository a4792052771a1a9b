"""``full`` / ``full_like`` with a 0-d NumPy array as the fill value (``np.load("x.npz")["base"]``,
``np.loadtxt`` of one number) against NumPy: NumPy's dtype when none is given, NumPy's unsafe cast into a given
one (kdsl/frontend/array/creation._full; it raised TypeError: unhashable type: 'numpy.ndarray')."""

import numpy as np
import pytest

import kdsl as kd

FILLS = [np.array(5), np.array(5.5), np.array(40000), np.array(True), np.array(2 + 1j), np.array(np.nan),
         np.array(-np.inf), np.array(5, dtype=np.uint8), np.array(1.5, dtype=np.float16),
         np.array(7, dtype=np.int16)]
DTYPES = [None, np.int16, np.float64, np.float32, np.uint8, bool]
SHAPES = [(0,), (1,), (3,), (2, 1), (2, 3)]


def _same(got, expected):
    assert got.dtype == expected.dtype
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got.numpy(), expected)


def _defined(fill, dtype) -> bool:
    """Whether NumPy's cast of ``fill`` into ``dtype`` is defined: NaN/inf into an integer dtype is undefined in C
    (NumPy's value depends on the CPU), so those pairs are not compared."""
    return dtype is None or fill.dtype.kind != "f" or bool(np.isfinite(fill)) or np.dtype(dtype).kind not in "iu"


@pytest.mark.filterwarnings("ignore::RuntimeWarning", "ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize(("fill", "dtype"), [(f, d) for f in FILLS for d in DTYPES if _defined(f, d)], ids=repr)
def test_full_matches_numpy(fill, dtype):
    for shape in SHAPES:
        _same(kd.full(shape, fill, dtype=dtype), np.full(shape, fill, dtype=dtype))


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("fill", FILLS[:6], ids=repr)
def test_full_like_of_a_view_matches_numpy(fill):
    base = np.arange(12, dtype=np.float32).reshape(3, 4)[:, ::2]  # a non-contiguous prototype
    with np.errstate(all="ignore"):
        expected = np.full_like(base, fill)
    _same(kd.full_like(kd.asarray(np.arange(12, dtype=np.float32).reshape(3, 4))[:, ::2], fill), expected)


def test_the_result_is_a_new_array():
    fill = np.array(2.5)
    a = kd.full(3, fill)
    a[0] = 9
    assert fill == 2.5
    np.testing.assert_array_equal(a.numpy(), [9, 2.5, 2.5])
