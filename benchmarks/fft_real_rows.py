"""Long real rows: ``kd.fft.irfft`` (the spectrum of the rows' pairs in one elementwise pass, then the inverse
transform of half the length) against the full Hermitian spectrum's way (mirror, ``ifft``, real part: how
``irfft`` of long rows worked before), and ``kd.fft.rfft`` for scale, each result checked against NumPy first, in
the same run (medians of ``--repeat`` calls after ``--warmup`` calls; NumPy alongside).

    python3 benchmarks/fft_real_rows.py            # lavapipe-sized rows
    python3 benchmarks/fft_real_rows.py --big      # GPU-sized rows
"""

from __future__ import annotations

import argparse

import numpy as np
from dsl_common import kd, median_ms, table


def _full_spectrum_irfft(x, n):
    """``irfft`` as it was: the Hermitian spectrum of length ``n`` built from ``x``, its inverse, the real part."""
    mirror = kd.conj(kd.flip(x[..., 1:n - n // 2], axis=-1))
    return kd.real(kd.fft.ifft(kd.concatenate([x, mirror], axis=-1)))


def _case(host: np.ndarray, repeat: int, warmup: int) -> list:
    """One shape's row: irfft both ways and rfft (each checked against NumPy first), and NumPy's irfft."""
    x, n = kd.asarray(host), host.shape[-1]
    want = np.fft.rfft(host)
    assert np.abs(kd.fft.rfft(x).numpy() - want).max() <= 1e-5 * np.abs(want).max() * np.log2(n), "rfft"
    spectrum = kd.asarray(want.astype(np.complex64))
    for way in (kd.fft.irfft(spectrum), _full_spectrum_irfft(spectrum, n)):
        assert np.abs(way.numpy() - host).max() <= 1e-4 * np.abs(host).max(), "irfft"
    new = median_ms(lambda: kd.realize(kd.fft.irfft(spectrum)), repeat, warmup)
    old = median_ms(lambda: kd.realize(_full_spectrum_irfft(spectrum, n)), repeat, warmup)
    forward = median_ms(lambda: kd.realize(kd.fft.rfft(x)), repeat, warmup)
    return ["x".join(map(str, host.shape)), new, old, new / old, forward,
            median_ms(lambda: np.fft.irfft(want), repeat, 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", action="store_true", help="rows sized for a GPU")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--warmup", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    shapes = [(256, 32768), (16, 2 ** 20), (64, 8194)] if args.big else [(64, 8192), (4, 2 ** 15), (1, 2 ** 20),
                                                                         (2, 8194)]
    rows = [_case(rng.standard_normal(shape).astype(np.float32), args.repeat, args.warmup) for shape in shapes]
    table(f"long real rows, medians of {args.repeat} calls (ms)",
          ["real rows", "kd.fft.irfft", "full spectrum", "ratio", "kd.fft.rfft", "numpy irfft"], rows)


if __name__ == "__main__":
    main()
