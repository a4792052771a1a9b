"""``rfft`` of real rows of even length ``n`` runs the complex transform of length ``n / 2`` (the rows read as
``x[2j] + i x[2j + 1]``) and turns it into the ``n / 2 + 1`` frequencies in its store: half the work of the
length-``n`` complex transform. Checked against NumPy for lengths with and without that path, batches,
float64, the norms, padding and cutting, axes other than the last, and the n-d transforms."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.fft import plan


def _real(shape, dtype=np.float32, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _launch_names(fn):
    with kd.profile() as prof:
        kd.realize(fn())
    return [name for name, _ in prof.records]


def _close(got, want, dtype):
    tol = 2e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1.0, float(np.abs(want).max())))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(4,), (6,), (10,), (1, 16), (3, 30), (5, 128), (2, 3, 96), (7, 4096),
                                   # the last stage's pairs of butterflies (kdsl.fft.paired_stage): one stage of
                                   # radix 7 (33 rows: a partial workgroup), Ns = 2 (its middle butterfly its
                                   # own mirror), an odd radix after Ns = 18, 257 pairs (two rounds of 256)
                                   (33, 14), (5, 36), (3, 252), (2, 3072)])
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_even_rows_take_the_half_length_transform(shape, dtype, norm):
    if dtype == np.float64 and "float64" not in kd.device().features:
        pytest.skip("the device has no float64")
    host = _real(shape, dtype)
    x = kd.asarray(host)
    got = kd.fft.rfft(x, norm=norm)
    assert got.shape == host.shape[:-1] + (host.shape[-1] // 2 + 1,)
    assert got.dtype == (kd.complex64 if dtype == np.float32 else kd.complex128)
    _close(got.numpy(), np.fft.rfft(host, norm=norm), dtype)
    names = _launch_names(lambda: kd.fft.rfft(x, norm=norm))
    if host.shape[-1] // 2 <= plan.local_limit(dtype == np.float64):  # else the complex four-step transform
        assert len(names) == 1 and f"real rows of {host.shape[-1]}" in names[0]


@pytest.mark.parametrize("n", [2, 5, 9, 15, 17, 2 * 1031])
def test_other_lengths_keep_the_complex_transform(n):
    """Odd lengths, a half of one (length 2) and halves with another prime factor (Bluestein) do not take it."""
    host = _real((3, n))
    got = kd.fft.rfft(kd.asarray(host))
    _close(got.numpy(), np.fft.rfft(host), np.float32)
    assert not any("real rows" in name for name in _launch_names(lambda: kd.fft.rfft(kd.asarray(host))))


def test_a_half_past_one_launch_keeps_the_complex_transform():
    n = 4 * plan.local_limit(False)  # its half needs two launches
    host = _real(n)
    _close(kd.fft.rfft(kd.asarray(host)).numpy(), np.fft.rfft(host), np.float32)


@pytest.mark.parametrize("n", [6, 16, 40])
def test_cut_and_padded_rows(n):
    host = _real((4, 24), seed=1)
    _close(kd.fft.rfft(kd.asarray(host), n=n).numpy(), np.fft.rfft(host, n=n), np.float32)


def test_other_axes_views_and_special_values():
    host = _real((12, 5, 8), seed=2)
    x = kd.asarray(host)
    _close(kd.fft.rfft(x, axis=0).numpy(), np.fft.rfft(host, axis=0), np.float32)
    _close(kd.fft.rfft(x[:, ::2, ::-1]).numpy(), np.fft.rfft(host[:, ::2, ::-1]), np.float32)
    # non-finite values reach the frequencies of their own row only (which of those are NaN rather than inf
    # depends on the order of operations: docs/fft.md, "Differences from NumPy")
    special = np.array([[0.0, -0.0, 1.0, np.inf], [np.nan, 1.0, 2.0, 3.0], [1.0, -0.0, 2.5, 4.0]], np.float32)
    got = kd.fft.rfft(kd.asarray(special)).numpy()
    assert not np.isfinite(got[:2]).all(axis=1).any()
    _close(got[2], np.fft.rfft(special[2]), np.float32)


@pytest.mark.parametrize("shape,s,axes", [((16, 48), None, None), ((4, 8, 12), None, None),
                                          ((6, 10), (6, 8), (0, 1)), ((3, 8, 6), None, (0, 2))])
def test_n_dimensional_real_transforms(shape, s, axes):
    host = _real(shape, seed=3)
    _close(kd.fft.rfftn(kd.asarray(host), s=s, axes=axes).numpy(), np.fft.rfftn(host, s=s, axes=axes), np.float32)
    if len(shape) == 2 and s is None:
        _close(kd.fft.rfft2(kd.asarray(host)).numpy(), np.fft.rfft2(host), np.float32)
        back = kd.fft.irfft2(kd.fft.rfft2(kd.asarray(host)), s=shape).numpy()
        np.testing.assert_allclose(back, host, atol=1e-5)
