"""Long real rows: ``kd.fft.rfft`` by the pairs' transform of half the length against the complex transform of
the reals, and ``kd.fft.irfft`` against the full Hermitian spectrum's way (mirror, ``ifft``, real part: how
``irfft`` worked before), each result checked against NumPy first, in the same run (medians of ``--repeat``
calls after ``--warmup`` calls; NumPy alongside).

    python3 benchmarks/fft_real_rows.py            # lavapipe-sized rows
    python3 benchmarks/fft_real_rows.py --big      # GPU-sized rows
"""

from __future__ import annotations

import argparse

import numpy as np
from dsl_common import kd, median_ms, table

from kdsl.fft import plan, replay


def _full_spectrum_irfft(x, n):
    """``irfft`` as it was: the Hermitian spectrum of length ``n`` built from ``x``, its inverse, the real part."""
    mirror = kd.conj(kd.flip(x[..., 1:n - n // 2], axis=-1))
    return kd.real(kd.fft.ifft(kd.concatenate([x, mirror], axis=-1)))


def _pairs(value: bool):
    """Set ``rfft``'s long-row rule (and forget replays planned under the other one)."""
    plan.long_real_rows_by_pairs = lambda: value
    replay._calls.clear()


def _case(host: np.ndarray, repeat: int, warmup: int) -> list[list]:
    """The rfft and irfft rows of one shape (each way checked against NumPy first)."""
    x, n = kd.asarray(host), host.shape[-1]
    want = np.fft.rfft(host)
    rule, ms = plan.long_real_rows_by_pairs, {}
    for label, value in (("pairs", True), ("complex", False)):
        _pairs(value)
        got = kd.fft.rfft(x).numpy()
        assert np.abs(got - want).max() <= 1e-5 * np.abs(want).max() * np.log2(n), label
        ms[label] = median_ms(lambda: kd.realize(kd.fft.rfft(x)), repeat, warmup)
    plan.long_real_rows_by_pairs = rule
    replay._calls.clear()
    spectrum = kd.asarray(want.astype(np.complex64))
    for way in (kd.fft.irfft(spectrum), _full_spectrum_irfft(spectrum, n)):
        assert np.abs(way.numpy() - host).max() <= 1e-4 * np.abs(host).max(), "irfft"
    new = median_ms(lambda: kd.realize(kd.fft.irfft(spectrum)), repeat, warmup)
    old = median_ms(lambda: kd.realize(_full_spectrum_irfft(spectrum, n)), repeat, warmup)
    shape = "x".join(map(str, host.shape))
    return [[f"rfft {shape}", ms["pairs"], ms["complex"], ms["pairs"] / ms["complex"],
             median_ms(lambda: np.fft.rfft(host), repeat, 1)],
            [f"irfft to {shape}", new, old, new / old, median_ms(lambda: np.fft.irfft(want), repeat, 1)]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", action="store_true", help="rows sized for a GPU")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--warmup", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    shapes = [(256, 32768), (16, 2 ** 20), (64, 8194)] if args.big else [(64, 8192), (4, 2 ** 15), (1, 2 ** 20),
                                                                         (2, 8194)]
    rule = plan.long_real_rows_by_pairs()
    rows = [row for shape in shapes for row in _case(rng.standard_normal(shape).astype(np.float32), args.repeat,
                                                     args.warmup)]
    title = f"long real rows, medians of {args.repeat} calls (ms; rfft's rule here: " + \
        ("pairs" if rule else "complex") + ")"
    table(title, ["case", "pairs / kd.fft.irfft", "complex / full spectrum", "ratio", "numpy"], rows)


if __name__ == "__main__":
    main()
