"""Lengths that cut or zero-pad an axis other than the last (``fft(x, n, axis=0)``, ``fftn``/``rfftn``/``irfftn``
with ``s``, the zero-padded FFT convolution idiom) are read as the launches load them: no padded or cut copy
first, every axis in one program, warm calls replayed. Against NumPy, float32 and float64."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.fft import plan


def _complex(shape, dtype=np.complex64, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def _run(fn, *args, **kwargs):
    """``fn``'s result and the names of what ran (kd.profile records)."""
    with kd.profile() as prof:
        got = fn(*args, **kwargs)
        kd.realize(got)
    return got, [name for name, *_ in prof.records]


def _close(got, want):
    got = got.numpy()
    assert got.dtype == want.dtype and got.shape == want.shape
    tol = 2e-5 if want.dtype in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1.0, float(np.abs(want).max())))


def _fft_launches_only(names):
    return names and all(name.startswith("custom kernel kd.fft") for name in names)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("shape,s,axes", [((6, 10), (12, 16), (0, 1)), ((6, 10), (4, 16), (0, 1)),
                                          ((3, 5, 7), (8, 6, 9), (0, 1, 2)), ((40, 33), (64, 64), (0, 1)),
                                          ((40, 33), (20, 40), (1, 0)), ((5, 8), (300, 8), (0, 1)),
                                          ((2, 300, 3), (600, 2), (1, 2)), ((1, 7), (9, 7), (0, 1))])
@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn"])
def test_n_dimensional_lengths_in_one_program(name, shape, s, axes, dtype):
    if dtype == np.complex128 and "float64" not in kd.device().features:
        pytest.skip("the device has no float64")
    host = _complex(shape, dtype) if name != "rfftn" else np.random.default_rng(1).standard_normal(shape).astype(
        np.float32 if dtype == np.complex64 else np.float64)
    got, names = _run(getattr(kd.fft, name), kd.asarray(host), s=s, axes=axes, norm="ortho")
    _close(got, getattr(np.fft, name)(host, s=s, axes=axes, norm="ortho"))
    last = axes[-1] == len(shape) - 1
    if name in ("fftn", "ifftn") or last and (name == "rfftn" or s[-1] % 2 == 0 and s[-1] >= 4):
        assert _fft_launches_only(names), names


@pytest.mark.parametrize("shape,n,axis", [((8, 5), 12, 0), ((8, 5), 3, 0), ((3, 9, 4), 20, 1), ((300, 3), 600, 0),
                                          ((2, 1, 3), 5, 1)])
@pytest.mark.parametrize("name", ["fft", "ifft"])
def test_a_middle_axis_cut_or_padded_as_it_is_read(name, shape, n, axis):
    host = _complex(shape)
    got, names = _run(getattr(kd.fft, name), kd.asarray(host), n=n, axis=axis)
    _close(got, getattr(np.fft, name)(host, n=n, axis=axis))
    assert _fft_launches_only(names), names


def test_padded_columns_in_two_coalesced_launches(monkeypatch):
    """A padded axis long enough for the four-step plan along it: the first launch reads zeros past the end."""
    monkeypatch.setattr(plan, "local_limit", lambda double: 256)
    monkeypatch.setattr(plan, "coalesced", lambda: plan.COALESCED)
    host = _complex((70, 20), seed=4)
    got, names = _run(kd.fft.fft, kd.asarray(host), n=128, axis=0)
    assert len(names) == 2
    _close(got, np.fft.fft(host, n=128, axis=0))


def test_zero_padded_fft_convolution_replays():
    """The FFT convolution idiom: both axes padded to the full size, multiplied, transformed back."""
    rng = np.random.default_rng(5)
    a, k = rng.standard_normal((20, 30)).astype(np.float32), rng.standard_normal((5, 7)).astype(np.float32)
    shape = (a.shape[0] + k.shape[0] - 1, a.shape[1] + k.shape[1] - 1)
    want = np.fft.irfft2(np.fft.rfft2(a, s=shape) * np.fft.rfft2(k, s=shape), s=shape)
    for _ in range(3):  # the first call plans, the next ones replay
        got = kd.fft.irfft2(kd.fft.rfft2(kd.asarray(a), s=shape) * kd.fft.rfft2(kd.asarray(k), s=shape), s=shape)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-4 * np.abs(want).max())
    _, names = _run(kd.fft.rfft2, kd.asarray(a), s=shape)
    assert _fft_launches_only(names)
