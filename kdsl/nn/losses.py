"""Losses with PyTorch's signatures and reductions (``"mean"``, ``"sum"``, ``"none"``).

Example:
    >>> import kdsl as kd, numpy as np
    >>> logits = kd.asarray([[2.0, 0.0], [0.0, 2.0]])
    >>> round(float(kd.nn.cross_entropy(logits, kd.asarray([0, 1]))), 4)
    0.1269
    >>> float(kd.nn.mse_loss(kd.asarray([1.0, 3.0]), kd.asarray([1.0, 1.0])))
    2.0
"""

from __future__ import annotations

import math

import kdsl as kd
from kdsl.nn.activations import log_softmax

__all__ = ["cross_entropy", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "mse_loss"]

_REDUCTIONS = ("mean", "sum", "none")


def _reduce(loss: kd.Array, reduction: str) -> kd.Array:
    if reduction == "mean":
        return kd.mean(loss)
    if reduction == "sum":
        return kd.sum(loss)
    if reduction == "none":
        return loss
    raise ValueError(f"reduction must be one of {_REDUCTIONS}, got {reduction!r}")


def _check_reduction(reduction: str) -> None:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"reduction must be one of {_REDUCTIONS}, got {reduction!r}")


def _check_targets(logp: kd.Array, target: kd.Array, name: str) -> None:
    if logp.ndim == 0:
        raise ValueError(f"{name}: input must have a class axis, (classes,) or (batch, classes, ...); got a 0-d "
                         "input")
    if not kd.isdtype(target.dtype, "integral"):
        raise TypeError(f"{name}: target must hold integer class indices, got {target.dtype.name} (class "
                        f"probabilities are a float target of the input's shape {logp.shape}, cross_entropy only)")
    want = (logp.shape[0],) + tuple(logp.shape[2:]) if logp.ndim >= 2 else ()
    if tuple(target.shape) != want:
        raise ValueError(f"{name}: input of shape {logp.shape} (batch, classes, ...) needs a target of shape "
                         f"{want}, got {target.shape}")


def _class_weights(weight: kd.Array | None, logp: kd.Array, axis: int, name: str) -> kd.Array | None:
    """``weight`` ``(C,)`` shaped to broadcast along the class axis of ``logp``."""
    if weight is None:
        return None
    weight = kd.asarray(weight)
    if weight.ndim != 1 or weight.shape[0] != logp.shape[axis]:
        raise ValueError(f"{name}: weight must be 1-d with one entry per class ({logp.shape[axis]}), got shape "
                         f"{weight.shape}")
    if not kd.isdtype(weight.dtype, "real floating"):
        raise TypeError(f"{name}: weight must be floating point, got {weight.dtype.name}")
    return weight.astype(logp.dtype).reshape((-1,) + (1,) * (logp.ndim - axis - 1))


def _nll(logp: kd.Array, target: kd.Array, weight: kd.Array | None, ignore_index: int, reduction: str,
         label_smoothing: float, name: str) -> kd.Array:
    """PyTorch's ``nll_loss`` (with ``label_smoothing``: its ``cross_entropy``) of integer labels: label ``y``
    costs ``-w[y] * logp[y]``, smoothing mixes in ``-sum_c w[c] * logp[c] / C``, ignored labels cost nothing,
    and the mean divides by ``sum(w[y])`` over the labels that count (their number when unweighted)."""
    _check_reduction(reduction)
    _check_targets(logp, target, name)
    axis = 1 if logp.ndim >= 2 else 0
    w = _class_weights(weight, logp, axis, name)
    keep = target != ignore_index
    # The label's log-probability through a one-hot comparison, not a gather: it fuses with log_softmax, needs
    # no bounds check on the host (a synchronisation every step, which kd.jit cannot replay), and an ignored or
    # out-of-range label picks nothing (the latter's loss is then made NaN below).
    classes = kd.arange(logp.shape[axis], dtype=target.dtype).reshape((-1,) + (1,) * (logp.ndim - axis - 1))
    hot = kd.expand_dims(target, axis) == classes
    weighted = logp if w is None else logp * w
    loss = -kd.sum(kd.where(hot, weighted, 0.0), axis=axis)
    if label_smoothing:
        smooth = -kd.sum(weighted, axis=axis) / float(logp.shape[axis])
        loss = (1.0 - label_smoothing) * loss + label_smoothing * smooth
    loss = kd.where(keep, loss, 0.0).astype(logp.dtype)
    # a label outside [0, classes) that is not ignore_index makes its loss NaN (PyTorch raises; a check here
    # would read the labels back every step): a visible error, never a silently smaller loss
    bad = keep & ((target < 0) | (target >= logp.shape[axis]))
    loss = kd.where(bad, math.nan, loss).astype(logp.dtype)
    if reduction != "mean":
        return _reduce(loss, reduction)
    # the mean over the labels that count, weighted (NaN when none does, as PyTorch)
    counted = keep.astype(logp.dtype) if w is None else kd.where(keep, kd.sum(kd.where(hot, w, 0.0), axis=axis), 0.0)
    return kd.sum(loss) / kd.sum(counted).astype(logp.dtype)


def _soft_targets(logp: kd.Array, target: kd.Array, weight: kd.Array | None, reduction: str,
                  label_smoothing: float) -> kd.Array:
    """Cross entropy of class probabilities ``target`` (input's shape): ``-sum_c w[c] * t[c] * logp[c]``, the
    target smoothed towards uniform; the mean divides by the number of samples (PyTorch's rule, also when
    weighted)."""
    _check_reduction(reduction)
    if not kd.isdtype(target.dtype, "real floating"):
        raise TypeError(f"cross_entropy: a target of the input's shape {logp.shape} holds class probabilities "
                        f"and must be floating point, got {target.dtype.name}")
    axis = 1 if logp.ndim >= 2 else 0
    classes = logp.shape[axis]
    w = _class_weights(weight, logp, axis, "cross_entropy")
    t = target.astype(logp.dtype)
    if label_smoothing:
        t = t * (1.0 - label_smoothing) + label_smoothing / classes
    per_class = logp * t if w is None else logp * t * w
    loss = -kd.sum(per_class, axis=axis)
    if reduction == "mean":
        samples = logp.size // classes if classes else 0
        if not samples:  # an empty batch: NaN, as PyTorch (a constant: GLSL need not keep 0 * NaN a NaN)
            return kd.full((), float("nan"), dtype=logp.dtype, device=logp.device)
        return kd.sum(loss) / float(samples)
    return _reduce(loss, reduction)


def nll_loss(input: kd.Array, target: kd.Array, weight: kd.Array | None = None, ignore_index: int = -100,
             reduction: str = "mean") -> kd.Array:
    """Negative log-likelihood of integer class labels (PyTorch's ``nll_loss``): ``input`` holds
    log-probabilities ``(N, C)``, ``(N, C, d1, ...)`` or ``(C,)``, ``target`` ``(N,)``, ``(N, d1, ...)`` or
    ``()``. ``weight`` ``(C,)`` scales each class's loss and the mean is then ``sum(loss) / sum(weight[target])``;
    labels equal to ``ignore_index`` add nothing and are not counted.

    >>> import kdsl as kd
    >>> logp = kd.log(kd.asarray([[0.5, 0.25, 0.25], [0.1, 0.8, 0.1]]))
    >>> round(float(kd.nn.nll_loss(logp, kd.asarray([0, 1]), weight=kd.asarray([1.0, 3.0, 1.0]))), 4)
    0.3406
    """
    log_probs, target = kd.asarray(input), kd.asarray(target)
    return _nll(log_probs, target, weight, ignore_index, reduction, 0.0, "nll_loss")


def cross_entropy(input: kd.Array, target: kd.Array, weight: kd.Array | None = None, ignore_index: int = -100,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> kd.Array:
    """PyTorch's ``cross_entropy``: ``log_softmax`` over axis 1 (axis 0 for a 1-d input), then

    * integer ``target`` of shape ``(N, d1, ...)``: ``nll_loss`` with optional class ``weight`` and
      ``ignore_index``; ``label_smoothing`` mixes the one-hot label (weight ``1 - label_smoothing``) with the
      uniform distribution; the mean divides by ``sum(weight[target])`` over the labels that count;
    * float ``target`` of the input's shape: class probabilities, ``-sum_c weight[c] * t[c] * logp[c]`` (smoothed
      the same way), the mean over samples; ``ignore_index`` must then stay negative (as PyTorch).

    >>> import kdsl as kd
    >>> x = kd.asarray([[2.0, 0.0], [0.0, 2.0]])
    >>> round(float(kd.nn.cross_entropy(x, kd.asarray([[1.0, 0.0], [0.0, 1.0]]))), 4)   # one-hot probabilities
    0.1269
    """
    input, target = kd.asarray(input), kd.asarray(target)
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"label_smoothing must be in [0, 1], got {label_smoothing}")
    logp = log_softmax(input, axis=1 if input.ndim >= 2 else 0)
    if tuple(target.shape) == tuple(input.shape) and not kd.isdtype(target.dtype, "integral"):
        if ignore_index >= 0:
            raise ValueError(f"cross_entropy: ignore_index ({ignore_index}) is not supported for class "
                             "probability targets (as in PyTorch); leave it at its default")
        return _soft_targets(logp, target, weight, reduction, label_smoothing)
    return _nll(logp, target, weight, ignore_index, reduction, label_smoothing, "cross_entropy")


def _check_same_shape(a: kd.Array, b: kd.Array, name: str) -> None:
    if tuple(a.shape) != tuple(b.shape):
        raise ValueError(f"{name}: target shape {b.shape} must equal input shape {a.shape}")


def binary_cross_entropy(input: kd.Array, target: kd.Array, reduction: str = "mean") -> kd.Array:
    """``-(t * log(p) + (1 - t) * log(1 - p))`` for probabilities ``input``; each log is clamped at -100 as
    PyTorch does, so ``p`` of exactly 0 or 1 gives a finite loss."""
    input, target = kd.asarray(input), kd.asarray(target)
    _check_reduction(reduction)
    _check_same_shape(input, target, "binary_cross_entropy")
    log_p = kd.maximum(kd.log(input), -100.0)
    log_q = kd.maximum(kd.log1p(-input), -100.0)
    return _reduce(-(target * log_p + (1.0 - target) * log_q), reduction)


def binary_cross_entropy_with_logits(input: kd.Array, target: kd.Array, reduction: str = "mean",
                                     pos_weight: kd.Array | None = None) -> kd.Array:
    """Binary cross entropy of ``sigmoid(input)``, computed stably from the logits:
    ``(1 - t) * x + w * (log1p(exp(-|x|)) + max(-x, 0))`` with ``w = 1 + (pos_weight - 1) * t``."""
    input, target = kd.asarray(input), kd.asarray(target)
    _check_reduction(reduction)
    _check_same_shape(input, target, "binary_cross_entropy_with_logits")
    softplus_neg = kd.log1p(kd.exp(-kd.abs(input))) + kd.maximum(-input, 0.0)  # log(1 + exp(-x))
    w = 1.0 if pos_weight is None else 1.0 + (pos_weight - 1.0) * target
    return _reduce((1.0 - target) * input + w * softplus_neg, reduction)


def mse_loss(input: kd.Array, target: kd.Array, reduction: str = "mean") -> kd.Array:
    """Mean squared error ``(input - target)**2`` (shapes broadcast, as PyTorch with a warning)."""
    input, target = kd.asarray(input), kd.asarray(target)
    _check_reduction(reduction)
    d = input - target
    return _reduce(d * d, reduction)
