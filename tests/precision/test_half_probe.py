"""The float16 rounding by conversions (kdsl.codegen.half.HARDWARE) and the probe that lets a device use it
(kdsl.engine.half_probe): the probe's cases and reference, both bodies against it, and the bits kernels compute
with either body."""

import json

import numpy as np
import pytest

import kdsl as kd
from kdsl.codegen import half
from kdsl.engine import device_probe, half_probe, programs


def test_cases_hold_every_half_the_ties_and_the_edges():
    x = half_probe.cases()
    halves = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    assert np.isin(halves[np.isfinite(halves)].astype(np.float32), x).all()
    edges = {65520.0, np.nextafter(np.float32(65520.0), np.float32(0)), 2.0 ** -25, 1 + 2.0 ** -11, -0.0}
    assert all(np.float32(v) in x for v in edges)
    assert np.isnan(x).sum() >= 6 and {np.inf, -np.inf} <= set(x[np.isinf(x)].tolist())


@pytest.mark.parametrize("value, want", [
    (65519.99609375, 65504.0), (65520.0, np.inf), (-65520.0, -np.inf), (2.0 ** -25, 0.0),
    (np.nextafter(np.float32(2.0 ** -25), np.float32(1)), 2.0 ** -24), (1 + 2.0 ** -11, 1.0),
    (1 + 3 * 2.0 ** -11, 1 + 2.0 ** -9), (3.0e38, np.inf)])
def test_expected_is_numpys_rounding(value, want):
    assert half_probe.expected(np.array([value], np.float32))[0] == np.float32(want)


def test_expected_keeps_nan_bits_and_zero_signs():
    bits = np.array([0x7FC00001, 0xFFC00000, 0x80000000, 0x80000001], np.uint32)
    got = half_probe.expected(bits.view(np.float32)).view(np.uint32)
    assert got.tolist() == [0x7FC00001, 0xFFC00000, 0x80000000, 0x80000000]


def test_the_portable_body_passes_the_probe_on_every_device():
    assert half_probe.exact(kd.device(), half.PORTABLE)


def test_a_body_that_does_not_round_fails_it():
    assert not half_probe.exact(kd.device(), "float kd_half_f(float x) { return x; }")


def test_the_answer_is_kept_and_can_be_turned_off(monkeypatch, tmp_path):
    monkeypatch.setenv("KDSL_CACHE_DIR", str(tmp_path))
    dev = kd.device()
    found = half_probe._probe(dev)
    assert found <= {"hardware"}
    saved = json.loads((tmp_path / "half_probe.json").read_text())
    assert saved == {device_probe.identity(dev): sorted(found)}
    monkeypatch.setenv("KDSL_HARDWARE_HALF", "0")
    assert half_probe._probe(dev) == frozenset()


@pytest.mark.parametrize("hardware", [True, False])
def test_programs_get_the_body_the_probe_picks_and_round_as_numpy(monkeypatch, hardware):
    monkeypatch.setattr(half_probe, "rounds_exactly", lambda device: hardware)
    source = programs.for_device("y = kd_half_f(x);\n" + half.PORTABLE, kd.device())
    assert ("packHalf2x16" in source) == hardware
    if hardware and not half_probe.exact(kd.device(), half.FAST):
        return  # (this device keeps the portable body: its kernels never run the other)
    # ((a + b) - a) * c rounds each step to float16 (NumPy's half loops); a different constant per body, so
    # each compiles its own program
    bits = np.random.default_rng(3).integers(0, 1 << 16, 1 << 14).astype(np.uint16)
    a, c = bits.view(np.float16), np.roll(bits, 5).view(np.float16)
    scale = np.float16(0.75 if hardware else 1.25)
    with np.errstate(all="ignore"):
        want = ((a + a[::-1] * scale) - a) * c
    got = ((kd.asarray(a) + kd.asarray(a[::-1]) * scale) - kd.asarray(a)) * kd.asarray(c)
    np.testing.assert_array_equal(got.numpy().view(np.uint16)[~np.isnan(want)], want.view(np.uint16)[~np.isnan(want)])
    assert np.isnan(got.numpy()[np.isnan(want)]).all()
