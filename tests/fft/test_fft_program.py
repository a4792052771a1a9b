"""A warm kd.fft call is its kernels in one submission and nothing else: no allocation, no recording, no
descriptor update, no upload, no compile; kd.profile still sees every launch; the anatomy variants of the
kernel do what benchmarks/fft_anatomy.py says they do."""

import sys
from pathlib import Path

import numpy as np
import pytest

import kdsl as kd
import kdsl.runtime.buffer as rt_buffer
from kdsl.fft import plan
from kdsl.fft.stockham import PARTS, kernel_source
from kdsl.fft.transform import c2c_program, output
from kdsl.runtime.algorithm import Algorithm
from kdsl.runtime.compiler import stats as compile_stats
from kdsl.runtime.sequence import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))


def _signal(shape, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)


class _Counts:
    """Counts, while installed, what a call does on the Vulkan side."""

    def __init__(self, monkeypatch):
        self.n = {"submits": 0, "records": 0, "descriptor writes": 0, "allocations": 0}
        for cls, name, what in ((Sequence, "_submit_batch", "submits"), (Sequence, "record", "records"),
                                (Algorithm, "_write_descriptors", "descriptor writes")):
            monkeypatch.setattr(cls, name, self._counting(getattr(cls, name), what))
        track = rt_buffer.track

        def counting_track(kind, delta):
            if kind == "VkDeviceMemory" and delta > 0:
                self.n["allocations"] += 1
            track(kind, delta)
        monkeypatch.setattr(rt_buffer, "track", counting_track)

    def _counting(self, method, what):
        def wrapper(*args, **kwargs):
            self.n[what] += 1
            return method(*args, **kwargs)
        return wrapper


def _launches(fn, x):
    with kd.profile() as prof:
        kd.realize(fn(x))
    return [name for name, _ in prof.records]


CASES = [("rows", lambda: _signal((8, 64)), kd.fft.fft, 1),
         ("four-step", lambda: _signal(2 * plan.local_limit(False)), kd.fft.fft, 2),
         ("bluestein", lambda: _signal((3, 13)), kd.fft.ifft, 2),
         ("bluestein four-step", lambda: _signal(plan.local_limit(False) // 2 + 3), kd.fft.fft, 4),
         ("three passes", lambda: _signal((2, 2048)), kd.fft.ifft, 3),  # at a limit of 256, as on a GPU
         ("rfft", lambda: _signal((4, 48)).real.copy(), kd.fft.rfft, 1),
         ("rfft2", lambda: _signal((16, 48)).real.copy(), kd.fft.rfft2, 2),
         ("fftn 3-D", lambda: _signal((4, 6, 8)), kd.fft.fftn, 3)]


@pytest.mark.parametrize("name,make,fn,launches", CASES, ids=[c[0] for c in CASES])
def test_a_warm_call_is_one_submission_of_its_kernels(monkeypatch, name, make, fn, launches):
    if name == "three passes":
        monkeypatch.setattr(plan, "local_limit", lambda double: 256)
        monkeypatch.setattr(plan, "coalesced", lambda: plan.COALESCED)
    host = make()
    x = kd.asarray(host)
    want = getattr(np.fft, fn.__name__)(host)
    for _ in range(2):  # cold: plans, compiles, allocates, records
        np.testing.assert_allclose(fn(x).numpy(), want, atol=1e-4 * np.abs(want).max())
    assert len(_launches(fn, x)) == launches
    kd.realize(fn(x))  # the profile recorded launches one by one: the next call records the program again
    before, compiled = kd.stats(), compile_stats["compiled"]
    counts = _Counts(monkeypatch)
    for _ in range(3):
        kd.realize(fn(x))
    assert counts.n == {"submits": 3, "records": 0, "descriptor writes": 0, "allocations": 0}
    after = kd.stats()
    assert {k: after[k] - before[k] for k in ("kernels", "uploads", "downloads")} == \
        {"kernels": 0, "uploads": 0, "downloads": 0}
    assert compile_stats["compiled"] == compiled


def test_new_buffers_rebind_and_record_again(monkeypatch):
    """A result kept alive makes the next call take another output buffer: it still gives the right answer
    (rebound, recorded again), in one submission."""
    host = _signal((4, 32))
    x = kd.asarray(host)
    kept = [kd.fft.fft(x)]
    counts = _Counts(monkeypatch)
    kept.append(kd.fft.fft(x))
    assert counts.n["submits"] == 1
    for y in kept:
        np.testing.assert_allclose(y.numpy(), np.fft.fft(host), atol=1e-4)


@pytest.mark.parametrize("shape,axes", [((6, 10), None), ((4, 5, 6), None), ((4, 5, 6), (2, 0)), ((4, 5, 6), (0, 1)),
                                        ((3, 7, 16), (1, 2)), ((2, 3, 4, 5), (3, 1, 0))])
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_n_dimensional_transforms_in_one_program(shape, axes, norm):
    host = _signal(shape, len(shape))
    x = kd.asarray(host)
    for name in ("fftn", "ifftn"):
        want = getattr(np.fft, name)(host, axes=axes, norm=norm)
        np.testing.assert_allclose(getattr(kd.fft, name)(x, axes=axes, norm=norm).numpy(), want,
                                   atol=2e-6 * np.abs(want).max() * np.log2(host.size))
    real = host.real.copy()
    want = np.fft.rfftn(real, axes=axes, norm=norm)
    np.testing.assert_allclose(kd.fft.rfftn(kd.asarray(real), axes=axes, norm=norm).numpy(), want,
                               atol=2e-6 * np.abs(want).max() * np.log2(host.size))


def test_profile_names_every_launch():
    names = _launches(kd.fft.fft, kd.asarray(_signal(2 * plan.local_limit(False))))
    assert len(names) == 2 and all(n.startswith("custom kernel kd.fft: ") for n in names)
    assert "four-step twiddles" in names[0] and "four-step" not in names[1]


@pytest.mark.parametrize("part", PARTS)
def test_anatomy_variants(part):
    """``copy`` is the identity, ``exchanges`` a permutation of each row (Stockham's reordering without the
    butterflies); ``one-stage`` and
    ``no-twiddles`` differ from the transform (they must: they skip work); the real kernel is the FFT."""
    host = _signal((4, 256), 1)
    x = kd.asarray(host)
    program = c2c_program(x, inverse=False, keep=256)
    (step,) = program.steps
    raw = plan.kernel(**step.kernel, part=part)[0]
    out = output((4, 256), double=False)
    raw(x, out, *program.tables(0), step.push, groups=step.groups, spec={"FLAGS": step.flags})
    got = out.numpy()
    if part == "copy":
        np.testing.assert_array_equal(got, host)
    elif part == "exchanges":
        assert not np.array_equal(got, host)
        np.testing.assert_array_equal(np.sort(got, axis=1), np.sort(host, axis=1))
    elif part:
        assert not np.allclose(got, np.fft.fft(host), atol=1e-2)
    else:
        np.testing.assert_allclose(got, np.fft.fft(host), atol=1e-3)


def test_the_variants_are_named():
    with pytest.raises(ValueError, match="part must be one of"):
        kernel_source(16, (16,), 1, 16, "float", False, False, part="fast")


def test_anatomy_script_times_every_variant():
    import fft_anatomy

    case = fft_anatomy.cases(small=True)[0]._replace(label="t", host=_signal((4, 2 * plan.local_limit(False))))
    rows = fft_anatomy.anatomy(case, fft_anatomy.Timer(1))
    variants = [r[2] for r in rows]
    assert variants == ["kernel", *PARTS[1:], "memcpy"] * 2 + ["whole", "call"]
    assert all(r[3] > 0 for r in rows)


def test_layouts_script_times_every_pattern():
    import fft_layouts

    rows = fft_layouts.measure(256, repeat=1)
    kinds = [r[0] for r in rows]
    strips = ["strips"] * 3 + ["strips, 2 exchanges"]
    assert kinds == ["memcpy"] + ["transposed A"] * 4 + ["transposed B"] * 4 + strips * 5
    assert all(r[2] > 0 for r in rows)


def test_host_time_script_times_every_layer():
    import fft_host_time

    rows = fft_host_time.measure(32, repeat=3)
    assert [r[0].split(":")[0] for r in rows] == ["tiny", "seq", "program", "call"]
    assert all(r[1] > 0 and r[2] > 0 for r in rows)
