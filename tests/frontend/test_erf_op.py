"""``kd.erf`` (one op, ``kdsl.codegen.erf``) against ``math.erf`` in float16/32/64: its series and erfc
branches and their seam, NaN/inf/-0.0, tiny arguments (relative accuracy), empty and non-contiguous input,
integer input (a float, as ``kd.exp``), complex input (TypeError); and ``kd.nn.gelu`` as a few graph nodes."""

import math

import numpy as np
import pytest

import kdsl as kd

ERF = np.vectorize(math.erf, otypes=[np.float64])
# (relative, absolute) tolerance per dtype: the float32 fit is within 4e-7 / 2e-7, float64 within 2e-15
TOL = {np.float16: (1e-3, 1e-3), np.float32: (4e-7, 2e-7), np.float64: (4e-15, 1e-16)}


def _points(dtype):
    grid = np.linspace(-7, 7, 1401)
    seams = [0.5, -0.5, np.nextafter(0.5, 0), 2.0, -2.0, np.nextafter(2.0, 0), 6.0, 6.0000001, 4.0, 1e-3, -1e-6]
    far = [30.0, -30.0] + ([1e30] if dtype != np.float16 else [])  # (1e30 overflows float16)
    return np.concatenate([grid, seams, far]).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_erf_matches_math_erf(dtype):
    x = _points(dtype)
    rtol, atol = TOL[dtype]
    got = kd.erf(kd.asarray(x))
    assert got.dtype == kd.dtype(dtype)
    np.testing.assert_allclose(got.numpy().astype(np.float64), ERF(x.astype(np.float64)), rtol=rtol, atol=atol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_erf_is_relatively_accurate_near_zero(dtype):
    x = np.array([1e-30, -1e-20, 1e-8, 3e-4, -0.1, 0.3], dtype)
    np.testing.assert_allclose(kd.erf(kd.asarray(x)).numpy(), ERF(x.astype(np.float64)), rtol=TOL[dtype][0], atol=0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_erf_special_values(dtype):
    got = kd.erf(kd.asarray(np.array([np.nan, np.inf, -np.inf, 0.0, -0.0], dtype))).numpy()
    assert np.isnan(got[0]) and got[1] == 1.0 and got[2] == -1.0
    assert got[3] == 0.0 and not np.signbit(got[3]) and got[4] == 0.0 and np.signbit(got[4])


def test_erf_of_views_empty_and_integers():
    base = np.linspace(-3, 3, 24, dtype=np.float32).reshape(4, 6)
    np.testing.assert_allclose(kd.erf(kd.asarray(base)[::-2, 1::2]).numpy(), ERF(base[::-2, 1::2]), rtol=4e-7,
                               atol=2e-7)
    assert kd.erf(kd.zeros((0, 3))).shape == (0, 3)
    ints = kd.erf(kd.asarray([0, 1, -2]))
    assert ints.dtype == kd.exp(kd.asarray([0, 1, -2])).dtype
    np.testing.assert_allclose(ints.numpy(), ERF(np.array([0.0, 1.0, -2.0])), rtol=1e-6)


def test_erf_refuses_complex():
    with pytest.raises(TypeError, match="complex"):
        kd.erf(kd.asarray([1 + 1j]))


def _ops(node, seen=None):
    seen = set() if seen is None else seen
    if id(node) in seen:
        return []
    seen.add(id(node))
    return [node.op] + [op for s in node.srcs for op in _ops(s, seen)]


def test_gelu_is_a_few_nodes_around_one_erf():
    ops = _ops(kd.nn.gelu(kd.ones(4))._node)
    assert ops.count("erf") == 1 and len(ops) < 12, ops
