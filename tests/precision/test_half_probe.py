"""The float16 conversions by the hardware (kdsl.codegen.half.HARDWARE) and the probe that lets a device use them
(kdsl.engine.half_probe): the probe's cases and reference, every body against it, and the bits kernels compute
with either set of bodies."""

import json

import numpy as np
import pytest

import kdsl as kd
from kdsl.codegen import half
from kdsl.codegen.precise import exact
from kdsl.engine import device_probe, half_probe, programs

NAMES = ["round", "narrow", "widen"]


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
    (1 + 3 * 2.0 ** -11, 1 + 2.0 ** -9), (float(np.finfo(np.float32).max), np.inf)])
def test_expected_rounding_is_numpys(value, want):
    given, bits = half_probe.expected("round")
    where = np.flatnonzero(given == np.array([value], np.float32).view(np.uint32)[0])
    assert where.size and bits[where[0]] == np.array([want], np.float32).view(np.uint32)[0]


def test_expected_nan_bits_follow_the_portable_rules():
    given, bits = half_probe.expected("narrow")
    at = {int(g): int(b) for g, b in zip(given, bits, strict=True)}
    assert at[0x7FC00001] == 0x7E00 and at[0xFFBFFFFF] == 0xFDFF and at[0x7F800001] == 0x7C01
    given, bits = half_probe.expected("widen")
    assert bits[0x7E05] == 0x7FC0A000 and bits[0xFC01] == 0xFF802000 and bits[0x8001] == 0xB3800000


@pytest.mark.parametrize("name", NAMES)
def test_the_portable_bodies_pass_the_probe_on_every_device(name):
    assert half_probe.exact(kd.device(), name, exact(half.PORTABLE[name]))


@pytest.mark.parametrize("name, body", [
    ("round", "float kd_half_f(float x) { return x; }"),
    ("narrow", "uint kd_f16bits_f(float x) { return (floatBitsToUint(x) >> 16) & 0xffffu; }"),
    ("widen", "float kd_f16val_u(uint h) { return (h & 0x7c00u) == 0u ? 0.0 : unpackHalf2x16(h).x; }")])
def test_a_wrong_body_fails_it(name, body):
    assert not half_probe.exact(kd.device(), name, body)


def test_the_answer_is_kept_and_can_be_turned_off(monkeypatch, tmp_path):
    monkeypatch.setenv("KDSL_CACHE_DIR", str(tmp_path))
    dev = kd.device()
    found = half_probe._probe(dev)
    assert found <= set(NAMES)
    saved = json.loads((tmp_path / "half_probe.json").read_text())
    assert saved == {device_probe.identity(dev): sorted(found)}
    monkeypatch.setenv("KDSL_HARDWARE_HALF", "0")
    assert half_probe._probe(dev) == frozenset()


@pytest.mark.parametrize("hardware", [True, False])
def test_kernels_get_the_bodies_the_probe_picks_and_give_numpys_bits(monkeypatch, hardware):
    dev = kd.device()
    picked = frozenset(n for n in NAMES if half_probe.exact(dev, n, exact(half.HARDWARE[n]))) if hardware \
        else frozenset()
    monkeypatch.setattr(half_probe, "conversions", lambda device: picked)
    source = programs.for_device("y = kd_half_f(x);\n" + exact(half.ROUNDING), dev)
    assert ("packHalf2x16" in source) == ("round" in picked)
    # ((a + b * s) - a) * c rounds each step to float16 (NumPy's half loops), and loads and stores halves with
    # NaN payloads; a different constant per case, so each compiles its own program
    bits = np.random.default_rng(3).integers(0, 1 << 16, 1 << 14).astype(np.uint16)
    a, c = bits.view(np.float16), np.roll(bits, 5).view(np.float16)
    scale = np.float16(0.75 if hardware else 1.25)
    with np.errstate(all="ignore"):
        want = ((a + a[::-1] * scale) - a) * c
    got = ((kd.asarray(a) + kd.asarray(a[::-1]) * scale) - kd.asarray(a)) * kd.asarray(c)
    nan = np.isnan(want)
    np.testing.assert_array_equal(got.numpy().view(np.uint16)[~nan], want.view(np.uint16)[~nan])
    assert np.isnan(got.numpy()[nan]).all()
    np.testing.assert_array_equal(kd.asarray(a).copy().numpy().view(np.uint16), bits)  # NaN payloads kept
