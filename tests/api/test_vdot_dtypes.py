"""kd.vdot's result dtype and value for every kind of operand pair, against NumPy (bool . bool is bool:
NumPy's ``any(a & b)``, although ``conj`` of a bool array is int8)."""

import numpy as np
import pytest
from api_testing import numpy_kdsl_allclose

DTYPES = ["bool", "int8", "uint8", "int32", "float16", "float32", "complex64"]


def _operand(dtype, n, seed):
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(n) < 0.5
    values = rng.integers(-3, 4, n) + (1j * rng.integers(-3, 4, n) if dtype.startswith("complex") else 0)
    return np.asarray(values).astype(dtype)


@pytest.mark.parametrize("da", DTYPES)
@pytest.mark.parametrize("db", DTYPES)
@numpy_kdsl_allclose(rtol=1e-3)
def test_vdot_dtype_pairs(xp, da, db):
    a, b = _operand(da, 6, 0), _operand(db, 6, 1)
    return xp.vdot(xp.asarray(a), xp.asarray(b))


@pytest.mark.parametrize("n", [0, 1, 7])
@numpy_kdsl_allclose()
def test_vdot_bools_of_several_sizes_and_views(xp, n):
    a = xp.asarray(np.tile([True, False], (2, n)))
    b = xp.asarray(np.tile([False, True], (2, n)))
    return xp.vdot(a, b), xp.vdot(a, a), xp.vdot(a[:, ::2], a.T.T[:, ::2])
