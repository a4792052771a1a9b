"""The real rows of half spectra: :func:`c2r` (``irfft``, ``irfftn``, ``hfft``), a program whose last launch reads
the half spectra with the ``half_in`` kernel and stores the rows as pairs of reals.

Example:
    >>> import numpy as np, kdsl as kd
    >>> spectrum = np.fft.rfft(np.arange(8.0)).astype(np.complex64)
    >>> rows = c2r(kd.asarray(spectrum)[None], [1], [8], [1 / 8])
    >>> bool(np.allclose(rows.numpy(), np.arange(8.0), atol=1e-5))
    True
"""

from __future__ import annotations

import math
from typing import Any

import kdsl as kd
from kdsl.fft import plan
from kdsl.fft.launches import EVERYWHERE, Builder, Ends, rows
from kdsl.fft.stockham import CONJ_LOAD, CONJ_STORE, SCALE_STORE
from kdsl.fft.transform import cached_program, plan_axes, shape_after


def c2r(x: Any, axes: list[int], lengths: list[int], scales: list[float], conj: bool = False) -> Any | None:
    """The real rows of an even ``n = lengths[-1]`` whose half spectra are the last axis of a complex ``x``
    (``irfft``: its first ``n / 2 + 1`` entries, zeros past its end), after the inverse transforms over the other
    ``axes`` (of ``lengths``, cut or padded as they are read: ``irfftn``), the result along ``axes[i]`` times
    ``scales[i]``, in one program: the last launch reads the half spectra and stores the rows
    (:meth:`kdsl.fft.stage.Stage._load_half`). ``conj``: conjugate ``x``'s last-axis spectra first (``hfft``).
    None when the rows' half length is not one launch, or an axis needs the step-by-step methods: the caller
    goes its own way."""
    shape = [int(d) for d in x.shape]
    n = lengths[-1]
    m = n // 2
    if n % 2 or not x.size or axes[-1] != len(shape) - 1 or not plan.half_in_one_launch(m, x.dtype == kd.complex128):
        return None
    key = ("c2r", tuple(shape), tuple(axes), tuple(lengths), tuple(scales), conj, x.dtype.name)

    def build(b: Builder) -> bool:
        planned = plan_axes(b, shape, list(zip(axes[:-1], lengths[:-1], scales[:-1], strict=True)), True)
        if planned is None:
            return False
        src, now = planned
        width = now[-1]
        factor = 2.0 * scales[-1]  # (the rows' transform is of length m = n / 2)
        ends = Ends(width, m, in_n=width if width < m + 1 else EVERYWHERE, scale=factor,
                    flags=CONJ_STORE | (CONJ_LOAD if conj else 0) | (SCALE_STORE if factor != 1.0 else 0))
        b.launch(src, "out", m, math.prod(now[:-1]), rows(width), rows(m), ends, half_in=True)
        return True
    program = cached_program(key, x, build)
    if program is None:
        return None
    real = kd.float64 if x.dtype == kd.complex128 else kd.float32
    out = kd.Array._uninitialized(tuple(shape_after(shape, axes, lengths)), real, x.device)
    program.run(x, out)
    return out
