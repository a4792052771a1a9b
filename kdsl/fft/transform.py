"""The complex-to-complex transform of contiguous rows.

``c2c(x, inverse)`` takes a complex64 or complex128 array of rows of ``n`` (its last axis) and returns the
unnormalised DFT of every row (``inverse``: the conjugate transform, still without the ``1/n``). The kernels
read complex arrays as ``vec2``/``dvec2`` pairs (real ones as scalars) and write fresh, uninitialised
outputs: every step besides the FFT itself (conversion, conjugation, padding, cutting, Bluestein's
multiplications) happens in a kernel's load or store, so a transform costs one launch (two or three past the
local limit, twice that for Bluestein) and no elementwise pass, all in one submission
(:mod:`kdsl.fft.launches`). :func:`nd` does several axes in one submission, :func:`c2c_inner` a middle axis
where it is. The public functions in :mod:`kdsl.fft` move axes, pad, normalise and convert around them.

Example:
    >>> import numpy as np, kdsl as kd
    >>> x = np.random.default_rng(0).standard_normal((3, 12)).astype(np.complex64)
    >>> bool(np.allclose(c2c(kd.asarray(x), inverse=False).numpy(), np.fft.fft(x), atol=1e-4))
    True
"""

from __future__ import annotations

import math
from collections import OrderedDict
from typing import Any

import kdsl as kd
from kdsl.fft import plan
from kdsl.fft.launches import EVERYWHERE, LOAD_FLAGS, STORE_FLAGS, Builder, Ends, Layout, Transform, rows
from kdsl.fft.stockham import CONJ_LOAD, CONJ_STORE, MUL_LOAD, MUL_STORE, SCALE_STORE


def c2c(x: Any, inverse: bool, keep: int | None = None, scale: float = 1.0, n: int | None = None) -> Any:
    """Unnormalised DFT (``inverse``: conjugate DFT) of each row of ``x`` (its last axis; any leading shape),
    times ``scale`` (applied as the kernel stores: no pass of its own); ``x`` may be real (float32/float64:
    read as complex with zero imaginary parts, no conversion pass). ``keep``: only the first ``keep`` outputs
    of each row (``rfft``'s half spectrum), shape ``x.shape[:-1] + (keep,)``. ``n``: the transform's length,
    each row cut or zero-padded to it as the kernel loads (NumPy's ``n=``; default the rows' length). The
    kernels read ``x``'s buffer as rows, so no reshape view is built (a warm call is mostly its one
    submission)."""
    shape = x.shape
    width, lead = int(shape[-1]), tuple(shape[:-1])
    n = width if n is None else n
    count = math.prod(lead)
    keep = n if keep is None else keep
    if n != width:  # one program that reads the rows as they are, else a cut or padded copy first
        program = c2c_program(x, inverse, keep, scale, n) if count and n > 1 and width else None
        if program is None:
            return c2c(resize(x, n, -1), inverse, keep, scale)
        out = output((*lead, keep), x.dtype in (kd.complex128, kd.float64), x.device)
        program.run(x, out)
        return out
    dtype = x.dtype
    real = dtype in (kd.float32, kd.float64)
    double = dtype in (kd.complex128, kd.float64)
    if count == 0 or n <= 1:
        full = x.astype(_COMPLEX[dtype]) if real else x.copy()
        return _finish(full, keep, scale)
    program = c2c_program(x, inverse, keep, scale)
    if program is not None:
        out = output((*lead, keep), double, x.device)
        program.run(x, out)
        return out
    rows2 = x.reshape(count, n)
    if plan.radices(n) is None:  # a power of two past two launches: step by step
        full = _bluestein_unfused(rows2.astype(_COMPLEX[dtype]) if real else rows2, inverse)
    else:
        full = output((count, n), double)
        _four_step_recursive(rows2, full, count, n, double, CONJ_LOAD | CONJ_STORE if inverse else 0)
    return _finish(full, keep, scale).reshape(*lead, keep)


def c2c_program(x: Any, inverse: bool, keep: int, scale: float = 1.0, n: int | None = None) -> Transform | None:
    """The program of :func:`c2c` for ``x`` (rows longer than one; ``n``: the transform's length, default the
    rows'), None where it falls back to steps."""
    shape = x.shape
    width = int(shape[-1])
    n = width if n is None else n
    count = math.prod(shape[:-1])
    key = ("c2c", count, n, keep, inverse, scale, x.dtype.name, width)
    return cached_program(key, x, lambda b: _plan_rows(b, "in", "out", count, n, keep, inverse, scale, width))


def _plan_rows(b: Builder, src: str, dst: str, count: int, n: int, keep: int, inverse: bool, scale: float,
               width: int | None = None) -> bool:
    """Plan :func:`c2c` from ``src`` to ``dst`` (rows of ``width``, default ``n``: the first ``n`` of each
    read, or all of them and zeros after); False when it needs the step-by-step fallbacks."""
    width = n if width is None else width
    ends = Ends(width, keep, in_n=min(width, n) if width != n else EVERYWHERE,
                out_n=keep if keep < n else EVERYWHERE, flags=_flags(inverse, scale), scale=scale)
    if plan.radices(n) is None:
        return _bluestein(b, src, dst, count, n, ends)
    if width == n and _real_half(b, src, n, keep, inverse):
        half = n // 2
        b.launch(src, dst, half, count, rows(half), Layout(1, keep, 0, 1), ends._replace(out_n=EVERYWHERE),
                 real_half=True)
        return True
    return transform(b, src, dst, count, n, ends)


def _real_half(b: Builder, src: str, n: int, keep: int, inverse: bool) -> bool:
    """Whether the rows of ``n`` reals at ``src`` go through the transform of length ``n / 2`` (half the work of
    the complex one; :func:`kdsl.fft.stockham.kernel_source`'s ``real_half``): ``rfft``'s half spectrum of an
    even length whose half is one launch."""
    return b.real_input and src == "in" and not inverse and n % 2 == 0 and keep == n // 2 + 1 \
        and plan.half_in_one_launch(n // 2, b.double)


def _flags(inverse: bool, scale: float) -> int:
    return (CONJ_LOAD | CONJ_STORE if inverse else 0) | (SCALE_STORE if scale != 1.0 else 0)


def nd(x: Any, axes: list[int], inverse: bool, scales: list[float], keep: int | None = None,
       lengths: list[int] | None = None) -> Any | None:
    """The transforms of a contiguous ``x`` over ``axes`` (of ``lengths``, default the axes' own: each axis cut
    or zero-padded as its launch reads it; the last axis first when it is one of them, then the others from the
    last) in one program: one submission for all of them (the axis ``i`` result times ``scales[i]``). ``keep``:
    only that many outputs along the last axis (``rfftn``; ``x`` real). None when an axis needs the
    step-by-step methods: the caller goes axis by axis."""
    shape = [int(d) for d in x.shape]
    lengths = [shape[axis] for axis in axes] if lengths is None else lengths
    program = nd_program(x, axes, inverse, scales, keep, lengths)
    if program is None:
        return None
    out_shape = shape_after(shape, axes, lengths, keep)
    out = output(tuple(out_shape), x.dtype in (kd.complex128, kd.float64), x.device)
    program.run(x, out)
    return out


def nd_program(x: Any, axes: list[int], inverse: bool, scales: list[float], keep: int | None = None,
               lengths: list[int] | None = None) -> Transform | None:
    """The program of :func:`nd` for ``x``, None where it falls back to axis by axis."""
    shape = [int(d) for d in x.shape]
    lengths = [shape[axis] for axis in axes] if lengths is None else lengths
    order = sorted(range(len(axes)), key=lambda i: -axes[i])
    key = ("nd", tuple(shape), tuple(axes), inverse, tuple(scales), keep, x.dtype.name, tuple(lengths))

    def build(b: Builder) -> bool:
        steps = [(axes[i], lengths[i], scales[i]) for i in order]
        return plan_axes(b, shape, steps, inverse, keep, last="out") is not None
    return cached_program(key, x, build)


def plan_axes(b: Builder, shape: list[int], steps: list[tuple[int, int, float]], inverse: bool,
              keep: int | None = None, last: str | None = None) -> tuple[str, list[int]] | None:
    """Plan the transforms ``steps`` (``(axis, length, scale)``, one after another) of the array ``"in"`` of
    ``shape``, each into a temporary, the last one into ``last`` if given; returns where the result is and its
    shape, None when an axis needs the step-by-step methods. ``keep``: as :func:`nd`'s."""
    src, now = "in", list(shape)
    for i, (axis, n, factor) in enumerate(steps):
        after = shape_after(now, [axis], [n], keep)
        dst = last if last is not None and i == len(steps) - 1 else b.temp(math.prod(after))
        if axis == len(now) - 1:
            ok = _plan_rows(b, src, dst, math.prod(now[:-1]), n, keep or n, inverse, factor, now[-1])
        else:
            ok = plan_inner(b, src, dst, math.prod(now[:axis]), n, math.prod(now[axis + 1:]), inverse, factor,
                            now[axis])
        if not ok:
            return None
        if src != "in":
            b.release(src)
        src, now = dst, after
    if last is not None:
        b.lend(last, math.prod(now))
    return src, now


def shape_after(shape: list[int], axes: list[int], lengths: list[int], keep: int | None = None) -> list[int]:
    """``shape`` after transforms of ``lengths`` along ``axes`` (``keep`` outputs along the last axis, if one of
    them and ``keep`` is given)."""
    out = list(shape)
    for axis, n in zip(axes, lengths, strict=True):
        out[axis] = keep if keep is not None and axis == len(shape) - 1 else n
    return out


def _finish(full: Any, keep: int, scale: float) -> Any:
    """The fallbacks' results cut to ``keep`` columns and scaled, as the kernels' stores would have."""
    full = full[..., :keep] if keep < full.shape[-1] else full
    return full * scale if scale != 1.0 else full


def output(shape: tuple[int, ...], double: bool, device: Any = None) -> Any:
    """A complex array every element of which a kernel is about to write (no fill pass first), on ``device``
    (default: the current one)."""
    return kd.Array._uninitialized(shape, kd.complex128 if double else kd.complex64, device)


def c2c_inner(x: Any, axis: int, inverse: bool, scale: float = 1.0, n: int | None = None) -> Any | None:
    """The transform of length ``n`` (default the axis's: else cut or zero-padded as it is read) along ``axis``
    of ``x`` (its buffer read as ``(outer, width, inner)``: C order), reading the columns where they are (no
    transposes, no reshape views): one launch, or two coalesced ones (:func:`kdsl.fft.plan.strided_passes`); a
    new array, None when ``n`` needs more."""
    shape = [int(d) for d in x.shape]
    outer, width, inner = math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1:])
    n = width if n is None else n
    if n <= 1 or outer * inner * width == 0:
        return None
    program = cached_program(("inner", outer, n, inner, inverse, scale, x.dtype.name, width), x,
                       lambda b: plan_inner(b, "in", "out", outer, n, inner, inverse, scale, width))
    if program is None:
        return None
    out = output(tuple(shape_after(shape, [axis], [n])), x.dtype in (kd.complex128, kd.float64), x.device)
    program.run(x, out)
    return out


def plan_inner(b: Builder, src: str, dst: str, outer: int, n: int, inner: int, inverse: bool, scale: float,
                width: int | None = None) -> bool:
    """Plan :func:`c2c_inner` from ``src`` (``width`` along the axis, default ``n``: the first ``n`` read, or
    all and zeros after) to ``dst``; False when ``n`` needs more than it does."""
    width = n if width is None else width
    lengths = plan.strided_passes(n, plan.local_limit(b.double), inner, plan.coalesced()) if plan.radices(n) \
        else None
    if lengths is None:
        return False
    flags = _flags(inverse, scale)
    # (position c + k * inner of a row is past the input's end exactly when k >= width, c < inner)
    ends = Ends(width * inner, n * inner, in_n=width * inner if width < n else EVERYWHERE, flags=flags,
                scale=scale)
    if len(lengths) == 1:
        b.launch(src, dst, n, outer * inner, Layout(inner, width * inner, 1, inner), Layout(inner, n * inner, 1, inner),
                 ends)
        return True
    a, m = lengths  # four-step along the axis seen as a x m: every launch reads neighbouring columns
    temp = b.temp(outer * n * inner)
    # sequence (o, i_b, c): element k_a at (k_a * m + i_b) * inner + c, times W_n^(i_b k_a), in place
    b.launch(src, temp, a, outer * m * inner, Layout(m * inner, width * inner, 1, m * inner),
             Layout(m * inner, n * inner, 1, m * inner), ends._replace(flags=flags & LOAD_FLAGS), twiddle=n,
             tw_div=inner)
    # sequence (o, k_a, c): elements i_b * inner apart; X[k_a + a * k_b] to (k_a + a * k_b) * inner + c
    b.launch(temp, dst, m, outer * a * inner, Layout(inner, m * inner, 1, inner),
             Layout(a * inner, n * inner, 1, a * inner), ends._replace(flags=flags & STORE_FLAGS, in_n=EVERYWHERE))
    b.release(temp)
    return True


def transform(b: Builder, src: str, dst: str, count: int, n: int, ends: Ends) -> bool:
    """Plan the FFT of length ``n`` of ``count`` rows from ``src`` to ``dst`` in the launches of
    :func:`kdsl.fft.plan.passes`; False when ``n`` needs more than three."""
    lengths = plan.passes(n, plan.local_limit(b.double), plan.coalesced())
    if lengths is None:
        return False
    if len(lengths) == 1:
        b.launch(src, dst, n, count, Layout(1, ends.in_stride, 0, 1), Layout(1, ends.out_stride, 0, 1), ends)
        return True
    n1, n2 = lengths[0], n // lengths[0]
    first = ends._replace(out_n=EVERYWHERE, flags=ends.flags & LOAD_FLAGS)
    last = ends._replace(in_n=EVERYWHERE, flags=ends.flags & STORE_FLAGS)
    # the columns of the row seen as n1 x n2, times W_n^(i2 k1), stored where they were
    columns = b.temp(count * n) if len(lengths) == 2 or not _whole(ends, n) else dst
    b.launch(src, columns, n1, count * n2, Layout(n2, ends.in_stride, 1, n2), Layout(n2, n, 1, n2), first, twiddle=n)
    if len(lengths) == 2:  # the rows of length n2, written transposed: X[k1 + n1 * k2]
        b.launch(columns, dst, n2, count * n1, rows(n2), Layout(n1, ends.out_stride, 1, n1), last)
    else:  # the rows of length n2 = m1 * m2 by four-step again, each launch holding many sequences
        m1, m2 = lengths[1], lengths[2]
        temp = b.temp(count * n)
        # sequence (row, k1, i_b): the column of length m1 of row (row, k1) seen as m1 x m2, times
        # W_n2^(i_b k_a), stored at (row, k_a, k1, i_b) so that the last launch's rows come in output order
        b.launch(columns, temp, m1, count * n1 * m2, Layout(m2, n2, 1, m2), Layout(n1 * m2, n, 1, n1 * m2),
                 Ends(n, n), twiddle=n2)
        # sequence (row, k_a, k1): its element k_b is X[k1 + n1 * (k_a + m1 * k_b)]
        b.launch(temp, dst, m2, count * n1 * m1, rows(m2), Layout(n1 * m1, ends.out_stride, 1, n1 * m1), last)
        b.release(temp)
    if columns != dst:
        b.release(columns)
    return True


def _whole(ends: Ends, n: int) -> bool:
    """Whether the destination holds whole rows of ``n`` (so a first launch may use it as its temporary)."""
    return ends.out_stride == n and ends.out_n == EVERYWHERE


def _four_step_recursive(x: Any, out: Any, count: int, n: int, double: bool, flags: int) -> None:
    """A length past two launches: the columns, then the rows as a transform of their own."""
    n1, n2 = plan.split(n, plan.local_limit(double))

    def build(b: Builder) -> bool:
        columns = Layout(n2, n, 1, n2)  # sequence (row, i2): elements i1 * n2 + i2 of the row
        b.launch("in", "out", n1, count * n2, columns, columns, Ends(n, n, flags=flags & CONJ_LOAD), twiddle=n)
        return True
    temp = output((count, n), double)
    program = cached_program(("columns", count, n, flags, x.dtype.name), x, build)
    assert program is not None
    program.run(x, temp)
    inner = c2c(temp.reshape(count * n1, n2), inverse=False)
    result = inner.reshape(count, n1, n2).transpose((0, 2, 1)).reshape(count, n)
    out[...] = kd.conj(result) if flags & CONJ_STORE else result


def cached_program(key: tuple, x: Any, build: Any) -> Transform | None:
    """The cached program of ``key`` on ``x``'s device (planned by ``build(builder)``, None when it returns
    False: the caller falls back to a step-by-step method)."""
    device = x.device
    double = x.dtype in (kd.complex128, kd.float64)
    full = (*key, plan.local_limit(double), plan.coalesced(), device.index)
    program = plan.lookup(_programs, full)
    if program is not None:
        return program

    def make() -> Transform | None:
        b = Builder(double, x.dtype in (kd.float32, kd.float64))
        if not build(b):
            return None
        return Transform(b.steps, b.temps, kd.complex128 if double else kd.complex64)
    program = make()
    if program is not None:
        program.cached_as = (_programs, full)
        plan.remember(_programs, full, program, limit=_PROGRAMS)
    return program


_PROGRAMS = 16
"""Programs kept: each holds its last call's buffers bound (see ``kd.RawProgram``), so few."""
_programs: OrderedDict[tuple, Transform] = plan.forget_in_child(OrderedDict())
"""Planned transforms by (kind, shape, direction, scale, dtype, local limit, coalescing rule, device): a
warm call plans nothing."""

_COMPLEX = {kd.float32: kd.complex64, kd.float64: kd.complex128}


def _bluestein(b: Builder, src: str, dst: str, count: int, n: int, ends: Ends) -> bool:
    """Any length as a convolution with a chirp ``w``, by FFTs of a power-of-two length ``m >= 2n - 1``, with
    every elementwise step fused into their loads and stores (``v``: ``conj`` if ``inverse``, ``F``: FFT)::

        t = conj(F(v(x) * w) * K)           (x zero-padded to m on load; K: the chirp's convolution kernel)
        y = v(conj(F(t)) * w / m)           (cut to n on store; v(conj(z) * w) = z * conj(w))

    False (nothing planned) when ``m`` needs more than two launches."""
    m = 1 << (2 * n - 2).bit_length()
    inverse = bool(ends.flags & CONJ_LOAD)
    if plan.passes(m, plan.local_limit(b.double), plan.coalesced()) is None:
        return False
    table, at_k, at_w = plan.bluestein_table(n, m, b.double, inverse)
    temp = b.temp(count * m)
    forward = Ends(ends.in_stride, m, in_n=min(n, ends.in_n),  # (rows of another length: cut or padded)
                   flags=ends.flags & CONJ_LOAD | MUL_LOAD | CONJ_STORE | MUL_STORE, mul=table, mul_at=at_k)
    transform(b, src, temp, count, m, forward)
    back = Ends(m, ends.out_stride, out_n=min(n, ends.out_n),
                flags=MUL_STORE | (0 if inverse else CONJ_STORE) | ends.flags & SCALE_STORE, mul=table, mul_at=at_w,
                scale=ends.scale)
    transform(b, temp, dst, count, m, back)
    return True


def resize(x: Any, n: int, axis: int) -> Any:
    """``x`` cut or zero-padded to ``n`` along ``axis`` (as NumPy's ``n=`` argument)."""
    have = x.shape[axis]
    if have == n:
        return x
    if have > n:
        index = [slice(None)] * x.ndim
        index[axis] = slice(0, n)
        return x[tuple(index)]
    shape = list(x.shape)
    shape[axis] = n - have
    return kd.concatenate([x, kd.zeros(tuple(shape), dtype=x.dtype)], axis=axis)


def _bluestein_unfused(x: Any, inverse: bool) -> Any:
    """Bluestein for lengths whose power of two needs the recursive four-step method: step by step."""
    count, n = int(x.shape[0]), int(x.shape[1])
    m = 1 << (2 * n - 2).bit_length()
    chirp, kernel_hat = plan.chirp(n, m, x.dtype == kd.complex128)
    if inverse:
        x = kd.conj(x)
    padded = kd.concatenate([x * chirp, kd.zeros((count, m - n), dtype=x.dtype)], axis=1)
    conv = c2c(c2c(padded, inverse=False) * kernel_hat, inverse=True)
    result = conv[:, :n] * chirp * (1.0 / m)
    return kd.conj(result) if inverse else result
