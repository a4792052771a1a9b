"""The fused-``fma`` helper bodies (kdsl.codegen.fused_fma) and the probe that picks them (kdsl.engine.fma_probe).

lavapipe splits ``fma`` into a multiply and an add, so here the probe says "not fused" and the generated kernels
keep the portable helpers. The fused bodies are tested on lavapipe anyway, with ``fma`` emulated exactly enough:
a float32 product is exact in double, so ``float(double(a) * double(b) + double(c))`` is the fused result (the
reduction's sums fit a double exactly; only the polynomials' steps can round twice, which moves no result past
the ulp bound). On GPUs that fuse (an H200 does, in both widths) the whole precision suite runs the fused bodies.
"""

import json

import numpy as np
import pytest

import kdsl as kd
from kdsl.codegen import fused_fma
from kdsl.codegen.helpers import LIBRARY, needed
from kdsl.engine import fma_probe, programs

EMULATED_FMA = "#define fma(a, b, c) float(double(a) * double(b) + double(c))\n"
BOUND = {"sin": 1.0, "cos": 1.0, "tan": 2.5}  # the ulp bounds of test_trig_accuracy.py


def _kernel(name: str) -> kd.RawKernel:
    helpers = "\n".join(needed(f"kd_{name}_f(x)"))
    source = f"""#version 450
{EMULATED_FMA}layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer X {{ float x[]; }};
layout(std430, binding = 1) buffer Y {{ float y[]; }};
layout(push_constant) uniform P {{ uint n; }};
{fused_fma.rewrite(helpers, frozenset({"f"}))}
void main() {{
    uint i = gl_GlobalInvocationID.x;
    if (i < n) y[i] = kd_{name}_f(x[i]);
}}
"""
    return kd.raw_kernel(source)


def _arguments() -> np.ndarray:
    rng = np.random.default_rng(11)
    wide = rng.uniform(-1.3e5, 1.3e5, 20000)
    tiny = 10.0 ** rng.uniform(-37, -1, 2000) * rng.choice([-1, 1], 2000)
    near = np.arange(-3000, 3000) * (np.pi / 2)  # the floats nearest to k pi/2, and their neighbours
    near = near[near != 0].astype(np.float32)
    x = np.concatenate([wide.astype(np.float32), tiny.astype(np.float32), near,
                        np.nextafter(near, np.float32(np.inf)), [1e30, -3e38, 5.5e17]])
    return x.astype(np.float32)


@pytest.mark.parametrize("name", sorted(BOUND))
def test_fused_bodies_are_as_accurate_as_the_portable_ones(name):
    x = _arguments()
    y = np.zeros_like(x)
    _kernel(name)(x, y, x.size, grid=x.size)
    exact = getattr(np, name)(x.astype(np.float64))
    ulps = np.abs(y - exact) / np.spacing(np.abs(exact).astype(np.float32)).astype(np.float64)
    assert ulps.max() <= BOUND[name]


def test_rewrite_swaps_only_the_probed_widths():
    src = "\n".join(needed("kd_sin_f(x) + kd_cos_d(z)"))
    assert fused_fma.applies(src) and fused_fma.rewrite(src, frozenset()) == src
    only_f = fused_fma.rewrite(src, frozenset({"f"}))
    assert LIBRARY["kd_twoprod_d"] in only_f and LIBRARY["kd_twoprod_f"] not in only_f
    both = fused_fma.rewrite(src, frozenset({"f", "d"}))
    assert not any(LIBRARY[f"kd_twoprod_{s}"] in both for s in "fd") and both.count("fma(") > 8
    assert not fused_fma.applies("void main() { y = kd_exp_f(x); }")


def test_probe_finds_lavapipe_unfused_and_is_asked_once(monkeypatch):
    dev = kd.device()
    first = fma_probe.widths(dev)
    assert first <= {"f", "d"} and fma_probe.widths(dev) is first
    if "llvmpipe" in dev.name:  # lavapipe: fma is a multiply and an add (in both widths)
        assert first == frozenset()
    monkeypatch.setenv("KDSL_FUSED_FMA", "0")
    assert fma_probe._probe(dev) == frozenset()


def test_probe_results_are_kept_on_disk_per_device(monkeypatch, tmp_path):
    dev = kd.device()
    monkeypatch.setenv("KDSL_CACHE_DIR", str(tmp_path))
    ran = []
    real = fma_probe._fused
    monkeypatch.setattr(fma_probe, "_fused", lambda d, s: ran.append(s) or real(d, s))
    found = fma_probe._probe(dev)  # the real probe, once
    assert ran and found <= {"f", "d"}
    saved = json.loads((tmp_path / "fma_probe.json").read_text())
    assert saved == {fma_probe.identity(dev): sorted(found)}
    ran.clear()
    assert fma_probe._probe(dev) == found and not ran  # a new process reads the file instead
    for damaged in ("{not json", "[1, 2]", json.dumps({fma_probe.identity(dev): ["q"]})):
        (tmp_path / "fma_probe.json").write_text(damaged)
        assert fma_probe._probe(dev) == found and ran  # probed again, and the file repaired
        ran.clear()
        assert json.loads((tmp_path / "fma_probe.json").read_text())[fma_probe.identity(dev)] == sorted(found)
    other = json.loads((tmp_path / "fma_probe.json").read_text()) | {"another GPU|uuid|1|2|1.4": ["f", "d"]}
    (tmp_path / "fma_probe.json").write_text(json.dumps(other))
    assert fma_probe._probe(dev) == found and not ran  # another device's entry is kept and not used


def test_programs_get_the_fused_bodies_the_probe_allows(monkeypatch):
    src = "\n".join(needed("kd_sin_f(x)"))
    dev = kd.device()
    monkeypatch.setattr(fma_probe, "widths", lambda device: frozenset({"f"}))
    assert "fma(" in programs.for_device(src, dev)
    monkeypatch.setattr(fma_probe, "widths", lambda device: frozenset())
    assert "fma(" not in programs.for_device(src, dev)
