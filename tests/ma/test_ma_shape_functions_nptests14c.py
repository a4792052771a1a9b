"""numpy.ma's shape functions and products that kd.ma lacked (AttributeError before): ``atleast_1d/2d/3d`` with
several arguments, ``diagflat``, ``column_stack``, ``dstack``, ``hsplit``, ``diag``, ``resize``, ``append``,
``shape``/``ndim``/``size``, ``outer``/``outerproduct``, ``inner``/``innerproduct``, ``alltrue``/``sometrue``;
each against numpy.ma on several shapes, dtypes, masks (none, some, all, nomask), views, NaN and inf."""

import numpy as np
import pytest
from ma_testing import assert_same, pair

import kdsl as kd

CASES = [((0,), np.float32, "some", "contiguous"), ((1,), np.int32, "all", "contiguous"),
         ((7,), np.float64, "some", "strided"), ((3, 4), np.float32, "nomask", "transposed"),
         ((3, 4), np.int32, "some", "strided"), ((1, 4), np.bool_, "some", "contiguous")]


def _nan_pair():
    data = np.array([[np.nan, 1.0, np.inf], [-np.inf, 2.0, 3.0]], np.float32)
    mask = np.array([[False, True, False], [False, False, True]])
    return np.ma.array(data, mask=mask), kd.ma.array(kd.asarray(data), mask=kd.asarray(mask))


@pytest.mark.parametrize("name", ["atleast_1d", "atleast_2d", "atleast_3d", "diagflat", "ravel"])
@pytest.mark.parametrize("case", CASES)
def test_each_argument_functions(name, case):
    n, k = pair(*case)
    assert_same(getattr(kd.ma, name)(k), getattr(np.ma, name)(n))


def test_atleast_several_arguments_and_scalars():
    got, want = kd.ma.atleast_2d(kd.ma.array([1.0, 2.0], mask=[True, False]), 3.0), np.ma.atleast_2d(
        np.ma.array([1.0, 2.0], mask=[True, False]), 3.0)
    assert isinstance(got, list) and len(got) == len(want) == 2
    for g, w in zip(got, want, strict=True):
        assert_same(g, w, check_dtype=False)  # kdsl's Python float is float32
    b = kd.ma.atleast_3d(1.0)
    assert b.shape == b.mask.shape == (1, 1, 1)
    assert kd.ma.diagflat(1.0).shape == (1, 1)


@pytest.mark.parametrize("name", ["column_stack", "dstack", "hstack", "vstack"])
@pytest.mark.parametrize("case", CASES[1:])
def test_sequence_functions(name, case):
    n1, k1 = pair(*case)
    n2, k2 = pair(*case[:2], "some", "contiguous", seed=5)
    n2, k2 = (n2.T, k2.T) if case[3] == "transposed" else (n2, k2)
    n2, k2 = (n2[::2, ::-1], k2[::2, ::-1]) if case[3] == "strided" and len(case[0]) == 2 else (n2, k2)
    n2, k2 = (n2[::2], k2[::2]) if case[3] == "strided" and len(case[0]) == 1 else (n2, k2)
    assert_same(getattr(kd.ma, name)([k1, k2]), getattr(np.ma, name)([n1, n2]))


@pytest.mark.parametrize("case", [((2, 4), np.float32, "some", "contiguous"), ((3, 4), np.int32, "all", "strided"),
                                  ((4, 2), np.float64, "nomask", "transposed"), ((3, 0), np.float32, "some",
                                                                                 "contiguous")])
def test_hsplit_stacks_the_pieces(case):
    n, k = pair(*case)
    assert_same(kd.ma.hsplit(k, 2), np.ma.hsplit(n, 2))


@pytest.mark.parametrize("k_off", [0, 1, -1])
@pytest.mark.parametrize("case", [((5,), np.float32, "some", "contiguous"), ((3, 4), np.int32, "some", "strided"),
                                  ((4, 3), np.float64, "nomask", "transposed"), ((1,), np.float32, "all", "contiguous"),
                                  ((0,), np.float32, "some", "contiguous")])
def test_diag(case, k_off):
    n, k = pair(*case)
    assert_same(kd.ma.diag(k, k_off), np.ma.diag(n, k_off))


@pytest.mark.parametrize("new_shape", [(3, 3), (5,), (2, 0), ()])
@pytest.mark.parametrize("case", [((2, 2), np.float32, "some", "contiguous"), ((3, 4), np.int32, "nomask", "strided"),
                                  ((1,), np.float64, "all", "contiguous")])
def test_resize_repeats_the_mask(case, new_shape):
    n, k = pair(*case)
    got, want = kd.ma.resize(k, new_shape), np.ma.resize(n, new_shape)
    if want.ndim == 0:  # numpy.ma's 0-d result keeps no mask
        np.testing.assert_allclose(np.asarray(got.data.numpy()), want.data)
        return
    assert_same(got, want)


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_append(axis):
    n1, k1 = pair((3, 2), np.float32, "some", "transposed") if axis == 1 else pair((2, 3), np.float32, "some")
    n2, k2 = pair((2, 3), np.float32, "nomask", "contiguous", seed=3)
    assert_same(kd.ma.append(k1, k2, axis), np.ma.append(n1, n2, axis))


@pytest.mark.parametrize("case", CASES)
def test_shape_queries(case):
    n, k = pair(*case)
    assert kd.ma.shape(k) == np.ma.shape(n) and kd.ma.ndim(k) == np.ma.ndim(n) and kd.ma.size(k) == np.ma.size(n)
    if n.ndim:
        assert kd.ma.size(k, 0) == np.ma.size(n, 0)
    assert kd.ma.shape([[1, 2, 3]]) == np.ma.shape([[1, 2, 3]])


@pytest.mark.parametrize("name", ["outer", "outerproduct", "inner", "innerproduct"])
@pytest.mark.parametrize("case", [((3,), np.float32, "some", "contiguous"), ((2, 3), np.int32, "some", "strided"),
                                  ((3, 3), np.float64, "nomask", "transposed"), ((0,), np.float32, "some",
                                                                                 "contiguous"),
                                  ((1,), np.float32, "all", "contiguous")])
def test_products(name, case):
    n1, k1 = pair(*case)
    n2, k2 = pair(*case, seed=7)
    assert_same(getattr(kd.ma, name)(k1, k2), getattr(np.ma, name)(n1, n2))


@pytest.mark.parametrize("name", ["outer", "inner", "column_stack", "diag", "atleast_2d"])
def test_nan_and_inf(name):
    n, k = _nan_pair()
    args_n, args_k = {"outer": ((n, n[0]), (k, k[0])), "inner": ((n, n), (k, k)),
                      "column_stack": (([n[0], n[1]],), ([k[0], k[1]],))}.get(name, ((n,), (k,)))
    assert_same(getattr(kd.ma, name)(*args_k), getattr(np.ma, name)(*args_n))


@pytest.mark.parametrize("name", ["alltrue", "sometrue"])
@pytest.mark.parametrize("case", [((3, 4), np.bool_, "some", "strided"), ((4, 3), np.int32, "some", "transposed"),
                                  ((1, 3), np.float32, "all", "contiguous"), ((5,), np.float32, "nomask",
                                                                                "contiguous")])
def test_alltrue_sometrue_reduce_axis_0(name, case):
    n, k = pair(*case)
    assert_same(getattr(kd.ma, name)(k), getattr(np.ma, name)(n))
    if n.ndim == 2:
        assert_same(getattr(kd.ma, name)(k, axis=1), getattr(np.ma, name)(n, axis=1))
