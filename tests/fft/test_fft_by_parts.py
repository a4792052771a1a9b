"""Strided transforms as one ``by_parts`` launch (``kdsl.fft.plan.BY_PARTS``: shared memory holding the real parts,
then the imaginary ones), forced on here as on a GPU, against NumPy."""

import numpy as np
import pytest
from fft_testing import signal

import kdsl as kd
from kdsl.fft import plan, replay
from kdsl.fft.stockham import kernel_source


@pytest.fixture
def by_parts(monkeypatch):
    """BY_PARTS on, the GPU's coalescing group, and no replay of a program planned without them."""
    monkeypatch.setattr(plan, "BY_PARTS", True)
    monkeypatch.setattr(plan, "coalesced", lambda: plan.COALESCED)
    replay._calls.clear()
    yield
    replay._calls.clear()


def _labels(fn, x, **kwargs):
    with kd.profile() as prof:
        got = fn(kd.asarray(x), **kwargs)
        kd.realize(got)
    return got, [name for name, *_ in prof.records]


def _close(got, want, tol=2e-6):
    got = got.numpy()
    assert got.dtype == want.dtype and got.shape == want.shape
    scale = max(float(np.abs(want).max()), 1.0)
    assert np.abs(got - want).max() <= tol * scale * np.log2(max(want.size, 2))


def test_the_kernel_exchanges_one_part_at_a_time():
    """Two stages: one exchange of two parts (four barriers) through one shared array."""
    both = kernel_source(64, (8, 8), 2, 16, "float", True, True)
    parts = kernel_source(64, (8, 8), 2, 16, "float", True, True, by_parts=True)
    assert both.count("barrier();") == 1 and parts.count("barrier();") == 3
    assert "sh_re" not in parts and "shared float sh[134];" in parts
    with pytest.raises(ValueError, match="by_parts=False"):
        kernel_source(64, (8, 8), 1, 16, "float", False, False, real_half=True, by_parts=True)


def test_which_launches_go_by_parts(by_parts):
    limit = plan.local_limit(False)
    small = limit // plan.COALESCED
    assert plan.by_parts(limit, True, False) and plan.by_parts(small * 2, True, False)
    assert not plan.by_parts(small, True, False)  # holds 16 sequences of both parts already
    assert not plan.by_parts(limit, False, False)  # rows: nothing to coalesce
    assert not plan.by_parts(2 * limit, True, False)  # past one launch
    assert plan.strided_passes(limit, limit, 5) == (limit,) and plan.passes(limit * limit, limit) == (limit, limit)
    assert plan.group_shape(limit, limit, False, by_parts=True)[0] >= 2


@pytest.mark.parametrize("shape,axis", [((512, 33), 0), ((2048, 3), 0), ((3, 768, 5), 1), ((1000, 2), 0),
                                        ((448, 7), 0), ((2, 320, 4, 3), 1)])
def test_strided_axis_in_one_launch(by_parts, shape, axis):
    n = shape[axis]
    if n > plan.local_limit(False):
        pytest.skip(f"this device's local limit is {plan.local_limit(False)}")
    x = signal(shape, np.complex64, n)
    got, labels = _labels(kd.fft.fft, x, axis=axis)
    assert len(labels) == 1 and "by parts" in labels[0]
    _close(got, np.fft.fft(x, axis=axis))
    _close(kd.fft.ifft(kd.asarray(x), axis=axis, norm="ortho"), np.fft.ifft(x, axis=axis, norm="ortho"))
    if kd.device().supports(kd.float64):
        z = signal(shape, np.complex128, 7)
        _close(kd.fft.fft(kd.asarray(z), axis=axis), np.fft.fft(z, axis=axis), tol=1e-12)


@pytest.mark.parametrize("shape", [(1024, 64), (256, 40), (512, 7)])
def test_rfft2_and_fft2_columns_by_parts(by_parts, shape):
    r = signal(shape, np.float32, 3)
    got, labels = _labels(kd.fft.rfft2, r)
    assert len(labels) == 2 and "by parts" in labels[1]
    _close(got, np.fft.rfft2(r))
    z = signal(shape, np.complex64, 4)
    _close(kd.fft.fft2(kd.asarray(z)), np.fft.fft2(z))
    _close(kd.fft.fftn(kd.asarray(z[None].repeat(2, 0)), axes=(1, 2)), np.fft.fftn(z[None].repeat(2, 0), axes=(1, 2)))


@pytest.mark.parametrize("n", [256 * 256, 256 * 192, 3 * 2 ** 12])
def test_long_rows_in_two_launches_by_parts(by_parts, monkeypatch, n):
    """Local limit 256 here: past it, the fewest launches (two), each strided one by parts."""
    monkeypatch.setattr(plan, "local_limit", lambda double: 256)
    x = signal((2, n), np.complex64, 9)
    got, labels = _labels(kd.fft.fft, x)
    assert len(labels) == 2 and all("by parts" in label for label in labels)
    _close(got, np.fft.fft(x))
    _close(kd.fft.ifft(kd.asarray(x), norm="forward"), np.fft.ifft(x, norm="forward"))
    _close(kd.fft.rfft(kd.asarray(x.real.copy())), np.fft.rfft(x.real))
    y = signal((2, 601), np.complex64)  # Bluestein by 2048 = 8 x 256: its strided launches by parts
    _close(kd.fft.fft(kd.asarray(y)), np.fft.fft(y))


def test_non_finite_values_stay_in_their_column(by_parts):
    x = signal((512, 6), np.complex64, 5)
    x[3, 1], x[7, 4] = np.nan, np.inf
    got = kd.fft.fft(kd.asarray(x), axis=0).numpy()
    want = np.fft.fft(x, axis=0)
    assert np.array_equal(np.isfinite(got), np.isfinite(want))
    finite = np.isfinite(want)
    assert np.abs(got[finite] - want[finite]).max() <= 1e-4 * np.abs(want[finite]).max()


@pytest.mark.parametrize("value,expect", [("1", "True"), ("0", "False"), ("yes", "KDSL_FFT_BY_PARTS must be 0 or 1")])
def test_by_parts_from_the_environment(value, expect):
    import os
    import subprocess
    import sys

    env = dict(os.environ, KDSL_FFT_BY_PARTS=value)
    run = subprocess.run([sys.executable, "-c", "from kdsl.fft import plan; print(plan.BY_PARTS)"], env=env,
                         capture_output=True, text=True, timeout=120)
    assert expect in run.stdout + run.stderr
