"""``matmul``, ``matvec`` and ``vecmat`` take NumPy's gufunc keywords: ``axes=[x1's core axes, x2's, the
output's]`` moves the core dimensions (kdsl: TypeError, unexpected keyword), ``axis`` and ``keepdims`` (even
False) are NumPy's TypeErrors for these signatures; bad entries are its AxisError/ValueError/TypeError. Also
through ``np.matmul(kd_array, ..., axes=...)``. matmul's core-size mismatch has NumPy's message."""

import numpy as np
import pytest

import kdsl as kd


def _outcome(call):
    try:
        result = call()
    except (TypeError, ValueError) as err:
        return type(err).__name__, str(err)
    return np.asarray(result)


def _args(shapes, dtype):
    return [(np.arange(int(np.prod(s))) % 7 - 3 + k).astype(dtype).reshape(s) for k, s in enumerate(shapes)]


CASES = [
    ("matmul", [(2, 3, 4), (5, 4)], {"axes": [(-2, -1), (-1, -2), (-2, -1)]}),
    ("matmul", [(3, 2), (3, 2)], {"axes": [(1, 0), (0, 1), (0, 1)]}),
    ("matmul", [(3,), (3, 2)], {"axes": [(0,), (0, 1), (0,)]}),
    ("matmul", [(3,), (3, 2)], {"axes": [0, (0, 1), 0]}),
    ("matmul", [(2, 3, 4), (2, 4, 5)], {"axes": [(2, 1), (1, 2), (1, 0)]}),
    ("matmul", [(2, 0), (2, 3)], {"axes": [(1, 0), (0, 1), (0, 1)]}),
    ("matmul", [(2, 3), (3, 2)], {"axis": 1}),
    ("matmul", [(2, 3), (3, 2)], {"keepdims": True}),
    ("matmul", [(2, 3), (3, 2)], {"keepdims": False}),
    ("matmul", [(2, 3), (3, 2)], {"axes": [(0, 1), (0, 1)]}),
    ("matmul", [(2, 3), (3, 2)], {"axes": [(0, 1), (0, 1), (0,)]}),
    ("matmul", [(2, 3), (3, 2)], {"axes": [(0, 1), (0, 5), (0, 1)]}),
    ("matmul", [(2, 3), (3, 2)], {"axes": ((0, 1), (0, 1), (0, 1))}),
    ("matmul", [(2, 3), (2, 3)], {"axes": [(0, 1), (1, 0), (1, 0)]}),
    ("matmul", [(2, 3), (2, 3)], {}),
    ("matvec", [(2, 4, 3), (2, 4)], {"axes": [(-1, -2), -1, -1]}),
    ("matvec", [(3, 2), (3,)], {"axes": [(1, 0), 0, (0,)]}),
    ("matvec", [(3, 2), (3,)], {"axis": 0}),
    ("matvec", [(3, 2), (2,)], {"keepdims": True}),
    ("vecmat", [(2, 3), (2, 3, 4)], {"axes": [-1, (-2, -1), -1]}),
    ("vecmat", [(3,), (3, 2)], {"keepdims": True}),
    ("vecmat", [(3,), (2, 3)], {"axes": [0, (1, 0), 0]}),
]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "complex64"])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_as_numpy(case, dtype):
    name, shapes, keywords = CASES[case]
    host = _args(shapes, dtype)
    want = _outcome(lambda: getattr(np, name)(*host, **keywords))
    for call in (lambda: getattr(kd, name)(*[kd.asarray(x) for x in host], **keywords),
                 lambda: getattr(np, name)(*[kd.asarray(x) for x in host], **keywords)):
        got = _outcome(call)
        if isinstance(want, tuple):
            assert got == want
        else:
            assert got.shape == want.shape and got.dtype == want.dtype
            np.testing.assert_allclose(got, want, rtol=1e-5)


def test_strided_views_and_nan():
    a = np.array([[1.0, np.nan, 3.0], [np.inf, 0.0, -1.0]])[:, ::-1]
    b = np.arange(6.0).reshape(2, 3)[::-1]
    with np.errstate(invalid="ignore"):
        want = np.matmul(a, b, axes=[(1, 0), (0, 1), (0, 1)])
    ka = kd.asarray(np.array([[1.0, np.nan, 3.0], [np.inf, 0.0, -1.0]]))[:, ::-1]
    kb = kd.arange(6.0, dtype=kd.float64).reshape(2, 3)[::-1]
    np.testing.assert_array_equal(kd.matmul(ka, kb, axes=[(1, 0), (0, 1), (0, 1)]).numpy(), want)
