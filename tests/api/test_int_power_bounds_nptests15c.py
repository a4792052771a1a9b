"""An integer ``power`` with a Python int operand outside the integer dtype's range is NumPy's OverflowError
("Python integer ... out of bounds for int16") even when the exponent is negative: NumPy checks the bounds
first, kdsl raised "Integers to negative integer powers are not allowed." (ValueError)."""

import numpy as np
import pytest

import kdsl as kd

CALLS = [
    lambda m, a: a ** (-2**63),
    lambda m, a: a ** (-2**40),
    lambda m, a: (2**40) ** a,
    lambda m, a: m.power(a, -2**40),
    lambda m, a: m.power(-2**40, a),
    lambda m, a: a ** -1,
    lambda m, a: a ** -(2**7 + 1),
    lambda m, a: a ** 2,
    lambda m, a: 3 ** a,
]


def _outcome(call):
    try:
        result = call()
    except (OverflowError, ValueError) as err:
        return type(err), str(err)
    return np.asarray(result).dtype.name, np.asarray(result).tolist()


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16"])
@pytest.mark.parametrize("values", [[-1], 3, [[1, 2], [0, -2]], []])
@pytest.mark.parametrize("call", range(len(CALLS)))
def test_outcome_as_numpy(dtype, values, call):
    host = np.asarray(values)
    if np.dtype(dtype).kind == "u":
        host = np.abs(host)
    host = host.astype(dtype)
    got_array = kd.asarray(host)
    if host.ndim == 2:  # a strided view as well
        host, got_array = host[:, ::-1], got_array[:, ::-1]
    want = _outcome(lambda: CALLS[call](np, host))
    got = _outcome(lambda: CALLS[call](kd, got_array))
    assert got == want
