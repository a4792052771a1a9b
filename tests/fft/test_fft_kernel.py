"""The local FFT kernel's variants: every radix and stage count, several sequences per workgroup, the local
limit, four-step, fused Bluestein, real input, half outputs, and outputs on recycled (garbage) buffers."""

import numpy as np
import pytest
from fft_testing import signal

import kdsl as kd
from kdsl.fft import plan
from kdsl.fft.butterfly import Butterfly
from kdsl.fft.transform import c2c, nd_program


def _close(got, want):
    """Within float32's accuracy (double's for complex128) relative to the largest output, log n growth."""
    got = np.asarray(got)
    assert got.shape == want.shape
    tol = 1e-13 if got.dtype == np.complex128 else 2e-6
    scale = max(1.0, float(np.abs(want).max()))
    np.testing.assert_allclose(got, want, rtol=0, atol=tol * scale * max(1, np.log2(max(want.size, 2))))


@pytest.mark.parametrize("n,want", [(2, (2,)), (16, (16,)), (32, (8, 4)), (2048, (16, 16, 8)),
                                    (4096, (16, 16, 16)), (8192, (16, 8, 8, 8)), (243, (9, 9, 3)),
                                    (2 * 3 * 5 * 7, (2, 3, 5, 7))])
def test_stages_use_radix_16_evenly(n, want):
    assert plan.stages(n) == want
    assert np.prod(want) == n


@pytest.mark.parametrize("radix", [2, 3, 4, 5, 6, 7, 8, 9, 12, 16])
def test_butterfly_is_the_dft(radix):
    """The generated register DFT, evaluated in Python on a random vector, equals NumPy's DFT."""
    b = Butterfly("vec2")
    outs = b.dft([f"x{r}" for r in range(radix)])
    x = signal(radix, np.complex128, radix)
    env = {f"x{r}": x[r] for r in range(radix)}
    for line in b.lines:
        name, expr = line[len("vec2 "):-1].split(" = ", 1)
        env[name] = eval(_python(expr), {"vec2": complex}, env)
    np.testing.assert_allclose([env[o] for o in outs], np.fft.fft(x), atol=1e-12)


def _python(expr: str) -> str:
    """A generated GLSL expression on complex Python numbers (``a.x`` is ``a.real``)."""
    return expr.replace(".x", ".real").replace(".y", ".imag")


@pytest.mark.parametrize("n", [2, 3, 5, 7, 9, 16, 32, 48, 63, 80, 112, 144, 243, 625, 2401, 2048])
def test_every_radix_and_stage_count(n):
    x = signal((5, n), np.complex64, n)
    _close(kd.fft.fft(kd.asarray(x)), np.fft.fft(x))
    _close(kd.fft.ifft(kd.asarray(x)), np.fft.ifft(x))


@pytest.mark.parametrize("rows", [1, 63, 67, 130])
def test_several_sequences_per_workgroup_with_a_partial_last_group(rows):
    x = signal((rows, 8), np.complex64, rows)
    _close(kd.fft.fft(kd.asarray(x)), np.fft.fft(x))
    _close(kd.fft.fft(kd.asarray(x), axis=0), np.fft.fft(x, axis=0))  # columns: neighbours are sequences


def test_lengths_at_the_local_limit_and_past_it():
    limit = plan.local_limit(False)
    for n in (limit, 2 * limit):
        x = signal((2, n), np.complex64, n)
        _close(kd.fft.fft(kd.asarray(x)), np.fft.fft(x))
    x = signal((3, limit), np.complex64)
    _close(kd.fft.fft(kd.asarray(x), axis=0), np.fft.fft(x, axis=0))


@pytest.mark.parametrize("limit", [16, 2048, 4096])
def test_passes_are_few_and_coalesced_where_they_can_be(limit):
    two = plan.passes(2 * limit, limit, group=1)  # a CPU device: the fewest launches
    assert two is not None and len(two) == 2 and np.prod(two) == 2 * limit
    assert plan.strided_passes(limit, limit, 64, 1) == (limit,)
    small = limit // plan.COALESCED
    for n in (limit, 2 * limit, small * small, 2 * small * small, small ** 3, 3 * 5 * 7 * 4 * small, limit ** 2,
              limit ** 3, 2 * limit ** 3):
        lengths = plan.passes(n, limit)
        if n > limit ** 3:
            assert lengths is None
            continue
        assert lengths is not None and np.prod(lengths) == n and max(lengths) <= limit
        if n <= limit:
            assert lengths == (n,)
        elif n <= small * small:
            assert len(lengths) == 2 and max(lengths) <= small
        elif n <= small ** 3:
            assert len(lengths) == 3 and max(lengths) <= small


@pytest.mark.parametrize("shape", [(1, 2048), (3, 2048), (2, 3 * 2 ** 9)])
def test_three_launches(monkeypatch, shape):
    """Past (limit / 16)**2 the transform takes three coalesced launches (16 at a limit of 256 here)."""
    monkeypatch.setattr(plan, "local_limit", lambda double: 256)
    monkeypatch.setattr(plan, "coalesced", lambda: plan.COALESCED)  # as on a GPU
    x = signal(shape, np.complex64, shape[1])
    assert len(plan.passes(shape[1], 256)) == 3
    _close(kd.fft.fft(kd.asarray(x)), np.fft.fft(x))
    _close(kd.fft.ifft(kd.asarray(x), norm="ortho"), np.fft.ifft(x, norm="ortho"))
    _close(kd.fft.rfft(kd.asarray(x.real.copy())), np.fft.rfft(x.real))
    y = signal((2, 601), np.complex64)  # Bluestein by 2048 = 8 x 16 x 16: six launches
    _close(kd.fft.fft(kd.asarray(y)), np.fft.fft(y))
    if kd.device().supports(kd.float64):
        z = signal(shape, np.complex128, 7)
        _close(kd.fft.ifft(kd.asarray(z)), np.fft.ifft(z))


@pytest.mark.parametrize("shape,axis,launches", [((128, 20), 0, 2), ((3, 128, 17), 1, 2), ((128, 5), 0, 1),
                                                  ((12, 40), 0, 1), ((2, 48, 16, 3), 1, 2)])
def test_strided_axes_in_coalesced_launches(monkeypatch, shape, axis, launches):
    """Along an axis with 16 or more neighbouring columns, a length past limit / 16 takes two launches that
    each read 16 neighbouring columns (limit 256 here: 128 = 8 x 16)."""
    monkeypatch.setattr(plan, "local_limit", lambda double: 256)
    monkeypatch.setattr(plan, "coalesced", lambda: plan.COALESCED)  # as on a GPU
    x = signal(shape, np.complex64, shape[axis])
    with kd.profile() as prof:
        got = kd.fft.fft(kd.asarray(x), axis=axis)
        kd.realize(got)
    assert len(prof.records) == launches
    _close(got, np.fft.fft(x, axis=axis))
    if kd.device().supports(kd.float64):
        z = signal(shape, np.complex128, 7)
        _close(kd.fft.fft(kd.asarray(z), axis=axis), np.fft.fft(z, axis=axis))
    _close(kd.fft.ifft(kd.asarray(x), axis=axis, norm="ortho"), np.fft.ifft(x, axis=axis, norm="ortho"))


@pytest.mark.parametrize("n", [11, 13, 97, 211])
def test_fused_bluestein_in_one_and_two_launches_and_the_step_by_step_fallback(monkeypatch, n):
    """Limit 16: 11 and 13 (m = 32) run as fused four-step, 97 and 211 (m >= 256) fall back."""
    x = signal((2, n), np.complex64, n)
    _close(c2c(kd.asarray(x), inverse=False), np.fft.fft(x))
    monkeypatch.setattr(plan, "local_limit", lambda double: 16)
    _close(c2c(kd.asarray(x), inverse=False), np.fft.fft(x))
    _close(c2c(kd.asarray(x), inverse=True), np.fft.ifft(x) * n)


@pytest.mark.parametrize("n", [10, 11, 64, 4099, 2 * plan.local_limit(False) + 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rfft_reads_reals_and_writes_half(n, dtype):
    r = signal((3, n), dtype, n)
    got = kd.fft.rfft(kd.asarray(r))
    assert got.dtype == (kd.complex128 if dtype == np.float64 else kd.complex64)
    _close(got, np.fft.rfft(r))
    _close(kd.fft.rfft(kd.asarray(r), n=n + 3, norm="ortho"), np.fft.rfft(r, n=n + 3, norm="ortho"))


@pytest.mark.parametrize("n", [8, 11, 4096, 2 * plan.local_limit(False)])
def test_outputs_are_fully_written_on_recycled_buffers(n):
    """Outputs and temporaries are uninitialised pooled buffers: fill the pool with NaN first."""
    x = signal((2, n), np.complex64, n)
    for shape in [(2, n), (2, n // 2 + 1), (2, 1 << (2 * n - 2).bit_length())]:
        kd.realize(kd.full(shape, np.nan, dtype=kd.complex64) * 1)
    _close(kd.fft.fft(kd.asarray(x)), np.fft.fft(x))
    _close(kd.fft.rfft(kd.asarray(x.real.copy())), np.fft.rfft(x.real))


def test_bluestein_double_precision_and_inverse():
    x = signal((2, 1009), np.complex128, 3)
    _close(kd.fft.fft(kd.asarray(x)), np.fft.fft(x))
    _close(kd.fft.ifft(kd.asarray(x)), np.fft.ifft(x))


@pytest.mark.parametrize("value,expect", [("3", "3"), ("x", "KDSL_FFT_COALESCED must be a whole number")])
def test_the_coalescing_group_from_the_environment(value, expect):
    import os
    import subprocess
    import sys

    env = dict(os.environ, KDSL_FFT_COALESCED=value)
    run = subprocess.run([sys.executable, "-c", "from kdsl.fft import plan; print(plan.coalesced())"], env=env,
                         capture_output=True, text=True, timeout=120)
    assert expect in run.stdout + run.stderr


@pytest.mark.parametrize("shape,fn", [((256, 40), "rfft2"), ((256, 40), "ifft2"), ((3, 256, 34), "rfftn"),
                                      ((3, 256, 34), "ifftn"), ((2, 256, 21), "fftn"), ((256, 64, 3), "rfftn")])
def test_an_nd_transform_lends_its_output_to_its_first_launches(monkeypatch, shape, fn):
    """Where the last axis's launches are done before the output is first written (the columns' two coalesced
    launches read a temporary), the rows are stored in the output itself: one pooled temporary fewer."""
    monkeypatch.setattr(plan, "local_limit", lambda double: 256)
    monkeypatch.setattr(plan, "coalesced", lambda: plan.COALESCED)  # as on a GPU: 256 = 16 x 16 in two launches
    host = signal(shape, np.complex64, 5)
    if fn.startswith("r"):
        host = host.real.copy()
    x = kd.asarray(host)
    axes = list(range(len(shape)))
    keep = shape[-1] // 2 + 1 if fn.startswith("r") else None
    program = nd_program(x, axes, fn.startswith("i"), [1.0] * len(axes), keep=keep)
    assert any(step.dst == "out" for step in program.steps[:-1])
    _close(getattr(kd.fft, fn)(x), getattr(np.fft, fn)(host))
