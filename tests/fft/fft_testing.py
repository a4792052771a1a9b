"""Shared helpers of the FFT tests."""

import numpy as np


def signal(shape, dtype, seed=0):
    """Standard normal samples of ``dtype``; a complex dtype gets an independent normal imaginary part."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)
