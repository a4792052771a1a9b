"""kd.iscomplexobj / kd.isrealobj look at the dtype only, as NumPy's: any host data (strings, objects) is
answered, not refused, and a duck array's ``.dtype`` counts (NumPy dtypes, Python types, pandas-like dtype
objects that carry a ``kind``)."""

import numpy as np
import pytest

import kdsl as kd


class _Duck:
    def __init__(self, dtype):
        self.dtype = dtype


class _PandasLikeDtype:
    kind = "c"
    name = "category"


@pytest.mark.parametrize("x", [["a", 1j], ["a"], [3, 1 + 0j, True], [3, 1, True], np.array(["x"], object),
                               np.ones(2, np.complex64), 1 + 0j, 1.0, (1, 2j)])
def test_iscomplexobj_of_host_data(x):
    assert kd.iscomplexobj(x) == np.iscomplexobj(x)
    assert kd.isrealobj(x) == np.isrealobj(x)


@pytest.mark.parametrize("dtype", [np.dtype(complex), complex, np.dtype(np.float32), float, kd.complex64,
                                   kd.float32])
def test_iscomplexobj_of_duck_arrays(dtype):
    want = np.dtype(dtype if not isinstance(dtype, kd.dtype) else dtype.np).kind == "c"
    assert kd.iscomplexobj(_Duck(dtype)) is want
    assert kd.isrealobj(_Duck(dtype)) is not want


def test_iscomplexobj_of_a_pandas_like_dtype():
    assert kd.iscomplexobj(_Duck(_PandasLikeDtype()))
