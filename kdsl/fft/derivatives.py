"""The derivatives of ``kd.fft``'s transforms (:func:`kdsl.custom_vjp`): their kernels write results the lazy
graph has no path to, so ``kd.grad`` would otherwise stop at them. Every transform is linear, so its vjp is
its adjoint (PyTorch's ``torch.fft`` gradients, with PyTorch's complex convention: the cotangent of a complex
``z`` is ``dL/dRe(z) + 1j * dL/dIm(z)``):

* ``fft`` / ``ifft`` (and the n-d forms): the other transform under the swapped norm (``n * ifft(g)`` for the
  default norm), then the padding or cropping of ``n=`` / ``s=`` undone (a cut axis gets zeros back, a padded
  one is cut);
* ``rfft``: ``irfft`` of ``g`` with the bins that stand for two (all but DC and Nyquist) halved;
* ``irfft``: ``rfft(g)`` with those bins doubled (the Hermitian half spectrum counts them twice);
* ``hfft`` / ``ihfft`` are ``irfft`` / ``rfft`` with conjugates, and so are their vjps;
* a real input gets the real part of its cotangent.

The backward passes call these differentiable transforms, so gradients of gradients work too.

Example:
    >>> import kdsl as kd
    >>> x = kd.asarray([1.0, 2.0, 0.0, -1.0])
    >>> [round(v, 6) for v in kd.grad(lambda x: kd.abs(kd.fft.rfft(x)[1]))(x).tolist()]  # |X_1| = |1 - 3j|
    [0.316228, 0.948683, -0.316228, -0.948683]
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.fft import real as _real
from kdsl.fft import transforms as _complex
from kdsl.fft.axes import check_length, check_norm, normalize_axes
from kdsl.fft.transform import resize

_SWAP = {"backward": "forward", "forward": "backward", "ortho": "ortho"}
Vjp = Callable[[Any, "kd.Array", dict[str, Any]], Any]


def _differentiable(fun: Callable[..., Any], vjp: Vjp) -> Callable[..., Any]:
    """``fun`` (a transform of ``a``) with the derivative ``vjp(g, a, arguments)``: ``a``'s cotangent from the
    result's, given ``fun``'s arguments by name (defaults filled in)."""
    signature = inspect.signature(fun)
    wrapped = kd.custom_vjp(fun)

    def fwd(*args: Any, **kwargs: Any) -> tuple[Any, tuple[int, dict[str, Any]]]:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return fun(*args, **kwargs), (len(args), dict(bound.arguments))

    def bwd(res: tuple[int, dict[str, Any]], g: Any) -> tuple[Any, ...]:
        nargs, arguments = res
        a = arguments["a"]
        ct = None
        if isinstance(a, kd.Array) and (a.dtype.is_float or a.dtype.is_complex):
            with warnings.catch_warnings():  # the forward warned already about deprecated s / axes forms
                warnings.simplefilter("ignore", DeprecationWarning)
                ct = vjp(g, a, arguments)
            ct = ct.astype(a.dtype) if a.dtype.is_complex else kd.real(ct).astype(a.dtype)
        return (ct,) + (None,) * (nargs - 1)

    return wrapped.defvjp(fwd, bwd)


def _axis(a: kd.Array, axis: int) -> int:
    return _complex.axis1(a, axis)


def _weights(n: int, axis: int, ndim: int, double: bool, like: kd.Array) -> kd.Array:
    """Per bin of an ``n``-point half spectrum (``n // 2 + 1`` bins, along ``axis``): 1 for DC and Nyquist,
    2 (``double``) or 1/2 for the bins that stand for a pair of frequencies ``k`` and ``n - k``."""
    w = np.full(n // 2 + 1, 2.0 if double else 0.5)
    w[0] = 1.0
    if n % 2 == 0:
        w[-1] = 1.0
    shape = [1] * ndim
    shape[axis] = w.size
    part = kd.float64 if like.dtype in (kd.float64, kd.complex128) else kd.float32
    return kd.asarray(w.reshape(shape), dtype=part)


def _c2c_adjoint(g: Any, steps: list[tuple[int, int]], inverse: bool, norm: str) -> Any:
    """The vjp of a chain of complex transforms, ``steps`` = (axis, input length) in the order they ran: each
    step's adjoint (the other transform, swapped norm) in reverse order, cut or padded back to its input.
    Distinct axes commute: one n-d transform (one program), then the cuts and pads."""
    axes = [axis for axis, _ in steps]
    if len(axes) > 1 and len(set(axes)) == len(axes):
        g = (fftn if inverse else ifftn)(g, axes=axes, norm=_SWAP[norm])
        for axis, m in steps:
            g = resize(g, m, axis)
        return g
    back = fft if inverse else ifft
    for axis, m in reversed(steps):
        g = resize(back(g, axis=axis, norm=_SWAP[norm]), m, axis)
    return g


def _c2c_steps(shape: list[int], order: list[tuple[int, int | None]]) -> list[tuple[int, int]]:
    """(axis, input length) of each 1-d transform of ``order`` (axis, length or None: the axis's own) run in
    turn from ``shape``, which is updated to the final shape."""
    steps = []
    for axis, n in order:
        steps.append((axis, shape[axis]))
        shape[axis] = shape[axis] if n is None else n
    return steps


def _c2c_vjp(inverse: bool) -> Vjp:
    def vjp(g: Any, a: kd.Array, arg: dict[str, Any]) -> Any:
        ax = _axis(a, arg["axis"])
        return _c2c_adjoint(g, [(ax, a.shape[ax])], inverse, check_norm(arg["norm"]))
    return vjp


def _c2cn_vjp(inverse: bool) -> Vjp:
    def vjp(g: Any, a: kd.Array, arg: dict[str, Any]) -> Any:
        axes, lengths = normalize_axes(a.shape, arg["s"], arg["axes"])
        steps = _c2c_steps(list(a.shape), list(reversed(list(zip(axes, lengths, strict=True)))))
        return _c2c_adjoint(g, steps, inverse, check_norm(arg["norm"]))
    return vjp


def _rfft_adjoint(g: Any, m: int, n: int, ax: int, norm: str) -> Any:
    """The vjp of ``rfft`` (length ``n`` along ``ax``, from ``m`` input points): Re(F^H g padded to ``n``),
    which is ``irfft`` of ``g`` with the paired bins halved."""
    return resize(irfft(g * _weights(n, ax, g.ndim, False, g), n=n, axis=ax, norm=_SWAP[norm]), m, ax)


def _irfft_adjoint(g: Any, m: int, n: int, ax: int, norm: str) -> Any:
    """The vjp of ``irfft`` (``n`` real points along ``ax`` from ``m`` bins): ``rfft(g)`` with the paired bins
    doubled, cut or padded back to ``m`` bins."""
    return resize(rfft(g, n=n, axis=ax, norm=_SWAP[norm]) * _weights(n, ax, g.ndim, True, g), m, ax)


def _rfft_vjp(g: Any, a: kd.Array, arg: dict[str, Any]) -> Any:
    ax = _axis(a, arg["axis"])
    return _rfft_adjoint(g, a.shape[ax], check_length(arg["n"], a.shape[ax], "rfft"), ax, check_norm(arg["norm"]))


def _ihfft_vjp(g: Any, a: kd.Array, arg: dict[str, Any]) -> Any:  # ihfft = conj(rfft under the swapped norm)
    ax = _axis(a, arg["axis"])
    n = check_length(arg["n"], a.shape[ax], "ihfft")
    return _rfft_adjoint(kd.conj(g), a.shape[ax], n, ax, _SWAP[check_norm(arg["norm"])])


def _irfft_vjp(g: Any, a: kd.Array, arg: dict[str, Any]) -> Any:
    ax = _axis(a, arg["axis"])
    m = a.shape[ax]
    return _irfft_adjoint(g, m, check_length(arg["n"], 2 * (m - 1), "irfft"), ax, check_norm(arg["norm"]))


def _hfft_vjp(g: Any, a: kd.Array, arg: dict[str, Any]) -> Any:  # hfft = irfft(conj(a)) under the swapped norm
    ax = _axis(a, arg["axis"])
    m = a.shape[ax]
    n = check_length(arg["n"], 2 * (m - 1), "hfft")
    return kd.conj(_irfft_adjoint(g, m, n, ax, _SWAP[check_norm(arg["norm"])]))


def _rfftn_vjp(g: Any, a: kd.Array, arg: dict[str, Any]) -> Any:
    """rfftn: rfft over the last axis, then complex transforms over the others (last first)."""
    axes, lengths = normalize_axes(a.shape, arg["s"], arg["axes"])
    norm, last = check_norm(arg["norm"]), axes[-1]
    n = a.shape[last] if lengths[-1] is None else lengths[-1]
    shape = list(a.shape)
    shape[last] = n // 2 + 1
    steps = _c2c_steps(shape, list(reversed(list(zip(axes[:-1], lengths[:-1], strict=True)))))
    return _rfft_adjoint(_c2c_adjoint(g, steps, False, norm), a.shape[last], n, last, norm)


def _irfftn_vjp(g: Any, a: kd.Array, arg: dict[str, Any]) -> Any:
    """irfftn: inverse complex transforms over all but the last axis (in order), then irfft over the last."""
    axes, lengths = normalize_axes(a.shape, arg["s"], arg["axes"])
    norm, last = check_norm(arg["norm"]), axes[-1]
    shape = list(a.shape)
    steps = _c2c_steps(shape, list(zip(axes[:-1], lengths[:-1], strict=True)))
    m = shape[last]
    n = 2 * (m - 1) if arg["s"] is None or lengths[-1] is None else lengths[-1]
    return _c2c_adjoint(_irfft_adjoint(g, m, n, last, norm), steps, True, norm)


fft = _differentiable(_complex.fft, _c2c_vjp(inverse=False))
ifft = _differentiable(_complex.ifft, _c2c_vjp(inverse=True))
fftn = _differentiable(_complex.fftn, _c2cn_vjp(inverse=False))
ifftn = _differentiable(_complex.ifftn, _c2cn_vjp(inverse=True))
fft2 = _differentiable(_complex.fft2, _c2cn_vjp(inverse=False))
ifft2 = _differentiable(_complex.ifft2, _c2cn_vjp(inverse=True))
rfft = _differentiable(_real.rfft, _rfft_vjp)
irfft = _differentiable(_real.irfft, _irfft_vjp)
rfftn = _differentiable(_real.rfftn, _rfftn_vjp)
irfftn = _differentiable(_real.irfftn, _irfftn_vjp)
rfft2 = _differentiable(_real.rfft2, _rfftn_vjp)
irfft2 = _differentiable(_real.irfft2, _irfftn_vjp)
hfft = _differentiable(_real.hfft, _hfft_vjp)
ihfft = _differentiable(_real.ihfft, _ihfft_vjp)

__all__ = ["fft", "ifft", "fftn", "ifftn", "fft2", "ifft2", "rfft", "irfft", "rfftn", "irfftn", "rfft2", "irfft2",
           "hfft", "ihfft"]
