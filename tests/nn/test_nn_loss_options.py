"""cross_entropy / nll_loss options against the NumPy references of nn_reference.py (PyTorch's formulas): class
weights (PyTorch's weighted mean), ignore_index, label smoothing, every reduction, spatial targets, and class
probability targets."""

import itertools

import nn_reference as ref
import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(11)


def rand(*shape):
    return (RNG.standard_normal(shape) * 2).astype(np.float32)


def close(got, want):
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("shape", [(6, 5), (3, 4, 2, 3)])
@pytest.mark.parametrize("reduction,smoothing,ignore", list(itertools.product(["mean", "sum", "none"], [0.0, 0.2],
                                                                              [-100, 2])))
def test_weighted_cross_entropy(shape, reduction, smoothing, ignore):
    x = rand(*shape)
    c = shape[1]
    t = RNG.integers(0, c, (shape[0],) + shape[2:]).astype(np.int64)
    t.flat[0] = t.flat[3] = ignore
    w = (RNG.random(c) + 0.25).astype(np.float32)
    got = kd.nn.cross_entropy(kd.asarray(x), kd.asarray(t), kd.asarray(w), ignore, reduction, smoothing)
    close(got, ref.weighted_cross_entropy(x, t, w, ignore, reduction, smoothing))
    got = kd.nn.cross_entropy(kd.asarray(x), kd.asarray(t), ignore_index=ignore, reduction=reduction,
                              label_smoothing=smoothing)  # the unweighted formula is the weights-of-one case
    close(got, ref.weighted_cross_entropy(x, t, None, ignore, reduction, smoothing))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_weighted_nll_loss(reduction):
    logp = ref.log_softmax(rand(7, 4), axis=1)
    t = np.array([0, 3, 1, -100, 2, 2, 0], np.int32)
    w = np.array([0.5, 2.0, 1.0, 3.0], np.float32)
    close(kd.nn.nll_loss(kd.asarray(logp), kd.asarray(t), kd.asarray(w), reduction=reduction),
          ref.weighted_cross_entropy(logp, t, w, reduction=reduction))  # log_softmax of log-probs is the identity


@pytest.mark.parametrize("shape", [(5, 4), (2, 3, 4)])
@pytest.mark.parametrize("reduction,smoothing,weighted", list(itertools.product(["mean", "sum", "none"], [0.0, 0.3],
                                                                                [False, True])))
def test_probability_targets(shape, reduction, smoothing, weighted):
    x = rand(*shape)
    probs = RNG.random(shape).astype(np.float32)
    probs /= probs.sum(axis=1, keepdims=True)
    w = (RNG.random(shape[1]) + 0.25).astype(np.float32) if weighted else None
    got = kd.nn.cross_entropy(kd.asarray(x), kd.asarray(probs), None if w is None else kd.asarray(w),
                              reduction=reduction, label_smoothing=smoothing)
    close(got, ref.soft_cross_entropy(x, probs, w, reduction, smoothing))


def test_one_hot_probabilities_equal_labels_and_unbatched_input():
    x, t = rand(6, 5), RNG.integers(0, 5, 6)
    onehot = np.eye(5, dtype=np.float32)[t]
    close(kd.nn.cross_entropy(kd.asarray(x), kd.asarray(onehot), label_smoothing=0.1),
          kd.nn.cross_entropy(kd.asarray(x), kd.asarray(t), label_smoothing=0.1).numpy())
    close(kd.nn.cross_entropy(kd.asarray(x[0]), kd.asarray(t[0])), ref.weighted_cross_entropy(x[:1], t[:1]))
    close(kd.nn.cross_entropy(kd.asarray(x[0]), kd.asarray(onehot[0])), ref.weighted_cross_entropy(x[:1], t[:1]))


def test_all_ignored_mean_is_nan_and_empty_probabilities():
    w = kd.asarray([1.0, 2.0])
    assert np.isnan(float(kd.nn.cross_entropy(kd.ones((2, 2)), kd.asarray([-100, -100]), w)))
    assert np.isnan(float(kd.nn.cross_entropy(kd.ones((0, 3)), kd.zeros((0, 3)))))


def test_option_errors():
    with pytest.raises(ValueError, match="one entry per class"):
        kd.nn.cross_entropy(kd.ones((2, 3)), kd.asarray([0, 1]), kd.ones(2))
    with pytest.raises(TypeError, match="weight must be floating"):
        kd.nn.nll_loss(kd.ones((2, 3)), kd.asarray([0, 1]), kd.asarray([1, 1, 1]))
    with pytest.raises(ValueError, match="ignore_index"):
        kd.nn.cross_entropy(kd.ones((2, 3)), kd.ones((2, 3)) / 3, ignore_index=0)
    with pytest.raises(TypeError, match="class probabilities"):
        kd.nn.nll_loss(kd.ones((2, 3)), kd.ones((2, 3)))
    with pytest.raises(ValueError, match="reduction"):
        kd.nn.cross_entropy(kd.ones((2, 3)), kd.ones((2, 3)) / 3, reduction="avg")
