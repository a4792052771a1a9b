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
    if not kd.isdtype(target.dtype, "integral"):
        raise TypeError(f"{name}: target must hold integer class indices, got {target.dtype.name} "
                        "(class probabilities are not supported)")
    want = (logp.shape[0],) + tuple(logp.shape[2:]) if logp.ndim >= 2 else ()
    if tuple(target.shape) != want:
        raise ValueError(f"{name}: input of shape {logp.shape} (batch, classes, ...) needs a target of shape "
                         f"{want}, got {target.shape}")


def _nll(logp: kd.Array, target: kd.Array, ignore_index: int, reduction: str,
         label_smoothing: float, name: str) -> kd.Array:
    _check_reduction(reduction)
    _check_targets(logp, target, name)
    axis = 1 if logp.ndim >= 2 else 0
    keep = target != ignore_index
    # The label's log-probability through a one-hot comparison, not a gather: it fuses with log_softmax, needs
    # no bounds check on the host (a synchronisation every step, which kd.jit cannot replay), and an ignored or
    # out-of-range label simply picks nothing.
    classes = kd.arange(logp.shape[axis], dtype=target.dtype).reshape((-1,) + (1,) * (logp.ndim - axis - 1))
    hot = kd.expand_dims(target, axis) == classes
    loss = -kd.sum(kd.where(hot, logp, 0.0), axis=axis)
    if label_smoothing:
        smooth = -kd.mean(logp, axis=axis)
        loss = (1.0 - label_smoothing) * loss + label_smoothing * smooth
    loss = kd.where(keep, loss, 0.0).astype(logp.dtype)
    if reduction == "mean":  # the mean over the labels that count (NaN when none does, as PyTorch)
        return kd.sum(loss) / kd.sum(keep.astype(logp.dtype))
    return _reduce(loss, reduction)


def nll_loss(log_probs: kd.Array, target: kd.Array, ignore_index: int = -100, reduction: str = "mean") -> kd.Array:
    """Negative log-likelihood of integer class labels: ``log_probs`` is ``(N, C)``, ``(N, C, d1, ...)`` or
    ``(C,)``, ``target`` ``(N,)``, ``(N, d1, ...)`` or ``()``."""
    log_probs, target = kd.asarray(log_probs), kd.asarray(target)
    return _nll(log_probs, target, ignore_index, reduction, 0.0, "nll_loss")


def cross_entropy(input: kd.Array, target: kd.Array, ignore_index: int = -100, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> kd.Array:
    """``nll_loss(log_softmax(input, axis=1), target)`` with optional label smoothing (the target mixes the
    one-hot label, weight ``1 - label_smoothing``, with the uniform distribution). Labels equal to
    ``ignore_index`` add nothing and are not counted by the mean."""
    input, target = kd.asarray(input), kd.asarray(target)
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"label_smoothing must be in [0, 1], got {label_smoothing}")
    logp = log_softmax(input, axis=1 if input.ndim >= 2 else 0)
    return _nll(logp, target, ignore_index, reduction, label_smoothing, "cross_entropy")


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
