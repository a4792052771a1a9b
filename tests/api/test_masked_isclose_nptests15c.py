"""``kd.isclose``/``kd.allclose`` and ``np.isclose``/``np.allclose`` of kd.ma masked arrays behave as NumPy's
for ``np.ma`` arrays: ``isclose`` is a masked array, masked where either operand is (kdsl compared the data and
dropped the mask); ``allclose`` looks at the unmasked entries only (False when all are masked). ``np.allclose``
ran ``kd.ma.allclose``, whose third argument is ``masked_equal``, not ``rtol``."""

import numpy as np
import pytest

import kdsl as kd

CASES = [
    ([1.0, 5.0, 3.0], [True, False, False], [5.0, 5.0, 3.1], None),
    ([1.0, np.nan, np.inf], [False, False, True], [1.0, np.nan, 1.0], None),
    ([[1.0, 2.0], [3.0, 4.0]], [[False, True], [False, False]], [1.0, 2.5], None),
    ([1.0, 2.0, 3.0], [False, False, False], 2.0, None),
    ([1.0, 2.0], [True, True], [1.0, 2.0], None),
    ([1.0, 2.0, 3.0], [False, True, False], [1.0, 9.0, 3.0], [True, False, False]),
    ([], [], [], None),
    ([7.0], [False], [[7.0], [8.0]], None),
]


def _pair(mod, data, mask, other, other_mask, dtype):
    x = mod.ma.array(np.asarray(data, dtype), mask=mask)
    y = mod.ma.array(np.asarray(other, dtype), mask=other_mask) if other_mask is not None else other
    return x, y


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("equal_nan", [False, True])
def test_isclose_masked_as_numpy(case, dtype, equal_nan):
    x, y = _pair(np, *CASES[case], dtype)
    kx, ky = _pair(kd, *CASES[case], dtype)
    want = np.isclose(x, y, equal_nan=equal_nan)
    for got in (kd.isclose(kx, ky, equal_nan=equal_nan), np.isclose(kx, ky, equal_nan=equal_nan)):
        assert isinstance(got, kd.ma.MaskedArray)
        np.testing.assert_array_equal(got.mask.numpy() if got.mask is not kd.ma.nomask else False,
                                      np.ma.getmaskarray(want) if want.mask is not np.ma.nomask else False)
        np.testing.assert_array_equal(got.to_numpy().filled(False), want.filled(False))
    swapped = np.isclose(y, x)
    np.testing.assert_array_equal(kd.isclose(ky, kx).to_numpy().filled(False), swapped.filled(False))


@pytest.mark.parametrize("case", range(len(CASES)))
def test_allclose_masked_as_numpy(case):
    x, y = _pair(np, *CASES[case], "float64")
    kx, ky = _pair(kd, *CASES[case], "float64")
    for kw in ({}, {"equal_nan": True}, {"rtol": 0.5}):
        want = np.allclose(x, y, **kw)
        assert kd.allclose(kx, ky, **kw) is want
        assert np.allclose(kx, ky, **kw) is want
    assert np.allclose(kx, ky, 0.5) is np.allclose(x, y, 0.5)  # positional rtol, not masked_equal


def test_strided_view_and_plain_arrays_unchanged():
    data = np.arange(8.0)
    x = kd.ma.array(data, mask=data > 4)[::2]
    want = np.isclose(np.ma.array(data, mask=data > 4)[::2], 4.0)
    np.testing.assert_array_equal(kd.isclose(x, 4.0).to_numpy().filled(False), want.filled(False))
    plain = kd.isclose(kd.asarray([1.0, 2.0]), 1.0)
    assert isinstance(plain, kd.Array)
    assert plain.tolist() == [True, False]
