"""Derivatives of reductions, scans, matrix products, views, joins, indexing, gathers and sorts against central
finite differences (float64)."""

import numpy as np
import pytest
from autodiff_check import check_grad

import kdsl as kd

RNG = np.random.default_rng(2)


def _x(*shape, lo=-2.0, hi=2.0):
    return RNG.uniform(lo, hi, shape)


def _distinct(*shape):
    """Values far apart (max, min and sort are smooth away from ties)."""
    n = int(np.prod(shape))
    return (RNG.permutation(n) * 0.37 - n * 0.15).reshape(shape)


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 2), -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_sum_mean(axis, keepdims):
    check_grad(lambda x: x.sum(axis=axis, keepdims=keepdims) + x.mean(axis=axis, keepdims=keepdims) ** 2,
               _x(2, 3, 2))


@pytest.mark.parametrize("axis", [None, 1, (0, 2)])
def test_var_std(axis):
    check_grad(lambda x: x.var(axis=axis) + x.std(axis=axis, ddof=1), _x(3, 2, 2))


@pytest.mark.parametrize("axis", [None, 0, (1, 2)])
@pytest.mark.parametrize("op", ["max", "min"])
def test_max_min(axis, op):
    check_grad(lambda x: getattr(x, op)(axis=axis), _distinct(2, 3, 2))


def test_max_ties_split_evenly():
    g = kd.grad(lambda x: x.max())(kd.asarray([1.0, 3.0, 3.0, 3.0]))
    np.testing.assert_allclose(g.numpy(), [0, 1 / 3, 1 / 3, 1 / 3])
    g = kd.grad(lambda x: x.min(axis=1).sum())(kd.asarray([[2.0, 2.0], [1.0, 5.0]]))
    assert g.tolist() == [[0.5, 0.5], [1.0, 0.0]]


@pytest.mark.parametrize("axis", [None, 0, (1, 2)])
def test_prod(axis):
    check_grad(lambda x: x.prod(axis=axis), _x(2, 3, 2, lo=0.5, hi=1.5))


def test_prod_with_zeros_is_exact():
    x = np.array([[2.0, 0.0, 3.0], [0.0, 0.0, 4.0], [1.0, 2.0, 3.0]])
    g = kd.grad(lambda x: x.prod(axis=1).sum())(kd.asarray(x))
    np.testing.assert_allclose(g.numpy(), [[0, 6, 0], [0, 0, 0], [6, 3, 2]])


def test_logsumexp_composition():
    def logsumexp(x):
        m = kd.stop_gradient(x.max(axis=-1, keepdims=True))
        return (kd.log(kd.exp(x - m).sum(axis=-1, keepdims=True)) + m)[..., 0]
    g = check_grad(logsumexp, _x(3, 4))[0].numpy()
    np.testing.assert_allclose(g.sum(axis=-1) * 0, 0)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_cumsum(axis):
    check_grad(lambda x: kd.cumsum(x, axis=axis), _x(3, 4))


@pytest.mark.parametrize("zeros", [0, 1, 2])
def test_cumprod(zeros):
    x = _x(2, 5, lo=0.5, hi=1.5)
    if zeros:
        x[0, 1] = 0.0
        x[1, 3] = 0.0
    if zeros == 2:
        x[0, 3] = 0.0
    check_grad(lambda x: kd.cumprod(x, axis=1), x)
    check_grad(lambda x: kd.cumprod(x), x)


@pytest.mark.parametrize("shapes", [((3, 4), (4, 2)), ((4,), (4, 3)), ((3, 4), (4,)), ((4,), (4,)),
                                    ((2, 3, 4), (4, 2)), ((2, 1, 3, 2), (3, 2, 2))], ids=str)
def test_matmul(shapes):
    check_grad(kd.matmul, _x(*shapes[0]), _x(*shapes[1]))


def test_matmul_large_uses_the_tiled_kernel():
    a, b = _x(24, 40), _x(40, 16)  # not a matrix-vector shape: the Matmul kernel, not a reduction
    check_grad(lambda a, b: a @ b, a, b)


def test_dot_tensordot_outer():
    check_grad(lambda a, b: kd.dot(a, b), _x(2, 3, 4), _x(2, 4, 3))
    check_grad(lambda a, b: kd.tensordot(a, b, axes=([1, 2], [0, 1])), _x(2, 3, 2), _x(3, 2, 2))
    check_grad(kd.outer, _x(3), _x(2))


VIEWS = {
    "slice": lambda x: x[1:, ::2],
    "negative_step": lambda x: x[::-1, 1::-1],
    "int_index": lambda x: x[1, :, 0],
    "transpose": lambda x: x.transpose(2, 0, 1),
    "reshape": lambda x: x.reshape(6, 2),
    "reshape_of_transpose": lambda x: x.transpose(1, 0, 2).reshape(4, 3),
    "expand_squeeze": lambda x: kd.squeeze(kd.expand_dims(x, 1), 1)[None],
    "broadcast_to": lambda x: kd.broadcast_to(x[:, :1], (2, 3, 2, 2)),
    "flip": lambda x: kd.flip(x),
    "swapaxes_slice": lambda x: x.swapaxes(0, 2)[1:, :, ::-1],
    "ellipsis_newaxis": lambda x: x[..., None, 1],
    "moveaxis": lambda x: kd.moveaxis(x, 0, -1),
}


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_views(name):
    check_grad(VIEWS[name], _x(3, 2, 2))


def test_concatenate_stack_and_joins():
    a, b = _x(2, 3), _x(1, 3)
    check_grad(lambda a, b: kd.concatenate([a, b, a]), a, b)
    check_grad(lambda a, b: kd.concatenate([a, b.T[:2].T], axis=1), _x(2, 3), _x(2, 3))
    check_grad(lambda a, b: kd.stack([a, a * b], axis=1), a, b)
    check_grad(lambda a: kd.pad(a, 1) * 2, a)
    check_grad(lambda a: kd.roll(a, 1, axis=1), a)
    check_grad(lambda a: kd.tile(a, (2, 1)), a)
    check_grad(lambda a: kd.repeat(a, 2, axis=0), a)


def test_setitem_overwrites():
    def f(x, v):
        y = x * 1.0
        y[0, 1:] = v        # y's old values there get no gradient
        y[:, 0] = y[:, 1]   # overlapping reads and writes
        return y * y
    check_grad(f, _x(3, 3), _x(2))


def test_scatter_updates():
    idx = kd.asarray(np.array([0, 2, 2, 3]))

    def add_at(x, v):
        a = x * 1.0
        kd.add.at(a, idx, v)
        return a * a

    check_grad(add_at, _x(4), _x(4))

    def assign(x, v):
        a = x * 1.0
        a[kd.asarray(np.array([0, 0, 2]))] = v   # the last write to a position wins
        a[a > 1.0] = 0.0
        return a * a

    check_grad(assign, _x(4), _x(3))


def test_integer_array_indexing():
    idx = np.array([2, 0, 2, -1])
    check_grad(lambda x: x[kd.asarray(idx)], _x(3, 2))
    check_grad(lambda x: x[idx, 1:], _x(3, 3))
    check_grad(lambda x: x[kd.arange(3), kd.asarray([1, 0, 1])], _x(3, 2))


def test_boolean_masks():
    x = _x(3, 4)
    mask = x > 0
    check_grad(lambda x: x[kd.asarray(mask)], x)
    check_grad(lambda x: x[x > 0.5] * 2, x)  # a mask computed from the input: realised inside f
    check_grad(lambda x: kd.where(x > 0, x * x, -x), x)


@pytest.mark.parametrize("axis", [0, 1, None])
def test_take(axis):
    check_grad(lambda x: kd.take(x, kd.asarray([1, 0, 1, -1]), axis=axis, mode="wrap"), _x(2, 3))
    check_grad(lambda x: kd.take(x, [[0, 1], [1, 1]], axis=axis), _x(2, 3))


def test_take_along_axis_and_topk():
    x = _distinct(3, 4)
    idx = kd.asarray(np.array([[0, 0], [3, 1], [2, 2]]))
    check_grad(lambda x: kd.take_along_axis(x, idx, axis=1), x)
    check_grad(lambda x: kd.take_along_axis(x, kd.asarray(np.array([[2, 0, 1, 1]])), axis=0), x)
    check_grad(lambda x: kd.topk(x, 2)[0], x)


@pytest.mark.parametrize("axis", [0, -1, None])
def test_sort(axis):
    check_grad(lambda x: kd.sort(x, axis=axis) * kd.arange(1, 1 + (12 if axis is None else 4 if axis else 3),
                                                           dtype=kd.float64).reshape(
        (-1,) if axis is None else (-1, 1) if axis == 0 else (1, -1)), _distinct(3, 4))


def test_sort_statistics():
    check_grad(lambda x: kd.median(x, axis=1), _distinct(3, 5))
    check_grad(lambda x: kd.quantile(x, 0.3), _distinct(7))


def test_large_scatter_uses_the_sorted_form(monkeypatch):
    from kdsl.autodiff import indexing
    monkeypatch.setattr(indexing, "DENSE_LIMIT", 0)
    monkeypatch.setattr(indexing, "DENSE_AXIS", 0)
    idx = kd.asarray(np.array([3, 0, 3, 1, 3]))
    x = _x(4, 2)
    check_grad(lambda x: x[idx] * x[idx], x)
    check_grad(lambda x: kd.take_along_axis(x, kd.asarray(np.array([[1, 1], [0, 0], [1, 0], [1, 1]])), 1), x)
