"""``einsum``'s interleaved form takes subscripts of any integer type, as NumPy's does (``np.int64`` items, a NumPy
or kdsl integer array as the sublist), with NumPy's TypeError for a non-integer and ValueError past 52."""

import numpy as np
import pytest

import kdsl as kd

DTYPES = [np.float32, np.float64, np.int32, np.complex64]


def _sublists(kind):
    to = {"list": list, "np_ints": lambda v: [np.int64(x) for x in v], "np_array": np.array,
          "kd_array": kd.asarray, "tuple": tuple}[kind]
    return to


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("kind", ["list", "np_ints", "np_array", "kd_array", "tuple"])
def test_integer_sublists(dtype, kind):
    to = _sublists(kind)
    rng = np.random.default_rng(0)
    a = (rng.random((3, 3)) * 10).astype(dtype)
    b = (rng.random((3, 4)) * 10).astype(dtype)
    ka, kb = kd.asarray(a), kd.asarray(b)
    cases = [((a, [0, 0]), (ka, to([0, 0]))),                               # trace
             ((a, [0, 1], [1]), (ka, to([0, 1]), to([1]))),                 # column sums
             ((a, [0, 1], b, [1, 2], [0, 2]), (ka, to([0, 1]), kb, to([1, 2]), to([0, 2])))]  # a @ b
    for host, dev in cases:
        want = np.einsum(*host)
        got = kd.einsum(*dev)
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5)


@pytest.mark.parametrize("bad, error", [([True, 0], TypeError), ([0.0, 1], TypeError), ([52, 0], ValueError),
                                        ([0, -1], ValueError)])
def test_bad_subscripts_raise_numpys_error(bad, error):
    a = np.ones((2, 2), np.float32)
    with pytest.raises(error):
        np.einsum(a, bad)
    with pytest.raises(error, match="einsum: subscript"):
        kd.einsum(kd.asarray(a), bad)
